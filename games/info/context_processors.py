"""``info_pages`` in every template, for links to the information pages in the site menu."""

from django.http import HttpRequest

from games.info.registry import page_links


def info_pages(request: HttpRequest) -> dict[str, list[dict[str, object]]]:
    """Links to the information pages (url, title in the active language, current)."""
    return {"info_pages": page_links(request.path)}
