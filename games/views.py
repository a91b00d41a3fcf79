"""Plain Django views."""

from django.db import connection
from django.http import HttpRequest, JsonResponse

from games.shared.api import RETRY_AFTER_OUTAGE
from games.shared.outages import OUTAGES


def healthz(request: HttpRequest) -> JsonResponse:
    """Liveness and database check used by docker-compose and the run script: 503 (with
    ``Retry-After``) while the database cannot be reached, never a 500 page."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except OUTAGES:
        response = JsonResponse({"status": "database unavailable"}, status=503)
        response["Retry-After"] = str(RETRY_AFTER_OUTAGE)
        return response
    return JsonResponse({"status": "ok"})
