"""Engine benchmarks (``python -m ai_worker bench``) and level-against-level matches.

Every figure is the median of several runs; the machine is shared and noisy, so the bench also
measures the pure-Python engine's perft speed in the same run and reports each speed as a
ratio against it.
"""

import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ai_worker.engine import Board, Variant
from ai_worker.engine.records import read_obf
from ai_worker.fast import bitboard, generic
from ai_worker.fast.geometry import bitboards_of, cells_of, geometry_of
from ai_worker.search import SearchResult, choose_move, solve_endgame

FFO_FOLDER = Path(__file__).resolve().parent / "ffo"
FFO_FILES = {1: "fforum-1-19.obf", 20: "fforum-20-39.obf", 40: "fforum-40-59.obf"}
FIRST_CALL_SCRIPT = (
    "import time; t = time.perf_counter(); c = time.process_time(); "
    "from ai_worker.engine import Board; from ai_worker.search import choose_move; "
    "choose_move(Board(), 'strong', time_limit=0.05); "
    "print(time.perf_counter() - t, time.process_time() - c)"
)
MIDGAME_OPENINGS = ("f5,d6,c3,d3,c4,f4,f6,f3,e6,e7", "f5,f6,e6,f4,e3,c5,c4,d3,c3", "c4,e3,f6")


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


def perft_8x8(depth: int) -> int:
    """Leaves of the standard start ``depth`` plies deep, with the bitboard kernel."""
    return int(bitboard.perft(*bitboards_of(Board().rows(), 0), depth))


def perft_generic(variant: Variant, depth: int) -> int:
    """Leaves of ``variant``'s start ``depth`` plies deep, with the generic kernel."""
    board = Board(variant)
    rows = board.rows()
    g = geometry_of(rows)
    return int(
        generic.perft(cells_of(rows), g.rays, g.ray_lengths, g.adjacent, 0, variant.players, depth)
    )


def read_ffo(number: int) -> tuple[Board, int]:
    """FFO endgame position ``number`` (1-59) and its exact score for the side to move."""
    start = max(first for first in FFO_FILES if first <= number)
    line = (FFO_FOLDER / FFO_FILES[start]).read_text().splitlines()[number - start]
    return read_obf(line), int(line.split(";")[1].split(":")[1])


@dataclass(frozen=True)
class MatchResult:
    """Games of level ``first`` against level ``second``, counted for ``first``."""

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


def play_match(
    first: str,
    second: str,
    games: int,
    *,
    time_limit: float | None = None,
    opening_plies: int = 4,
    variant: Variant | None = None,
    seed: int = 0,
) -> MatchResult:
    """``games`` games from random openings of ``opening_plies`` moves, each opening played
    twice with the colours swapped."""
    wins = draws = losses = 0
    for game in range(games):
        rng = random.Random(seed * 1000 + game // 2)
        board = Board(variant)
        for _ in range(opening_plies):
            board.push(rng.choice(board.legal_moves))
        first_colour = game % 2
        while not board.is_game_over():
            level = first if board.turn == first_colour else second
            board.push(choose_move(board, level, time_limit=time_limit, seed=game).move)
        outcome = board.outcome()
        assert outcome is not None
        if outcome.winner is None:
            draws += 1
        elif outcome.winner == first_colour:
            wins += 1
        else:
            losses += 1
    return MatchResult(first, second, wins, draws, losses)


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


def search_speed(seconds: float) -> float:
    """Median nodes per second of the strong search over a few middle-game positions."""
    rates = []
    for opening in MIDGAME_OPENINGS:
        board = Board.from_moves(None, opening.split(","))
        result = choose_move(board, "strong", time_limit=seconds, seed=0)
        rates.append(result.nodes / result.elapsed)
    return statistics.median(rates)


def run_bench(ffo_numbers: list[int], runs: int, out: Callable[[str], None] = print) -> None:
    """Measure and print every figure of the bench."""
    solve_endgame(read_ffo(1)[0], time_limit=60)  # compile or load the kernels
    perft_8x8(1)
    perft_generic(Variant(board="10x10"), 1)
    baseline_depth = 7  # long enough (about 0.3 s) for a stable timing
    baselines = {}
    for label, variant in (("8x8", Variant()), ("10x10", Variant(board="10x10"))):
        wall, cpu = median_time(lambda v=variant: Board(v).perft(baseline_depth), runs)
        leaves = Board(variant).perft(baseline_depth)
        baselines[label] = leaves / wall, leaves / cpu
        out(
            f"baseline: pure-Python engine perft({baseline_depth}) {label}:"
            f" {leaves / wall / 1e6:.3f} M leaves/s (cpu {leaves / cpu / 1e6:.3f})"
        )
    for label, depth, action_runs, leaves in (
        ("8x8", 10, runs, perft_8x8),
        ("8x8", 11, max(2, runs // 2), perft_8x8),
        ("10x10", 9, runs, lambda d: perft_generic(Variant(board="10x10"), d)),
    ):
        count = leaves(depth)
        seconds, cpu = median_time(lambda d=depth, f=leaves: f(d), action_runs)
        rate = count / seconds
        per_cpu = count / cpu
        baseline, baseline_per_cpu = baselines[label]
        out(
            f"perft({depth}) {label}: {count} leaves, median {seconds:.3f} s (cpu {cpu:.3f} s)"
            f" over {action_runs} runs = {rate / 1e6:.1f} M leaves/s"
            f" (cpu {per_cpu / 1e6:.1f}), {rate / baseline:.0f}x baseline"
            f" (cpu {per_cpu / baseline_per_cpu:.0f}x)"
        )
    nodes = statistics.median(search_speed(1.0) for _ in range(runs))
    out(f"strong search: median {nodes / 1e6:.2f} M nodes/s (1 s searches, 3 middle games)")
    total = total_cpu = 0.0
    for number in ffo_numbers:
        board, expected = read_ffo(number)
        solutions: list[SearchResult | None] = []
        seconds, cpu = median_time(
            lambda b=board, found=solutions: found.append(solve_endgame(b, time_limit=600)),
            1 if number >= 40 else runs,
        )
        result = solutions[-1]
        assert result is not None
        total += seconds
        total_cpu += cpu
        verdict = "exact" if result.score == expected else f"WRONG (expected {expected:+d})"
        out(
            f"FFO #{number}: {board.empties()} empties, {result.move} {result.score:+.0f}"
            f" {verdict}, {seconds:.2f} s (cpu {cpu:.2f} s), {result.nodes} nodes"
        )
    if ffo_numbers:
        out(
            f"FFO #{ffo_numbers[0]}-#{ffo_numbers[-1]} total: {total:.2f} s (cpu {total_cpu:.2f} s)"
        )
    latency, latency_cpu = first_call_latency(runs)
    out(
        "first search in a fresh process (import + cache load + search):"
        f" {latency:.3f} s (cpu {latency_cpu:.3f} s)"
    )
