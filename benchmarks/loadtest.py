"""Load test: N concurrent games through the HTTP API and the websocket, players thinking.

    .venv/bin/python benchmarks/loadtest.py --games 50 --base-url http://127.0.0.1:8000

Each game has its own player (an account signed up at the start, as many people would; the
server limits the CPU searches one player has queued), who plays one game after another until
``--duration`` ends, black, picking random legal moves
after thinking ``--think`` seconds (default 1 s) each time it may move, so the offered load is
known (``--think 0`` fires as fast as the server answers: the most moves/s it sustains). The
games are against the CPU, the levels dealt in turn (``--levels``), or hot-seat (``--hot-seat``,
the player moves for both colours; ``hot-seat`` may also be one of ``--levels``). Figures
printed at the end:

- moves/s: every move applied (the player's and the CPU's) per second of the run;
- POST: the ``POST /moves/`` round trip;
- push: from sending the move to its websocket event arriving;
- CPU reply per level: from the player's move event to the CPU's move event (queueing on the
  worker pool included);
- out of order: websocket events whose version is not one more than the last one seen (each
  such gap is resynced, as the README's protocol says);
- baseline: ``GET /healthz`` round trips measured all along the run, to read the figures as
  ratios on a noisy machine;
- the client's lag: how late the load client's own event loop wakes from a 10 ms sleep,
  measured all along the run. Every latency above includes it: when it is high, the figures
  measure the client, not the server;
- retries: requests sent again after a transient connection error (``httpx.TransportError``:
  a kept-alive connection the server closed as the client reused it, a reset, a timeout), at
  most ``RETRIES`` times each, counted apart from the errors. A move sent again is safe: the
  server answers a move repeated at its ply with the game as it is (README, Faults);
- 503 answers sent again: a request answered 503 with ``Retry-After`` (no pooled database
  connection free in time: the stack is overloaded) is sent again once that time has passed,
  as the API asks of its clients, at most ``RETRIES`` times; counted apart from the errors
  (the baseline's ``GET /healthz`` is never sent again: its 503 is an error).

``--drop-every S`` makes it a soak: each client drops its socket at random (about every S
seconds, half of the times without a closing handshake) and opens it again, and plays one game
after another until ``--duration`` ends; it then waits for its game to come to rest and keeps
the last version it saw (``Figures.last_versions``, for ``benchmarks/service.py`` to compare
with the server's).

The client needs ``httpx`` and ``websockets`` (the ``dev`` extra). ``--legacy-auth`` also
sends the token in the query string with an ``Origin`` (servers before the Authorization
header), to measure an older commit with the same client.
"""

import argparse
import asyncio
import json
import random
import secrets
import statistics
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import InvalidHandshake
from websockets.typing import Origin

from ai_worker.levels import LEVELS

STAGGER = 0.05
BASELINE_EVERY = 0.25  # seconds between two GET /healthz of the baseline
LAG_EVERY = 0.01  # seconds of the sleep whose late wake-ups are the client's lag
RETRIES = 3  # times a request is sent again after a transient connection error
RETRY_PAUSE = 0.2  # seconds before the first retry, doubled before each next one
RETRY_AFTER_SHARE = 1.0  # of a 503's Retry-After waited before the request is sent again
HOT_SEAT = "hot-seat"
OPEN_TIMEOUT = 30.0  # seconds for a websocket's handshake and its first state
# A soak socket that could not be opened: no handshake in time, refused, or cut while opening.
OPEN_FAILURES = (TimeoutError, OSError, InvalidHandshake)
# A JSON object of the API or the websocket (a game state, an event).
Message = dict[str, Any]


@dataclass
class Figures:
    """Latencies in seconds, gathered over the whole run."""

    move: list[float] = field(default_factory=list)
    push: list[float] = field(default_factory=list)
    cpu_reply: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    baseline: list[float] = field(default_factory=list)
    client_lag: list[float] = field(default_factory=list)
    seconds: float = 0.0  # from the players' start to the last one's end
    moves_applied: int = 0
    finished_games: int = 0
    out_of_order: int = 0
    errors: list[str] = field(default_factory=list)
    retries: int = 0
    unavailable: int = 0  # 503 answers (no pooled connection in time) sent again after a wait
    games_started: int = 0
    reconnects: int = 0
    last_versions: dict[str, int] = field(default_factory=dict)  # game id -> last version seen


class GameView:
    """One client's view of a game from its websocket: the state it was sent, moved on by
    each move event (the protocol of games/consumers.py, and the whole state of older servers)."""

    def __init__(self, websocket: ClientConnection, figures: Figures) -> None:
        self.websocket = websocket
        self.figures = figures
        self.state: Message = {}
        self.you: list[str] = []
        self.changed = asyncio.Event()
        self.last_event: tuple[float, Message] | None = None  # arrival time, the move event
        self.moves: asyncio.Queue[tuple[float, Message]] = asyncio.Queue()
        self.closed = False
        self.resyncs: set[asyncio.Task[None]] = set()  # the sync requests being sent
        self.resyncing = False  # a sync was sent after a gap and its state has not come yet
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.websocket:
                self.receive(time.perf_counter(), json.loads(raw))
        finally:
            self.closed = True
            self.changed.set()

    def receive(self, arrived: float, message: Message) -> None:
        if "state" in message:  # a whole state: on connect, resync, rare changes, older servers
            state = message["state"]
            if self.state and message["type"] != "state":
                self.follows(message["version"], resync=False)
            if not self.state or state["version"] >= self.state["version"]:
                self.state, self.you = state, state["you"]
                self.resyncing = False
            if message["type"] == "move":
                self.moves.put_nowait((arrived, {**state, "move": state["last_move"]}))
            elif message["type"] == "state":
                # On connect or a resync's answer: the moves it covers come in no event of their
                # own, so a player waiting for its turn (``wait_for_turn``) reads the state.
                self.moves.put_nowait((arrived, {**self.state, "move": None}))
        elif message["type"] == "synced":  # the version sent was the server's: nothing missed
            self.resyncing = False
        elif message["type"] == "move":
            if not self.follows(message["version"], resync=True):
                return
            self.state = {**self.state, **message}
            self.moves.put_nowait((arrived, message))
        self.changed.set()

    def follows(self, version: int, *, resync: bool) -> bool:
        """Whether an event follows the last version seen. A gap counts as out of order once
        and, for a ``resync`` event, asks for the state once; until it comes, later events
        are dropped (the state has them)."""
        expected = self.state["version"] + 1
        if version == expected:
            return True
        if version < expected or self.resyncing:
            return False
        self.figures.out_of_order += 1
        if resync:
            self.resyncing = True
            sync = json.dumps({"type": "sync", "version": self.state["version"]})
            task = asyncio.create_task(self.websocket.send(sync))
            self.resyncs.add(task)
            task.add_done_callback(self.resyncs.discard)
        return False

    async def next_move(self, timeout: float) -> tuple[float, Message]:
        try:
            return await asyncio.wait_for(self.moves.get(), timeout)
        except TimeoutError:
            closed = f" (websocket closed, code {self.websocket.close_code})" if self.closed else ""
            raise TimeoutError(f"no move event for {timeout:.0f} s{closed}") from None

    async def first_state(self, timeout: float) -> Message:
        deadline = time.perf_counter() + timeout
        while not self.state:
            self.changed.clear()
            await asyncio.wait_for(self.changed.wait(), max(0.0, deadline - time.perf_counter()))
            if self.closed and not self.state:
                raise ConnectionError(f"websocket closed (code {self.websocket.close_code})")
        return self.state

    async def wait_until(self, ready: Callable[[Message], bool], timeout: float) -> bool:
        """Wait (at most ``timeout`` s) until the state satisfies ``ready``; False on timeout."""
        deadline = time.perf_counter() + timeout
        while not ready(self.state):
            remaining = deadline - time.perf_counter()
            if self.closed:
                raise ConnectionError(f"websocket closed (code {self.websocket.close_code})")
            if remaining <= 0:
                return False
            self.changed.clear()
            try:
                await asyncio.wait_for(self.changed.wait(), remaining)
            except TimeoutError:
                return False
        return True

    def close(self) -> None:
        self.reader.cancel()


async def play_game(
    index: int,
    level: str,
    base_url: str,
    args: argparse.Namespace,
    token: str,
    deadline: float,
    figures: Figures,
) -> None:
    """Play until the game ends or the deadline passes: black against the CPU at ``level``,
    or both colours of a hot-seat game (with ``--drop-every``, the soak's games)."""
    await asyncio.sleep(index * STAGGER)  # players arrive over a moment, not all in one tick
    headers = {"Authorization": f"Token {token}"}
    async with httpx.AsyncClient(base_url=base_url, timeout=60, headers=headers) as http:
        player = Player(http, random.Random(index), level, base_url, args, token, figures)
        await (soak(player, deadline) if args.drop_every else play(player, deadline))


@dataclass
class Player:
    """One player of the load test: its HTTP client, its random moves, its games' level."""

    http: httpx.AsyncClient
    rng: random.Random
    level: str
    base_url: str
    args: argparse.Namespace
    token: str
    figures: Figures

    async def create_game(self) -> str:
        """A new game against the CPU at the player's level, or hot-seat; its public id."""
        cpu = {"mode": "cpu", "level": self.level}
        body = {"mode": "local"} if self.level == HOT_SEAT else cpu
        created = await send(self.http, self.figures, "POST", "/api/games/", json=body)
        created.raise_for_status()
        game_id: str = created.json()["id"]
        return game_id

    def socket(self, game_id: str) -> connect:
        """The game's websocket (to use with ``async with``), authenticated by the token."""
        ws_url = self.base_url.replace("http", "ws", 1) + f"/ws/games/{game_id}/"
        options: dict[str, Any] = {"additional_headers": {"Authorization": f"Token {self.token}"}}
        if self.args.legacy_auth:
            ws_url += f"?token={self.token}"
            options["origin"] = Origin(self.base_url)
        # The server pings; a client ping unanswered under load would close a healthy socket.
        return connect(ws_url, open_timeout=OPEN_TIMEOUT, ping_interval=None, **options)

    async def move(self, game_id: str, state: Message) -> Message | None:
        """Send a random legal move at the state's ply; the game after it, None if refused."""
        notation = self.rng.choice(sorted(state["legal_moves"]))  # move -> its flips
        sent = time.perf_counter()
        response = await send(
            self.http,
            self.figures,
            "POST",
            f"/api/games/{game_id}/moves/",
            json={"move": notation, "ply": state["ply"]},
        )
        self.figures.move.append(time.perf_counter() - sent)
        if response.status_code != 201:
            self.figures.errors.append(f"game {game_id}: {response.text[:200]}")
            return None
        self.figures.moves_applied += 1
        answer: Message = response.json()
        return answer


async def send(
    http: httpx.AsyncClient,
    figures: Figures,
    method: str,
    url: str,
    *,
    wait_when_unavailable: bool = True,
    **options: Any,
) -> httpx.Response:
    """``http.request``, sent again (at most ``RETRIES`` times, each counted in
    ``figures.retries``) after a transient connection error, the last one raised; and, with
    ``wait_when_unavailable``, after a 503 once its ``Retry-After`` has passed (as the API
    asks; at most ``RETRIES`` times, each counted in ``figures.unavailable``), the last 503
    returned."""
    attempt = waited = 0
    while True:
        try:
            response = await http.request(method, url, **options)
        except httpx.TransportError:
            if attempt == RETRIES:
                raise
            figures.retries += 1
            await asyncio.sleep(RETRY_PAUSE * 2**attempt)
            attempt += 1
            continue
        retry_after = response.headers.get("Retry-After", "")
        busy = response.status_code == httpx.codes.SERVICE_UNAVAILABLE and retry_after.isdigit()
        if not (busy and wait_when_unavailable) or waited == RETRIES:
            return response
        figures.unavailable += 1
        await asyncio.sleep(int(retry_after) * RETRY_AFTER_SHARE)
        waited += 1


async def play(player: Player, deadline: float) -> None:
    """Games one after another until the deadline (so that the games in play stay as many),
    their latencies noted: the push of each move and the CPU's replies."""
    while time.perf_counter() < deadline:
        await play_one(player, deadline)


async def play_one(player: Player, deadline: float) -> None:
    figures = player.figures
    game_id = await player.create_game()
    async with player.socket(game_id) as websocket:
        view = GameView(websocket, figures)
        try:
            state = await view.first_state(timeout=30)
            while state["status"] == "active" and time.perf_counter() < deadline:
                await asyncio.sleep(player.args.think)
                sent = time.perf_counter()
                if await player.move(game_id, state) is None:
                    raise RuntimeError(f"move refused in game {game_id}")
                state = await wait_for_turn(
                    view, state["ply"], sent, player.level, deadline, figures
                )
            figures.finished_games += state["status"] == "finished"
        finally:
            view.close()


async def soak(player: Player, deadline: float) -> None:
    """Games one after another until the deadline, each played over a socket that drops at
    random and is opened again; the last version seen of each game is kept. A socket whose
    handshake fails (refused, or not answered within ``OPEN_TIMEOUT`` by an overloaded stack)
    is opened again, counted in ``figures.retries``."""
    figures, rng = player.figures, player.rng
    while time.perf_counter() < deadline:
        game = SoakGame(await player.create_game())
        figures.games_started += 1
        while not game.finished:
            try:
                if await soak_connection(player, game, deadline):
                    return
            except OPEN_FAILURES:
                figures.retries += 1
                if time.perf_counter() >= deadline:
                    return
            await asyncio.sleep(rng.random())


async def soak_connection(player: Player, game: "SoakGame", deadline: float) -> bool:
    """Play ``game`` over one socket until it drops (at random) or the game ends; True once
    the deadline has passed and the last version is kept."""
    figures, rng = player.figures, player.rng
    drop_at = time.perf_counter() + rng.expovariate(1 / player.args.drop_every)
    async with player.socket(game.id) as websocket:
        view = GameView(websocket, figures)
        try:
            await view.first_state(timeout=OPEN_TIMEOUT)
            await play_until(view, player, game, min(deadline, drop_at))
            figures.last_versions[game.id] = view.state["version"]
            if time.perf_counter() >= deadline:
                await view.wait_until(game.at_rest, timeout=60)
                figures.last_versions[game.id] = view.state["version"]
                return True
        except ConnectionError:  # the server closed it: open it again
            pass
        finally:
            view.close()
        if not game.finished:
            figures.reconnects += 1
            if rng.random() < 0.5:  # dropped without a closing handshake
                websocket.transport.abort()
    return False


@dataclass
class SoakGame:
    """A soak client's game: its id, the version its last move was answered with, its end."""

    id: str
    moved_version: int = 0
    finished: bool = False

    def at_rest(self, state: Message) -> bool:
        """Whether nothing will change the game until its player moves again (or it is over):
        the player's last move came back, then the CPU's answer if any."""
        if state["version"] < self.moved_version:
            return False
        return state["status"] != "active" or state["to_move"] in state["you"]


async def play_until(view: GameView, player: Player, game: SoakGame, until: float) -> None:
    """Move whenever the state says so until ``until`` or the end of the game."""
    while (remaining := until - time.perf_counter()) > 0:
        state = view.state
        if state["status"] != "active":
            game.finished = True
            return
        if state["to_move"] not in view.you:
            await view.wait_until(past(state["ply"]), remaining)
            continue
        await asyncio.sleep(min(player.args.think, remaining))
        if time.perf_counter() >= until:
            return
        answer = await player.move(game.id, state)
        if answer is None:
            raise RuntimeError(f"move refused in game {game.id}")
        game.moved_version = answer["version"]
        await view.wait_until(past(state["ply"]), until - time.perf_counter())


def past(ply: int) -> Callable[[Message], bool]:
    """Whether a state has moved on from ``ply``."""
    return lambda state: bool(state["ply"] > ply)


async def wait_for_turn(
    view: GameView, ply: int, sent: float, level: str, deadline: float, figures: Figures
) -> Message:
    """Read move events until the player may move again (or the game ends); note latencies.
    A whole state (a resync after a gap) may stand for several moves: it ends the wait when it
    says so, and the latencies of the moves it covers are not known (none is noted)."""
    own_event_at = None
    while True:
        timeout = max(1.0, deadline - time.perf_counter()) + 60
        arrived, event = await view.next_move(timeout)
        if event["ply"] <= ply:
            continue
        if event["move"] is None:
            own_event_at = -1.0  # the own move's push is not known, nor the reply's
        elif own_event_at is None:
            own_event_at = arrived
            figures.push.append(arrived - sent)
        elif event["move"]["color"] != "black":
            if own_event_at >= 0:
                figures.cpu_reply[level].append(arrived - own_event_at)
            figures.moves_applied += 1
            own_event_at = arrived
        state = view.state
        if state["status"] != "active" or state["to_move"] in view.you:
            return state


async def measure_baseline(http: httpx.AsyncClient, deadline: float, figures: Figures) -> None:
    """``GET /healthz`` round trips until the deadline: the server's floor in this run. An
    answer other than 200 (a 503 while no database connection is free) is an error; the
    baseline goes on."""
    while time.perf_counter() < deadline:
        sent = time.perf_counter()
        response = await send(http, figures, "GET", "/healthz", wait_when_unavailable=False)
        figures.baseline.append(time.perf_counter() - sent)
        if response.status_code != httpx.codes.OK:
            figures.errors.append(f"GET /healthz: {response.status_code} {response.text[:100]}")
        await asyncio.sleep(BASELINE_EVERY)


async def measure_client_lag(deadline: float, figures: Figures) -> None:
    """How late this process's event loop wakes from a ``LAG_EVERY`` sleep, until the deadline:
    the delay every latency measured in this process carries."""
    while time.perf_counter() < deadline:
        slept = time.perf_counter()
        await asyncio.sleep(LAG_EVERY)
        figures.client_lag.append(max(0.0, time.perf_counter() - slept - LAG_EVERY))


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(figures: Figures, games: int, levels: list[str]) -> str:
    """The run's figures as text, moves/s over the players' own time (``Figures.seconds``)."""

    def line(name: str, values: list[float]) -> str:
        if not values:
            return f"{name:<26} no samples"
        return (
            f"{name:<26} p50 {percentile(values, 0.5) * 1000:8.1f} ms   "
            f"p99 {percentile(values, 0.99) * 1000:8.1f} ms   "
            f"mean {statistics.fmean(values) * 1000:8.1f} ms   n={len(values)}"
        )

    lines = [
        f"games: {games} concurrent, {figures.finished_games} finished, {figures.seconds:.1f} s",
        f"moves applied: {figures.moves_applied} "
        f"({figures.moves_applied / figures.seconds:.1f} moves/s)",
        line("baseline (GET /healthz)", figures.baseline),
        line("move latency (POST)", figures.move),
        line("push latency (websocket)", figures.push),
        line("the client's lag (loop)", figures.client_lag),
    ]
    lines += [
        line(f"CPU reply latency {level}", figures.cpu_reply[level])
        for level in LEVELS
        if level in levels
    ]
    if figures.games_started:
        lines.append(f"games started: {figures.games_started}; reconnects: {figures.reconnects}")
    lines.append(f"out-of-order events: {figures.out_of_order}")
    lines.append(f"retries (transient connection errors): {figures.retries}")
    lines.append(f"503 answers sent again after their Retry-After: {figures.unavailable}")
    lines.append(f"errors: {len(figures.errors)}")
    lines += figures.errors[:5]
    return "\n".join(lines)


async def sign_up(http: httpx.AsyncClient) -> str:
    """A new account's token."""
    answer = await http.post(
        "/api/auth/signup/",
        json={"username": f"load-{secrets.token_hex(6)}", "password": secrets.token_hex(16)},
    )
    answer.raise_for_status()
    token: str = answer.json()["token"]
    return token


async def run(args: argparse.Namespace, tokens: list[str] | None = None) -> Figures:
    """Play the games (one player each: ``tokens``, else accounts signed up now), the baseline
    and the client's lag measured meanwhile."""
    base_url = args.base_url.rstrip("/")
    figures = Figures()
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as anonymous:
        if tokens is None:
            tokens = [await sign_up(anonymous) for _ in range(args.games)]
        tokens = tokens[: args.games]
        levels = [HOT_SEAT] if args.hot_seat else args.levels
        started = time.perf_counter()
        deadline = started + args.duration
        measured = [
            asyncio.create_task(measure_baseline(anonymous, deadline, figures)),
            asyncio.create_task(measure_client_lag(deadline, figures)),
        ]
        results = await asyncio.gather(
            *(
                play_game(i, levels[i % len(levels)], base_url, args, token, deadline, figures)
                for i, token in enumerate(tokens)
            ),
            return_exceptions=True,
        )
        await asyncio.gather(*measured)
        figures.seconds = time.perf_counter() - started
    figures.errors += [
        f"{type(result).__name__}: {result}"
        for result in results
        if isinstance(result, BaseException)
    ]
    return figures


def parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="benchmarks/loadtest.py", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--duration", type=float, default=60, help="seconds to play (default 60)")
    parser.add_argument(
        "--think", type=float, default=1.0, help="seconds a player thinks (default 1)"
    )
    parser.add_argument(
        "--levels",
        type=lambda text: text.split(","),
        default=list(LEVELS),
        help="CPU levels, comma-separated, dealt to the games in turn",
    )
    parser.add_argument("--hot-seat", action="store_true", help="hot-seat games, no CPU")
    parser.add_argument(
        "--legacy-auth", action="store_true", help="also ?token= and Origin (older servers)"
    )
    parser.add_argument(
        "--drop-every",
        type=float,
        default=0,
        help="soak: drop each socket at random about every this many seconds (0: never)",
    )
    return parser


def main(argv: list[str] | None = None) -> int:
    args = parser().parse_args(argv)
    figures = asyncio.run(run(args))
    levels = [HOT_SEAT] if args.hot_seat else args.levels
    print(report(figures, args.games, levels))
    return 1 if figures.errors or figures.out_of_order else 0


if __name__ == "__main__":
    sys.exit(main())
