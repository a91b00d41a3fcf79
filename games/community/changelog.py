"""The changelog page's content (U7): CHANGELOG.md rendered as safe HTML.

markdown-it-py renders it (CommonMark, raw HTML off, so any ``<tag>`` in the file is shown as
text and link targets are checked against ``javascript:`` and the like).
"""

from functools import cache
from pathlib import Path

from django.utils.safestring import SafeString, mark_safe
from markdown_it import MarkdownIt
from markdown_it.rules_core import StateCore

# In a checkout symlinks to the repository's CHANGELOG.md and its translations
# (CHANGELOG.ja.md, CHANGELOG.ru.md); the wheel holds copies of the files.
CHANGELOG_PATH = Path(__file__).resolve().parent / "CHANGELOG.md"


def read_changelog(language: str = "en") -> SafeString:
    """The packaged CHANGELOG.md as HTML, in ``language`` when it has a translation."""
    translated = CHANGELOG_PATH.with_suffix(f".{language}.md")
    path = translated if translated.exists() else CHANGELOG_PATH
    return render_markdown(path.read_text(encoding="utf-8"))


def render_markdown(text: str) -> SafeString:
    """Markdown as HTML with headings one level down (the page's own title is the ``<h1>``)."""
    return mark_safe(_renderer().render(text))  # noqa: S308 (raw HTML is off: text is escaped)


@cache
def _renderer() -> MarkdownIt:
    renderer = MarkdownIt("commonmark", {"html": False})
    renderer.core.ruler.push("headings_one_level_down", _headings_one_level_down)
    return renderer


def _headings_one_level_down(state: StateCore) -> None:
    for token in state.tokens:
        if token.type in ("heading_open", "heading_close"):
            token.tag = f"h{min(int(token.tag[1]) + 1, 6)}"
