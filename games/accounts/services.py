"""The only code that changes ratings, when a rated game finishes (issue 14 §3).

- 2 players: Glicko-2 (the ``glicko2`` library), one rating per time class
  (``games.public.TIME_CLASSES``), updated after every game as a rating period of one game.
- 3-4 players: OpenSkill's Plackett-Luce model (the ``openskill`` library) on the places of
  the table, one ``tables`` class, on the same scale (mu 1500, sigma 350).
- A CPU seat is an opponent of fixed rating (``CPU_RATINGS``, deviation ``CPU_DEVIATION``)
  that never changes.

Rated: games created rated (``Game.rated``) in which nobody used a hint or an undo, with at
least one account and no guest, and no account in two seats. Never rated: hot-seat games,
casual games, games with a guest seat.
"""

from dataclasses import dataclass

import glicko2
from django.db import transaction
from openskill.models import PlackettLuce

from ai_worker.levels import EASY, NORMAL, STRONG
from games.accounts.models import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    INITIAL_VOLATILITY,
    TABLES,
    PlayerRating,
    RatingChange,
)
from games.public import FinishedGame, FinishedSeat

CPU_RATINGS = {EASY: 1000.0, NORMAL: 1500.0, STRONG: 2000.0}
CPU_DEVIATION = 60.0  # a CPU level plays the same way every game: a well-known opponent
PROVISIONAL_DEVIATION = 110.0  # above it a rating is provisional (lichess's threshold)
TABLE_MODEL = PlackettLuce(mu=INITIAL_RATING, sigma=INITIAL_DEVIATION)


@dataclass(frozen=True)
class Standing:
    """A seat's rating, deviation and (Glicko-2 only) volatility."""

    rating: float
    deviation: float
    volatility: float


def is_provisional(deviation: float) -> bool:
    """Whether a rating with this deviation is still provisional (shown with a "?")."""
    return deviation > PROVISIONAL_DEVIATION


def rate_finished_game(*, finished: FinishedGame) -> None:
    """Update the ratings of a game that has just finished (once: a repeat changes nothing).

    Call inside the transaction that finishes the game, with the game row locked (the
    ``games.public.game_finished`` receiver in ``games.accounts.receivers`` does).
    """
    if not _is_rated(finished) or RatingChange.objects.filter(game_id=finished.game_id).exists():
        return
    pair = len(finished.seats) == 2
    pool = finished.time_class if pair else TABLES
    scores = seat_scores(finished.ranks)
    with transaction.atomic():
        user_ids = sorted({seat.user_id for seat in finished.seats if seat.user_id is not None})
        ratings = {rating.user_id: rating for rating in _locked_ratings(user_ids, pool)}
        before = [_standing(seat, ratings) for seat in finished.seats]
        after = glicko2_update(before, scores) if pair else openskill_update(before, finished.ranks)
        for index, seat in enumerate(finished.seats):
            if seat.user_id is None:
                continue
            rating = ratings[seat.user_id]
            RatingChange.objects.create(
                game_id=finished.game_id,
                user_id=seat.user_id,
                pool=pool,
                opponent_rating=before[1 - index].rating if pair else None,
                score=scores[index],
                rating_before=rating.rating,
                rating_after=after[index].rating,
                deviation_after=after[index].deviation,
            )
            _count(rating, after[index], finished.ranks, index)


def seat_scores(ranks: tuple[int, ...]) -> list[float]:
    """Each seat's share of the others it finished ahead of, a tie counting half (with 2
    players: 1 win, 0.5 draw, 0 loss)."""
    others = len(ranks) - 1
    return [
        sum(
            1.0 if rank < other else 0.5 if rank == other else 0.0
            for other in ranks[:i] + ranks[i + 1 :]
        )
        / others
        for i, rank in enumerate(ranks)
    ]


def glicko2_update(before: list[Standing], scores: list[float]) -> list[Standing]:
    """Glicko-2 after one game between two seats (a rating period of one game)."""
    after = []
    for index, standing in enumerate(before):
        opponent = before[1 - index]
        player = glicko2.Player(standing.rating, standing.deviation, standing.volatility)
        player.update_player([opponent.rating], [opponent.deviation], [scores[index]])
        after.append(Standing(player.rating, player.rd, player.vol))
    return after


def openskill_update(before: list[Standing], ranks: tuple[int, ...]) -> list[Standing]:
    """OpenSkill (Plackett-Luce) after one table, each seat a team of one ranked by place."""
    teams = [[TABLE_MODEL.rating(mu=seat.rating, sigma=seat.deviation)] for seat in before]
    rated = TABLE_MODEL.rate(teams, ranks=[float(rank) for rank in ranks])
    return [
        Standing(team[0].mu, team[0].sigma, seat.volatility)
        for team, seat in zip(rated, before, strict=True)
    ]


def _is_rated(finished: FinishedGame) -> bool:
    if not finished.rated or finished.hot_seat:
        return False
    if any(seat.is_guest for seat in finished.seats):
        return False
    users = [seat.user_id for seat in finished.seats if seat.cpu_level is None]
    return len(users) == len(set(users)) >= 1


def _locked_ratings(user_ids: list[int], pool: str) -> list[PlayerRating]:
    for user_id in user_ids:
        PlayerRating.objects.get_or_create(user_id=user_id, pool=pool)
    locked = PlayerRating.objects.select_for_update().filter(user_id__in=user_ids, pool=pool)
    return list(locked.order_by("user_id"))


def _standing(seat: FinishedSeat, ratings: dict[int, PlayerRating]) -> Standing:
    if seat.cpu_level is not None:
        return Standing(CPU_RATINGS[seat.cpu_level], CPU_DEVIATION, INITIAL_VOLATILITY)
    if seat.user_id is None:
        raise ValueError("a rated game has no guest seat")
    rating = ratings[seat.user_id]
    return Standing(rating.rating, rating.deviation, rating.volatility)


def _count(rating: PlayerRating, after: Standing, ranks: tuple[int, ...], index: int) -> None:
    rating.rating, rating.deviation, rating.volatility = (
        after.rating,
        after.deviation,
        after.volatility,
    )
    rating.played += 1
    first = ranks.count(1)
    if ranks[index] != 1:
        rating.lost += 1
    elif first == 1:
        rating.won += 1
    else:
        rating.drawn += 1
    rating.save(
        update_fields=[
            "rating",
            "deviation",
            "volatility",
            "played",
            "won",
            "lost",
            "drawn",
            "updated_at",
        ]
    )
