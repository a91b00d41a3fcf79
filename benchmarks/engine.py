"""Engine benchmarks (``python -m benchmarks.engine``, ``make bench``) and matches.

Speeds are in process CPU time (the machine is shared and noisy; wall time is printed too),
each the median of several runs, and compared with a baseline measured in the same run: the
pure-Python rules engine for perft, the engine of an earlier commit (``--old [COMMIT]``, by
default ``01d94f8``, issue 12's starting point; run in a subprocess, see ``old_engine``) for
perft, solves and matches. Sections:

- ``--perft``: perft(10) and perft(11) of the 8x8 start, perft(9) of 10x10 (with ``--old``,
  the old commit's perft(11) too).
- ``--speed``: strong's nodes per second, from middle-game positions and in a played game.
- ``--generic``: the generic kernels (6x6, 10x10, octagon, 3-4 players, walls): perft, nodes
  and CPU time of an analysis to a fixed depth, strong's nodes per second and depth (with
  ``--old``, that commit's too, and the ratios).
- ``--generic-match 10x10,octagon,3p,4p-10x10``: strong with the trained linear evaluation
  against strong with the hand-written one, same search, equal CPU time a move (``--time``,
  default 0.05 s), ``--games`` games per variant from random openings, the trained player in
  every seat in turn.
- ``--ordering DEPTH``: strong to a fixed depth on 24 middle-game positions: nodes and CPU
  time (move ordering: fewer nodes for the same search).
- ``--ffo 40-49``: exact solves of FFO positions, with fresh tables each.
- ``--strong-ffo``: strong at its 1.5 s (on ``--clock``) on FFO #1-#39 of 20 empties or
  fewer, ``--runs`` times each with fresh tables: median CPU time per move, exact and optimal
  runs; with ``--old``, that commit's strong on each position right after.
- ``--endgame-set N``: strong at 1.5 s on the first N positions of the endgame test set
  (``benchmarks/data/strong-endgames.txt``; 0 for all): optimal moves, mean loss in discs,
  CPU and wall time per move; the 1.5 s on ``--clock`` (``cpu``: the searching thread's CPU
  time, steady under load; ``wall``: what a player waits). With ``--old``, that commit's strong
  plays each position right after, on the same clock (see ``old_engine``).
- ``--match strong:normal,normal:easy,strong:old-strong``: level matches from random openings,
  both colours; ``old-<level>`` is that level of the old engine, ``<level>@<commit>`` that
  level of any commit's engine (``strong:strong@0290602`` pits the pattern evaluation against
  the hand-written one of the commit before it, with the same search); ``--anti`` plays them
  in anti-reversi (``strong:strong@97c4a97 --anti``: the trained anti-reversi tables against
  the hand-written evaluation that commit's strong used for anti-reversi); every player's time on
  ``--clock``; wins, draws and losses with the 95 % confidence interval of the score.

With no section named, the bench runs perft, speed, FFO #40-#44 and the first-call latency.
"""

import argparse
import json
import math
import os
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from functools import partial

from ai_worker.engine import Board, Move, Variant
from ai_worker.fast.api import SearchTables, perft
from ai_worker.fast.searchstate import WALL_CLOCK
from ai_worker.levels import LEVELS
from ai_worker.search import CPU_CLOCK, DEFAULT_TIME_LIMIT, choose_move, solve_endgame, warmup
from benchmarks.endgame_set import read_set
from benchmarks.ffo import read_ffo
from benchmarks.old_engine import BASELINE_COMMIT, OldEngine

FIRST_CALL_SCRIPT = (
    "import time; t = time.perf_counter(); c = time.process_time(); "
    "from ai_worker.engine import Board; from ai_worker.search import choose_move; "
    "choose_move(Board(), 'strong', time_limit=0.05); "
    "print(time.perf_counter() - t, time.process_time() - c)"
)
MIDGAME_OPENINGS = ("f5,d6,c3,d3,c4,f4,f6,f3,e6,e7", "f5,f6,e6,f4,e3,c5,c4,d3,c3", "c4,e3,f6")
OLD_PREFIX = "old-"
Out = Callable[[str], None]


def median_time(action: Callable[[], object], runs: int) -> tuple[float, float]:
    """Median wall time and median CPU time of this process over ``runs`` calls of
    ``action`` (on a loaded machine the CPU time shows the engine's own speed)."""
    walls = []
    cpus = []
    for _ in range(runs):
        started = time.perf_counter()
        cpu_started = time.process_time()
        action()
        walls.append(time.perf_counter() - started)
        cpus.append(time.process_time() - cpu_started)
    return statistics.median(walls), statistics.median(cpus)


def bench_perft(runs: int, old_commit: str | None, out: Out) -> None:
    """perft speeds of the kernels against the pure-Python engine's, measured here, and with
    ``old_commit`` against that commit's perft(11)."""
    baseline_depth = 7  # long enough (about 0.3 s) for a stable timing
    baselines = {}
    for label, variant in (("8x8", Variant()), ("10x10", Variant(board="10x10"))):
        board = Board(variant)
        perft(board, 2)  # compile or load the kernel
        wall, cpu = median_time(partial(board.perft, baseline_depth), runs)
        leaves = board.perft(baseline_depth)
        baselines[label] = leaves / cpu
        out(
            f"baseline: pure-Python perft({baseline_depth}) {label}:"
            f" {leaves / cpu / 1e6:.3f} M leaves per CPU-second (wall {leaves / wall / 1e6:.3f})"
        )
    for label, variant, depth, depth_runs in (
        ("8x8", Variant(), 10, runs),
        ("8x8", Variant(), 11, max(3, runs)),
        ("10x10", Variant(board="10x10"), 9, runs),
    ):
        board = Board(variant)
        count = perft(board, depth)
        wall, cpu = median_time(partial(perft, board, depth), depth_runs)
        out(
            f"perft({depth}) {label}: {count} leaves, median CPU {cpu:.3f} s (wall {wall:.3f} s)"
            f" over {depth_runs} runs = {count / cpu / 1e6:.1f} M leaves per CPU-second"
            f" (wall {count / wall / 1e6:.1f}), {count / cpu / baselines[label]:.0f}x baseline"
        )
        if old_commit is not None and depth == 11:
            old_cpu = _old_perft_cpu(old_commit, depth, depth_runs)
            out(
                f"perft({depth}) {label}, {old_commit}: median CPU {old_cpu:.3f} s"
                f" = {count / old_cpu / 1e6:.1f} M leaves per CPU-second ({old_cpu / cpu:.2f}x)"
            )


def bench_speed(runs: int, out: Out) -> None:
    """strong's nodes per CPU-second and per wall-second: middle-game positions searched 1 s,
    and every move of a played game (kept tables, 0.3 s a move) as a worker plays it."""
    for label, searches in (
        ("3 middle-game positions, 1 s each", _middle_game_searches),
        ("a played game, 0.3 s a move", _played_game_searches),
    ):
        per_cpu = []
        per_wall = []
        for _ in range(runs):
            nodes, cpu, wall = searches()
            per_cpu.append(nodes / cpu)
            per_wall.append(nodes / wall)
        out(
            f"strong search, {label}: median {statistics.median(per_cpu) / 1e6:.2f} M nodes"
            f" per CPU-second (wall {statistics.median(per_wall) / 1e6:.2f})"
        )


def _middle_game_searches() -> tuple[int, float, float]:
    nodes, cpu, wall = 0, 0.0, 0.0
    for opening in MIDGAME_OPENINGS:
        board = Board.from_moves(None, opening.split(","))
        started = time.process_time()
        result = choose_move(board, "strong", time_limit=1.0, seed=0)
        cpu += time.process_time() - started
        nodes += result.nodes
        wall += result.elapsed
    return nodes, cpu, wall


def _played_game_searches() -> tuple[int, float, float]:
    rng = random.Random(1)
    board = Board()
    for _ in range(4):
        board.push(rng.choice(board.legal_moves))
    nodes, cpu, wall = 0, 0.0, 0.0
    while not board.is_game_over():
        started = time.process_time()
        result = choose_move(board, "strong", time_limit=0.3, seed=1)
        cpu += time.process_time() - started
        nodes += result.nodes
        wall += result.elapsed
        board.push(result.move)
    return nodes, cpu, wall


ORDERING_POSITIONS = 24


def ordering_positions() -> list[Board]:
    """Middle-game positions of 26-40 empties (past strong's endgame search) from seeded
    random games: the set ``--ordering`` searches."""
    rng = random.Random(12)
    boards: list[Board] = []
    while len(boards) < ORDERING_POSITIONS:
        board = Board()
        plies = rng.randint(20, 34)
        while board.ply < plies and not board.is_game_over():
            board.push(rng.choice(board.legal_moves))
        if not board.is_game_over() and len(board.legal_moves) > 1:
            boards.append(board)
    return boards


def bench_ordering(depth: int, out: Out) -> None:
    """strong's search to a fixed ``depth`` on ``ordering_positions``, one after the other in
    this process (the tables kept, as a worker keeps them): nodes (the same on every run of
    the same engine) and CPU time, the measure of move ordering."""
    nodes = 0
    cpu = 0.0
    for board in ordering_positions():
        started = time.process_time()
        result = choose_move(board, "strong", time_limit=3600, seed=0, max_depth=depth)
        cpu += time.process_time() - started
        nodes += result.nodes
    out(
        f"strong to depth {depth} on {ORDERING_POSITIONS} middle-game positions: {nodes} nodes,"
        f" CPU {cpu:.2f} s ({nodes / cpu / 1e6:.2f} M nodes per CPU-second)"
    )


_OLD_PERFT = """
import statistics, sys, time
from ai_worker.engine import Board
from ai_worker.fast.api import perft
depth, runs = int(sys.argv[1]), int(sys.argv[2])
perft(Board(), 2)
times = []
for _ in range(runs):
    started = time.process_time()
    perft(Board(), depth)
    times.append(time.process_time() - started)
print(statistics.median(times))
"""


def _old_perft_cpu(commit: str, depth: int, runs: int) -> float:
    """Median CPU seconds of ``commit``'s perft(``depth``) of the 8x8 start."""
    return _run_old(commit, _OLD_PERFT, str(depth), str(runs))


GENERIC_VARIANTS = {
    "6x6": {"board": "6x6"},
    "10x10": {"board": "10x10"},
    "octagon": {"board": "octagon"},
    "3 players": {"players": 3},
    "4 players 10x10": {"players": 4, "board": "10x10"},
    "3 players octagon, walls": {"players": 3, "board": "octagon", "blocked": ["d4", "g7"]},
}
# Per variant: the perft depth and the fixed search depth of ``bench_generic``.
GENERIC_DEPTHS = {
    "6x6": (9, 10),
    "10x10": (7, 8),
    "octagon": (7, 8),
    "3 players": (7, 8),
    "4 players 10x10": (7, 8),
    "3 players octagon, walls": (7, 8),
}
_GENERIC_SPEED = """
import json, random, sys, time
from ai_worker.engine import Board, Variant
from ai_worker.fast.api import perft
from ai_worker.search import analyse, choose_move
variants, depths, seconds = json.loads(sys.argv[1]), json.loads(sys.argv[2]), float(sys.argv[3])
for label, settings in variants.items():
    rng = random.Random(3)
    board = Board(Variant(**settings))
    for _ in range(12):
        board.push(rng.choice(board.legal_moves))
    choose_move(board, "strong", time_limit=0.05, seed=0)  # compile or load the kernels
    perft_depth, search_depth = depths[label]
    perft(board, 2)
    started = time.process_time()
    leaves = perft(board, perft_depth)
    perft_cpu = time.process_time() - started
    started = time.process_time()
    fixed = analyse(board, max_depth=search_depth, exact=False, time_limit=1000)
    fixed_cpu = time.process_time() - started
    nodes = depths_reached = 0
    cpu = 0.0
    for ply in range(4):  # four moves of a game, as a worker plays them
        started = time.process_time()
        result = choose_move(board, "strong", time_limit=seconds, seed=0)
        cpu += time.process_time() - started
        nodes += result.nodes
        depths_reached += result.depth
        board.push(result.move)
        board.push(rng.choice(board.legal_moves))
    print(json.dumps([label, leaves, perft_cpu, fixed.nodes, fixed_cpu, nodes / cpu,
                      depths_reached / 4]))
"""


def bench_generic(seconds: float, old_commit: str | None, out: Out) -> None:
    """The variants of the generic kernels, each from a seeded 12-ply opening: perft and its
    leaves per CPU-second, the nodes and CPU time of an analysis to a fixed depth (every root
    move, fresh process), and strong's nodes per CPU-second and mean depth over four moves of
    ``seconds`` each; with ``old_commit``, that commit's in the same run, and the ratios."""
    from pathlib import Path

    from benchmarks.old_engine import engine_folder

    folders = {"this commit": Path(__file__).resolve().parent.parent}
    if old_commit is not None:
        folders[old_commit] = engine_folder(old_commit)
    found: dict[str, dict[str, list[float]]] = {}
    for name, folder in folders.items():
        done = subprocess.run(
            [
                sys.executable,
                "-c",
                _GENERIC_SPEED,
                json.dumps(GENERIC_VARIANTS),
                json.dumps(GENERIC_DEPTHS),
                str(seconds),
            ],
            cwd=folder,
            capture_output=True,
            text=True,
            check=True,
        )
        for line in done.stdout.splitlines():
            label, *figures = json.loads(line)
            found.setdefault(label, {})[name] = figures
    for label, by_engine in found.items():
        perft_depth, search_depth = GENERIC_DEPTHS[label]
        ours = by_engine["this commit"]
        for name, (leaves, perft_cpu, nodes, fixed_cpu, per_cpu, depth) in by_engine.items():
            ratios = ""
            if name != "this commit":
                ratios = (
                    f" (this commit: perft {perft_cpu / ours[1]:.2f}x faster,"
                    f" depth {search_depth} in {fixed_cpu / ours[3]:.2f}x less CPU with"
                    f" {nodes / max(ours[2], 1):.2f}x fewer nodes)"
                )
            out(
                f"{label}, {name}: perft({perft_depth}) {leaves:.0f} leaves in {perft_cpu:.3f}"
                f" CPU-s = {leaves / perft_cpu / 1e6:.2f} M per CPU-second; depth {search_depth}"
                f" analysis {nodes:.0f} nodes in {fixed_cpu:.3f} CPU-s"
                f" ({nodes / fixed_cpu / 1e6:.3f} M nodes per CPU-second); strong {seconds:g} s"
                f" a move {per_cpu / 1e6:.3f} M nodes per CPU-second, mean depth {depth:.2f}"
                + ratios
            )


def bench_ffo(numbers: list[int], old_commit: str | None, out: Out) -> None:
    """Exact solves with fresh tables; with ``old_commit`` that engine solves each one right
    after (interleaved, so both see the same load)."""
    solve_endgame(read_ffo(1).board, time_limit=60)  # compile or load the kernels
    total = total_old = 0.0
    for number in numbers:
        position = read_ffo(number)
        started = time.process_time()
        result = solve_endgame(position.board, time_limit=3600, tables=SearchTables())
        cpu = time.process_time() - started
        total += cpu
        assert result is not None
        verdict = "exact" if result.score == position.score else f"WRONG ({position.score:+d})"
        line = (
            f"FFO #{number}: {position.board.empties()} empties, {result.move}"
            f" {result.score:+.0f} {verdict}, CPU {cpu:.2f} s (wall {result.elapsed:.2f} s),"
            f" {result.nodes} nodes"
        )
        if old_commit is not None:
            old_cpu = _old_solve_cpu(old_commit, position.board)
            total_old += old_cpu
            line += f"; {old_commit}: CPU {old_cpu:.2f} s ({old_cpu / cpu:.2f}x)"
        out(line)
    if numbers:
        summary = f"FFO #{numbers[0]}-#{numbers[-1]} total: CPU {total:.2f} s"
        if old_commit is not None:
            summary += f"; {old_commit}: CPU {total_old:.2f} s ({total_old / total:.2f}x)"
        out(summary)


_OLD_SOLVE = """
import sys, time
from ai_worker.search import solve_endgame
try:
    from ai_worker.engine.records import read_obf as board_from_obf
except ImportError:  # before the records package
    from ai_worker.search import board_from_obf
board = board_from_obf(sys.argv[1])
solve_endgame(board_from_obf(sys.argv[2]), time_limit=60)
started = time.process_time()
solve_endgame(board, time_limit=3600)
print(time.process_time() - started)
"""


def _old_solve_cpu(commit: str, board: Board) -> float:
    """CPU seconds ``commit``'s engine takes to solve ``board`` (kernels loaded beforehand)."""
    from ai_worker.engine.records import write_obf

    return _run_old(commit, _OLD_SOLVE, write_obf(board), write_obf(read_ffo(20).board))


def _run_old(commit: str, script: str, *args: str) -> float:
    """The last number ``script`` prints, run on ``commit``'s engine."""
    from benchmarks.old_engine import engine_folder

    done = subprocess.run(
        [sys.executable, "-c", script, *args],
        cwd=engine_folder(commit),
        capture_output=True,
        text=True,
        check=True,
    )
    return float(done.stdout.split()[-1])


STRONG_FFO_NUMBERS = [n for n in range(1, 40) if read_ffo(n).board.empties() <= 20]


@dataclass(frozen=True)
class StrongSolve:
    """One strong move at its default time: CPU seconds it took, whether it came from the
    exact solve with the right score, and whether the move keeps the exact score."""

    cpu: float
    exact: bool
    optimal: bool


def _strong_solve(number: int, clock: int) -> StrongSolve:
    """strong's move in FFO position ``number`` with fresh tables (a repeated run is not
    answered by the last one's table), at its default time on ``clock``."""
    import ai_worker.search

    position = read_ffo(number)
    ai_worker.search._worker_tables = None
    started = time.process_time()
    result = choose_move(position.board, "strong", seed=0, clock=clock)
    cpu = time.process_time() - started
    exact = result.exact and result.score == position.score
    return StrongSolve(cpu, exact, position.is_optimal(result.move))


_OLD_STRONG_SOLVE = """
import inspect, json, sys, time
cpu_clock = sys.argv[1] == "cpu"
options = {}
if cpu_clock:
    from ai_worker.fast import intrinsics
    if hasattr(intrinsics, "_CLOCK_MONOTONIC"):  # an engine of the monotonic clock only
        intrinsics._CLOCK_MONOTONIC = time.CLOCK_THREAD_CPUTIME_ID
        time.monotonic_ns = lambda: time.clock_gettime_ns(time.CLOCK_THREAD_CPUTIME_ID)
    else:
        options["clock"] = time.CLOCK_THREAD_CPUTIME_ID
import ai_worker.search as search
try:
    from ai_worker.engine.records import read_obf
except ImportError:  # before the records package
    from ai_worker.search import board_from_obf as read_obf
if hasattr(search, "warmup"):
    search.warmup()
for line in sys.stdin:
    request = json.loads(line)
    board = read_obf(request["obf"])
    if hasattr(search, "_worker_tables"):
        search._worker_tables = None
    started = time.process_time()
    result = search.choose_move(board, "strong", seed=0, **options)
    cpu = time.process_time() - started
    print(json.dumps([cpu, result.exact, result.score, str(result.move)]), flush=True)
"""


class _OldStrong:
    """strong of an earlier commit in a subprocess, solving FFO positions as
    ``_strong_solve`` does (fresh tables, its default time on the CPU or wall clock)."""

    def __init__(self, commit: str, cpu_clock: bool) -> None:
        from benchmarks.old_engine import start_old_engine

        self.commit = commit
        self._process = start_old_engine(commit, _OLD_STRONG_SOLVE, cpu_clock=cpu_clock)

    def solve(self, number: int) -> StrongSolve:
        from ai_worker.engine.records import write_obf

        assert self._process.stdin is not None
        assert self._process.stdout is not None
        position = read_ffo(number)
        self._process.stdin.write(json.dumps({"obf": write_obf(position.board)}) + "\n")
        self._process.stdin.flush()
        cpu, exact, score, move = json.loads(self._process.stdout.readline())
        optimal = position.is_optimal(Move.from_notation(move.lower()))
        return StrongSolve(cpu, exact and score == position.score, optimal)

    def close(self) -> None:
        if self._process.stdin is not None:
            self._process.stdin.close()
        self._process.wait(timeout=60)


def bench_strong_ffo(runs: int, clock: str, old_commit: str | None, out: Out) -> None:
    """strong at its default time (on ``clock``) on FFO #1-#39 of 20 empties or fewer, each
    position ``runs`` times with fresh tables: per position the median CPU time of the move
    and in how many runs it was exact and optimal; with ``old_commit`` that commit's strong
    right after each of ours (interleaved, so both see the same load)."""
    clock_id = CPU_CLOCK if clock == "cpu" else WALL_CLOCK
    engines: dict[str, Callable[[int], StrongSolve]] = {
        "this commit": partial(_strong_solve, clock=clock_id)
    }
    old = None if old_commit is None else _OldStrong(old_commit, clock == "cpu")
    if old is not None:
        engines[old.commit] = old.solve
    found: dict[str, list[list[StrongSolve]]] = {name: [] for name in engines}
    try:
        for number in STRONG_FFO_NUMBERS:
            parts = []
            for name, solve in engines.items():
                solves = [solve(number) for _ in range(runs)]
                found[name].append(solves)
                parts.append(f"{name} {_solves_line(solves)}")
            empties = read_ffo(number).board.empties()
            out(f"FFO #{number} ({empties} empties): " + "; ".join(parts))
    finally:
        if old is not None:
            old.close()
    limit = DEFAULT_TIME_LIMIT["strong"]
    for name, by_position in found.items():
        medians = [statistics.median(s.cpu for s in solves) for solves in by_position]
        exact = sum(all(s.exact for s in solves) for solves in by_position)
        optimal = sum(all(s.optimal for s in solves) for solves in by_position)
        out(
            f"{name}: strong at {limit:g} s ({clock} clock) on FFO #1-#39 with <= 20 empties,"
            f" {runs} runs each: {exact}/{len(by_position)} exact and {optimal}/"
            f"{len(by_position)} optimal in every run; median CPU a move: largest"
            f" {max(medians):.2f} s, {sum(m <= 1.0 for m in medians)}/{len(medians)} within"
            f" 1.0 s, total {sum(medians):.2f} s"
        )


def _solves_line(solves: list[StrongSolve]) -> str:
    cpu = statistics.median(s.cpu for s in solves)
    runs = len(solves)
    exact = sum(s.exact for s in solves)
    optimal = sum(s.optimal for s in solves)
    return f"CPU {cpu:.3f} s, exact {exact}/{runs}, optimal {optimal}/{runs}"


def bench_endgame_set(count: int, clock: str, old_commit: str | None, out: Out) -> None:
    """strong at its default time on the endgame test set (``count`` positions, 0: all), on
    ``clock``, and with ``old_commit`` that commit's strong: optimal moves, mean loss, time."""
    positions = read_set()[: count or None]
    limit = DEFAULT_TIME_LIMIT["strong"]
    clock_id = CPU_CLOCK if clock == "cpu" else WALL_CLOCK
    losses: dict[str, list[int]] = {"this commit": []}
    by_empties: dict[int, list[int]] = {}
    cpus, walls = [], []
    old = None if old_commit is None else OldEngine(old_commit, cpu_clock=clock == "cpu")
    if old is not None:
        losses[old_commit or ""] = []
    try:
        for scored in positions:
            started = time.process_time()
            result = choose_move(scored.board, "strong", seed=0, clock=clock_id)
            cpus.append(time.process_time() - started)
            walls.append(result.elapsed)
            loss = scored.best - scored.move_values[result.move]
            losses["this commit"].append(loss)
            by_empties.setdefault(scored.board.empties(), []).append(loss)
            if old is not None:
                move = old.choose_move(scored.board, "strong", time_limit=limit, seed=0)
                losses[old.commit].append(scored.best - scored.move_values[move])
    finally:
        if old is not None:
            old.close()
    detail = ", ".join(
        f"{empties}: {sum(v == 0 for v in values)}/{len(values)}"
        for empties, values in sorted(by_empties.items())
    )
    out(
        f"strong at {limit:g} s ({clock} clock) on {len(positions)} endgame positions of"
        f" 18-24 empties: {_optimal_and_loss(losses['this commit'])}; per move median CPU"
        f" {statistics.median(cpus):.2f} s, wall {statistics.median(walls):.2f} s;"
        f" optimal by empties: {detail}"
    )
    if old_commit is not None:
        out(
            f"{old_commit}'s strong at {limit:g} s ({clock} clock), same positions:"
            f" {_optimal_and_loss(losses[old_commit])}"
        )


def _optimal_and_loss(losses: list[int]) -> str:
    optimal = sum(loss == 0 for loss in losses)
    return (
        f"{optimal}/{len(losses)} optimal ({100 * optimal / len(losses):.1f} %),"
        f" mean loss {statistics.mean(losses):.2f} discs"
    )


@dataclass(frozen=True)
class MatchResult:
    """Games of player ``first`` against player ``second``, counted for ``first``."""

    first: str
    second: str
    wins: int
    draws: int
    losses: int

    @property
    def score(self) -> float:
        """Share of the points of ``first`` (a draw is half a point)."""
        games = self.wins + self.draws + self.losses
        return (self.wins + self.draws / 2) / games

    def interval(self) -> tuple[float, float]:
        """The 95 % confidence interval of ``score``: Wilson's score interval with a draw as
        half a win and half a loss (exact enough at 40 games, and it stays within 0-1 where
        the normal approximation breaks down at 40-0)."""
        games = self.wins + self.draws + self.losses
        p = self.score
        z = 1.96
        centre = (p + z * z / (2 * games)) / (1 + z * z / games)
        spread = math.sqrt(p * (1 - p) / games + z * z / (4 * games * games))
        half = z * spread / (1 + z * z / games)
        return max(0.0, centre - half), min(1.0, centre + half)


def play_match(
    first: str,
    second: str,
    games: int,
    *,
    time_limit: float | None = None,
    opening_plies: int = 4,
    variant: Variant | None = None,
    seed: int = 0,
    clock: int = WALL_CLOCK,
    on_game: Callable[[str], None] | None = None,
) -> MatchResult:
    """``games`` games from random openings of ``opening_plies`` moves, each opening played
    twice with the colours swapped. A player is a level, ``old-<level>`` for that level of
    the engine of commit ``01d94f8`` or ``<level>@<commit>`` for that of another commit (8x8
    two-player games only). Every player's time is on ``clock`` (``CPU_CLOCK``: the CPU time
    of its searching thread, equal under any load). ``on_game`` gets a line per finished
    game."""
    wins = draws = losses = 0
    with _players(clock, first, second) as (play_first, play_second):
        for game in range(games):
            rng = random.Random(seed * 1000 + game // 2)
            board = Board(variant)
            for _ in range(opening_plies):
                board.push(rng.choice(board.legal_moves))
            first_colour = game % 2
            while not board.is_game_over():
                play = play_first if board.turn == first_colour else play_second
                board.push(play(board, time_limit, game))
            outcome = board.outcome()
            assert outcome is not None
            if outcome.winner is None:
                draws += 1
            elif outcome.winner == first_colour:
                wins += 1
            else:
                losses += 1
            if on_game is not None:
                on_game(f"game {game + 1}: {first} {wins} wins, {draws} draws, {losses} losses")
    return MatchResult(first, second, wins, draws, losses)


GENERIC_MATCH_VARIANTS = {
    "6x6": Variant(board="6x6"),
    "10x10": Variant(board="10x10"),
    "octagon": Variant(board="octagon"),
    "3p": Variant(players=3),
    "3p-octagon": Variant(players=3, board="octagon"),
    "4p": Variant(players=4),
    "4p-10x10": Variant(players=4, board="10x10"),
}
GENERIC_MATCH_TIME = 0.05


def generic_match(
    variant: Variant,
    games: int,
    time_limit: float,
    *,
    opening_plies: int = 4,
    seed: int = 0,
    on_game: Callable[[str], None] | None = None,
) -> MatchResult:
    """strong with the trained evaluation (``first``) against strong with the hand-written
    one in every other seat, ``time_limit`` CPU seconds a move each: ``games`` games from
    random openings, each opening played once with the trained player in each seat. A draw
    is a shared first place."""
    wins = draws = losses = 0
    players = variant.players
    for game in range(games):
        rng = random.Random(seed * 1000 + game // players)
        board = Board(variant)
        for _ in range(opening_plies):
            board.push(rng.choice(board.legal_moves))
        seat = game % players
        while not board.is_game_over():
            found = choose_move(
                board,
                "strong",
                time_limit=time_limit,
                seed=game,
                clock=CPU_CLOCK,
                hand_evaluation=board.turn != seat,
            )
            board.push(found.move)
        outcome = board.outcome()
        assert outcome is not None
        if outcome.winner == seat:
            wins += 1
        elif outcome.draw and outcome.tournament[seat] == max(outcome.tournament):
            draws += 1
        else:
            losses += 1
        if on_game is not None:
            on_game(f"game {game + 1}: trained {wins} wins, {draws} draws, {losses} losses")
    return MatchResult("trained", "hand", wins, draws, losses)


def bench_generic_match(name: str, games: int, time_limit: float | None, out: Out) -> None:
    """``generic_match`` in ``GENERIC_MATCH_VARIANTS[name]``, with its line of figures."""
    variant = GENERIC_MATCH_VARIANTS[name]
    limit = GENERIC_MATCH_TIME if time_limit is None else time_limit
    result = generic_match(variant, games, limit, on_game=_progress)
    out(
        f"{name}: trained vs hand evaluation, strong at {limit:g} CPU-s a move:"
        f" {result.wins} wins, {result.draws} draws, {result.losses} losses in {games} games"
        f" ({100 * result.score:.0f} % of the points; equal strength"
        f" {100 / variant.players:.0f} %)"
    )


Player = Callable[[Board, float | None, int], Move]


@contextmanager
def _players(clock: int, *names: str) -> Iterator[list[Player]]:
    """A move function per player name, timed on ``clock``; one process per older commit
    serves its players."""
    engines: dict[str, OldEngine] = {}
    players: list[Player] = []
    try:
        for name in names:
            level, commit = _level_and_commit(name)
            if level not in LEVELS:
                raise ValueError(f"{name!r} is neither a level, old-<level> nor <level>@<commit>")
            if commit is None:
                players.append(_player(level, clock))
            else:
                if commit not in engines:
                    engines[commit] = OldEngine(commit, cpu_clock=clock == CPU_CLOCK)
                players.append(_old_player(engines[commit], level))
        yield players
    finally:
        for engine in engines.values():
            engine.close()


def _level_and_commit(name: str) -> tuple[str, str | None]:
    """The level of a player name and the commit of its engine (None: this one)."""
    if name.startswith(OLD_PREFIX):
        return name.removeprefix(OLD_PREFIX), BASELINE_COMMIT
    level, at, commit = name.partition("@")
    return level, commit if at else None


def _player(level: str, clock: int) -> Player:
    def play(board: Board, time_limit: float | None, seed: int) -> Move:
        return choose_move(board, level, time_limit=time_limit, seed=seed, clock=clock).move

    return play


def _old_player(old: OldEngine, level: str) -> Player:
    from ai_worker.search import DEFAULT_TIME_LIMIT

    def play(board: Board, time_limit: float | None, seed: int) -> Move:
        limit = DEFAULT_TIME_LIMIT[level] if time_limit is None else time_limit
        if len(board.legal_moves) == 1:
            return board.legal_moves[0]
        return old.choose_move(board, level, time_limit=limit, seed=seed)

    return play


def first_call_latency(runs: int) -> tuple[float, float]:
    """Median wall and CPU time of importing the search and running its first search in a
    fresh process (the numba cache is loaded, not compiled, once built)."""
    walls = []
    cpus = []
    for _ in range(runs):
        out = subprocess.run(
            [sys.executable, "-c", FIRST_CALL_SCRIPT], capture_output=True, text=True, check=True
        )
        wall, cpu = out.stdout.strip().splitlines()[-1].split()
        walls.append(float(wall))
        cpus.append(float(cpu))
    return statistics.median(walls), statistics.median(cpus)


def _progress(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


def _matches(
    args: argparse.Namespace, parser: argparse.ArgumentParser, clock: int, out: Out
) -> None:
    """The ``--match`` and ``--generic-match`` sections."""
    for pairing in filter(None, args.match.split(",")):
        first, _, second = pairing.partition(":")
        try:
            result = play_match(
                first,
                second,
                args.games,
                time_limit=args.time,
                variant=Variant(anti=True) if args.anti else None,
                clock=clock,
                on_game=_progress,
            )
        except ValueError as error:
            parser.error(f"--match {pairing!r}: {error}")
        low, high = result.interval()
        out(
            f"{first} vs {second}: {result.wins} wins, {result.draws} draws,"
            f" {result.losses} losses ({100 * result.score:.1f} %, 95 % interval"
            f" {100 * low:.1f}-{100 * high:.1f} %), {args.games}"
            f" {'anti-reversi ' if args.anti else ''}games,"
            f" {'default times' if args.time is None else f'{args.time:g} s a move'}"
            f" ({args.clock} clock)"
        )
    for name in filter(None, args.generic_match.split(",")):
        if name not in GENERIC_MATCH_VARIANTS:
            parser.error(
                f"--generic-match: {name!r} is none of {', '.join(GENERIC_MATCH_VARIANTS)}"
            )
        bench_generic_match(name, args.games, args.time, out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.engine",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--runs", type=int, default=3, help="runs per figure (median)")
    parser.add_argument("--perft", action="store_true", help="perft speeds")
    parser.add_argument("--speed", action="store_true", help="strong's nodes per second")
    parser.add_argument("--generic", action="store_true", help="strong in other variants")
    parser.add_argument(
        "--ordering", type=int, default=None, metavar="DEPTH", help="strong to a fixed depth"
    )
    parser.add_argument("--ffo", default="", help="FFO positions to solve, e.g. 40-49")
    parser.add_argument(
        "--old",
        nargs="?",
        const=BASELINE_COMMIT,
        default=None,
        metavar="COMMIT",
        help=f"--perft, --ffo, --strong-ffo, --endgame-set: measure the engine of COMMIT too"
        f" (default {BASELINE_COMMIT})",
    )
    parser.add_argument("--strong-ffo", action="store_true", help="strong on FFO #1-#39")
    parser.add_argument(
        "--endgame-set", type=int, default=None, metavar="N", help="strong on N test positions"
    )
    parser.add_argument(
        "--clock",
        choices=("cpu", "wall"),
        default="cpu",
        help="--strong-ffo, --endgame-set, --match: the players' clock",
    )
    parser.add_argument("--match", default="", help="e.g. strong:normal,strong:old-strong")
    parser.add_argument(
        "--generic-match",
        default="",
        help=f"trained vs hand evaluation in {','.join(GENERIC_MATCH_VARIANTS)}",
    )
    parser.add_argument("--games", type=int, default=40, help="games per match")
    parser.add_argument("--time", type=float, default=None, help="seconds per move in matches")
    parser.add_argument("--anti", action="store_true", help="matches in anti-reversi")
    args = parser.parse_args(argv)

    def out(line: str) -> None:
        print(line, flush=True)

    load = os.getloadavg()
    out(f"load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; {os.cpu_count()} CPUs")
    everything = not (
        args.perft
        or args.speed
        or args.generic
        or args.ffo
        or args.strong_ffo
        or args.endgame_set is not None
        or args.match
        or args.ordering
        or args.generic_match
    )
    clock = CPU_CLOCK if args.clock == "cpu" else WALL_CLOCK
    warmup()
    if args.perft or everything:
        bench_perft(args.runs, args.old, out)
    if args.speed or everything:
        bench_speed(args.runs, out)
    if args.generic or everything:
        bench_generic(1.0, args.old, out)
    if args.ordering:
        bench_ordering(args.ordering, out)
    ffo = args.ffo or ("40-44" if everything else "")
    if ffo:
        low, _, high = ffo.partition("-")
        bench_ffo(list(range(int(low), int(high or low) + 1)), args.old, out)
    if args.strong_ffo:
        bench_strong_ffo(args.runs, args.clock, args.old, out)
    if args.endgame_set is not None:
        bench_endgame_set(args.endgame_set, args.clock, args.old, out)
    _matches(args, parser, clock, out)
    if everything:
        latency, latency_cpu = first_call_latency(args.runs)
        out(
            "first search in a fresh process (import + cache load + search):"
            f" CPU {latency_cpu:.3f} s (wall {latency:.3f} s)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
