"""End to end: a real daphne server and Celery worker; the CPU's reply arrives on the websocket."""

import asyncio
import json
import socket
import subprocess
import time
from collections.abc import Iterator

import httpx
import pytest
from websockets.asyncio.client import connect

from games import selectors
from games.models import Game
from tests.games.workers import BIN, private_queue, stop, worker_command, worker_environment

REPLY_TIMEOUT = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def live_server_url(transactional_db: None) -> Iterator[str]:
    """daphne and a solo-pool Celery worker on the test database and this suite's Redis db."""
    queue = private_queue()
    port = free_port()
    commands = [
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "reversi_site.asgi:application"],
        worker_command(queue),
    ]
    processes = [subprocess.Popen(command, env=worker_environment(queue)) for command in commands]
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{url}/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.2)
        yield url
    finally:
        stop(processes, queue)


def test_cpu_reply_arrives_over_the_websocket(live_server_url: str, alice) -> None:
    client, _ = alice
    headers = {"Authorization": client._credentials["HTTP_AUTHORIZATION"]}
    token = headers["Authorization"].split()[1]
    http = httpx.Client(base_url=live_server_url, headers=headers, timeout=10)
    game = http.post("/api/games/", json={"mode": "cpu", "level": "easy"}).json()

    async def play() -> list[dict]:
        ws_url = live_server_url.replace("http", "ws") + f"/ws/games/{game['id']}/?token={token}"
        async with connect(ws_url, origin=live_server_url) as websocket:
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
    reply = events[-1]["state"]
    assert reply["last_move"]["color"] == "white"
    assert reply["to_move"] == "black"
    assert selectors.replays_to_position(Game.objects.get(public_id=game["id"]))
