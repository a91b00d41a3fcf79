"""Faults around a saved write: Redis down, lost CPU tasks (the periodic sweep), a database
error mid-task (retry). Real PostgreSQL and Redis: a private redis-server stopped for the test,
the suite's Redis for the queues."""

import base64
import json
import threading
import uuid
from collections.abc import Iterator
from datetime import timedelta

import httpx
import psycopg
import pytest
import redis
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import timezone

from games import policy, tasks
from games.accounts.tokens import issue_token
from games.identity import Player
from games.models import Game
from games.services import cpu, games
from reversi_site.celery import app
from tests.servers import PRODUCTION, daphne, redis_server

pytestmark = pytest.mark.django_db(transaction=True)

LONG_AGO = timedelta(minutes=5)


def account() -> tuple[Player, str]:
    user = get_user_model().objects.create_user(f"p{uuid.uuid4().hex[:8]}", password="x" * 12)
    return Player(user_id=user.pk), f"Token {issue_token(user=user, name='tests')[1]}"


def test_a_move_saved_while_redis_is_down_answers_success_and_reads_keep_working() -> None:
    _, token = account()
    with redis_server() as private_redis:
        env = {
            "POSTGRES_DB": connection.settings_dict["NAME"],
            "REDIS_URL": private_redis.url,
        } | PRODUCTION
        with daphne(env) as url:
            http = httpx.Client(base_url=url, headers={"Authorization": token}, timeout=60)
            game = http.post("/api/games/", json={"mode": "cpu", "level": "easy"}).json()
            private_redis.stop()
            move = http.post(f"/api/games/{game['id']}/moves/", json={"move": "f5", "ply": 0})
            read = http.get(f"/api/games/{game['id']}/")
            listed = http.get("/api/games/?status=active")
    assert move.status_code == 201, move.text
    assert move.json()["ply"] == 1
    assert read.status_code == 200
    assert read.json()["ply"] == 1
    assert [listed_game["id"] for listed_game in listed.json()["games"]] == [game["id"]]
    stored = Game.objects.get(public_id=game["id"])
    assert stored.ply == 1
    assert stored.cpu_queued_at is not None


@pytest.fixture
def cpu_queue(settings) -> Iterator[str]:
    """A private CPU queue on the suite's Redis (no worker takes from it), emptied afterwards."""
    settings.CELERY_CPU_QUEUE = f"cpu-faults-{uuid.uuid4().hex}"
    settings.CELERY_STRONG_QUEUE = f"{settings.CELERY_CPU_QUEUE}-strong"  # hints, strong CPUs
    yield settings.CELERY_CPU_QUEUE
    store = redis.Redis.from_url(settings.REDIS_URL)
    for key in store.scan_iter(match=f"*{settings.CELERY_CPU_QUEUE}*"):
        store.delete(key)


def queued_searches(queue: str) -> list[tuple[str, list]]:
    """The (task name, args) of every message waiting in ``queue`` (any priority)."""
    store = redis.Redis.from_url(settings.REDIS_URL)
    found = []
    for key in store.scan_iter(match=f"{queue}*"):
        for raw in store.lrange(key, 0, -1):
            message = json.loads(raw)
            args, _, _ = json.loads(base64.b64decode(message["body"]))
            found.append((message["headers"]["task"], args))
    return found


def cpu_game(player: Player) -> Game:
    """A game where the CPU (white) is to move."""
    return games.create_cpu_game(
        player=player, variant={}, level="easy", color="white", undo_allowed=False
    )


def test_the_sweep_queues_a_lost_cpu_turn_once_and_leaves_a_fresh_one(cpu_queue: str) -> None:
    player, _ = account()
    lost, fresh = cpu_game(player), cpu_game(player)
    assert sorted(queued_searches(cpu_queue)) == sorted(
        [(tasks.cpu_move.name, [lost.pk, 0]), (tasks.cpu_move.name, [fresh.pk, 0])]
    )
    redis.Redis.from_url(settings.REDIS_URL).delete(cpu_queue)  # both tasks are lost
    Game.objects.filter(pk=lost.pk).update(cpu_queued_at=timezone.now() - LONG_AGO)

    assert tasks.sweep_stalled_cpu_turns() == 1
    assert tasks.sweep_stalled_cpu_turns() == 0  # just queued again: not twice
    assert queued_searches(cpu_queue) == [(tasks.cpu_move.name, [lost.pk, 0])]
    assert tasks.cpu_move(lost.pk, 0) is True
    assert tasks.cpu_move(lost.pk, 0) is False  # a repeated task applies nothing


def test_beat_sweeps_often_enough_to_move_a_lost_turn_within_15_s() -> None:
    entry = settings.CELERY_BEAT_SCHEDULE["sweep-stalled-cpu-turns"]
    assert entry["task"] == tasks.sweep_stalled_cpu_turns.name
    assert entry["task"] in app.tasks
    assert policy.CPU_TURN_STALLED_AFTER + entry["schedule"] <= timedelta(seconds=15)


def test_a_database_error_mid_task_is_retried_and_applies_once(cpu_queue: str) -> None:
    player, _ = account()
    game = cpu_game(player)
    params = connection.settings_dict
    with psycopg.connect(
        host=params["HOST"], port=params["PORT"], user=params["USER"], dbname=params["NAME"]
    ) as holder:
        holder.execute("SELECT 1 FROM games_game WHERE id = %s FOR UPDATE", (game.pk,))
        with connection.cursor() as cursor:  # the task's lock wait fails: OperationalError
            cursor.execute("SET lock_timeout = '300ms'")
        threading.Timer(1.0, holder.rollback).start()  # the database is back a second later
        try:
            result = tasks.cpu_move.apply(args=(game.pk, 0))
        finally:
            with connection.cursor() as cursor:
                cursor.execute("RESET lock_timeout")
    assert result.get() is True
    game.refresh_from_db()
    assert game.ply == 1
    assert game.moves.count() == 1
    assert tasks.cpu_move(game.pk, 0) is False


def test_a_hint_asked_again_while_its_task_was_lost_is_searched_again(cpu_queue: str) -> None:
    player, _ = account()
    game = games.create_cpu_game(
        player=player, variant={}, level="easy", color="black", undo_allowed=False
    )
    cpu.request_hint(player=player, game_id=game.pk)
    store = redis.Redis.from_url(settings.REDIS_URL)
    store.delete(*store.keys(f"{cpu_queue}*"))  # the hint's task is lost
    cpu.request_hint(player=player, game_id=game.pk)
    assert queued_searches(cpu_queue) == [(tasks.hint.name, [game.pk, 0])]
    game.refresh_from_db()
    assert game.hint_count == 1
    assert tasks.hint(game.pk, 0) is True


def test_a_move_retried_after_its_answer_was_lost_is_answered_as_done(make_account) -> None:
    client, _ = make_account("retrier")
    game = client.post("/api/games/", {"mode": "cpu", "level": "easy"}, format="json").json()
    url = f"/api/games/{game['id']}/moves/"
    first = client.post(url, {"move": "f5", "ply": 0}, format="json")
    tasks.cpu_move(Game.objects.get(public_id=game["id"]).pk, 1)  # the CPU replies meanwhile
    again = client.post(url, {"move": "F5", "ply": 0}, format="json")
    other = client.post(url, {"move": "d3", "ply": 0}, format="json")
    assert (first.status_code, again.status_code, other.status_code) == (201, 201, 409)
    assert again.json()["ply"] == 2
    assert Game.objects.get(public_id=game["id"]).moves.filter(ply=0).count() == 1


def test_logging_in_while_redis_is_down_works_over_the_api_and_the_form() -> None:
    """Lockout counters and throttles live in Redis; with it down a login still goes through
    (or is refused with the clear answer of a wrong password), never a 500."""
    username, password = f"p{uuid.uuid4().hex[:8]}", uuid.uuid4().hex
    with redis_server() as private_redis:
        env = {
            "POSTGRES_DB": connection.settings_dict["NAME"],
            "REDIS_URL": private_redis.url,
        } | PRODUCTION
        with daphne(env) as url:
            http = httpx.Client(base_url=url, timeout=60)
            signup = http.post(
                "/api/auth/signup/", json={"username": username, "password": password}
            )
            assert signup.status_code == 201, signup.text
            private_redis.stop()
            token = http.post("/api/auth/token/", json={"username": username, "password": password})
            me = http.get("/api/me/", headers={"Authorization": f"Token {token.json()['token']}"})
            wrong = http.post("/api/auth/token/", json={"username": username, "password": "no"})
            form = http.get("/accounts/login/")
            logged_in = http.post(
                "/accounts/login/",
                data={
                    "username": username,
                    "password": password,
                    "csrfmiddlewaretoken": http.cookies["csrftoken"],
                },
            )
            profile = http.get("/accounts/profile/")
    assert token.status_code == 200, token.text
    assert me.json()["username"] == username  # a new access token, which works
    assert wrong.status_code == 400, wrong.text
    assert wrong.json()["error"]["code"] == "invalid_credentials"
    assert form.status_code == 200, form.text
    assert logged_in.status_code == 302, logged_in.text
    assert profile.status_code == 200, profile.text
    assert username in profile.text
