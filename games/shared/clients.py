"""Who a client is: its network address as the trusted reverse proxies saw it, the requester a
cap counts (its account, else that address), and a websocket's language."""

from ipaddress import ip_address
from typing import TYPE_CHECKING

from django.conf import settings
from django.http import HttpRequest
from django.utils import translation

if TYPE_CHECKING:
    from rest_framework.request import Request


def client_ip(request: "HttpRequest | Request") -> str | None:
    """The address of the client behind ``settings.TRUSTED_PROXY_COUNT`` reverse proxies.

    Each proxy appends the address it was reached from to ``X-Forwarded-For``, so with ``n``
    proxies the client is the n-th entry from the right; entries further left were written by
    the client and are ignored. Without proxies (or with a header shorter than expected, which
    a trusted proxy never sends) the answer is ``REMOTE_ADDR``. ``None`` when that is missing.
    """
    return _behind_proxies(
        request.META.get("REMOTE_ADDR") or None, request.META.get("HTTP_X_FORWARDED_FOR", "")
    )


def requester_of(request: "HttpRequest | Request") -> str:
    """Who asks, for the caps per requester (throttles, mails, reviews): the signed-in account,
    else the client's address."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return f"user:{user.pk}"
    return f"ip:{client_ip(request) or 'unknown'}"


def socket_client_ip(scope: dict) -> str | None:
    """``client_ip`` of a websocket's ASGI scope."""
    client = scope.get("client")
    headers = {name.lower(): value for name, value in scope.get("headers", [])}
    forwarded = headers.get(b"x-forwarded-for", b"").decode("latin-1")
    return _behind_proxies(client[0] if client else None, forwarded)


def socket_language(scope: dict) -> str:
    """The language of a websocket's handshake, chosen as Django's ``LocaleMiddleware`` chooses
    a request's: the language cookie (the site's language switch), else ``Accept-Language``,
    else ``settings.LANGUAGE_CODE``."""
    headers = {name.lower(): value for name, value in scope.get("headers", [])}
    handshake = HttpRequest()
    handshake.COOKIES = scope.get("cookies", {})
    handshake.META["HTTP_ACCEPT_LANGUAGE"] = headers.get(b"accept-language", b"").decode("latin-1")
    return translation.get_language_from_request(handshake)


def _behind_proxies(remote: str | None, forwarded_for: str) -> str | None:
    proxies = settings.TRUSTED_PROXY_COUNT
    if proxies <= 0:
        return remote
    forwarded = [entry.strip() for entry in forwarded_for.split(",")]
    if len(forwarded) < proxies:
        return remote
    candidate = forwarded[-proxies]
    try:
        return str(ip_address(candidate))
    except ValueError:
        return remote
