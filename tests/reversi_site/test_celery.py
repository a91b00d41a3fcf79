"""The Celery application as its workers run it."""

import time
import uuid

import pytest
from django.db import connection

from ai_worker.engine import Board
from games.identity import Player
from games.models import Game
from games.services import games
from tests.servers import celery_worker

# As `make run` starts the workers; libpq names their sessions (PGAPPNAME) for the test to find.
WORKER_ENV = {"POSTGRES_POOL_SIZE": "0", "POSTGRES_CONN_MAX_AGE": "600"}


def sessions_named(name: str) -> set[tuple[int, object]]:
    """The PostgreSQL sessions whose application is ``name``: backend pid and start."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, backend_start FROM pg_stat_activity WHERE application_name = %s", [name]
        )
        return set(cursor.fetchall())


def replied(game: Game, ply: int) -> Game:
    """``game`` once the CPU has replied up to ``ply``."""
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        game.refresh_from_db()
        if game.ply >= ply:
            return game
        time.sleep(0.05)
    raise AssertionError(f"no CPU reply at ply {ply} within 60 s")


def play_one(player: Player, game: Game) -> None:
    """The player's first legal move in ``game``."""
    move = Board.from_text(game.position).legal_moves[0]
    games.play_move(player=player, public_id=game.public_id, notation=str(move), ply=game.ply)


@pytest.mark.django_db(transaction=True)
def test_a_worker_keeps_its_database_connection_from_task_to_task(
    settings, django_user_model
) -> None:
    """Celery's Django fixup closed the connection after every task (each CPU reply started a
    PostgreSQL backend); the worker now keeps one session over its replies, configured as
    ``make run`` starts it (no pool, ``POSTGRES_CONN_MAX_AGE``), and a session that PostgreSQL
    ended is replaced before the next task's first query (no reply lost to it)."""
    queue = f"cpu-test-{uuid.uuid4().hex}"
    settings.CELERY_CPU_QUEUE = queue
    player = Player(user_id=django_user_model.objects.create_user("kept").pk)
    env = {**WORKER_ENV, "POSTGRES_DB": connection.settings_dict["NAME"], "PGAPPNAME": queue}
    with celery_worker(queue, env):
        game = games.create_cpu_game(
            player=player, variant={}, level="easy", color="black", undo_allowed=False
        )
        sessions = []
        for _ in range(4):
            play_one(player, game)
            game = replied(game, game.ply + 2)
            sessions.append(sessions_named(queue))
        # PostgreSQL ends the kept session (a restart, an administrator): the next task finds
        # it broken before its first query and opens another.
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_terminate_backend(%s)", [next(iter(sessions[0]))[0]])
        play_one(player, game)
        game = replied(game, game.ply + 2)
        after = sessions_named(queue)
    assert len(sessions[0]) == 1, sessions  # the worker's one connection, kept after its task
    assert all(seen == sessions[0] for seen in sessions), sessions
    assert len(after) == 1, after
    assert after != sessions[0], after
