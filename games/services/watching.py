"""Spectators (issue 14 §1): a websocket open on a game by someone who holds none of its seats
counts its viewer (a person, however many tabs) as one spectator while it is open
(``games.shared.presence``, in Redis, expiring with its server); every viewer hears of a new
count. Like presence, a count is no change of the game: it
bumps no version and queues no search."""

from games import selectors
from games.services import events
from games.shared import presence as presence_store


def spectator_connected(*, game_id: int, viewer: str, connection: str) -> None:
    """A websocket of the spectator ``viewer`` (a person) opened on the game, or renewed its
    heartbeat."""
    if presence_store.watch(game_id=game_id, viewer=viewer, connection=connection):
        events.announce_presence(game=selectors.game(game_id))


def spectator_disconnected(*, game_id: int, viewer: str, connection: str) -> None:
    """A websocket of the spectator ``viewer`` closed."""
    if presence_store.unwatch(game_id=game_id, viewer=viewer, connection=connection):
        events.announce_presence(game=selectors.game(game_id))
