"""The answer to a login that django-axes refused (``AXES_LOCKOUT_CALLABLE``): 429 with
``Retry-After``, the API's error envelope under ``/api/``, the friendly page for the forms."""

from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse

from games.shared.api import error_body
from games.shared.errors import MESSAGES
from games.shared.throttles import too_many_attempts_page


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
