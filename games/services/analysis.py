"""Post-game analysis (issue 14 §5): after a game ends (or is imported), the workers analyse its
moves one at a time, in order, on the CPU queue below every live search; each stored move queues
the next. A stale or repeated task (another ply than the next one) changes nothing."""

from typing import Any

from django.db import transaction

from games.models import Game, GameAnalysis
from games.services import events
from games.shared.errors import Conflict


def queue_analysis(*, game: Game) -> GameAnalysis:
    """Create the analysis of a finished game and queue its first move (once: a second call
    returns the same analysis); in the transaction that finished or imported the game."""
    analysis, created = GameAnalysis.objects.get_or_create(game=game)
    if created:
        if game.ply == 0:
            analysis.status = GameAnalysis.Status.DONE
            analysis.save(update_fields=["status", "updated_at"])
        else:
            events.send_analysis(game_id=game.pk, ply=0)
    return analysis


def request_analysis(*, game_id: int) -> GameAnalysis:
    """Analyse a finished game that has no analysis yet (e.g. one that ended before analyses
    existed); a game still being played is refused."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.FINISHED:
            raise Conflict("analysis_not_finished")
        return queue_analysis(game=game)


def store_move(*, game_id: int, ply: int, entry: dict[str, Any]) -> bool:
    """Store the analysis of the move at ``ply`` and queue the next one; False when ``ply`` is
    not the next move to analyse (a stale or repeated task)."""
    with transaction.atomic():
        analysis = GameAnalysis.objects.select_for_update().filter(game_id=game_id).first()
        if analysis is None or analysis.next_ply != ply:
            return False
        total = Game.objects.filter(pk=game_id).values_list("ply", flat=True).get()
        analysis.moves = [*analysis.moves, entry]
        analysis.next_ply = ply + 1
        if analysis.next_ply >= total:
            analysis.status = GameAnalysis.Status.DONE
        else:
            analysis.status = GameAnalysis.Status.RUNNING
            events.send_analysis(game_id=game_id, ply=ply + 1)
        analysis.save(update_fields=["moves", "next_ply", "status", "updated_at"])
    return True
