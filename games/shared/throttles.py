"""Rate limits of the writes (DRF throttles), counted in Redis, so they hold across every
server process: a moving window per requester and scope (``limits``), counted by one script
call that reads and adds at once (DRF's own counting reads a request log and writes it back a
round trip later: two processes could read the same log and both pass).

Every write (POST, PUT, PATCH, DELETE) of the API passes ``WriteRateThrottle``: the view's
``throttle_scope`` names its rate in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` ("write"
when it names none). Accounts are counted by account, guests by client address
(``games.shared.clients.requester_of``). The sign-up and log-in forms use the same counters
through ``throttled_form``.

While Redis is down the throttles let requests through (and log it): a saved write must still
be answered, and an outage of the counters must not become an outage of the site.
"""

import logging
import time
from collections.abc import Callable
from functools import cache, wraps
from types import SimpleNamespace
from typing import Any, cast

import redis.exceptions
from django.conf import settings
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from limits import RateLimitItem, RateLimitItemPerSecond
from limits.storage import RedisStorage
from limits.strategies import MovingWindowRateLimiter
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle

from games.shared.clients import requester_of

DEFAULT_SCOPE = "write"
logger = logging.getLogger(__name__)


class WriteRateThrottle(ScopedRateThrottle):
    """Throttles the writes only (reads are never counted), by the view's scope."""

    item: RateLimitItem
    ident = ""

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        self.scope = scope_of(view)
        requests, seconds = self.parse_rate(self.get_rate())
        self.item = RateLimitItemPerSecond(cast(int, requests), cast(int, seconds))
        self.ident = requester_of(request)
        try:
            return rate_limiter().hit(self.item, str(self.scope), self.ident)
        except redis.exceptions.RedisError:
            logger.warning("throttle %s not counted: the cache (Redis) is unreachable", self.scope)
            return True

    def get_rate(self) -> str:
        """The scope's rate, read from the settings when the request comes (not at import)."""
        return cast(str, api_settings.DEFAULT_THROTTLE_RATES[str(self.scope)])

    def wait(self) -> float | None:
        """Seconds until a request refused now would pass (the oldest one counted leaves the
        window)."""
        try:
            stats = rate_limiter().get_window_stats(self.item, str(self.scope), self.ident)
        except redis.exceptions.RedisError:
            return None
        return max(stats.reset_time - time.time(), 0.0)


@cache
def rate_limiter() -> MovingWindowRateLimiter:
    """The process's limiter, on the cache's Redis under its key prefix (so a test clears its
    counts with the cache's keys), with the cache's timeouts."""
    options: dict[str, Any] = settings.CACHES["default"]
    storage = RedisStorage(
        options["LOCATION"],
        key_prefix=f"{options['KEY_PREFIX']}:throttle",
        socket_connect_timeout=options["OPTIONS"]["socket_connect_timeout"],
        socket_timeout=options["OPTIONS"]["socket_timeout"],
    )
    return MovingWindowRateLimiter(storage)


def scope_of(view: object) -> str:
    """The throttle scope of a view: its ``throttle_scope``, else "write"."""
    return getattr(view, "throttle_scope", None) or DEFAULT_SCOPE


def throttled_form(
    scope: str,
) -> Callable[[Callable[..., HttpResponseBase]], Callable[..., HttpResponseBase]]:
    """Decorate a form view: a POST over the ``scope`` rate gets the "too many attempts" page
    (429, ``Retry-After``) instead of the view."""

    def decorate(view: Callable[..., HttpResponseBase]) -> Callable[..., HttpResponseBase]:
        @wraps(view)
        def throttled(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponseBase:
            throttle = WriteRateThrottle()
            if throttle.allow_request(request, SimpleNamespace(throttle_scope=scope)):
                return view(request, *args, **kwargs)
            return too_many_attempts_page(request, retry_after=int(throttle.wait() or 1))

        return throttled

    return decorate


def too_many_attempts_page(
    request: HttpRequest, *, retry_after: int, locked_out: bool = False
) -> HttpResponse:
    """The friendly 429 page of a form sent too often, or of a login locked out (translated,
    with ``Retry-After``)."""
    context = {"minutes": max(1, -(-retry_after // 60)), "locked_out": locked_out}
    response = render(request, "too_many_attempts.html", context, status=429)
    response["Retry-After"] = str(retry_after)
    return response
