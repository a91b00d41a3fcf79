"""Post-game review (issue 14 §5): after a game ends here, the workers analyse its moves one
at a time, in order, on the strong queue below its searches; each stored move queues the next.
A stale or repeated task (another ply than the next one) changes nothing. An imported game (or
one that ended before reviews existed) is reviewed only when asked, once, and a requester has at
most ``policy.REVIEWS_PER_REQUESTER`` of those under way."""

from typing import Any

from django.db import transaction
from django.utils import timezone

from games import policy
from games.models import Game, GameReview
from games.services import events, steps
from games.shared.errors import Conflict, RateLimited


def queue_review(*, game: Game, requested_by: str = "") -> GameReview:
    """Create the review of a finished game and queue its first move (once: a second call
    returns the same review); in the transaction that finished the game or asked for it."""
    review, created = GameReview.objects.get_or_create(
        game=game, defaults={"requested_by": requested_by}
    )
    if created:
        if game.ply == 0:
            review.status = GameReview.Status.DONE
            review.save(update_fields=["status", "updated_at"])
        else:
            events.send_review(game_id=game.pk, ply=0)
    return review


def request_review(*, game_id: int, requester: str) -> GameReview:
    """Review a finished game on request (``requester``: ``games.shared.clients.requester_of``).
    A game that has a review gets that one, unchanged, whoever asks; a new one is refused with
    ``too_many_reviews`` while the requester has ``policy.REVIEWS_PER_REQUESTER`` under way
    (serialised per requester, so concurrent requests cannot all slip through); a game still
    being played is refused."""
    with transaction.atomic():
        game = Game.objects.select_for_update().get(pk=game_id)
        if game.status != Game.Status.FINISHED:
            raise Conflict("review_not_finished")
        existing = GameReview.objects.filter(game=game).first()
        if existing is not None:
            return existing
        steps.serialise(purpose="reviews", key=requester)
        if _under_way(requester=requester) >= policy.REVIEWS_PER_REQUESTER:
            raise RateLimited(
                retry_after=policy.REVIEW_RETRY_AFTER,
                count=policy.REVIEWS_PER_REQUESTER,
                seconds=policy.REVIEW_RETRY_AFTER,
                code="too_many_reviews",
            )
        return queue_review(game=game, requested_by=requester)


def _under_way(*, requester: str) -> int:
    """The reviews ``requester`` asked for that are not done and whose task moved within
    ``policy.REVIEW_STALLED_AFTER``."""
    return (
        GameReview.objects.filter(requested_by=requester)
        .exclude(status=GameReview.Status.DONE)
        .filter(updated_at__gte=timezone.now() - policy.REVIEW_STALLED_AFTER)
        .count()
    )


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
