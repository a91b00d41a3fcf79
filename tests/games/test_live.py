"""End to end: a real daphne server and Celery worker; the CPU's reply arrives on the websocket."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import redis
from django.conf import settings
from django.db import connection
from websockets.asyncio.client import connect

from games import selectors
from games.models import Game

BIN = Path(sys.executable).parent
REPLY_TIMEOUT = 60


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def live_server_url(transactional_db: None) -> Iterator[str]:
    """daphne and a solo-pool Celery worker on the test database and this suite's Redis db."""
    queue = f"cpu-test-{uuid.uuid4().hex}"  # no other worker on this Redis takes its tasks
    env = os.environ | {"POSTGRES_DB": connection.settings_dict["NAME"], "CELERY_CPU_QUEUE": queue}
    port = free_port()
    commands = [
        [str(BIN / "daphne"), "-b", "127.0.0.1", "-p", str(port), "reversi_site.asgi:application"],
        [
            str(BIN / "celery"),
            "-A",
            "reversi_site",
            "worker",
            "-Q",
            f"{queue},{queue}-strong",
            "--pool=solo",
            "--loglevel=warning",
            "--without-gossip",
            "--without-mingle",
        ],
    ]
    processes = [subprocess.Popen(command, env=env) for command in commands]
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
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(timeout=2)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        redis.Redis.from_url(settings.REDIS_URL).delete(queue, f"{queue}-strong")


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
