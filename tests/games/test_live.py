"""End to end: a real daphne server and Celery worker; the CPU's reply arrives on the websocket."""

import asyncio
import json
import uuid
from collections.abc import Iterator

import httpx
import pytest
from django.db import connection
from websockets.asyncio.client import connect

from games import selectors
from games.models import Game
from tests.servers import celery_worker, daphne

REPLY_TIMEOUT = 60


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
