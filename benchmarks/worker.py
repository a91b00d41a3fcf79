"""The CPU reply path on its own: what one reply costs the Celery worker, before and after.

    .venv/bin/python -m benchmarks.worker --checkout DIR [--levels easy,normal] [options]

Two sides, this checkout and ``--checkout`` (the baseline, e.g. ``/work/main``), each with a
database and private queues of its own on this shell's Redis, and its Celery workers started as
that checkout's ``benchmarks.service.commands`` starts them (its pool, options, environment).
No web tier: per phase, a driver process (this file run as a script in the side's checkout,
so that the side's own services run) plays ``--games`` games against the CPU at one level
through ``games.services`` (a person's move as the API's ``POST`` makes it: its transaction,
its event, the CPU's task sent on commit), listens to each game's channel-layer group, and moves
again ``--think`` seconds after each CPU reply. Phases alternate between the sides (A B, then
B A), ``--rounds`` times per level, after a warm-up phase per side, so that a machine getting
busier favours neither.

Figures per side and level:

- worker CPU per reply: the CPU seconds (user + system, from ``/proc``) of the worker's
  processes (the quick worker for easy and normal, the strong one for strong) over a phase,
  divided by the CPU replies of the phase; the median of the rounds;
- latency: from the person's move committed (its CPU task queued) to the CPU's move event
  arriving from the channel layer (the worker's whole path: queue, task, publish); p50 and p99
  over every reply of the rounds;

and the ratios of this checkout to the baseline. Each game has a player of its own (the
per-player limit on queued searches is not what is measured). Exits 1 when a reply was lost.
"""

import argparse
import asyncio
import inspect
import json
import os
import random
import secrets
import subprocess
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
REPLY_TIMEOUT = 60.0  # seconds a driver waits for a CPU reply before it counts it as lost
WARM_UP_SECONDS = 8.0
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")


def process_tree(root: int) -> list[int]:
    """``root`` and every process descended from it."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue  # it ended meanwhile
            children.setdefault(parent, []).append(int(entry.name))
    found, todo = [], [root]
    while todo:
        pid = todo.pop()
        found.append(pid)
        todo += children.get(pid, [])
    return found


def cpu_seconds(root: int) -> float:
    """CPU seconds (user + system) used so far by the process tree of ``root``, children that
    ended and were waited for included."""
    ticks = 0
    for pid in process_tree(root):
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        ticks += sum(int(value) for value in fields[11:15])  # utime stime cutime cstime
    return ticks / CLOCK_TICKS


@dataclass
class Phase:
    """What a driver measured in one phase."""

    replies: int = 0
    lost: int = 0
    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0


# --- the driver: runs in a side's checkout, on that checkout's Django and services -----------


def drive(options: argparse.Namespace) -> None:
    """Play one phase and print its ``Phase`` as JSON (the last line of the output)."""
    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reversi_site.settings")
    django.setup()
    print(json.dumps(asdict(asyncio.run(play_phase(options)))))


async def event_arrival(layer: Any, channel: str, version: int) -> float | None:
    """When the event of ``version`` (or a later one) arrived on ``channel``; None if none
    came in time."""
    deadline = time.perf_counter() + REPLY_TIMEOUT
    while (left := deadline - time.perf_counter()) > 0:
        try:
            message = await asyncio.wait_for(layer.receive(channel), left)
        except TimeoutError:
            break
        if message["version"] >= version:
            return time.perf_counter()
    return None


async def play_phase(options: argparse.Namespace) -> Phase:
    from asgiref.sync import sync_to_async
    from channels.layers import get_channel_layer
    from django.contrib.auth import get_user_model

    from ai_worker.engine import Board
    from games.identity import Player
    from games.models import Game
    from games.services import events
    from games.services import games as game_services

    layer = get_channel_layer()
    play_move: Any = game_services.play_move  # either checkout's signature
    by_public_id = "public_id" in inspect.signature(play_move).parameters
    phase = Phase()
    rng = random.Random(options.seed)

    def new_game() -> tuple[Game, Player]:
        user = get_user_model().objects.create(username=f"worker-bench-{secrets.token_hex(6)}")
        player = Player(user_id=user.pk)
        game = game_services.create_cpu_game(
            player=player, variant={}, level=options.level, color="black", undo_allowed=False
        )
        return game, player

    def move(game: Game, player: Player) -> tuple[Game, float]:
        notation = str(rng.choice(Board.from_text(game.position).legal_moves))
        if by_public_id:  # the service's signature since the web lane's change
            played = play_move(
                player=player, public_id=game.public_id, notation=notation, ply=game.ply
            ).game
        else:  # a baseline before it
            played = play_move(player=player, game_id=game.pk, notation=notation, ply=game.ply)
        return played, time.perf_counter()  # committed: its CPU task was sent

    def person_to_move(game: Game) -> bool:
        return game.status == Game.Status.ACTIVE and Board.from_text(game.position).turn == 0

    in_thread = sync_to_async  # each call on a thread of the loop's pool, with its connection

    async def play(index: int, deadline: float) -> None:
        await asyncio.sleep(index * options.think / options.games)  # players arrive spread
        while time.perf_counter() < deadline:
            game, player = await in_thread(new_game, thread_sensitive=False)()
            channel = await layer.new_channel()
            group = events.game_group(game.pk)
            await layer.group_add(group, channel)
            while person_to_move(game) and time.perf_counter() < deadline:
                game, queued = await in_thread(move, thread_sensitive=False)(game, player)
                if not (game.status == Game.Status.ACTIVE and not person_to_move(game)):
                    continue  # over, or the CPU had to pass: no reply to wait for
                replied = await event_arrival(layer, channel, game.version + 1)
                if replied is None:
                    phase.lost += 1
                    break
                phase.replies += 1
                phase.latencies.append(max(0.0, replied - queued))
                game = await in_thread(Game.objects.get, thread_sensitive=False)(pk=game.pk)
                await asyncio.sleep(options.think)
            await layer.group_discard(group, channel)

    started = cpu_seconds(options.worker)
    deadline = time.perf_counter() + options.seconds
    await asyncio.gather(*(play(index, deadline) for index in range(options.games)))
    phase.cpu = cpu_seconds(options.worker) - started
    return phase


# --- the orchestrator ------------------------------------------------------------------------


@dataclass
class Side:
    """One checkout under test: its database and queues, its workers, what it measured."""

    name: str
    checkout: Path
    commit: str
    env: dict[str, str]
    workers: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)
    phases: dict[str, list[Phase]] = field(default_factory=dict)


def new_side(name: str, checkout: Path) -> Side:
    tag = secrets.token_hex(4)
    queue = f"cpu-worker-bench-{tag}"
    env = os.environ | {
        "POSTGRES_DB": f"reversi_worker_bench_{tag}",
        "CELERY_CPU_QUEUE": queue,
        "CELERY_STRONG_QUEUE": f"{queue}-strong",
        "PYTHONPATH": str(checkout),
        "DJANGO_DEBUG": os.environ.get("DJANGO_DEBUG", "1"),
        "CPU_GAMES_IN_PROGRESS_LIMIT": "100000",
    }
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True
    ).stdout.strip()
    return Side(name, checkout, commit, env)


def worker_commands(side: Side) -> dict[str, list[str]]:
    """The side's Celery workers, quick and strong, as its ``benchmarks.service`` runs them."""
    script = (
        "import json, sys; from benchmarks.service import commands; "
        "print(json.dumps(commands('uvicorn', 0, sys.argv[1])))"
    )
    listed = subprocess.run(
        [sys.executable, "-c", script, side.env["CELERY_CPU_QUEUE"]],
        cwd=side.checkout,
        env=side.env,
        check=True,
        capture_output=True,
        text=True,
    )
    quick, strong = [command for command in json.loads(listed.stdout) if "worker" in command]
    return {"quick": quick, "strong": strong}


def start(side: Side, levels: list[str]) -> None:
    """The side's database (created, migrated), the numba cache, its workers."""
    for step in (["ensure_database"], ["migrate", "--noinput", "-v0"]):
        command = [sys.executable, "manage.py", *step]
        subprocess.run(command, cwd=side.checkout, env=side.env, check=True)
    warm = [sys.executable, "-m", "ai_worker", "warmup"]
    subprocess.run(warm, cwd=side.checkout, env=side.env, check=True, capture_output=True)
    for role, command in worker_commands(side).items():
        if role == "strong" and "strong" not in levels:
            continue  # it would only review the finished games, on the same cores
        side.workers[role] = subprocess.Popen(
            command, cwd=side.checkout, env=side.env, stdout=subprocess.DEVNULL
        )


def stop(side: Side) -> None:
    import psycopg
    import redis

    for process in side.workers.values():
        process.terminate()
    for process in side.workers.values():
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    store = redis.Redis.from_url(side.env.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    for key in store.scan_iter(match=f"*{side.env['CELERY_CPU_QUEUE']}*"):
        store.delete(key)
    with psycopg.connect(
        host=side.env.get("POSTGRES_HOST", "127.0.0.1"),
        port=side.env.get("POSTGRES_PORT", "5432"),
        user=side.env.get("POSTGRES_USER", "root"),
        password=side.env.get("POSTGRES_PASSWORD", ""),
        dbname="postgres",
        autocommit=True,
    ) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{side.env["POSTGRES_DB"]}" WITH (FORCE)')


def run_phase(side: Side, level: str, seconds: float, options: argparse.Namespace) -> Phase:
    """One driver process on ``side`` at ``level``."""
    worker = side.workers["strong" if level == "strong" else "quick"]
    if worker.poll() is not None:
        raise RuntimeError(f"the {side.name} worker exited")
    command = [sys.executable, str(Path(__file__).resolve()), "drive", "--level", level]
    command += ["--games", str(options.games), "--think", str(options.think)]
    command += ["--seconds", str(seconds), "--worker", str(worker.pid)]
    command += ["--seed", str(options.seed)]
    driven = subprocess.run(
        command, cwd=side.checkout, env=side.env, check=True, capture_output=True, text=True
    )
    return Phase(**json.loads(driven.stdout.strip().splitlines()[-1]))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))] if ordered else float("nan")


def median(values: list[float]) -> float:
    return percentile(values, 0.5)


@dataclass(frozen=True)
class Figures:
    """A side's figures at one level: CPU ms per reply (median of the rounds), latency p50 and
    p99 in ms (every reply), replies and lost ones."""

    cpu_ms: float
    p50_ms: float
    p99_ms: float
    replies: int
    lost: int


def figures(phases: list[Phase]) -> Figures:
    latencies = [latency for phase in phases for latency in phase.latencies]
    per_reply = [phase.cpu / phase.replies for phase in phases if phase.replies]
    return Figures(
        cpu_ms=median(per_reply) * 1000,
        p50_ms=percentile(latencies, 0.5) * 1000,
        p99_ms=percentile(latencies, 0.99) * 1000,
        replies=sum(phase.replies for phase in phases),
        lost=sum(phase.lost for phase in phases),
    )


def table(sides: list[Side], levels: list[str]) -> str:
    baseline, current = sides
    lines = [
        "| level | side | commit | worker CPU ms / reply | latency p50 / p99 (ms) | replies "
        "| lost |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for level in levels:
        before, after = figures(baseline.phases[level]), figures(current.phases[level])
        for side, found in ((baseline, before), (current, after)):
            lines.append(
                f"| {level} | {side.name} | {side.commit} | {found.cpu_ms:.1f} | "
                f"{found.p50_ms:.0f} / {found.p99_ms:.0f} | {found.replies} | {found.lost} |"
            )
        lines.append(
            f"| {level} | ratio | | {after.cpu_ms / before.cpu_ms:.2f} | "
            f"{after.p50_ms / before.p50_ms:.2f} / {after.p99_ms / before.p99_ms:.2f} | | |"
        )
    return "\n".join(lines)


def load_average() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def main(argv: list[str] | None = None) -> int:
    options = parser().parse_args(argv)
    if options.command == "drive":
        drive(options)
        return 0
    levels = options.levels.split(",")
    sides = [new_side("baseline", options.checkout.resolve()), new_side("this", ROOT)]
    print(
        f"baseline {sides[0].commit} ({sides[0].checkout}), this {sides[1].commit} ({ROOT}), "
        f"{os.cpu_count()} cores, load average {load_average()}; levels {', '.join(levels)}, "
        f"{options.games} games, think {options.think:g} s, {options.rounds} rounds of "
        f"{options.seconds:g} s",
        flush=True,
    )
    try:
        for side in sides:
            start(side, levels)
        for side in sides:
            for level in levels:
                run_phase(side, level, WARM_UP_SECONDS, options)
        for index in range(options.rounds):
            for level in levels:
                for side in sides if index % 2 == 0 else sides[::-1]:
                    phase = run_phase(side, level, options.seconds, options)
                    side.phases.setdefault(level, []).append(phase)
                    per_reply = phase.cpu / phase.replies * 1000 if phase.replies else 0
                    print(
                        f"round {index + 1} {level} {side.name}: {phase.replies} replies, "
                        f"{per_reply:.1f} CPU ms each, p50 "
                        f"{percentile(phase.latencies, 0.5) * 1000:.0f} ms, load average "
                        f"{load_average()}",
                        flush=True,
                    )
    finally:
        for side in sides:
            stop(side)
    print(f"\nload average at the end {load_average()}")
    print(table(sides, levels))
    lost = any(phase.lost for side in sides for phases in side.phases.values() for phase in phases)
    return 1 if lost else 0


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.worker", description=__doc__.split("\n")[0]
    )
    parser.add_argument("command", nargs="?", default="compare", choices=("compare", "drive"))
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the baseline's code")
    parser.add_argument("--levels", default="easy,normal", help="comma-separated CPU levels")
    parser.add_argument("--games", type=int, default=10, help="concurrent games (default 10)")
    parser.add_argument(
        "--think", type=float, default=0.5, help="seconds between a reply and the next move"
    )
    parser.add_argument("--seconds", type=float, default=30, help="seconds of each phase")
    parser.add_argument("--rounds", type=int, default=2, help="phases per side and level")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--level", help=argparse.SUPPRESS)  # the driver's
    parser.add_argument("--worker", type=int, help=argparse.SUPPRESS)  # the driver's
    return parser


if __name__ == "__main__":
    sys.exit(main())
