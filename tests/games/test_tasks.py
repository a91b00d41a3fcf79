"""The worker's start-up: CPU turns whose task was lost are queued again. What a CPU reply costs
the database."""

import uuid
from datetime import timedelta

import pytest
from celery import current_app
from celery.signals import worker_ready
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ai_worker.engine import Board
from games import tasks
from games.identity import Player
from games.models import Game
from games.services import games

pytestmark = pytest.mark.django_db

LONG_AGO = timedelta(minutes=5)


def cpu_games() -> tuple[Game, Game, Game]:
    """A stalled CPU turn, a person to move, and a CPU turn queued just now."""
    stalled, waiting, fresh = (
        games.create_cpu_game(
            player=Player(guest_id=f"guest-{color}-{index}"),
            variant={},
            level="easy",
            color=color,
            undo_allowed=False,
        )
        for index, color in enumerate(["white", "black", "white"])
    )
    Game.objects.exclude(pk=fresh.pk).update(cpu_queued_at=timezone.now() - LONG_AGO)
    return stalled, waiting, fresh


def queued_recently(game: Game) -> bool:
    game.refresh_from_db()
    return game.cpu_queued_at is not None and timezone.now() - game.cpu_queued_at < LONG_AGO


def test_a_starting_worker_queues_stalled_cpu_turns_again() -> None:
    stalled, waiting, fresh = cpu_games()
    fresh_queued_at = Game.objects.get(pk=fresh.pk).cpu_queued_at
    worker_ready.send(sender=None)
    assert queued_recently(stalled)
    assert not queued_recently(waiting)
    assert Game.objects.get(pk=fresh.pk).cpu_queued_at == fresh_queued_at


def test_the_command_queues_stalled_cpu_turns_again(capsys) -> None:
    stalled, waiting, _ = cpu_games()
    call_command("requeue_stalled_cpu_turns")
    assert capsys.readouterr().out == "1 stalled CPU turns queued again\n"
    assert queued_recently(stalled)
    assert not queued_recently(waiting)


def cpu_game(player: Player) -> Game:
    """A game of ``player`` (black, to move first) versus an easy CPU."""
    return games.create_cpu_game(
        player=player, variant={}, level="easy", color="black", undo_allowed=False
    )


def statements_of_the_reply(player: Player, game: Game, capture_on_commit) -> list[str]:
    """The player's first move in ``game``, then the statements that read or write a row in
    the CPU's reply (its task, run here, and what it does on commit)."""
    first = Board.from_text(game.position).legal_moves[0]
    games.play_move(player=player, public_id=game.public_id, notation=str(first), ply=0)
    with CaptureQueriesContext(connection) as queries, capture_on_commit(execute=True):
        assert tasks.cpu_move(game.pk, 1) is True
    statements = [query["sql"] for query in queries.captured_queries]
    return [sql for sql in statements if sql.startswith(("SELECT", "INSERT", "UPDATE"))]


def test_a_cpu_reply_locks_its_game_once(settings, django_capture_on_commit_callbacks) -> None:
    """The task reads the CPU's seat with its game (one query), locks the game (the flag read
    from the row, no look of its own before), stores the move and announces it; then looks for
    the player's other CPU turns held back by the limit, but not this game, whose lock it took
    again for nothing (12 queries and two transactions a reply; now 7 and one)."""
    settings.CELERY_CPU_QUEUE = f"cpu-test-{uuid.uuid4().hex}"  # no worker takes these tasks
    player = Player(guest_id="guest-reply")
    game = cpu_game(player)
    work = statements_of_the_reply(player, game, django_capture_on_commit_callbacks)
    assert sum("FOR UPDATE" in sql for sql in work) == 1
    assert len(work) == 7, work
    assert Game.objects.get(pk=game.pk).ply == 2
    with current_app.connection_for_read() as broker:
        assert broker.default_channel.client.llen(settings.CELERY_CPU_QUEUE) == 0


def test_a_cpu_reply_locks_none_of_the_players_games_at_their_own_turn(
    settings, django_capture_on_commit_callbacks
) -> None:
    """After a reply the player's CPU turns held back by the limit are looked for: the player's
    other games, where it is their own turn, are read with their seats (two queries), not each
    locked to be looked at (three queries a game, on every reply: a player who left games
    unfinished made every later reply cost more)."""
    settings.CELERY_CPU_QUEUE = f"cpu-test-{uuid.uuid4().hex}"  # no worker takes these tasks
    player = Player(guest_id="guest-many-games")
    answered, *_ = [cpu_game(player) for _ in range(4)]  # in the others: the player's turn
    work = statements_of_the_reply(player, answered, django_capture_on_commit_callbacks)
    assert sum("FOR UPDATE" in sql for sql in work) == 1, work
    assert len(work) == 8, work
