"""Ratings as the game service reads them (quick pairing by rating range, the lobby, the watch
page's order): the ratings app registers how to look one up (``provide_ratings``, re-exported by
``games.public``), and the game service asks ``rating_of``. The rating math is the ratings app's.
"""

from collections.abc import Callable

RatingLookup = Callable[[int, str], int | None]
_rating_lookups: list[RatingLookup] = []


def provide_ratings(lookup: RatingLookup) -> None:
    """Register ``lookup(user_id, speed)``: the account's rating in the speed class ("blitz",
    ..., "untimed"; ``games.shared.time_controls.speed_of``), or None when it has none. The last
    one registered answers."""
    _rating_lookups.append(lookup)


def rating_of(user_id: int | None, speed: str) -> int | None:
    """The account's rating in ``speed`` (None for a guest, or with no ratings app)."""
    if user_id is None or not _rating_lookups:
        return None
    return _rating_lookups[-1](user_id, speed)
