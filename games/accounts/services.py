"""The only code that changes ratings: Elo updates when a rated game finishes.

Rated games (2 players only):
- a friend room between two different signed-in accounts: both ratings change;
- a game versus the CPU by a signed-in account: the account plays against the fixed rating of
  the CPU level (``CPU_RATINGS``); the CPU's rating never changes.
Not rated: hot-seat games (one person plays both sides), games with a guest seat, and 3-4 player
games (a table draw and the leader-takes-all result do not map onto one pairwise score).
"""

from django.db import transaction

from ai_worker.engine import COLOR_NAMES
from games.accounts.models import PlayerRating, RatingChange
from games.models import Game, Seat

K_FACTOR = 32
CPU_RATINGS = {"easy": 1000, "normal": 1500, "strong": 2000}


def expected_score(rating: int, opponent_rating: int) -> float:
    """Elo: the expected score (0..1) of a player rated ``rating`` against ``opponent_rating``."""
    return 1 / (1 + 10 ** ((opponent_rating - rating) / 400))


def new_rating(rating: int, opponent_rating: int, score: float) -> int:
    """Elo: the rating after scoring ``score`` (1 win, 0.5 draw, 0 loss), rounded."""
    return round(rating + K_FACTOR * (score - expected_score(rating, opponent_rating)))


def rate_finished_game(game: Game) -> None:
    """Update the ratings of a game that has just finished (once: a repeat changes nothing).

    Call inside the transaction that finishes the game, with the game row locked.
    """
    seats = list(game.seats.all())
    if not _is_rated(game, seats) or RatingChange.objects.filter(game=game).exists():
        return
    scores = _scores(game.result or {})
    with transaction.atomic():
        user_ids = sorted(seat.user_id for seat in seats if seat.user_id is not None)
        ratings = {rating.user_id: rating for rating in _locked_ratings(user_ids)}
        before = {seat.color: _seat_rating(seat, ratings) for seat in seats}
        for seat in seats:
            if seat.user_id is None:
                continue
            rating = ratings[seat.user_id]
            opponent_rating = before[1 - seat.color]
            score = scores[seat.color]
            after = new_rating(rating.rating, opponent_rating, score)
            RatingChange.objects.create(
                game=game,
                user_id=seat.user_id,
                opponent_rating=opponent_rating,
                score=score,
                rating_before=rating.rating,
                rating_after=after,
            )
            _count(rating, score, after)


def _is_rated(game: Game, seats: list[Seat]) -> bool:
    if game.mode == Game.Mode.LOCAL or len(seats) != 2:
        return False
    if any(seat.kind == Seat.Kind.HUMAN and seat.user_id is None for seat in seats):
        return False
    users = [seat.user_id for seat in seats if seat.kind == Seat.Kind.HUMAN]
    return len(users) == len(set(users)) >= 1


def _scores(result: dict) -> dict[int, float]:
    """The score of black (0) and white (1) in a finished 2-player game's result."""
    if result.get("draw") or result.get("winner") is None:
        return {0: 0.5, 1: 0.5}
    winner = COLOR_NAMES.index(result["winner"])
    return {winner: 1.0, 1 - winner: 0.0}


def _locked_ratings(user_ids: list[int]) -> list[PlayerRating]:
    for user_id in user_ids:
        PlayerRating.objects.get_or_create(user_id=user_id)
    locked = PlayerRating.objects.select_for_update().filter(user_id__in=user_ids)
    return list(locked.order_by("user_id"))


def _seat_rating(seat: Seat, ratings: dict[int, PlayerRating]) -> int:
    if seat.kind == Seat.Kind.CPU:
        return CPU_RATINGS[seat.level]
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
    rating.save()
