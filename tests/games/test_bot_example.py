"""End to end: ``examples/bot.py`` (the README's bot) against a real daphne server and Celery
worker. It signs up, takes a token, becomes a bot and waits; a person challenges it, and both
play a whole game from their streams, neither of them polling."""

import json
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

import httpx
import pytest
from django.db import connection

from games import selectors
from games.models import Game
from tests.servers import ROOT, celery_worker, daphne

BOT = ROOT / "examples" / "bot.py"
GAME_SECONDS = 120
STREAM_TIMEOUT = httpx.Timeout(10, read=30)


@pytest.fixture
def server_url(transactional_db: None) -> Iterator[str]:
    """daphne and a solo-pool Celery worker on the test database and this suite's Redis db."""
    queue = f"cpu-test-{uuid.uuid4().hex}"
    env = {"POSTGRES_DB": connection.settings_dict["NAME"], "CELERY_CPU_QUEUE": queue}
    with celery_worker(queue, env), daphne(env) as url:
        yield url


def ndjson(client: httpx.Client, path: str) -> Iterator[dict]:
    with client.stream("GET", path, timeout=STREAM_TIMEOUT) as response:
        assert response.status_code == 200, response.read()
        assert response.headers["content-type"] == "application/x-ndjson"
        for line in response.iter_lines():
            if line.strip():
                yield json.loads(line)


def signed_up(url: str, username: str) -> httpx.Client:
    answer = httpx.post(
        url + "/api/auth/signup/", json={"username": username, "password": "a long passphrase"}
    )
    assert answer.status_code == 201, answer.text
    return httpx.Client(base_url=url, headers={"Authorization": f"Token {answer.json()['token']}"})


def wait_until_bot(client: httpx.Client, username: str, bot: subprocess.Popen) -> None:
    deadline = time.monotonic() + 60
    while not client.get(f"/api/players/{username}/").json().get("bot"):
        assert bot.poll() is None, "the bot exited early"
        assert time.monotonic() < deadline, "the bot never upgraded its account"
        time.sleep(0.2)


def play_as_person(person: httpx.Client) -> tuple[str, list[dict]]:
    """The person's side: the game's id from its event stream, then every move from the game's
    stream (the first legal move each turn); returns the id and the game stream's lines."""
    game_id = next(e for e in ndjson(person, "/api/stream/event/") if e["type"] == "gameStart")[
        "game"
    ]["id"]
    seen, you = [], []
    for event in ndjson(person, f"/api/bot/game/stream/{game_id}/"):
        seen.append(event)
        if event["type"] == "gameFull":
            state = event["state"]
            you = state["you"]
        else:  # the whole state, or a move's event: what changed
            state = event["event"].get("state", event["event"])
        if state["to_move"] in you and state["legal_moves"]:
            move = sorted(state["legal_moves"])[0]
            answer = person.post(
                f"/api/games/{game_id}/moves/", json={"move": move, "ply": state["ply"]}
            )
            assert answer.status_code == 201, answer.text
    return game_id, seen


def test_the_example_bot_plays_a_whole_rated_challenge(server_url: str) -> None:
    name = f"bot{uuid.uuid4().hex[:6]}"
    bot = subprocess.Popen(
        [sys.executable, str(BOT), server_url, name, "a long passphrase", "--games", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    try:
        person = signed_up(server_url, f"person{uuid.uuid4().hex[:6]}")
        wait_until_bot(person, name, bot)
        challenge = person.post(
            "/api/challenges/",
            json={"username": name, "variant": {}, "color": "black", "rated": True},
        )
        assert challenge.status_code == 201, challenge.text
        game_id, seen = play_as_person(person)
        output, _ = bot.communicate(timeout=GAME_SECONDS)
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
    assert bot.returncode == 0, output
    assert f"game {game_id} over" in output
    assert seen[0]["type"] == "gameFull"
    assert {event["type"] for event in seen[1:]} == {"gameState"}
    versions = [event["event"]["version"] for event in seen[1:]]
    assert versions == sorted(set(versions))  # each change once, in order
    assert seen[-1]["event"].get("state", seen[-1]["event"])["status"] == "finished"
    assert [seat["bot"] for seat in seen[0]["state"]["seats"]] == [False, True]
    game = Game.objects.get(public_id=game_id)
    assert game.status == Game.Status.FINISHED
    assert game.rated
    assert game.moves.filter(color=1).exclude(notation="pass").exists()  # the bot moved
    assert selectors.replays_to_position(game)
