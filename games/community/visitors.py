"""Who is visiting: a signed-in user or an anonymous browser session (spec C1-C3)."""

from dataclasses import dataclass
from typing import Literal, overload

from django.http import HttpRequest
from django.utils.crypto import salted_hmac

from games.shared.clients import client_ip

USER_AGENT_MAX_LENGTH = 512


@dataclass(frozen=True)
class Visitor:
    """The identity the community features count and rate-limit by.

    ``key`` is ``user:<id>`` or ``session:<digest of the session key>``.
    """

    key: str
    user_id: int | None
    ip_address: str | None
    user_agent: str = ""


@overload
def visitor_from_request(
    request: HttpRequest, *, create_session: Literal[True] = True
) -> Visitor: ...


@overload
def visitor_from_request(request: HttpRequest, *, create_session: bool) -> Visitor | None: ...


def visitor_from_request(request: HttpRequest, *, create_session: bool = True) -> Visitor | None:
    """The request's visitor; an anonymous browser gets a session if it has none yet.

    With ``create_session=False`` an anonymous request without a session gives ``None``.
    """
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        key, user_id = f"user:{user.pk}", user.pk
    else:
        session = request.session
        if session.session_key is None:
            if not create_session:
                return None
            session.save()
        if session.session_key is None:
            raise RuntimeError("a saved session has a key")
        key, user_id = f"session:{_digest(session.session_key)}", None
    return Visitor(
        key=key,
        user_id=user_id,
        ip_address=client_ip(request),
        user_agent=request.META.get("HTTP_USER_AGENT", "")[:USER_AGENT_MAX_LENGTH],
    )


def _digest(session_key: str) -> str:
    """A stable stand-in for the session key, so stored keys cannot be used as cookies."""
    return salted_hmac("games.community.visitor", session_key).hexdigest()[:32]
