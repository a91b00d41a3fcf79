"""The community app's middleware: page views counted (spec C1)."""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest, HttpResponse

from games.community import services
from games.community.visitors import visitor_from_request
from games.shared.pages import COUNTS_AS_PAGE_VIEW


class PageViewMiddleware:
    """Counts a visit (once per visitor per day) for every view marked with
    ``games.shared.pages.counts_as_page_view``, whichever app the view belongs to."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_view(
        self, request: HttpRequest, view: Callable[..., Any], args: Any, kwargs: Any
    ) -> None:
        if getattr(view, COUNTS_AS_PAGE_VIEW, False):
            services.record_page_view(visitor=visitor_from_request(request))
