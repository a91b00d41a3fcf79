"""Rate limits of the writes (DRF throttles), counted in the shared cache (Redis), so they
hold across every server process.

Every write (POST, PUT, PATCH, DELETE) of the API passes ``WriteRateThrottle``: the view's
``throttle_scope`` names its rate in ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` ("write"
when it names none). Accounts are counted by account, guests by client address
(``games.shared.clients.requester_of``). The sign-up and log-in forms use the same counters
through ``throttled_form``.

While Redis is down the throttles let requests through (and log it): a saved write must still
be answered, and an outage of the counters must not become an outage of the site.
"""

import logging
from collections.abc import Callable
from functools import wraps
from types import SimpleNamespace
from typing import Any, cast

import redis.exceptions
from django.http import HttpRequest, HttpResponse, HttpResponseBase
from django.shortcuts import render
from rest_framework.permissions import SAFE_METHODS
from rest_framework.settings import api_settings
from rest_framework.throttling import ScopedRateThrottle, SimpleRateThrottle

from games.shared.clients import requester_of

DEFAULT_SCOPE = "write"
logger = logging.getLogger(__name__)


class WriteRateThrottle(ScopedRateThrottle):
    """Throttles the writes only (reads are never counted), by the view's scope."""

    def allow_request(self, request: Any, view: Any) -> bool:
        if request.method in SAFE_METHODS:
            return True
        self.scope = scope_of(view)
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        try:
            return SimpleRateThrottle.allow_request(self, request, view)
        except redis.exceptions.RedisError:
            logger.warning("throttle %s not counted: the cache (Redis) is unreachable", self.scope)
            return True

    def get_rate(self) -> str:
        """The scope's rate, read from the settings when the request comes (not at import)."""
        return cast(str, api_settings.DEFAULT_THROTTLE_RATES[str(self.scope)])

    def get_cache_key(self, request: Any, view: Any) -> str:
        return self.cache_format % {"scope": self.scope, "ident": requester_of(request)}


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
