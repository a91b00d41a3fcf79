"""Fixtures of the accounts tests: accounts as players and a driver that plays games out."""

import uuid
from collections.abc import Iterator
from typing import Any

import pytest
from celery import current_app
from django.contrib.auth import get_user_model
from django.db import connection

from ai_worker.engine import Board
from games.accounts import emails
from games.identity import Player
from games.models import Game, Seat
from games.services import cpu, games, rooms
from tests.mail import Inbox, smtp_server
from tests.servers import celery_worker

# A 6x6 game that ends 18-18 (found with the engine).
DRAW_ON_6X6 = [
    "c2",
    "b2",
    "e4",
    "d2",
    "b1",
    "e3",
    "b3",
    "c1",
    "d1",
    "e5",
    "d5",
    "a1",
    "a2",
    "e1",
    "f2",
    "a4",
    "e2",
    "f4",
    "f6",
    "d6",
    "e6",
    "a3",
    "c6",
    "c5",
    "b5",
    "f3",
    "f1",
    "b6",
    "f5",
    "a5",
    "a6",
    "b4",
]


@pytest.fixture
def make_player(db: None):
    """An account and its player identity."""

    def make(username: str) -> Player:
        user = get_user_model().objects.create_user(username, password="a long passphrase")
        return Player(user_id=user.pk)

    return make


def play_out(game: Game, moves: list[str], players: dict[int, Player]) -> Game:
    """Play ``moves`` (automatic passes skipped); the CPU's moves go through the CPU service."""
    for notation in moves:
        game.refresh_from_db()
        if notation == "pass":
            continue
        turn = Board.from_text(game.position).turn
        if turn in players:
            games.play_move(
                player=players[turn], public_id=game.public_id, notation=notation, ply=game.ply
            )
        else:
            assert game.seats.get(color=turn).kind == Seat.Kind.CPU
            assert cpu.apply_cpu_move(
                game_id=game.pk, ply=game.ply, position=game.position, notation=notation
            )
    game.refresh_from_db()
    return game


def room_game(
    black: Player, white: Player, variant: dict | None = None, time_control: str | None = None
) -> Game:
    """A started rated 2-player friend room (untimed, or with ``time_control``): ``black``
    created it, ``white`` joined."""
    room = rooms.create_room(
        player=black, variant=variant or {}, seats=None, time_control=time_control, rated=True
    )
    rooms.join_room(player=white, code=room.code)
    return Game.objects.get(pk=room.game_id)


WORKER_START_SECONDS = 180


@pytest.fixture(scope="module")
def mail_worker(django_db_setup: None, django_db_blocker: Any) -> Iterator[tuple[Inbox, str]]:
    """A real SMTP server, and a real Celery worker that takes the mail queue's tasks (a private
    queue) and sends them to it."""
    queue = f"mail-test-{uuid.uuid4().hex}"
    with django_db_blocker.unblock():
        env = {"POSTGRES_DB": connection.settings_dict["NAME"]}
    with smtp_server() as catcher:
        env |= {"EMAIL_HOST": "127.0.0.1", "EMAIL_PORT": str(catcher.port)}
        with celery_worker(queue, env):
            # Started (its numba kernels loaded, which a loaded machine takes a while to do)
            # once a first mail has come through it.
            mail = ("warm-up", "worker@example.com", "ready", "ready")
            current_app.send_task(emails.MAIL_TASK, args=mail, queue=queue)
            catcher.wait_for("worker@example.com", seconds=WORKER_START_SECONDS)
            yield catcher, queue


@pytest.fixture
def inbox(mail_worker: tuple[Inbox, str], settings: Any) -> Inbox:
    """The mail that this test's requests queue, as the worker delivers it."""
    catcher, queue = mail_worker
    catcher.messages.clear()
    settings.CELERY_MAIL_QUEUE = queue
    return catcher
