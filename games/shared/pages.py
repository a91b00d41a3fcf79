"""What the site's pages share across apps: the mark of a page that counts as a visit."""

from collections.abc import Callable
from typing import TypeVar

View = TypeVar("View", bound=Callable[..., object])

COUNTS_AS_PAGE_VIEW = "counts_as_page_view"
"""The attribute ``counts_as_page_view`` sets on a view (the community app's
``PageViewMiddleware`` counts such views, once per visitor per day)."""


def counts_as_page_view(view: View) -> View:
    """Mark a page view as one that counts in the site's page views (spec C1). Decorators
    outside it that use ``functools.wraps`` keep the mark."""
    setattr(view, COUNTS_AS_PAGE_VIEW, True)
    return view
