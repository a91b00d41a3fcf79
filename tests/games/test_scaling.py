"""Past one machine (README, Scaling): the service's write path through PgBouncer in transaction
mode with the settings it needs, and moves pushed across web processes, directly and behind
HAProxy running the compose file's balancer configuration (deploy/haproxy.cfg)."""

import asyncio
import json
import re
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from django.db import connection
from websockets.asyncio.client import connect

from games import selectors
from games.models import Game
from tests.servers import ROOT, celery_worker, free_port, haproxy, pgbouncer, tool, uvicorn

pytestmark = pytest.mark.django_db(transaction=True)

REPLY_TIMEOUT = 60
HUMAN_MOVES = 4
BALANCER_CONFIG = ROOT / "deploy" / "haproxy.cfg"


@pytest.fixture
def stack_env(transactional_db: None) -> dict[str, str]:
    """The servers' environment: the test database and a private CPU queue."""
    return {
        "POSTGRES_DB": connection.settings_dict["NAME"],
        "CELERY_CPU_QUEUE": f"cpu-test-{uuid.uuid4().hex}",
    }


def token_headers(client) -> dict[str, str]:
    return {"Authorization": client._credentials["HTTP_AUTHORIZATION"]}


def ws_url(base_url: str, game_id: str) -> str:
    return base_url.replace("http", "ws") + f"/ws/games/{game_id}/"


async def next_move(websocket) -> dict:
    """The next move event on ``websocket`` (presence events are skipped)."""
    while True:
        message = json.loads(await asyncio.wait_for(websocket.recv(), REPLY_TIMEOUT))
        if message["type"] == "move":
            return message


def transactions_through(port: int, database: str) -> int:
    """How many transactions PgBouncer (its admin console on ``port``) has run on ``database``."""
    stats = subprocess.run(
        [
            "psql",
            *("-h", "127.0.0.1", "-p", str(port), "-U", connection.settings_dict["USER"]),
            *("-d", "pgbouncer", "-At", "-F", " ", "-c", "SHOW STATS"),
        ],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    rows = (line.split() for line in stats.splitlines())
    return sum(int(row[1]) for row in rows if row[0] == database)


@pytest.mark.slow
def test_games_are_played_through_pgbouncer_in_transaction_mode(stack_env, alice) -> None:
    """A game against the CPU (moves, the worker's replies), a resignation and the streamed
    export of finished games, every process on PgBouncer. Its round robin runs each transaction
    on another server connection, so anything a transaction leaves on its connection (a WITH HOLD
    cursor, a prepared statement, a SET) is missing from the next and fails the request."""
    client, _ = alice
    headers = token_headers(client)
    database = connection.settings_dict
    bouncer = {"server_round_robin": "1", "default_pool_size": "4", "min_pool_size": "4"}
    with pgbouncer(database, **bouncer) as port:
        env = stack_env | {"POSTGRES_PORT": str(port), "POSTGRES_PGBOUNCER": "1"}
        with celery_worker(stack_env["CELERY_CPU_QUEUE"], env), uvicorn(env, workers=1) as (url, _):
            http = httpx.Client(base_url=url, headers=headers, timeout=30)
            game = http.post("/api/games/", json={"mode": "cpu", "level": "easy"}).json()

            async def play() -> list[dict]:
                async with connect(ws_url(url, game["id"]), additional_headers=headers) as ws:
                    state = json.loads(await ws.recv())["state"]
                    legal, ply, events = state["legal_moves"], state["ply"], []
                    for _ in range(HUMAN_MOVES):
                        move = {"move": next(iter(legal)), "ply": ply}
                        posted = http.post(f"/api/games/{game['id']}/moves/", json=move)
                        assert posted.status_code == 201, posted.text
                        events += [await next_move(ws), await next_move(ws)]
                        legal, ply = events[-1]["legal_moves"], events[-1]["ply"]
                    return events

            events = asyncio.run(play())
            resigned = http.post(f"/api/games/{game['id']}/resign/")
            assert resigned.status_code == 200, resigned.text
            exported = http.get("/api/players/alice/games/")
            assert exported.status_code == 200, exported.text
            through_bouncer = transactions_through(port, database["NAME"])

    assert [event["ply"] for event in events] == list(range(1, 2 * HUMAN_MOVES + 1))
    assert [event["move"]["color"] for event in events[:2]] == ["black", "white"]
    assert [json.loads(line)["id"] for line in exported.text.splitlines()] == [game["id"]]
    assert selectors.replays_to_position(Game.objects.get(public_id=game["id"]))
    assert through_bouncer > 4 * HUMAN_MOVES  # the server and the worker wrote through it


def play_across(post_url: str, socket_url: str, headers: dict[str, str]) -> dict:
    """A hot-seat game made and moved through ``post_url``, watched through ``socket_url``:
    the move event that the socket gets."""
    http = httpx.Client(base_url=post_url, headers=headers, timeout=30)
    game = http.post("/api/games/", json={"mode": "local"}).json()

    async def watch() -> dict:
        async with connect(ws_url(socket_url, game["id"]), additional_headers=headers) as ws:
            assert json.loads(await ws.recv())["type"] == "state"
            posted = http.post(f"/api/games/{game['id']}/moves/", json={"move": "f5", "ply": 0})
            assert posted.status_code == 201, posted.text
            return await next_move(ws)

    return asyncio.run(watch())


def test_a_move_posted_to_one_web_process_is_pushed_to_a_socket_on_another(
    stack_env, alice
) -> None:
    client, _ = alice
    with uvicorn(stack_env, workers=1) as (first, _), uvicorn(stack_env, workers=1) as (second, _):
        event = play_across(first, second, token_headers(client))
    assert (event["ply"], event["version"], event["move"]["move"]) == (1, 2, "f5")


def balancer_config(port: int, servers: list[str]) -> str:
    """The compose file's HAProxy configuration, listening on ``port`` of 127.0.0.1, with the
    given web processes in place of the containers that Docker's DNS names."""
    config = BALANCER_CONFIG.read_text()
    lines = "\n".join(
        f"    server web{number} {address}" for number, address in enumerate(servers, 1)
    )
    config, templates = re.subn(r"^\s*server-template .*$", lambda _: lines, config, flags=re.M)
    config, binds = re.subn(r"^(\s*)bind :8000$", rf"\1bind 127.0.0.1:{port}", config, flags=re.M)
    assert (templates, binds) == (1, 1), "deploy/haproxy.cfg changed shape"
    return config


def test_the_balancer_configuration_is_valid_as_committed() -> None:
    checked = subprocess.run(
        [tool("haproxy"), "-c", "-f", str(BALANCER_CONFIG)], capture_output=True, text=True
    )
    assert checked.returncode == 0, checked.stdout + checked.stderr


@pytest.fixture
def balanced(stack_env) -> Iterator[tuple[str, Path]]:
    """Two web processes behind HAProxy: its URL and the file of its request log."""
    with uvicorn(stack_env, workers=1) as (first, _), uvicorn(stack_env, workers=1) as (second, _):
        port = free_port()
        servers = [address.removeprefix("http://") for address in (first, second)]
        with haproxy(balancer_config(port, servers), port) as log:
            yield f"http://127.0.0.1:{port}", log


def served_by(log: Path, requests: int) -> list[str]:
    """The web process (web1, web2) of each request in HAProxy's log, once it has ``requests``
    lines (a websocket's is written when it closes)."""
    deadline = time.monotonic() + 10
    while True:
        servers = re.findall(r" web/(web\d) ", log.read_text())
        if len(servers) >= requests or time.monotonic() > deadline:
            return servers
        time.sleep(0.1)


@pytest.mark.slow
def test_moves_are_pushed_through_the_balancer_across_processes(balanced, alice) -> None:
    """The socket is upgraded through HAProxy and holds one process (leastconn): the POST goes
    to the other, whose move reaches the socket through the channel layer."""
    url, log = balanced
    client, _ = alice
    event = play_across(url, url, token_headers(client))
    assert (event["ply"], event["version"], event["move"]["move"]) == (1, 2, "f5")
    # logged as they end: the game's creation, the move, then the socket when it closed
    _created, move, socket = served_by(log, 3)
    assert move != socket
