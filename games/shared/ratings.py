"""Ratings as the game service reads them (quick pairing by rating range, the lobby, the watch
page's order, the game page's player cards and result): the ratings app registers how to look
them up (``provide_ratings``, re-exported by ``games.public``), and the game service asks
``rating_of``, ``standing_of`` and ``rating_changes_of``. The rating math is the ratings app's.
"""

from dataclasses import dataclass
from typing import Protocol


@dataclass(frozen=True)
class Standing:
    """An account's rating in one class, rounded, and whether it is still provisional."""

    rating: int
    provisional: bool


class RatingsProvider(Protocol):
    """What the ratings app answers."""

    def standing(self, user_id: int, speed: str, players: int) -> Standing:
        """The account's rating for a game of ``players`` in the speed class ``speed``
        ("blitz", ..., "untimed"; ``games.shared.time_controls.speed_of``)."""
        ...

    def changes(self, game_id: int) -> dict[int, int]:
        """How the rated game ``game_id`` changed its accounts' ratings, by user id (rounded)."""
        ...


_providers: list[RatingsProvider] = []


def provide_ratings(provider: RatingsProvider) -> None:
    """Register the ratings app's ``provider``; the last one registered answers."""
    _providers.append(provider)


def standing_of(user_id: int | None, speed: str, *, players: int = 2) -> Standing | None:
    """The account's standing for a game of ``players`` in ``speed`` (None for a guest, or with
    no ratings app)."""
    if user_id is None or not _providers:
        return None
    return _providers[-1].standing(user_id, speed, players)


def rating_of(user_id: int | None, speed: str) -> int | None:
    """The account's 2-player rating in ``speed`` (None for a guest, or with no ratings app)."""
    standing = standing_of(user_id, speed)
    return None if standing is None else standing.rating


def rating_changes_of(game_id: int) -> dict[int, int]:
    """How a finished rated game changed its accounts' ratings, by user id (empty: unrated)."""
    return _providers[-1].changes(game_id) if _providers else {}
