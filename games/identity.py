"""Who is playing: a signed-in account or a guest browser (a random id kept in the session).

Guests need no sign-up: the first write from a browser stores a random id in its session (the
session cookie is signed and unguessable). API clients sign up and use a token instead.
"""

import secrets
from dataclasses import dataclass

from django.db.models import Q

GUEST_SESSION_KEY = "guest_id"


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


def player_from_session(user: object, session: object, *, create: bool) -> Player | None:
    """The player of an authenticated ``user`` or of the guest id stored in ``session``.

    With ``create`` a new guest id is stored in the session when it has none; otherwise a
    visitor without one is ``None`` (they have no games yet).
    """
    if getattr(user, "is_authenticated", False):
        return Player(user_id=user.pk)  # type: ignore[attr-defined]
    if session is None:
        return None
    guest_id = session.get(GUEST_SESSION_KEY)  # type: ignore[attr-defined]
    if not guest_id and create:
        guest_id = secrets.token_urlsafe(24)
        session[GUEST_SESSION_KEY] = guest_id  # type: ignore[index]
    return Player(guest_id=guest_id) if guest_id else None
