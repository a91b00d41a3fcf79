"""The changelog page's content (U7): CHANGELOG.md rendered as safe HTML.

Only what the changelog uses: ``#`` headings, ``-``/``*`` list items, paragraphs and
`` `code` ``. Every piece of text is escaped before it is wrapped in tags.
"""

import re
from pathlib import Path

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

_HEADING = re.compile(r"^(#{1,6})\s+(.*)$")
_LIST_ITEM = re.compile(r"^\s*[-*]\s+(.*)$")
_CODE = re.compile(r"`([^`]+)`")


# In a checkout symlinks to the repository's CHANGELOG.md and its translations
# (CHANGELOG.ja.md, CHANGELOG.ru.md); the wheel holds copies of the files.
CHANGELOG_PATH = Path(__file__).resolve().parent / "CHANGELOG.md"


def read_changelog(language: str = "en") -> SafeString:
    """The packaged CHANGELOG.md as HTML, in ``language`` when it has a translation."""
    translated = CHANGELOG_PATH.with_suffix(f".{language}.md")
    path = translated if translated.exists() else CHANGELOG_PATH
    return render_markdown(path.read_text(encoding="utf-8"))


def render_markdown(text: str) -> SafeString:
    """Render the small Markdown subset; headings start at ``<h2>`` (the page has the h1)."""
    html: list[str] = []
    paragraph: list[str] = []
    in_list = False

    def close_blocks() -> None:
        nonlocal in_list
        if paragraph:
            html.append(f"<p>{' '.join(paragraph)}</p>")
            paragraph.clear()
        if in_list:
            html.append("</ul>")
            in_list = False

    for line in text.splitlines():
        heading = _HEADING.match(line)
        item = _LIST_ITEM.match(line)
        if heading:
            close_blocks()
            level = min(len(heading.group(1)) + 1, 6)
            html.append(f"<h{level}>{_inline(heading.group(2))}</h{level}>")
        elif item:
            if paragraph:
                close_blocks()
            if not in_list:
                html.append("<ul>")
                in_list = True
            html.append(f"<li>{_inline(item.group(1))}</li>")
        elif line.strip():
            if in_list and line.startswith((" ", "\t")):
                html[-1] = html[-1][: -len("</li>")] + " " + _inline(line.strip()) + "</li>"
            else:
                if in_list:
                    close_blocks()
                paragraph.append(_inline(line.strip()))
        else:
            close_blocks()
    close_blocks()
    return mark_safe("\n".join(html))  # noqa: S308 (every text piece went through escape())


def _inline(text: str) -> str:
    return _CODE.sub(r"<code>\1</code>", escape(text))
