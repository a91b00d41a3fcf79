"""The login lockout of django-axes as this site runs it: the answer to a refused login
(``AXES_LOCKOUT_CALLABLE``: 429 with ``Retry-After``, the API's error envelope under ``/api/``,
the friendly page for the forms), and its counters in the Redis cache that an outage of Redis
does not turn into an outage of logging in (``AXES_HANDLER``)."""

import logging
from typing import Any

import redis.exceptions
from axes.handlers.cache import AxesCacheHandler
from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from games.shared.api import error_body
from games.shared.errors import MESSAGES
from games.shared.throttles import too_many_attempts_page

logger = logging.getLogger(__name__)


def lockout_response(request: HttpRequest, *args: Any) -> HttpResponse:
    """The lockout answer. (django-axes passes the original response and the credentials,
    in an order that depends on the server; neither is needed.)"""
    retry_after = int(settings.AXES_COOLOFF_TIME.total_seconds())
    if request.path.startswith("/api/"):
        message = str(MESSAGES["locked_out"]) % {"minutes": retry_after // 60}
        response: HttpResponse = JsonResponse(error_body("locked_out", message), status=429)
        response["Retry-After"] = str(retry_after)
        return response
    return too_many_attempts_page(request, retry_after=retry_after, locked_out=True)


class OutageTolerantCacheHandler(AxesCacheHandler):
    """django-axes' cache handler, which lets logins through while Redis is unreachable (and
    logs it), as the write throttles do: the password is still checked; only the count of wrong
    passwords is not kept during the outage."""

    def get_failures(self, request: Any, credentials: dict[str, Any] | None = None) -> int:
        try:
            failures: int = super().get_failures(request, credentials)
        except redis.exceptions.RedisError:
            logger.warning("login failures not read: the cache (Redis) is unreachable")
            return 0
        return failures

    def user_login_failed(
        self, sender: Any, credentials: dict[str, Any], request: Any = None, **kwargs: Any
    ) -> None:
        try:
            super().user_login_failed(sender, credentials, request, **kwargs)
        except redis.exceptions.RedisError:
            logger.warning("login failure not counted: the cache (Redis) is unreachable")

    def user_logged_in(self, sender: Any, request: Any, user: Any, **kwargs: Any) -> None:
        try:
            super().user_logged_in(sender, request, user, **kwargs)
        except redis.exceptions.RedisError:
            logger.warning("login failures not reset: the cache (Redis) is unreachable")
