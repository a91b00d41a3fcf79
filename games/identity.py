"""Who is playing: a signed-in account or a guest browser (a random id kept in the session).

Guests need no sign-up: the first write from a browser stores a random id in its session (the
session cookie is signed and unguessable). API clients sign up and use a token instead.
"""

import hashlib
import logging
import secrets
from dataclasses import dataclass

import redis.exceptions
from django.core.cache import cache
from django.db.models import Q

GUEST_SESSION_KEY = "guest_id"
# How long a browser's new guest id is handed to its other first writes (Redis, via the cache).
GUEST_MINT_SECONDS = 60

logger = logging.getLogger(__name__)


@dataclass(frozen=True)
class Player:
    """The identity behind a request or a websocket: exactly one of ``user_id``/``guest_id``."""

    user_id: int | None = None
    guest_id: str = ""

    def __post_init__(self) -> None:
        if (self.user_id is None) == (not self.guest_id):
            raise ValueError("a player is either an account or a guest")

    @property
    def seat_filter(self) -> Q:
        """The ``Seat`` rows held by this player."""
        if self.user_id is not None:
            return Q(user_id=self.user_id)
        return Q(guest_id=self.guest_id)

    def holds(self, seat: object) -> bool:
        """Whether ``seat`` (a ``Seat``) belongs to this player."""
        if self.user_id is not None:
            return getattr(seat, "user_id", None) == self.user_id
        return getattr(seat, "guest_id", "") == self.guest_id


def player_from_session(
    user: object, session: object, *, create: bool, browser_key: str = ""
) -> Player | None:
    """The player of an authenticated ``user`` or of the guest id stored in ``session``.

    With ``create`` a new guest id is stored in the session when it has none (the same one for
    every first write of the browser: ``mint_guest_id``, keyed by the session or else by
    ``browser_key``, its CSRF cookie); otherwise a visitor without one is ``None`` (they have
    no games yet).
    """
    if getattr(user, "is_authenticated", False):
        return Player(user_id=user.pk)  # type: ignore[attr-defined]
    if session is None:
        return None
    guest_id = session.get(GUEST_SESSION_KEY)  # type: ignore[attr-defined]
    if not guest_id and create:
        guest_id = mint_guest_id(getattr(session, "session_key", None) or browser_key)
        session[GUEST_SESSION_KEY] = guest_id  # type: ignore[index]
    return Player(guest_id=guest_id) if guest_id else None


def mint_guest_id(browser: str) -> str:
    """A new guest id for the browser known by ``browser`` (a secret of its cookies).

    Concurrent first writes of one browser each start without a guest id in the session: the
    first to mint stores its id in Redis (``cache.add``, for ``GUEST_MINT_SECONDS``) and the
    others take that one, so the browser is one guest whichever session cookie it keeps. With
    Redis down (or no key) the id is the request's own.
    """
    guest_id = secrets.token_urlsafe(24)
    if not browser:
        return guest_id
    key = "guest-mint:" + hashlib.sha256(browser.encode()).hexdigest()
    try:
        cache.add(key, guest_id, timeout=GUEST_MINT_SECONDS)
        return str(cache.get(key, guest_id))
    except redis.exceptions.RedisError as error:
        logger.warning("guest id minted without Redis: %r", error)
        return guest_id


def presence_key(player: Player | None, session: object, address: str) -> str:
    """Whom a connection (a socket, an API stream) belongs to, as one person online, one
    spectator and one socket owner: the player (an account or a guest), else the browser's
    session, else its address (``games.shared.presence`` counts these keys)."""
    if player is not None:
        return f"user:{player.user_id}" if player.user_id else f"guest:{player.guest_id}"
    session_key = getattr(session, "session_key", None)
    return f"session:{session_key}" if session_key else f"address:{address}"
