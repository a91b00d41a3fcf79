"""Fault test (`make fault-test`): a private stack survives its parts failing (issue 10 §1).

    .venv/bin/python -m benchmarks.faults [--games 6] [--plies 24]

Starts its own stack: PostgreSQL (a throw-away cluster made by ``initdb`` and run by
``pg_ctl``, as the ``postgres`` user when run as root; without them, a database of its own on
the configured server, and then PostgreSQL is never stopped), a redis-server on a free port
(no persistence), uvicorn with 2 processes, a Celery worker for the quick levels (2
processes), one for strong searches and hints (as ``make run``) and Celery beat. It plays games
against the CPU (every level in turn) through the HTTP API, reading the CPU's progress from the
database only (an HTTP read of a stalled game queues its CPU again, which would hide a lost
turn), and meanwhile kills the workers mid-search (and starts them again), restarts Redis (its
queue is lost), kills the ASGI server with a websocket open on every game (and starts it again)
and stops PostgreSQL for 10 s; while Redis is down, it logs in. Then it
prints what survived:

- moves lost: moves answered 201 that are not in the database;
- games stuck: CPU turns that did not move within ``STUCK_AFTER`` seconds;
- 500s for saved writes: moves in the database whose request, sent again while unanswered
  or answered 5xx (a client's retry), was never answered 201; and every 500 seen;
- sockets: how many of the games' websockets were opened again after the ASGI server came back
  (each client reconnects, and resyncs on a gap, as the README's protocol says), and how many
  ended with the last version the database has;
- presence: how long the seats of the games whose sockets were not opened again still counted
  as connected after the kill (their members expire ``presence.TTL`` after the last heartbeat);
- login while Redis was down: the answers of the token endpoint (200 wanted; never a 500).

Exits 1 when any of them is not 0 (or a socket was not opened again, a version differs, a
presence did not expire, a login failed). Needs ``httpx`` and ``websockets`` (the ``dev``
extra).
"""

import argparse
import asyncio
import contextlib
import json
import os
import pwd
import random
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import psycopg
from websockets.asyncio.client import connect
from websockets.exceptions import WebSocketException

from ai_worker.levels import LEVELS

ROOT = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
STUCK_AFTER = 45.0  # seconds a CPU turn may take, faults and sweep (15 s) included
PG_DOWN_SECONDS = 10.0
FAULT_GAP = 12.0  # seconds between two faults
PRESENCE_GAMES = 2  # hot-seat games whose sockets are not opened again after the kill
PRESENCE_LIMIT = 60.0  # seconds a dead server's sockets may still count (TTL 30 s, heartbeat 10)
SETTLE = 5.0  # seconds the sockets read on after the games, for their last events
DATABASE = "reversi_faulttest"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def wait_for(check: Callable[[], bool], what: str, seconds: float = 60.0) -> None:
    deadline = time.monotonic() + seconds
    while not check():
        if time.monotonic() > deadline:
            raise RuntimeError(f"{what} did not come up in {seconds:.0f} s")
        time.sleep(0.2)


def answers(probe: Callable[[], object]) -> bool:
    try:
        probe()
    except Exception:
        return False
    return True


class Postgres:
    """A private PostgreSQL cluster, or a database of its own on the configured server."""

    def __init__(self, workdir: Path) -> None:
        self.data = workdir / "pgdata"
        self.own = bool(shutil.which("pg_ctl") and shutil.which("initdb"))
        self.runas: list[str] = []
        if self.own and os.geteuid() == 0:  # initdb refuses root: run the cluster as postgres
            try:
                owner = pwd.getpwnam("postgres")
            except KeyError:
                self.own = False
            else:
                self.runas = ["runuser", "-u", "postgres", "--"]
                os.chown(workdir, owner.pw_uid, owner.pw_gid)
        self.host = "127.0.0.1"
        self.port = free_port() if self.own else int(os.environ.get("POSTGRES_PORT", "5432"))
        self.user = "root" if self.own else os.environ.get("POSTGRES_USER", "root")
        self.socket_dir = workdir

    def pg_ctl(self, *args: str) -> None:
        subprocess.run(
            [*self.runas, "pg_ctl", "-D", str(self.data), "-w", "-s", *args],
            check=True,
            stdout=subprocess.DEVNULL,
        )

    def setup(self) -> None:
        if self.own:
            subprocess.run(
                [
                    *self.runas,
                    "initdb",
                    "-D",
                    str(self.data),
                    "-U",
                    self.user,
                    "--auth=trust",
                    "--no-sync",
                ],
                check=True,
                stdout=subprocess.DEVNULL,
            )
            self.start()
        with self.admin() as admin:
            admin.execute(f"DROP DATABASE IF EXISTS {DATABASE}")
            admin.execute(f"CREATE DATABASE {DATABASE}")

    def start(self) -> None:
        options = f"-p {self.port} -k {self.socket_dir} -c listen_addresses=127.0.0.1"
        self.pg_ctl("-l", str(self.socket_dir / "postgres.log"), "-o", options, "start")

    def stop(self) -> None:
        self.pg_ctl("-m", "fast", "stop")

    def admin(self) -> psycopg.Connection[Any]:
        return psycopg.connect(
            host=self.host, port=self.port, user=self.user, dbname="postgres", autocommit=True
        )

    def connect(self) -> psycopg.Connection[Any]:
        return psycopg.connect(
            host=self.host, port=self.port, user=self.user, dbname=DATABASE, autocommit=True
        )

    def teardown(self) -> None:
        if self.own:
            subprocess.run(
                [*self.runas, "pg_ctl", "-D", str(self.data), "-m", "immediate", "-s", "stop"],
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        else:
            with self.admin() as admin:
                admin.execute(f"DROP DATABASE IF EXISTS {DATABASE} WITH (FORCE)")


class Stack:
    """The servers of the private stack, each started (and restarted) as a process group."""

    def __init__(self, workdir: Path, postgres: Postgres) -> None:
        self.workdir = workdir
        self.redis_port = free_port()
        self.web_port = free_port()
        self.url = f"http://127.0.0.1:{self.web_port}"
        self.env = os.environ | {
            "POSTGRES_HOST": postgres.host,
            "POSTGRES_PORT": str(postgres.port),
            "POSTGRES_USER": postgres.user,
            "POSTGRES_DB": DATABASE,
            "REDIS_URL": f"redis://127.0.0.1:{self.redis_port}/0",
            "CELERY_CPU_QUEUE": "cpu",
            # One player plays every game: the limit of CPU games per player must not refuse one.
            "CPU_GAMES_IN_PROGRESS_LIMIT": "100",
            # ... nor the socket cap per viewer: the killed server's sockets count until their
            # TTL runs out while the games' sockets are opened again.
            "WEBSOCKETS_PER_VIEWER": "1000",
            "DJANGO_DEBUG": "1",
            "DJANGO_SECRET_KEY": secrets.token_urlsafe(40),
            "PYTHONUNBUFFERED": "1",
        }
        self.processes: dict[str, subprocess.Popen[bytes]] = {}
        celery_worker = [str(BIN / "celery"), "-A", "reversi_site", "worker"]
        celery_worker += ["--loglevel=warning", "--without-gossip", "--without-mingle"]
        self.commands = {
            "redis": [
                "redis-server",
                "--port",
                str(self.redis_port),
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            "web": [
                str(BIN / "uvicorn"),
                "reversi_site.asgi:application",
                "--host",
                "127.0.0.1",
                "--port",
                str(self.web_port),
                "--workers",
                "2",
                "--no-access-log",
            ],
            "worker": [*celery_worker, "-Q", "celery,cpu", "--concurrency=2", "-n", "quick@%h"],
            # Strong searches and hints on their own queue and worker, as `make run`.
            "worker-strong": [
                *celery_worker,
                "-Q",
                "cpu-strong",
                "--concurrency=1",
                "-n",
                "strong@%h",
            ],
            "beat": [
                str(BIN / "celery"),
                "-A",
                "reversi_site",
                "beat",
                "--loglevel=warning",
                "--schedule",
                str(workdir / "celerybeat-schedule"),
            ],
        }

    def start(self, name: str) -> None:
        env = self.env
        if name.startswith("worker"):  # prefork: one persistent connection per process, no pool
            env = env | {"POSTGRES_POOL_SIZE": "0", "POSTGRES_CONN_MAX_AGE": "600"}
        log = (self.workdir / f"{name}.log").open("ab")
        self.processes[name] = subprocess.Popen(
            self.commands[name], cwd=ROOT, env=env, stdout=log, stderr=log, start_new_session=True
        )
        if name == "redis":
            wait_for(
                lambda: answers(
                    lambda: socket.create_connection(
                        ("127.0.0.1", self.redis_port), timeout=1
                    ).close()
                ),
                "redis-server",
            )
        if name == "web":
            wait_for(lambda: answers(lambda: httpx.get(f"{self.url}/healthz", timeout=2)), "web")

    def kill(self, name: str, sig: int = signal.SIGKILL) -> None:
        process = self.processes.pop(name)
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, sig)
        process.wait()

    def stop_all(self) -> None:
        for name in list(self.processes):
            self.kill(name, signal.SIGTERM)


@dataclass
class Tally:
    """What the players saw."""

    saved: list[tuple[str, int, str]] = field(default_factory=list)  # answered 201
    unanswered: list[tuple[str, int, str]] = field(default_factory=list)  # never 201
    server_errors: int = 0  # answers 500
    unavailable: int = 0  # answers 503
    stuck: list[str] = field(default_factory=list)
    cpu_moves: int = 0
    while_db_down: dict[str, int] = field(default_factory=dict)  # answers by status
    games: list[str] = field(default_factory=list)  # public ids of the games played
    sockets: dict[str, "Watcher"] = field(default_factory=dict)  # by game
    presence_expired_after: float | None = None  # seconds after the kill; None: never
    logins_while_redis_down: dict[str, int] = field(default_factory=dict)  # answers by status


class Watcher:
    """A client's websocket on a game, opened again whenever it drops (while ``reopen``), that
    keeps the last version it saw and asks for a sync on a gap."""

    def __init__(self, url: str, token: str, public_id: str, *, reopen: bool = True) -> None:
        self.url = url.replace("http", "ws", 1) + f"/ws/games/{public_id}/"
        self.headers = {"Authorization": token}
        self.reopen = reopen
        self.version = -1
        self.opened = 0  # how many times the socket was opened
        self.task = asyncio.create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                async with connect(
                    self.url, additional_headers=self.headers, open_timeout=10, ping_interval=None
                ) as websocket:
                    self.opened += 1
                    async for raw in websocket:
                        await self._receive(websocket, json.loads(raw))
            except (OSError, TimeoutError, WebSocketException):
                pass
            if not self.reopen and self.opened:
                return
            await asyncio.sleep(0.5)

    async def _receive(self, websocket: Any, event: dict[str, Any]) -> None:
        if "state" in event:
            self.version = max(self.version, event["state"]["version"])
        elif event["type"] == "move" and event["version"] == self.version + 1:
            self.version = event["version"]
        elif event["type"] in ("move", "presence") and event["version"] > self.version:
            await websocket.send(json.dumps({"type": "sync", "version": self.version}))

    async def opened_again(self, times: int, seconds: float) -> bool:
        deadline = time.monotonic() + seconds
        while self.opened < times:
            if time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.2)
        return True

    def close(self) -> None:
        self.task.cancel()


async def db_ply(postgres: Postgres, public_id: str) -> tuple[int, str] | None:
    """The game's ply and status in the database; None while PostgreSQL is down."""

    def read() -> tuple[int, str] | None:
        try:
            with postgres.connect() as connection:
                row = connection.execute(
                    "SELECT ply, status FROM games_game WHERE public_id = %s", (public_id,)
                ).fetchone()
        except psycopg.OperationalError:
            return None
        return (int(row[0]), str(row[1])) if row else None

    return await asyncio.to_thread(read)


async def request(
    http: httpx.AsyncClient, method: str, path: str, tally: Tally, **kwargs: Any
) -> httpx.Response | None:
    """One API call; None when the server did not answer (down, or killed mid-request)."""
    try:
        response = await http.request(method, path, **kwargs)
    except httpx.TransportError:
        return None
    if response.status_code == 500:
        tally.server_errors += 1
    elif response.status_code == 503:
        tally.unavailable += 1
    return response


async def state_of(http: httpx.AsyncClient, public_id: str, tally: Tally) -> dict[str, Any]:
    """The game's state over HTTP, asked again until the server answers it."""
    while True:
        response = await request(http, "GET", f"/api/games/{public_id}/", tally)
        if response is not None and response.status_code == 200:
            state: dict[str, Any] = response.json()
            return state
        await asyncio.sleep(1)


async def send_move(
    http: httpx.AsyncClient, public_id: str, ply: int, move: str, tally: Tally
) -> httpx.Response | None:
    """POST the move, sent again (as a client does) while there is no answer or a 5xx, for up
    to ``STUCK_AFTER`` seconds; the last answer (None: never one)."""
    deadline = time.monotonic() + STUCK_AFTER
    body = {"move": move, "ply": ply}
    while True:
        answer = await request(http, "POST", f"/api/games/{public_id}/moves/", tally, json=body)
        if answer is not None and answer.status_code < 500:
            return answer
        if time.monotonic() > deadline:
            return answer
        await asyncio.sleep(1)


async def play(
    http: httpx.AsyncClient, postgres: Postgres, level: str, plies: int, tally: Tally
) -> None:
    """One game against the CPU at ``level``: random legal moves up to ``plies`` plies."""
    response = None
    while response is None or response.status_code != 201:
        response = await request(http, "POST", "/api/games/", tally, json={"level": level})
        if response is not None and response.status_code in (400, 403, 409):
            raise RuntimeError(f"game refused: {response.text[:200]}")
        await asyncio.sleep(0 if response is not None and response.status_code == 201 else 1)
    state: dict[str, Any] = response.json()
    public_id, mine = state["id"], state["you"]  # a move's answer is its event: no "you" there
    tally.games.append(public_id)
    while state["status"] == "active" and state["ply"] < plies:
        ply = state["ply"]
        if state["to_move"] in mine:
            move = random.choice(sorted(state["legal_moves"]))
            answer = await send_move(http, public_id, ply, move, tally)
            if answer is not None and answer.status_code == 201:
                tally.saved.append((public_id, ply, move))
                state = answer.json()
                continue
            tally.unanswered.append((public_id, ply, move))
        else:  # the CPU's turn: watch the database, so that no read queues it again
            deadline = time.monotonic() + STUCK_AFTER
            while (found := await db_ply(postgres, public_id)) is None or found == (ply, "active"):
                if time.monotonic() > deadline:
                    tally.stuck.append(f"{public_id} at ply {ply} ({level})")
                    return
                await asyncio.sleep(0.3)
            tally.cpu_moves += 1
        state = await state_of(http, public_id, tally)


async def kill_web_with_sockets_open(
    http: httpx.AsyncClient, stack: Stack, log: Callable[[str], None], tally: Tally
) -> None:
    """Kill the ASGI server while every game has a socket open (and a few hot-seat games
    too, whose sockets are not opened again), start it again; the sockets reconnect and the
    hot-seat seats stop counting as connected."""
    token = http.headers["Authorization"]
    for public_id in tally.games:
        tally.sockets[public_id] = Watcher(stack.url, token, public_id)
    idle = []
    for _ in range(PRESENCE_GAMES):
        answer = None
        while answer is None or answer.status_code != 201:
            answer = await request(http, "POST", "/api/games/", tally, json={"mode": "local"})
        idle.append(answer.json()["id"])
    idle_sockets = [Watcher(stack.url, token, public_id, reopen=False) for public_id in idle]
    for watcher in [*tally.sockets.values(), *idle_sockets]:
        await watcher.opened_again(1, 30)
    while not all(await asyncio.gather(*(connected(http, game, tally) for game in idle))):
        await asyncio.sleep(0.5)
    log(f"kill -9 the ASGI server with {len(tally.sockets) + len(idle)} sockets open, restart it")
    stack.kill("web")
    killed = time.monotonic()
    await asyncio.to_thread(stack.start, "web")
    while time.monotonic() - killed < PRESENCE_LIMIT:
        if not any(await asyncio.gather(*(connected(http, game, tally) for game in idle))):
            tally.presence_expired_after = time.monotonic() - killed
            break
        await asyncio.sleep(1)
    log(f"the idle games' seats stopped counting after {tally.presence_expired_after} s")
    await asyncio.gather(*(watcher.opened_again(2, 60) for watcher in tally.sockets.values()))


async def connected(http: httpx.AsyncClient, public_id: str, tally: Tally) -> bool:
    """Whether any seat of a (hot-seat) game counts as connected."""
    state = await state_of(http, public_id, tally)
    return any(seat["connected"] for seat in state["seats"])


async def inject_faults(
    http: httpx.AsyncClient,
    stack: Stack,
    postgres: Postgres,
    log: Callable[[str], None],
    tally: Tally,
    credentials: dict[str, str],
) -> None:
    """The faults, one after another while the games go on."""
    await asyncio.sleep(FAULT_GAP / 2)
    log("kill -9 the Celery workers (mid-search), start them again 5 s later")
    stack.kill("worker")
    stack.kill("worker-strong")
    await asyncio.sleep(5)
    stack.start("worker")
    stack.start("worker-strong")
    await asyncio.sleep(FAULT_GAP)
    log("restart Redis (its queue and channel layer are lost); log in while it is down")
    stack.kill("redis", signal.SIGTERM)
    down_until = time.monotonic() + 3
    while time.monotonic() < down_until:
        answer = await request(http, "POST", "/api/auth/token/", tally, json=credentials)
        key = "no answer" if answer is None else str(answer.status_code)
        tally.logins_while_redis_down[key] = tally.logins_while_redis_down.get(key, 0) + 1
        await asyncio.sleep(0.5)
    await asyncio.to_thread(stack.start, "redis")
    await asyncio.sleep(FAULT_GAP)
    await kill_web_with_sockets_open(http, stack, log, tally)
    await asyncio.sleep(FAULT_GAP)
    if postgres.own:
        log(f"stop PostgreSQL for {PG_DOWN_SECONDS:.0f} s")
        await asyncio.to_thread(postgres.stop)
        down_until = time.monotonic() + PG_DOWN_SECONDS
        while time.monotonic() < down_until:  # reads meanwhile: a 503 with Retry-After
            answer = await request(http, "GET", "/api/games/?status=active", tally)
            key = "no answer" if answer is None else str(answer.status_code)
            tally.while_db_down[key] = tally.while_db_down.get(key, 0) + 1
            await asyncio.sleep(0.5)
        await asyncio.to_thread(postgres.start)
    else:
        log("PostgreSQL is the shared server: not stopped")
    log("faults done")


def socket_versions(postgres: Postgres, tally: Tally) -> tuple[int, int, list[str]]:
    """The sockets opened again after the kill, those whose last version is the database's,
    and the differences."""
    with postgres.connect() as connection:
        stored = dict(connection.execute("SELECT public_id, version FROM games_game").fetchall())
    reopened = sum(watcher.opened >= 2 for watcher in tally.sockets.values())
    differ = [
        f"{game}: socket {watcher.version}, database {stored.get(game)}"
        for game, watcher in tally.sockets.items()
        if stored.get(game) != watcher.version
    ]
    return reopened, len(tally.sockets) - len(differ), differ


def lost_moves(postgres: Postgres, saved: list[tuple[str, int, str]]) -> list[str]:
    with postgres.connect() as connection:
        stored = set(
            connection.execute(
                "SELECT g.public_id, m.ply, m.notation FROM games_move m "
                "JOIN games_game g ON g.id = m.game_id"
            ).fetchall()
        )
    return [
        f"{game} ply {ply} {move}" for game, ply, move in saved if (game, ply, move) not in stored
    ]


async def run(stack: Stack, postgres: Postgres, games: int, plies: int) -> Tally:
    started = time.monotonic()

    def log(message: str) -> None:
        print(f"[{time.monotonic() - started:6.1f} s] {message}", flush=True)

    tally = Tally()
    async with httpx.AsyncClient(base_url=stack.url, timeout=30) as http:
        credentials = {"username": f"fault{secrets.token_hex(4)}", "password": secrets.token_hex(8)}
        signup = await http.post("/api/auth/signup/", json=credentials)
        signup.raise_for_status()
        http.headers["Authorization"] = f"Token {signup.json()['token']}"
        log(f"playing {games} games against the CPU up to ply {plies}")
        players = [
            play(http, postgres, LEVELS[index % len(LEVELS)], plies, tally)
            for index in range(games)
        ]
        faults = asyncio.create_task(inject_faults(http, stack, postgres, log, tally, credentials))
        await asyncio.gather(*players)
        await faults
        await asyncio.sleep(SETTLE)
        for watcher in tally.sockets.values():
            watcher.close()
    log("games done")
    return tally


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=6, help="games played at once (6)")
    parser.add_argument("--plies", type=int, default=30, help="plies per game (30)")
    options = parser.parse_args()
    subprocess.run([sys.executable, "-m", "ai_worker", "warmup"], cwd=ROOT, check=True)
    with tempfile.TemporaryDirectory(prefix="reversi-faults-") as tmp:
        workdir = Path(tmp)
        postgres = Postgres(workdir)
        postgres.setup()
        stack = Stack(workdir, postgres)
        try:
            stack.start("redis")
            subprocess.run(
                [sys.executable, "manage.py", "migrate", "--noinput", "-v", "0"],
                cwd=ROOT,
                env=stack.env,
                check=True,
            )
            for name in ("web", "worker", "worker-strong", "beat"):
                stack.start(name)
            tally = asyncio.run(run(stack, postgres, options.games, options.plies))
            lost = lost_moves(postgres, tally.saved)
            unanswered = lost_moves(postgres, tally.unanswered)
            saved_but_failed = len(tally.unanswered) - len(unanswered)
            reopened, same_version, versions_differ = socket_versions(postgres, tally)
        finally:
            stack.stop_all()
            postgres.teardown()
            logs = [path for path in workdir.glob("*.log")]
            if logs:
                kept = ROOT / "test-artifacts" / "faults"
                kept.mkdir(parents=True, exist_ok=True)
                for path in logs:
                    shutil.copy(path, kept / path.name)
    print(f"moves answered 201: {len(tally.saved)}; CPU moves seen: {tally.cpu_moves}")
    print(
        f"answers 503 (retried): {tally.unavailable}; writes not answered: {len(tally.unanswered)}"
    )
    print(f"answers to reads while PostgreSQL was down: {tally.while_db_down}")
    print(f"moves lost: {len(lost)}")
    print(f"games stuck: {len(tally.stuck)}")
    print(f"500s for saved writes: {saved_but_failed} (answers 500 in all: {tally.server_errors})")
    sockets = len(tally.sockets)
    print(f"sockets opened again after the ASGI server was killed: {reopened} of {sockets}")
    print(f"sockets ending at the database's version: {same_version} of {sockets}")
    expired = tally.presence_expired_after
    print(
        "presence of the sockets not opened again: "
        + (f"expired {expired:.0f} s after the kill" if expired is not None else "never expired")
    )
    print(f"logins (token endpoint) while Redis was down: {tally.logins_while_redis_down}")
    for line in lost + tally.stuck + versions_differ:
        print(f"  {line}")
    logins_failed = set(tally.logins_while_redis_down) - {"200"}
    failed = lost or tally.stuck or saved_but_failed or tally.server_errors or versions_differ
    return 1 if failed or reopened < sockets or expired is None or logins_failed else 0


if __name__ == "__main__":
    sys.exit(main())
