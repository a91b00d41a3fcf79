"""``info_pages``: the links to the information pages for the site menu."""

from django.test import RequestFactory
from django.utils import translation

from games.info.context_processors import info_pages
from games.info.registry import PAGES


def test_links_are_titled_in_the_active_language_and_mark_the_current_page() -> None:
    with translation.override("ru"):
        links = info_pages(RequestFactory().get("/faq/"))["info_pages"]
    assert links == [
        {"url": f"/{page.slug}/", "title": page.titles["ru"], "current": page.slug == "faq"}
        for page in PAGES
    ]


def test_no_link_is_current_on_other_pages() -> None:
    with translation.override("ja"):
        links = info_pages(RequestFactory().get("/community/"))["info_pages"]
    assert [link["title"] for link in links] == [page.titles["ja"] for page in PAGES]
    assert not any(link["current"] for link in links)
