"""The worker's start-up: CPU turns whose task was lost are queued again."""

from datetime import timedelta

import pytest
from celery.signals import worker_ready
from django.core.management import call_command
from django.utils import timezone

from games import tasks  # noqa: F401  (connects the worker signals)
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
