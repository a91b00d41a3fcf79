"""Post-game review (issue 14 §5): after a game ends here, the workers analyse its moves one
at a time, in order, on the strong queue below its searches; each stored move queues the next.
A stale or repeated task (another ply than the next one) changes nothing. A requester (the
game's first player for the automatic review, the one who asks otherwise) has at most
``policy.REVIEWS_PER_REQUESTER`` under way, and no game is reviewed on its own while the site has
``policy.AUTOMATIC_REVIEW_BACKLOG`` under way; a game left without a review (an imported one
too) is reviewed when asked, once."""

from typing import Any

from django.db import transaction
from django.utils import timezone

from games import policy
from games.models import Game, GameReview
from games.services import events, steps
from games.shared.errors import Conflict, RateLimited


def _queue_review(*, game: Game, requested_by: str = "") -> GameReview:
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


def review_finished_game(*, game: Game) -> GameReview | None:
    """The automatic review of ``game``, which has just ended here (in that transaction), for
    its first player; None when that player has ``policy.REVIEWS_PER_REQUESTER`` reviews under
    way, or the site ``policy.AUTOMATIC_REVIEW_BACKLOG``, or no seat is a player's."""
    requester = _first_player(game)
    if requester is None:
        return None
    steps.serialise(purpose="reviews", key=requester)
    if (
        _under_way(requester=requester) >= policy.REVIEWS_PER_REQUESTER
        or _unfinished().count() >= policy.AUTOMATIC_REVIEW_BACKLOG
    ):
        return None
    return _queue_review(game=game, requested_by=requester)


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
        return _queue_review(game=game, requested_by=requester)


def _first_player(game: Game) -> str | None:
    """The requester key of ``game``'s first seat held by a person (an account, else a guest)."""
    for seat in game.seats.all():
        if seat.user_id is not None:
            return f"user:{seat.user_id}"
        if seat.guest_id:
            return f"guest:{seat.guest_id}"
    return None


def _unfinished() -> Any:
    """Reviews not done whose task moved within ``policy.REVIEW_STALLED_AFTER``."""
    return GameReview.objects.exclude(status=GameReview.Status.DONE).filter(
        updated_at__gte=timezone.now() - policy.REVIEW_STALLED_AFTER
    )


def _under_way(*, requester: str) -> int:
    """The unfinished reviews ``requester`` asked for (or had for their games)."""
    return _unfinished().filter(requested_by=requester).count()


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
