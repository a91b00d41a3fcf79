"""Bot accounts as the game service reads them (seats and profiles show "BOT", bots stay out of
the lobby): the accounts app registers how to find them (``provide_bots``, re-exported by
``games.public``), and the game service asks ``bots_among``."""

from collections.abc import Callable, Collection

BotLookup = Callable[[Collection[int]], set[int]]
_bot_lookups: list[BotLookup] = []


def provide_bots(lookup: BotLookup) -> None:
    """Register ``lookup(user_ids)``: which of these accounts are bots. The last one registered
    answers."""
    _bot_lookups.append(lookup)


def bots_among(user_ids: Collection[int | None]) -> set[int]:
    """The bot accounts among ``user_ids`` (guests' None ignored; none without an accounts app)."""
    ids = {user_id for user_id in user_ids if user_id is not None}
    if not ids or not _bot_lookups:
        return set()
    return _bot_lookups[-1](ids)
