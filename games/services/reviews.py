"""Post-game review (issue 14 §5): after a game ends (or is imported), the workers analyse its
moves one at a time, in order, on the strong queue below its searches; each stored move queues
the next. A stale or repeated task (another ply than the next one) changes nothing."""

from typing import Any

from django.db import transaction

from games.models import Game, GameReview
from games.services import events
from games.shared.errors import Conflict


def queue_review(*, game: Game) -> GameReview:
    """Create the review of a finished game and queue its first move (once: a second call
    returns the same review); in the transaction that finished or imported the game."""
    review, created = GameReview.objects.get_or_create(game=game)
    if created:
        if game.ply == 0:
            review.status = GameReview.Status.DONE
            review.save(update_fields=["status", "updated_at"])
        else:
            events.send_review(game_id=game.pk, ply=0)
    return review


def request_review(*, game_id: int) -> GameReview:
    """Review a finished game that has no review yet (e.g. one that ended before reviews
    existed); a game still being played is refused."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.FINISHED:
            raise Conflict("review_not_finished")
        return queue_review(game=game)


def store_move(*, game_id: int, ply: int, entry: dict[str, Any]) -> bool:
    """Store the review of the move at ``ply`` and queue the next one; False when ``ply`` is
    not the next move to review (a stale or repeated task)."""
    with transaction.atomic():
        review = GameReview.objects.select_for_update().filter(game_id=game_id).first()
        if review is None or review.next_ply != ply:
            return False
        total = Game.objects.filter(pk=game_id).values_list("ply", flat=True).get()
        review.moves = [*review.moves, entry]
        review.next_ply = ply + 1
        if review.next_ply >= total:
            review.status = GameReview.Status.DONE
        else:
            review.status = GameReview.Status.RUNNING
            events.send_review(game_id=game_id, ply=ply + 1)
        review.save(update_fields=["moves", "next_ply", "status", "updated_at"])
    return True
