"""Spectators and who is online (issue 14 §1). A websocket or a game stream open on a game by
someone who holds none of its seats counts its viewer (a person, however many tabs) as one
spectator while it is open (``games.shared.presence``, in Redis, expiring with its server);
every viewer hears of a new count. Like presence, a count is no change of the game: it bumps no
version and queues no search. Who is online (everyone with a socket or a stream open) reaches
the lobby viewers from ``announce_online``, which Celery beat runs every
``policy.ONLINE_ANNOUNCE_EVERY``: one read and at most one push however many come and go."""

import json

from games import presenters, selectors
from games.services import events
from games.shared import presence as presence_store


def announce_online() -> bool:
    """Push who is online to the lobby viewers when it changed since the last push; whether
    it was pushed."""
    state = presenters.online_state(selectors.online_players())
    if not presence_store.announced_changed(json.dumps(state, sort_keys=True)):
        return False
    events.publish_online(state)
    return True


def spectator_connected(*, game_id: int, viewer: str, connection: str) -> None:
    """A websocket of the spectator ``viewer`` (a person) opened on the game, or renewed its
    heartbeat."""
    if presence_store.watch(game_id=game_id, viewer=viewer, connection=connection):
        events.announce_presence(game=selectors.game(game_id))


def spectator_disconnected(*, game_id: int, viewer: str, connection: str) -> None:
    """A websocket of the spectator ``viewer`` closed."""
    if presence_store.unwatch(game_id=game_id, viewer=viewer, connection=connection):
        events.announce_presence(game=selectors.game(game_id))
