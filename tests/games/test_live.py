"""End to end: a real daphne server and Celery worker (the CPU's reply arrives on the websocket),
and uvicorn with its workers as ``make run`` serves (sockets that vanish stop counting and
never keep the server from stopping)."""

import asyncio
import json
import random
import signal
import subprocess
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from django.db import connection
from websockets.asyncio.client import ClientConnection, connect

from games import selectors
from games.models import Game
from games.shared import presence as presence_store
from tests.servers import celery_worker, daphne, uvicorn

REPLY_TIMEOUT = 60
SPECTATORS = 30  # sockets opened at once
PROMPTLY = 8.0  # seconds: less than a heartbeat, far less than presence.TTL


@pytest.fixture
def live_server_url(transactional_db: None) -> Iterator[str]:
    """daphne and a solo-pool Celery worker on the test database and this suite's Redis db."""
    queue = f"cpu-test-{uuid.uuid4().hex}"  # no other worker on this Redis takes its tasks
    env = {"POSTGRES_DB": connection.settings_dict["NAME"], "CELERY_CPU_QUEUE": queue}
    with celery_worker(queue, env), daphne(env) as url:
        yield url


def test_cpu_reply_arrives_over_the_websocket(live_server_url: str, alice) -> None:
    client, _ = alice
    headers = {"Authorization": client._credentials["HTTP_AUTHORIZATION"]}
    http = httpx.Client(base_url=live_server_url, headers=headers, timeout=10)
    game = http.post("/api/games/", json={"mode": "cpu", "level": "easy"}).json()

    async def play() -> list[dict]:
        ws_url = live_server_url.replace("http", "ws") + f"/ws/games/{game['id']}/"
        async with connect(ws_url, additional_headers=headers) as websocket:  # no Origin
            first = json.loads(await websocket.recv())
            assert (first["type"], first["state"]["you"]) == ("state", ["black"])
            posted = http.post(f"/api/games/{game['id']}/moves/", json={"move": "f5", "ply": 0})
            assert posted.status_code == 201
            events = []
            while not events or events[-1]["ply"] < 2:
                message = json.loads(await asyncio.wait_for(websocket.recv(), REPLY_TIMEOUT))
                if message["type"] == "move":
                    events.append(message)
            return events

    events = asyncio.run(play())
    assert [event["ply"] for event in events] == [1, 2]
    assert [event["version"] for event in events] == [2, 3]
    reply = events[-1]
    assert reply["move"]["color"] == "white"
    assert reply["to_move"] == "black"
    assert selectors.replays_to_position(Game.objects.get(public_id=game["id"]))


@pytest.fixture
def web_tier(transactional_db: None) -> Iterator[tuple[str, subprocess.Popen]]:
    """uvicorn with two workers (``make run``'s web tier) on the test database, behind one
    trusted proxy: each spectator below comes from an address of its own (X-Forwarded-For)."""
    env = {"POSTGRES_DB": connection.settings_dict["NAME"], "DJANGO_TRUSTED_PROXY_COUNT": "1"}
    with uvicorn(env) as served:
        yield served


def watched_game(url: str, alice) -> tuple[httpx.Client, str]:
    """A CPU game of alice's (her API client and the game's id): every socket but hers watches."""
    client, _ = alice
    headers = {"Authorization": client._credentials["HTTP_AUTHORIZATION"]}
    http = httpx.Client(base_url=url, headers=headers, timeout=10)
    return http, http.post("/api/games/", json={"mode": "cpu", "level": "easy"}).json()["id"]


def address(number: int) -> str:
    """The client address of spectator ``number``."""
    return f"10.1.{number // 250}.{number % 250 + 1}"


async def spectate(ws_url: str, number: int) -> ClientConnection:
    """The socket of spectator ``number`` (no credentials), once it has its state."""
    websocket = await connect(
        ws_url, open_timeout=30, additional_headers={"X-Forwarded-For": address(number)}
    )
    assert json.loads(await asyncio.wait_for(websocket.recv(), 30))["type"] == "state"
    return websocket


async def vanish_mid_connect(url: str, path: str, number: int) -> None:
    """Send the opening handshake, then drop the TCP connection before (or as) it is answered."""
    host, port = url.removeprefix("http://").split(":")
    _, writer = await asyncio.open_connection(host, int(port))
    writer.write(
        f"GET {path} HTTP/1.1\r\nHost: {host}:{port}\r\nUpgrade: websocket\r\n"
        f"X-Forwarded-For: {address(number)}\r\nConnection: Upgrade\r\n"
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
    )
    await writer.drain()
    await asyncio.sleep(random.uniform(0, 0.2))
    writer.transport.abort()


def spectators_after(http: httpx.Client, game_id: str, seconds: float) -> int:
    """The game's spectator count once it is 0, or when ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    while (count := http.get(f"/api/games/{game_id}/").json()["spectators"]) and (
        time.monotonic() < deadline
    ):
        time.sleep(0.5)
    return count


def test_spectator_sockets_that_vanish_stop_counting_at_once(web_tier, alice) -> None:
    """Sockets dropped without a close frame while a move is sent to them, and sockets dropped
    in the middle of their handshake, leave the count at once: none keeps being renewed."""
    url, _ = web_tier
    http, game_id = watched_game(url, alice)
    path = f"/ws/games/{game_id}/"

    async def watch_and_vanish() -> int:
        sockets = await asyncio.gather(
            *(spectate(url.replace("http", "ws") + path, number) for number in range(SPECTATORS))
        )
        counted = http.get(f"/api/games/{game_id}/").json()["spectators"]
        halfway = [
            asyncio.create_task(vanish_mid_connect(url, path, SPECTATORS + number))
            for number in range(SPECTATORS)
        ]
        for websocket in sockets:
            websocket.transport.abort()
        assert (
            http.post(f"/api/games/{game_id}/moves/", json={"move": "f5", "ply": 0}).status_code
            == 201
        )
        await asyncio.gather(*halfway)
        return counted

    assert asyncio.run(watch_and_vanish()) == SPECTATORS
    assert spectators_after(http, game_id, PROMPTLY) == 0
    time.sleep(presence_store.HEARTBEAT + 1)  # no consumer left behind renews its socket
    assert http.get(f"/api/games/{game_id}/").json()["spectators"] == 0


def test_the_web_tier_stops_on_sigterm_with_sockets_open_and_vanished(web_tier, alice) -> None:
    """``make run``'s uvicorn ends within 10 s of SIGTERM after sockets vanished and with others
    still open (it had to be killed)."""
    url, server = web_tier
    _, game_id = watched_game(url, alice)
    path = f"/ws/games/{game_id}/"

    async def open_and_vanish() -> list[ClientConnection]:
        sockets = await asyncio.gather(
            *(spectate(url.replace("http", "ws") + path, number) for number in range(SPECTATORS))
        )
        await asyncio.gather(
            *(vanish_mid_connect(url, path, SPECTATORS + number) for number in range(SPECTATORS))
        )
        for websocket in sockets[: SPECTATORS // 2]:
            websocket.transport.abort()
        return sockets[SPECTATORS // 2 :]

    still_open = asyncio.run(open_and_vanish())
    assert still_open
    server.send_signal(signal.SIGTERM)
    assert server.wait(timeout=10) == 0
    time.sleep(1)
    with pytest.raises(httpx.ConnectError):  # no worker left behind still listening
        httpx.get(url + "/healthz", timeout=5)
