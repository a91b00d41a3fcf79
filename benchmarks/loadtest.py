"""Load test: play N concurrent games against the CPU through the HTTP API and websockets.

    .venv/bin/python benchmarks/loadtest.py --games 50 --base-url http://127.0.0.1:8000

One account (signed up at the start) plays black in every game, picking random legal moves;
the CPU levels take turns across the games. Figures printed at the end:

- moves/s: every move applied (the player's and the CPU's) per second of the run;
- move latency: ``POST /moves/`` round trip;
- push latency: from sending the move to its websocket event arriving;
- CPU reply latency per level: from the player's move event to the CPU's move event (queueing
  on the worker pool included).

The client needs ``httpx`` and ``websockets`` (the ``dev`` extra).
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
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.typing import Origin

from ai_worker.levels import LEVELS

STAGGER = 0.05
# A JSON object of the API or the websocket (a game state, an event).
Message = dict[str, Any]


@dataclass
class Figures:
    """Latencies in seconds, gathered over the whole run."""

    move: list[float] = field(default_factory=list)
    push: list[float] = field(default_factory=list)
    cpu_reply: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    moves_applied: int = 0
    finished_games: int = 0
    errors: list[str] = field(default_factory=list)


class GameSocket:
    """A game's websocket; every message is stamped with its arrival time by a reader task."""

    def __init__(self, websocket: ClientConnection) -> None:
        self.websocket = websocket
        self.messages: asyncio.Queue[tuple[float, Message | None]] = asyncio.Queue()
        self.reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        try:
            async for raw in self.websocket:
                self.messages.put_nowait((time.perf_counter(), json.loads(raw)))
        finally:
            self.messages.put_nowait((time.perf_counter(), None))

    async def next(self, timeout: float) -> tuple[float, Message]:
        try:
            arrived, message = await asyncio.wait_for(self.messages.get(), timeout)
        except TimeoutError:
            raise TimeoutError(f"no websocket message for {timeout:.0f} s") from None
        if message is None:
            raise ConnectionError(f"websocket closed (code {self.websocket.close_code})")
        return arrived, message

    def close(self) -> None:
        self.reader.cancel()


async def play_game(
    index: int,
    level: str,
    http: httpx.AsyncClient,
    token: str,
    base_url: str,
    deadline: float,
    figures: Figures,
) -> None:
    """Play black against the CPU at ``level`` until the game ends or the deadline passes."""
    rng = random.Random(index)
    await asyncio.sleep(index * STAGGER)  # players arrive over a moment, not all in one tick
    created = await http.post("/api/games/", json={"mode": "cpu", "level": level})
    created.raise_for_status()
    game_id = created.json()["id"]
    ws_url = base_url.replace("http", "ws", 1) + f"/ws/games/{game_id}/?token={token}"
    # The server pings; a client ping unanswered under load would close a healthy socket.
    async with connect(
        ws_url, origin=Origin(base_url), open_timeout=30, ping_interval=None
    ) as websocket:
        socket = GameSocket(websocket)
        try:
            _, first = await socket.next(timeout=30)
            state = first["state"]
            while state["status"] == "active" and time.perf_counter() < deadline:
                ply = state["ply"]
                notation = rng.choice(sorted(state["legal_moves"]))  # move -> its flips
                sent = time.perf_counter()
                response = await http.post(
                    f"/api/games/{game_id}/moves/", json={"move": notation, "ply": ply}
                )
                figures.move.append(time.perf_counter() - sent)
                if response.status_code != 201:
                    figures.errors.append(f"game {game_id}: {response.text}")
                    return
                figures.moves_applied += 1
                state = await wait_for_reply(socket, ply, sent, level, deadline, figures)
            figures.finished_games += state["status"] == "finished"
        finally:
            socket.close()


async def wait_for_reply(
    socket: GameSocket, ply: int, sent: float, level: str, deadline: float, figures: Figures
) -> Message:
    """Read events until the player is to move again (or the game ends); note the latencies."""
    own_event_at = None
    while True:
        arrived, message = await socket.next(timeout=max(1.0, deadline - time.perf_counter()) + 60)
        state: Message = message["state"]
        if message["type"] != "move" or state["ply"] <= ply:
            continue
        if own_event_at is None:
            own_event_at = arrived
            figures.push.append(arrived - sent)
        elif state["last_move"] and state["last_move"]["color"] != "black":
            figures.cpu_reply[level].append(arrived - own_event_at)
            figures.moves_applied += 1
            own_event_at = arrived
        if state["status"] != "active" or state["to_move"] in state["you"]:
            return state


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(share * len(ordered)))]


def report(figures: Figures, games: int, elapsed: float) -> str:
    def line(name: str, values: list[float]) -> str:
        if not values:
            return f"{name:<26} no samples"
        return (
            f"{name:<26} p50 {percentile(values, 0.5) * 1000:8.1f} ms   "
            f"p99 {percentile(values, 0.99) * 1000:8.1f} ms   "
            f"mean {statistics.fmean(values) * 1000:8.1f} ms   n={len(values)}"
        )

    lines = [
        f"games: {games} concurrent, {figures.finished_games} finished, {elapsed:.1f} s",
        f"moves applied: {figures.moves_applied} ({figures.moves_applied / elapsed:.1f} moves/s)",
        line("move latency (POST)", figures.move),
        line("push latency (websocket)", figures.push),
    ]
    lines += [line(f"CPU reply latency {level}", figures.cpu_reply[level]) for level in LEVELS]
    lines.append(f"errors: {len(figures.errors)}")
    lines += figures.errors[:5]
    return "\n".join(lines)


async def run(args: argparse.Namespace) -> Figures:
    base_url = args.base_url.rstrip("/")
    figures = Figures()
    async with httpx.AsyncClient(base_url=base_url, timeout=60) as anonymous:
        signup = await anonymous.post(
            "/api/auth/signup/",
            json={"username": f"load-{secrets.token_hex(4)}", "password": secrets.token_hex(16)},
        )
        signup.raise_for_status()
    token = signup.json()["token"]
    limits = httpx.Limits(max_connections=args.games)
    async with httpx.AsyncClient(
        base_url=base_url, timeout=60, headers={"Authorization": f"Token {token}"}, limits=limits
    ) as http:
        deadline = time.perf_counter() + args.duration
        results = await asyncio.gather(
            *(
                play_game(
                    i, args.levels[i % len(args.levels)], http, token, base_url, deadline, figures
                )
                for i in range(args.games)
            ),
            return_exceptions=True,
        )
    figures.errors += [
        f"{type(result).__name__}: {result}"
        for result in results
        if isinstance(result, BaseException)
    ]
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="benchmarks/loadtest.py", description=__doc__.split("\n")[0]
    )
    parser.add_argument("--games", type=int, default=50, help="concurrent games (default 50)")
    parser.add_argument("--base-url", default="http://127.0.0.1:8000")
    parser.add_argument("--duration", type=float, default=60, help="seconds to play (default 60)")
    parser.add_argument(
        "--levels",
        type=lambda text: text.split(","),
        default=list(LEVELS),
        help="CPU levels, comma-separated, dealt to the games in turn",
    )
    args = parser.parse_args(argv)
    started = time.perf_counter()
    figures = asyncio.run(run(args))
    print(report(figures, args.games, time.perf_counter() - started))
    return 1 if figures.errors else 0


if __name__ == "__main__":
    sys.exit(main())
