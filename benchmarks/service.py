"""`make bench-service`: start a private stack, run the load test's scenarios, print the figures.

    .venv/bin/python -m benchmarks.service [--scenario NAME,...] [--checkout DIR]
        [--against DIR] [--stack uvicorn|daphne] [--debug] [options]

The stack is this checkout's (or ``--checkout``'s, e.g. a worktree of another commit) web
processes and Celery workers on a free port, with a database of their own (created, migrated,
dropped at the end) and private Celery queues on this shell's Redis: nothing else running on
the machine is touched. ``--stack uvicorn`` (the default, as ``make run``) runs one uvicorn
process per core, a worker for the quick levels and one for strong searches and hints;
``--stack daphne`` one daphne and one worker, as ``make run`` did before. Every option it does
not know goes to ``benchmarks/loadtest.py`` in every scenario (``--duration``, ``--legacy-auth``).

``--against DIR`` also starts a stack of DIR's code (a worktree of the commit to compare with)
and runs every scenario on both, one stack after the other (the order swapped from one
scenario to the next), so that both are measured in the same run on the same machine: one
column per stack and scenario. ``--rounds N`` runs the scenarios N times over (the stacks'
order swapped each time) and adds a table of each figure's median over the rounds: a p99 of
one minute's run moves by half from one run to the next on this shared machine.

The stacks run the production settings (``DJANGO_DEBUG=0``, a secret key made for the run,
``DJANGO_HTTPS=0``: plain http on the loopback), as deployed: DEBUG keeps every query's SQL and
time in memory and costs each request more. ``--debug`` serves them as ``make run`` does
(``DJANGO_DEBUG=1``).

Besides the latencies each run notes the web processes' CPU time (user and system, read from
Linux's ``/proc`` for the web server and every process under it) divided by the moves applied:
a cost per move that the machine's other load hardly changes, unlike a latency; and the same
for every tier (the quick worker, the strong worker, PostgreSQL, Redis and the load client
itself), with the cores they kept busy together: on this machine's two cores, the figure that
says whether the latencies are the server's or the machine's saturation. Each stack
first plays a few games that are not reported (its processes' first requests set up what the
later ones reuse).

The scenarios of issue 13 §3 (``--scenario``, comma-separated; ``all`` is every one but the
soak), one after another on the same stack, players thinking 1 s unless said:

- ``hot-seat``: 50 hot-seat games; ``easy``: 50 games versus easy CPUs; ``mixed``: 50 games,
  the levels dealt in turn (CPU reply per level);
- ``knee``: hot-seat games at ``--knee-steps`` (50, 100, 200, 300, ...) concurrent games,
  stopping at the first step whose push p99 exceeds 100 ms;
- ``max``: 50 hot-seat games whose players do not think: the most moves/s the stack sustains;
- ``soak``: ``--soak-games`` (200) games at once for ``--soak-duration`` (600 s), hot-seat and
  versus easy CPUs, every socket dropped at random and opened again; then every game's record
  is replayed by the engine against its stored position (``manage.py check_records``) and
  every client's last version compared with the server's.

It prints one table (a Markdown one, for the README) with the baseline (``GET /healthz``,
measured in the same run), the ratios to it and the web CPU per move, and exits 1 on any
error, event out of order, record that does not replay or version that differs.
"""

import argparse
import asyncio
import json
import os
import re
import secrets
import socket
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import httpx
import psycopg
import redis

from ai_worker.levels import EASY, LEVELS
from benchmarks import loadtest
from benchmarks.loadtest import HOT_SEAT, Figures, percentile

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
START_TIMEOUT = 300  # seconds: the stack imports Django and numba on a machine that may be loaded
PUSH_P99_TARGET = 0.100  # seconds: the knee is the first step whose push p99 is above it
KNEE_STEPS = "50,100,200,300,400,500,600"
PAUSE = 5.0  # seconds between two scenarios, for the queues to drain
WARM_UP_GAMES, WARM_UP_SECONDS = 10, 10.0  # the games a stack plays before it is measured
# The bench's players, made in the database at once (password hashing is not what is measured):
# prints their API tokens as JSON.
MAKE_PLAYERS = """
import json, secrets
from django.contrib.auth import get_user_model
from django.contrib.auth.hashers import make_password
from games.accounts.models import AccessToken
from games.accounts.tokens import PREFIX_LENGTH, SECRET_BYTES, digest
User = get_user_model()
password = make_password(secrets.token_hex(16))
users = User.objects.bulk_create(
    User(username=f"load-{secrets.token_hex(6)}", password=password) for _ in range(%d)
)
secrets_by_user = [(user, secrets.token_hex(SECRET_BYTES)) for user in users]
AccessToken.objects.bulk_create(
    AccessToken(
        user=user,
        name="load test",
        key_hash=digest(secret),
        prefix=secret[:PREFIX_LENGTH],
        scopes=list(AccessToken.SCOPES),
    )
    for user, secret in secrets_by_user
)
print(json.dumps([secret for _, secret in secrets_by_user]))
"""


@dataclass(frozen=True)
class Run:
    """One load test of a scenario on a stack (``commit``) and what it measured; ``cpu``: the
    CPU seconds each tier (``TIERS``) used meanwhile."""

    name: str
    commit: str
    games: int
    levels: list[str]
    elapsed: float
    figures: Figures
    cpu: dict[str, float]


@dataclass
class Stack:
    """A private stack serving one checkout: its processes (the web server first), database,
    Celery queues, address and the players' tokens."""

    checkout: Path
    commit: str
    env: dict[str, str]
    database: str
    queue: str
    url: str
    processes: list[subprocess.Popen[bytes]]
    tokens: list[str]


@dataclass(frozen=True)
class Soak:
    """The soak's final check against the server's database."""

    games: int
    moves: int
    not_replaying: list[str]
    versions_equal: int
    versions_differ: list[str]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def commands(stack: str, port: int, queue: str) -> list[list[str]]:
    """The stack's processes: the web tier and the Celery workers (which keep their database
    connection, as ``make run``'s; the web processes open one per request)."""
    celery = ["env", "POSTGRES_POOL_SIZE=0", "POSTGRES_CONN_MAX_AGE=600", str(BIN / "celery")]
    celery += ["-A", "reversi_site"]
    celery += ["worker", "--loglevel=warning"]
    celery += ["--without-gossip", "--without-mingle"]
    if stack == "daphne":
        return [
            [
                str(BIN / "daphne"),
                "-b",
                "127.0.0.1",
                "-p",
                str(port),
                "reversi_site.asgi:application",
            ],
            [*celery, "-Q", f"{queue},{queue}-strong", "-n", f"all-{queue}@%h"],
        ]
    web = [str(BIN / "uvicorn"), "reversi_site.asgi:application", "--host", "127.0.0.1"]
    web += ["--port", str(port), "--workers", str(os.cpu_count() or 1), "--no-access-log"]
    web += ["--log-level", "warning"]
    return [
        web,
        [*celery, "-Q", queue, "-n", f"quick-{queue}@%h"],
        # At the idle CPU priority, as `make run` starts it.
        [
            "chrt",
            "--idle",
            "0",
            *celery,
            "-Q",
            f"{queue}-strong",
            "-c",
            "1",
            "-n",
            f"strong-{queue}@%h",
        ],
    ]


def wait_until_serving(url: str, processes: list[subprocess.Popen[bytes]]) -> None:
    deadline = time.monotonic() + START_TIMEOUT
    while True:
        if any(process.poll() is not None for process in processes):
            raise RuntimeError("a process of the stack exited while starting")
        try:
            if httpx.get(f"{url}/healthz", timeout=2).status_code == 200:
                return
        except httpx.TransportError:
            pass
        if time.monotonic() > deadline:
            raise TimeoutError(f"{url} did not answer within {START_TIMEOUT} s")
        time.sleep(0.5)


def stop(processes: list[subprocess.Popen[bytes]]) -> None:
    for process in processes:
        process.terminate()
    for process in processes:
        try:
            process.wait(timeout=15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


TIERS = ("web", "quick worker", "strong worker", "PostgreSQL", "Redis", "load client")


@dataclass(frozen=True)
class Processes:
    """A snapshot of Linux's process table (``/proc``): each process's children, command name
    and CPU seconds (user and system, its ended children's that it waited for included)."""

    children: dict[int, list[int]]
    names: dict[int, str]
    used: dict[int, float]

    @classmethod
    def read(cls) -> "Processes":
        ticks = os.sysconf("SC_CLK_TCK")
        children: dict[int, list[int]] = {}
        names: dict[int, str] = {}
        used: dict[int, float] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                name, _, rest = (entry / "stat").read_text().partition(" (")[2].rpartition(")")
            except OSError:  # the process has just exited
                continue
            # After the command name: state, ppid, ... utime, stime, cutime, cstime (14-17).
            fields = rest.split()
            pid = int(entry.name)
            children.setdefault(int(fields[1]), []).append(pid)
            names[pid] = name
            used[pid] = sum(int(value) for value in fields[11:15]) / ticks
        return cls(children, names, used)

    def tree_cpu(self, root: int) -> float:
        """The CPU seconds of ``root`` and every process under it (uvicorn's workers under its
        supervisor)."""
        total, pending = 0.0, [root]
        while pending:
            current = pending.pop()
            total += self.used.get(current, 0.0)
            pending += self.children.get(current, [])
        return total

    def named_cpu(self, name: str) -> float:
        """The CPU seconds of every process whose command is ``name``, whoever started it."""
        return sum(self.used[pid] for pid, found in self.names.items() if found == name)


def tiers_cpu(stack: "Stack") -> dict[str, float]:
    """The CPU seconds used so far by each tier of ``stack``: its web server, its Celery
    workers (the quick levels' apart from the strong one's searches and reviews; a daphne
    stack's one worker counts as quick), the machine's PostgreSQL and Redis (shared with
    whatever else uses them: on a quiet machine, the stack) and this process, the load client."""
    table = Processes.read()
    web, quick, *strong = stack.processes
    return {
        "web": table.tree_cpu(web.pid),
        "quick worker": table.tree_cpu(quick.pid),
        "strong worker": sum(table.tree_cpu(process.pid) for process in strong),
        "PostgreSQL": table.named_cpu("postgres"),
        "Redis": table.named_cpu("redis-server"),
        "load client": time.process_time(),
    }


def drop_database(name: str, env: dict[str, str]) -> None:
    with psycopg.connect(
        host=env.get("POSTGRES_HOST", "127.0.0.1"),
        port=env.get("POSTGRES_PORT", "5432"),
        user=env.get("POSTGRES_USER", "root"),
        password=env.get("POSTGRES_PASSWORD", ""),
        dbname="postgres",
        autocommit=True,
    ) as connection:
        connection.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def load_test(name: str, stack: Stack, games: int, levels: list[str], load_args: list[str]) -> Run:
    """One run of the load test on ``stack``: ``games`` games dealt ``levels`` in turn."""
    args = loadtest.parser().parse_args(
        [*load_args, "--games", str(games), "--levels", ",".join(levels), "--base-url", stack.url]
    )
    print(
        f"{stack.commit} {name}: {games} games, {', '.join(levels)}, think {args.think:g} s",
        flush=True,
    )
    before = tiers_cpu(stack)
    started = time.perf_counter()
    figures = asyncio.run(loadtest.run(args, stack.tokens))
    elapsed = time.perf_counter() - started
    after = tiers_cpu(stack)
    cpu = {tier: after[tier] - before[tier] for tier in TIERS}
    run = Run(name, stack.commit, games, levels, elapsed, figures, cpu)
    print(loadtest.report(figures, games, levels), flush=True)
    print(f"CPU per move applied (ms): {tiers_per_move(run)}; cores busy {cores_busy(run)}")
    time.sleep(PAUSE)
    return run


def warm_up(stack: Stack) -> None:
    """A few games played and not reported: each process's first requests and sockets import
    and set up what later ones reuse, which is no cost of a move."""
    played = ["--games", str(WARM_UP_GAMES), "--hot-seat", "--duration", str(WARM_UP_SECONDS)]
    args = loadtest.parser().parse_args([*played, "--think", "0.2", "--base-url", stack.url])
    asyncio.run(loadtest.run(args, stack.tokens))


def per_move(seconds: float, figures: Figures) -> str:
    if not figures.moves_applied:
        return ""
    return f"{seconds / figures.moves_applied * 1000:.1f}"


def tiers_per_move(run: Run) -> str:
    """Each tier's CPU per move applied, in milliseconds."""
    return ", ".join(f"{tier} {per_move(run.cpu[tier], run.figures)}" for tier in TIERS)


def cores_busy(run: Run) -> str:
    """How many cores the tiers kept busy on average during the run."""
    return f"{sum(run.cpu.values()) / run.elapsed:.2f}"


def scenarios(
    names: list[str], options: argparse.Namespace, load_args: list[str]
) -> Callable[[Stack], list[Run]]:
    """The runs of the named scenarios, as a function of the stack."""

    def play(stack: Stack) -> list[Run]:
        runs = []
        for name in names:
            if name == "hot-seat":
                runs.append(load_test(name, stack, 50, [HOT_SEAT], load_args))
            elif name == "easy":
                runs.append(load_test(name, stack, 50, [EASY], load_args))
            elif name == "mixed":
                runs.append(load_test(name, stack, 50, list(LEVELS), load_args))
            elif name == "max":
                args = [*load_args, "--think", "0"]
                runs.append(load_test(name, stack, 50, [HOT_SEAT], args))
            elif name == "knee":
                for games in options.knee_steps:
                    run = load_test(f"knee {games}", stack, games, [HOT_SEAT], load_args)
                    runs.append(run)
                    if push_p99(run) > PUSH_P99_TARGET:
                        break
            elif name == "soak":
                args = [*load_args, "--duration", str(options.soak_duration)]
                args += ["--drop-every", str(options.drop_every)]
                levels = [HOT_SEAT, EASY]
                runs.append(load_test(name, stack, options.soak_games, levels, args))
        return runs

    return play


def push_p99(run: Run) -> float:
    return percentile(run.figures.push, 0.99) if run.figures.push else float("inf")


def players_needed(names: list[str], options: argparse.Namespace) -> int:
    counts = [50]
    if "knee" in names:
        counts.append(max(options.knee_steps))
    if "soak" in names:
        counts.append(options.soak_games)
    return max(counts)


def make_players(count: int, checkout: Path, env: dict[str, str]) -> list[str]:
    made = subprocess.run(
        [sys.executable, "manage.py", "shell", "-c", MAKE_PLAYERS % count],
        cwd=checkout,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    tokens: list[str] = json.loads(made.stdout.strip().splitlines()[-1])
    return tokens


def check_soak(run: Run, checkout: Path, env: dict[str, str]) -> Soak:
    """Every game's record replayed against its stored position, every client's last version
    against the server's."""
    checked = subprocess.run(
        [sys.executable, "manage.py", "check_records"],
        cwd=checkout,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    found = json.loads(checked.stdout.strip().splitlines()[-1])
    versions: dict[str, int] = found["versions"]
    seen = run.figures.last_versions
    differ = [
        f"{game}: client {version}, server {versions.get(game)}"
        for game, version in seen.items()
        if versions.get(game) != version
    ]
    return Soak(
        found["games"], found["moves"], found["not_replaying"], len(seen) - len(differ), differ
    )


def milliseconds(values: list[float]) -> str:
    if not values:
        return ""
    return f"{percentile(values, 0.5) * 1000:.0f} / {percentile(values, 0.99) * 1000:.0f}"


def ratio(values: list[float], baseline: list[float], share: float) -> str:
    if not values or not baseline:
        return ""
    return f"{percentile(values, share) / percentile(baseline, share):.1f}"


Rows = list[tuple[str, list[str]]]  # a table's rows: each figure's name and its cells


def table(runs: list[Run]) -> str:
    """The figures of every run as a Markdown table, one column per run."""
    return markdown(*table_cells(runs))


def table_cells(runs: list[Run]) -> tuple[list[str], Rows]:
    """The table's column names (commit and scenario of each run) and rows."""
    rows: list[tuple[str, Callable[[Run], str]]] = [
        ("concurrent games", lambda run: str(run.games)),
        ("baseline GET /healthz p50 / p99 (ms)", lambda run: milliseconds(run.figures.baseline)),
        ("moves/s", lambda run: f"{run.figures.moves_applied / run.figures.seconds:.1f}"),
        ("POST p50 / p99 (ms)", lambda run: milliseconds(run.figures.move)),
        ("push p50 / p99 (ms)", lambda run: milliseconds(run.figures.push)),
        ("the load client's lag p50 / p99 (ms)", lambda run: milliseconds(run.figures.client_lag)),
        (
            "push p50 / baseline p50",
            lambda run: ratio(run.figures.push, run.figures.baseline, 0.5),
        ),
        (
            "push p99 / baseline p99",
            lambda run: ratio(run.figures.push, run.figures.baseline, 0.99),
        ),
        (
            "POST p99 / baseline p99",
            lambda run: ratio(run.figures.move, run.figures.baseline, 0.99),
        ),
    ]
    rows += [
        (f"CPU reply {level} p50 / p99 (ms)", cpu_reply(level))
        for level in LEVELS
        if any(level in run.levels for run in runs)
    ]
    rows += [
        ("events out of order", lambda run: str(run.figures.out_of_order)),
        ("retries (transient connection errors)", lambda run: str(run.figures.retries)),
        ("errors", lambda run: str(len(run.figures.errors))),
        ("web CPU per move applied (ms)", lambda run: per_move(run.cpu["web"], run.figures)),
        ("CPU per move by tier (ms)", tiers_per_move),
        ("cores busy (all tiers)", cores_busy),
    ]
    header = [f"{run.commit} {run.name}" for run in runs]
    return header, [(name, [cell(run) for run in runs]) for name, cell in rows]


def markdown(header: list[str], rows: Rows) -> str:
    lines = ["| scenario | " + " | ".join(header) + " |", "| --- |" + " --- |" * len(header)]
    lines += [f"| {name} | " + " | ".join(cells) + " |" for name, cells in rows]
    return "\n".join(lines)


NUMBER = re.compile(r"\d+(?:\.\d+)?")


def median_table(header: list[str], rows: Rows) -> str:
    """``table``'s columns of one commit and scenario (one per round) merged into one: each
    number of a cell the median of that number over the rounds' cells, in the same format."""
    columns: dict[str, list[int]] = {}
    for index, name in enumerate(header):
        columns.setdefault(name, []).append(index)
    merged = [
        (name, [median_cell([cells[index] for index in indexes]) for indexes in columns.values()])
        for name, cells in rows
    ]
    return markdown(list(columns), merged)


def median_cell(cells: list[str]) -> str:
    """``cells`` of the same shape ("36 / 390", "web 16.1, workers 0.1") as one, each number the
    median of the cells' numbers at its place; cells that differ in shape (empty) are left out."""
    shapes = [NUMBER.split(cell) for cell in cells]
    numbers = [NUMBER.findall(cell) for cell in cells]
    same = [index for index, shape in enumerate(shapes) if shape == shapes[0]]
    if not same:
        return ""
    merged = shapes[0][0]
    for place, text in enumerate(numbers[0]):
        values = [float(numbers[index][place]) for index in same]
        decimals = len(text.partition(".")[2])
        merged += f"{statistics.median(values):.{decimals}f}" + shapes[0][place + 1]
    return merged


def cpu_reply(level: str) -> Callable[[Run], str]:
    return lambda run: milliseconds(run.figures.cpu_reply[level])


def knee(runs: list[Run]) -> str | None:
    steps = [run for run in runs if run.name.startswith("knee")]
    if not steps:
        return None
    over = [run for run in steps if push_p99(run) > PUSH_P99_TARGET]
    if not over:
        return f"knee: push p99 stayed <= 100 ms up to {steps[-1].games} games"
    return f"knee: push p99 first over 100 ms at {over[0].games} concurrent games"


def parse_arguments(argv: list[str] | None) -> tuple[argparse.Namespace, list[str]]:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.service", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the code to serve")
    parser.add_argument(
        "--against",
        type=Path,
        help="also serve this checkout (e.g. a worktree of main) and run every scenario on both",
    )
    parser.add_argument(
        "--debug", action="store_true", help="serve with DJANGO_DEBUG=1, as `make run`"
    )
    parser.add_argument("--stack", choices=("uvicorn", "daphne"), default="uvicorn")
    parser.add_argument("--port", type=int, default=0, help="the web port (default: a free one)")
    parser.add_argument(
        "--scenario",
        default="all",
        help="comma-separated: hot-seat, easy, mixed, knee, max, soak; all (every one but soak)",
    )
    parser.add_argument(
        "--knee-steps",
        type=lambda text: [int(step) for step in text.split(",")],
        default=KNEE_STEPS,
        help=f"concurrent games of the knee's steps (default {KNEE_STEPS})",
    )
    parser.add_argument(
        "--rounds",
        type=int,
        default=1,
        help="run every scenario this many times per stack (the stacks' order swapped each "
        "time) and add a table of each figure's median over the rounds (default 1)",
    )
    parser.add_argument("--soak-games", type=int, default=200, help="soak: games at once (200)")
    parser.add_argument(
        "--soak-duration", type=float, default=600, help="soak: seconds (default 600)"
    )
    parser.add_argument(
        "--drop-every",
        type=float,
        default=20,
        help="soak: a socket drops at random about every this many seconds (default 20)",
    )
    options, load_args = parser.parse_known_args(argv)
    every = ["hot-seat", "easy", "mixed", "knee", "max"]
    names = every if options.scenario == "all" else options.scenario.split(",")
    unknown = set(names) - {*every, "soak"}
    if unknown:
        parser.error(f"unknown scenario: {', '.join(sorted(unknown))}")
    options.names = names
    return options, load_args


def load_average() -> str:
    return " ".join(f"{value:.1f}" for value in os.getloadavg())


def django_settings(*, debug: bool) -> dict[str, str]:
    """The environment of a stack's settings: production (its own secret key, plain http on the
    loopback: no redirect to https), or DEBUG as ``make run``."""
    if debug:
        return {"DJANGO_DEBUG": "1"}
    return {
        "DJANGO_DEBUG": "0",
        "DJANGO_SECRET_KEY": secrets.token_urlsafe(50),
        "DJANGO_HTTPS": "0",
    }


def start_stack(checkout: Path, options: argparse.Namespace, port: int) -> Stack:
    """Create, migrate and fill a database for ``checkout``'s code and start its processes."""
    tag = secrets.token_hex(4)
    database = f"reversi_bench_{tag}"
    queue = f"cpu-bench-{tag}"
    env = (
        os.environ
        | django_settings(debug=options.debug)
        | {
            "POSTGRES_DB": database,
            "CELERY_CPU_QUEUE": queue,
            "CELERY_STRONG_QUEUE": f"{queue}-strong",
            "PYTHONPATH": str(checkout),
            # Every player of the load test plays from this one address: the stack's rate limits
            # per address would refuse them; players who do not think move faster than people.
            "THROTTLE_AUTH": "100000/min",
            "THROTTLE_WRITE": "100000/min",
            "THROTTLE_GAME_CREATE": "100000/min",
            "THROTTLE_MOVE": "100000/min",
            # ... and its sockets, hundreds from one address (and a player's several), its caps.
            "WEBSOCKETS_PER_ADDRESS": "100000",
            "WEBSOCKETS_PER_VIEWER": "1000",
        }
    )
    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True, text=True
    ).stdout.strip()
    python = [sys.executable, "manage.py"]
    subprocess.run([*python, "ensure_database"], cwd=checkout, env=env, check=True)
    subprocess.run([*python, "migrate", "--noinput", "-v0"], cwd=checkout, env=env, check=True)
    # The numba cache, so that the workers are ready as soon as the web tier (as `make run`).
    subprocess.run([sys.executable, "-m", "ai_worker", "warmup"], cwd=checkout, env=env, check=True)
    tokens = make_players(players_needed(options.names, options), checkout, env)
    processes = [
        subprocess.Popen(command, cwd=checkout, env=env)
        for command in commands(options.stack, port, queue)
    ]
    url = f"http://127.0.0.1:{port}"
    return Stack(checkout, commit, env, database, queue, url, processes, tokens)


def stop_stack(stack: Stack) -> None:
    """Stop the processes, drop the stack's queues and database."""
    stop(stack.processes)
    store = redis.Redis.from_url(stack.env.get("REDIS_URL", "redis://127.0.0.1:6379/0"))
    for key in store.scan_iter(match=f"*{stack.queue}*"):
        store.delete(key)
    drop_database(stack.database, stack.env)


def turns(names: list[str], rounds: int) -> list[tuple[int, str]]:
    """The scenarios of every round in order, each with the turn that orders the stacks (even:
    as given, odd: swapped): swapped from one scenario to the next, and from one round to the
    next, so that each scenario sees both orders."""
    return [(index + round_, name) for round_ in range(rounds) for index, name in enumerate(names)]


def print_tables(runs: list[Run], rounds: int) -> None:
    print(table(runs))
    if rounds > 1:
        print(f"\nmedians over {rounds} rounds of every figure above, per column")
        print(median_table(*table_cells(runs)))


def main(argv: list[str] | None = None) -> int:
    options, load_args = parse_arguments(argv)
    checkouts = [options.checkout.resolve()]
    if options.against:
        checkouts.insert(0, options.against.resolve())
    settings = "DJANGO_DEBUG=1 (as `make run`)" if options.debug else "production (DJANGO_DEBUG=0)"
    print(
        f"checkouts {', '.join(map(str, checkouts))}, stack {options.stack}, {settings}, "
        f"{os.cpu_count()} cores, load average {load_average()}, "
        f"scenarios {', '.join(options.names)}",
        flush=True,
    )
    stacks: list[Stack] = []
    runs: list[Run] = []
    soaks: list[tuple[Run, Soak]] = []
    try:
        for index, checkout in enumerate(checkouts):
            port = options.port + index if options.port else free_port()
            stacks.append(start_stack(checkout, options, port))
        for stack in stacks:
            print(f"{stack.commit}: {stack.checkout} on {stack.url}", flush=True)
            wait_until_serving(stack.url, stack.processes)
            warm_up(stack)
        # One scenario at a time on every stack, the stacks' order swapped each time, so that
        # a change of the machine's load weighs on both alike.
        for turn, name in turns(options.names, options.rounds):
            order = stacks if turn % 2 == 0 else stacks[::-1]
            for stack in order:
                runs += scenarios([name], options, load_args)(stack)
                if name == "soak":
                    soaks.append((runs[-1], check_soak(runs[-1], stack.checkout, stack.env)))
    finally:
        for stack in stacks:
            stop_stack(stack)
    commits = ", ".join(stack.commit for stack in stacks)
    print(f"\ncommits {commits}, stack {options.stack}, {settings}")
    print(f"load average at the end {load_average()}")
    print_tables(runs, options.rounds)
    for stack in stacks:
        if found := knee([run for run in runs if run.commit == stack.commit]):
            print(f"{stack.commit} {found}")
    failed = any(run.figures.errors or run.figures.out_of_order for run in runs)
    for run, soak in soaks:
        print(
            f"{run.commit} soak: {run.figures.games_started} games started by the clients, "
            f"{run.figures.reconnects} reconnects; the server has {soak.games} games, "
            f"{soak.moves} moves; records not replaying to the stored position: "
            f"{len(soak.not_replaying)}; clients whose last version equals the server's: "
            f"{soak.versions_equal} of {len(run.figures.last_versions)}"
        )
        for line in soak.not_replaying[:5] + soak.versions_differ[:5]:
            print(f"  {line}")
        failed = failed or bool(soak.not_replaying or soak.versions_differ)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
