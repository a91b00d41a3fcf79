"""The list of information pages with their titles in every language, in one place.

The prose of a page lives in ``info/<language>/<slug>.html``; a language without its own
template (or title) falls back to English.
"""

from collections.abc import Mapping
from dataclasses import dataclass

from django.urls import reverse
from django.utils.translation import get_language

FALLBACK_LANGUAGE = "en"

# The name of the whole set of pages, shown above the page list.
GUIDE_NAME = {"en": "Reversi guide", "ja": "リバーシの手引き", "ru": "Справка по реверси"}


@dataclass(frozen=True)
class InfoPage:
    """One information page: its URL slug and its title per language code."""

    slug: str
    titles: Mapping[str, str]

    def title(self, language: str) -> str:
        """The page title in ``language`` (English when there is none)."""
        return in_language(self.titles, language)

    def template_names(self, language: str) -> list[str]:
        """Templates to try, the page's own language first, then English."""
        return [f"info/{code}/{self.slug}.html" for code in (language, FALLBACK_LANGUAGE)]


PAGES = (
    InfoPage("how-to-play", {"en": "How to play", "ja": "遊び方とルール", "ru": "Как играть"}),
    InfoPage("tips", {"en": "Tips to win", "ja": "勝つためのヒント", "ru": "Советы"}),
    InfoPage("faq", {"en": "FAQ", "ja": "よくある質問", "ru": "Вопросы и ответы"}),
    InfoPage("history", {"en": "History", "ja": "リバーシの歴史", "ru": "История"}),
    InfoPage(
        "multiplayer",
        {
            "en": "Reversi for 3 or 4 players",
            "ja": "3人・4人で遊ぶリバーシ",
            "ru": "Реверси на троих и четверых",
        },
    ),
    InfoPage(
        "comment-rules",
        {"en": "Comment rules", "ja": "コメントのきまり", "ru": "Правила комментариев"},
    ),
)
PAGES_BY_SLUG = {page.slug: page for page in PAGES}


def current_language() -> str:
    """The active language without a region ("ja-jp" -> "ja"), English when none is active."""
    return (get_language() or FALLBACK_LANGUAGE).split("-")[0].lower()


def in_language(texts: Mapping[str, str], language: str) -> str:
    """``texts[language]``, or the English text when that language has none."""
    return texts.get(language, texts[FALLBACK_LANGUAGE])


def page_links(path: str) -> list[dict[str, object]]:
    """Links to every page, titled in the active language; ``current`` marks the one at ``path``."""
    language = current_language()
    links: list[dict[str, object]] = []
    for page in PAGES:
        url = reverse(f"info:{page.slug}")
        links.append({"url": url, "title": page.title(language), "current": url == path})
    return links
