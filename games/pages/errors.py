"""The site's own error pages: a translated 404 (also under DEBUG, where Django would show its
technical page) and a 500 page that needs no database."""

from collections.abc import Callable

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

NOT_FOUND_TEMPLATE = "404.html"


def not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    """The 404 page (``handler404``)."""
    return render(request, NOT_FOUND_TEMPLATE, status=404)


class SiteNotFoundMiddleware:
    """Under DEBUG, answers a page's 404 with the site's page instead of Django's technical one
    (the API keeps its JSON errors). Without DEBUG, ``handler404`` already does."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            settings.DEBUG
            and response.status_code == 404
            and not request.path.startswith(("/api/", settings.STATIC_URL or "/static/"))
            and response.get("Content-Type", "").startswith("text/html")
        ):
            return not_found(request)
        return response
