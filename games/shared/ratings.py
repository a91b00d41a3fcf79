"""Ratings as the game service reads them (quick pairing by rating range, the lobby, the watch
page's order, the game page's player cards and result): the ratings app registers how to look
them up (``provide_ratings``, re-exported by ``games.public``), and the game service asks
``rating_of``, ``standings_of`` and ``rating_changes_of``. The rating math is the ratings app's.
"""

from collections.abc import Collection
from dataclasses import dataclass
from typing import Protocol

# An account's rating for a kind of game: (user id, speed class, number of players); the speed
# class is "blitz", ..., "untimed" (``games.shared.time_controls.speed_of``).
RatingKey = tuple[int, str, int]


@dataclass(frozen=True)
class Standing:
    """An account's rating in one class, rounded, and whether it is still provisional."""

    rating: int
    provisional: bool


class RatingsProvider(Protocol):
    """What the ratings app answers, each in one query whatever the number asked."""

    def standings(self, keys: Collection[RatingKey]) -> dict[RatingKey, Standing]:
        """Each key's rating (the start for an account that has none in that class yet)."""
        ...

    def changes(self, game_ids: Collection[int]) -> dict[tuple[int, int], int]:
        """How finished rated games changed their accounts' ratings, by (game id, user id)."""
        ...


_providers: list[RatingsProvider] = []


def provide_ratings(provider: RatingsProvider) -> None:
    """Register the ratings app's ``provider``; the last one registered answers."""
    _providers.append(provider)


def standings_of(keys: Collection[RatingKey]) -> dict[RatingKey, Standing]:
    """The standings of ``keys`` (empty with no ratings app)."""
    if not keys or not _providers:
        return {}
    return _providers[-1].standings(keys)


def rating_of(user_id: int | None, speed: str) -> int | None:
    """The account's 2-player rating in ``speed`` (None for a guest, or with no ratings app)."""
    if user_id is None:
        return None
    standing = standings_of([(user_id, speed, 2)]).get((user_id, speed, 2))
    return None if standing is None else standing.rating


def rating_changes_of(game_ids: Collection[int]) -> dict[tuple[int, int], int]:
    """How finished rated games changed their accounts' ratings, by (game id, user id); none for
    a casual game."""
    if not game_ids or not _providers:
        return {}
    return _providers[-1].changes(game_ids)
