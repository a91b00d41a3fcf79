"""The only code that changes ratings: Elo updates when a rated game finishes.

Rated games (2 players only):
- a friend room between two different signed-in accounts: both ratings change;
- a game versus the CPU by a signed-in account: the account plays against the fixed rating of
  the CPU level (``CPU_RATINGS``); the CPU's rating never changes.
Not rated: hot-seat games (one person plays both sides), games with a guest seat, and 3-4 player
games (a table draw and the leader-takes-all result do not map onto one pairwise score).
"""

from django.db import transaction

from ai_worker.levels import EASY, NORMAL, STRONG
from games.accounts.models import PlayerRating, RatingChange
from games.public import FinishedGame, FinishedSeat

K_FACTOR = 32
CPU_RATINGS = {EASY: 1000, NORMAL: 1500, STRONG: 2000}


def expected_score(rating: int, opponent_rating: int) -> float:
    """Elo: the expected score (0..1) of a player rated ``rating`` against ``opponent_rating``."""
    return 1 / (1 + 10 ** ((opponent_rating - rating) / 400))


def new_rating(rating: int, opponent_rating: int, score: float) -> int:
    """Elo: the rating after scoring ``score`` (1 win, 0.5 draw, 0 loss), rounded."""
    return round(rating + K_FACTOR * (score - expected_score(rating, opponent_rating)))


def rate_finished_game(*, finished: FinishedGame) -> None:
    """Update the ratings of a game that has just finished (once: a repeat changes nothing).

    Call inside the transaction that finishes the game, with the game row locked (the
    ``games.public.game_finished`` receiver in ``games.accounts.receivers`` does).
    """
    seats = finished.seats
    if not _is_rated(finished) or RatingChange.objects.filter(game_id=finished.game_id).exists():
        return
    scores = _scores(finished)
    with transaction.atomic():
        user_ids = sorted(seat.user_id for seat in seats if seat.user_id is not None)
        ratings = {rating.user_id: rating for rating in _locked_ratings(user_ids)}
        before = [_seat_rating(seat, ratings) for seat in seats]
        for index, seat in enumerate(seats):
            if seat.user_id is None:
                continue
            rating = ratings[seat.user_id]
            opponent_rating = before[1 - index]
            score = scores[index]
            after = new_rating(rating.rating, opponent_rating, score)
            RatingChange.objects.create(
                game_id=finished.game_id,
                user_id=seat.user_id,
                opponent_rating=opponent_rating,
                score=score,
                rating_before=rating.rating,
                rating_after=after,
            )
            _count(rating, score, after)


def _is_rated(finished: FinishedGame) -> bool:
    if finished.hot_seat or len(finished.seats) != 2:
        return False
    if any(seat.is_guest for seat in finished.seats):
        return False
    users = [seat.user_id for seat in finished.seats if seat.cpu_level is None]
    return len(users) == len(set(users)) >= 1


def _scores(finished: FinishedGame) -> list[float]:
    """The score of each seat (1 win, 0.5 draw, 0 loss) of a finished 2-player game."""
    if finished.winner is None:
        return [0.5, 0.5]
    return [1.0 if seat.color == finished.winner else 0.0 for seat in finished.seats]


def _locked_ratings(user_ids: list[int]) -> list[PlayerRating]:
    for user_id in user_ids:
        PlayerRating.objects.get_or_create(user_id=user_id)
    locked = PlayerRating.objects.select_for_update().filter(user_id__in=user_ids)
    return list(locked.order_by("user_id"))


def _seat_rating(seat: FinishedSeat, ratings: dict[int, PlayerRating]) -> int:
    if seat.cpu_level is not None:
        return CPU_RATINGS[seat.cpu_level]
    if seat.user_id is None:
        raise ValueError("a rated game has no guest seat")
    return ratings[seat.user_id].rating


def _count(rating: PlayerRating, score: float, after: int) -> None:
    rating.rating = after
    rating.played += 1
    if score == 1.0:
        rating.won += 1
    elif score == 0.0:
        rating.lost += 1
    else:
        rating.drawn += 1
    rating.save(update_fields=["rating", "played", "won", "lost", "drawn", "updated_at"])
