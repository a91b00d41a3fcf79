"""Unicode normalisation shared by the comment rules.

:func:`fold` is the one view every rule starts from: NFKC (full-width and half-width forms,
mathematical and circled letters and digits, ligatures), invisible characters removed
(format characters such as zero-width spaces and joiners, variation selectors, the keycap
mark, Hangul fillers), case-folded, diacritics dropped, and letters of other scripts that
stand in for Latin ones (small capitals, Greek, regional indicators, negative squared
letters, dingbat digits...) mapped to ASCII: first through the Unicode confusables table of
``confusable-homoglyphs``, then by ``anyascii`` transliteration. Russian Cyrillic and Japanese
are kept as they are. The stored text is never folded: see :func:`clean_text`.
"""

import html
import re
import sys
import unicodedata
from functools import cache
from urllib.parse import unquote

from anyascii import anyascii
from confusable_homoglyphs import utils as confusables_data

_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"), None)
# Invisible characters that are not format characters (Cf) or marks (M*).
_INVISIBLE_OTHER = frozenset("\u115f\u1160\u3164\uffa0\u2800")
# Enclosed and pictographic letters and digits that anyascii spells well (NFKC leaves them).
_ENCLOSED_RANGES = ((0x2460, 0x24FF), (0x2776, 0x2793), (0x1F100, 0x1F1FF))
_KEYCAP_TEN = "\U0001f51f"
# Lower-case Cyrillic letters that stand in for Latin ones but are not in Unicode's
# confusables table (which only lists а б г е о р с у х among the Russian letters).
_EXTRA_CYRILLIC_AS_LATIN = {
    "к": "k",
    "м": "m",
    "т": "t",
    "н": "h",
    "в": "b",
    "и": "u",
    "п": "n",
    "з": "3",
    "ч": "4",
}
_RUSSIAN_LETTERS = frozenset("абвгдежзийклмнопрстуфхцчшщъыьэюя")
_JAPANESE = re.compile(
    r"[\u3005-\u3007\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff66-\uff9f]"
)
_RIGHT_TO_LEFT_OVERRIDE = "\u202e"
# An override runs to the pop (U+202C), the end of an isolate (U+2069) or the end of the line.
_OVERRIDDEN_RUN = re.compile("\u202e([^\u202c\u2069\n]*)")
_SPELLED_UNDERSCORE = re.compile(
    r"(?<=\w)\s*(?:(?<![a-z])underscore(?![a-z])|(?<![а-я])(?:нижнее\s+)?подчеркивани[ея](?![а-я])"
    r"|アンダーバー|アンダースコア)\s*(?=\w)"
)
# The kana voicing marks, which NFD splits off and NFC puts back.
_KANA_MARKS = frozenset("\u3099\u309a")


def clean_text(text: str) -> str:
    """The text as stored: newlines unified, control and zero-width characters removed (the
    rules read folded views; emoji variation selectors and keycaps are kept as written)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_ZERO_WIDTH)
    return _CONTROL.sub("", text).strip()


def visual_order(text: str) -> str:
    """Runs after a right-to-left override (U+202E) reversed, as a reader sees them:
    "\u202emoc.elpmaxe" shows as "example.com"."""
    if _RIGHT_TO_LEFT_OVERRIDE not in text:
        return text
    return _OVERRIDDEN_RUN.sub(lambda run: run.group(1)[::-1], text)


def unescaped(text: str) -> str:
    """HTML character references and URL percent-escapes decoded: "reversi&#46;com",
    "reversi%2Ecom", "f&#117;ck" read as written out."""
    if "&" in text:
        text = html.unescape(text)
    if "%" in text:
        text = unquote(text)
    return text


def unspell_underscores(folded: str) -> str:
    """An underscore spelled out between two words, as in a handle ("reversi underscore boy",
    "маша нижнее подчеркивание 07", "yuki アンダーバー 05"), written as "_"."""
    return _SPELLED_UNDERSCORE.sub("_", folded)


def nfkc(text: str) -> str:
    """NFKC with invisible characters removed (case kept), text after a right-to-left
    override in the order it is shown (see :func:`visual_order`)."""
    text = unicodedata.normalize("NFKC", visual_order(unescaped(text)))
    if text.isascii():
        return text
    return _invisible().sub("", text)


def fold(text: str) -> str:
    """The text every rule reads: see the module docstring."""
    text = nfkc(text).casefold()
    if text.isascii():
        return text
    return unicodedata.normalize("NFC", "".join(map(_fold_char, text)))


def is_japanese(char: str) -> bool:
    """Kana, kanji, the iteration mark, 〇 and half-width katakana."""
    return _JAPANESE.match(char) is not None


def has_japanese(text: str) -> bool:
    return _JAPANESE.search(text) is not None


@cache
def _invisible() -> re.Pattern[str]:
    """A character class of every invisible character (built once from Unicode's tables)."""
    ranges: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        if _is_invisible(chr(code)):
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return re.compile(
        "[" + "".join(f"{re.escape(chr(a))}-{re.escape(chr(b))}" for a, b in ranges) + "]"
    )


def _is_invisible(char: str) -> bool:
    category = unicodedata.category(char)
    if category == "Cf" or char in _INVISIBLE_OTHER:
        return True
    # Variation selectors, the keycap mark and other enclosing marks.
    return category == "Me" or "\ufe00" <= char <= "\ufe0f" or "\U000e0100" <= char <= "\U000e01ef"


@cache
def _fold_char(char: str) -> str:
    if char.isascii() or char in _RUSSIAN_LETTERS or is_japanese(char) or char in _KANA_MARKS:
        return char
    if char == "ё":
        return "е"
    category = unicodedata.category(char)
    if category.startswith("M"):
        return ""
    if char == _KEYCAP_TEN:
        return "10"
    base = unicodedata.normalize("NFD", char)[0]
    if base.isascii() and base.isalnum():
        return base  # a Latin letter with diacritics
    if not (category[0] in "LN" or any(low <= ord(char) <= high for low, high in _ENCLOSED_RANGES)):
        return char  # punctuation, symbols, emoji: the rules look at them themselves
    look_alike = _confusable_ascii().get(char)
    if look_alike is not None:
        return look_alike
    spelled = anyascii(char).casefold()
    return spelled if spelled.isalnum() and len(spelled) <= 2 else char


@cache
def _confusable_ascii() -> dict[str, str]:
    """Characters whose Unicode confusables include an ASCII letter or digit, mapped to it
    (lower-case letters first)."""
    table: dict[str, str] = {}
    for char, homoglyphs in confusables_data.load("confusables.json").items():
        if len(char) != 1 or char.isascii():
            continue
        targets = [h["c"] for h in homoglyphs if len(h["c"]) == 1 and h["c"].isascii()]
        targets = [t for t in targets if t.isalnum()]
        if targets:
            table[char] = min(targets, key=lambda t: (not t.islower(), not t.isalpha(), t))
    return table


@cache
def cyrillic_as_latin() -> dict[int, str]:
    """A ``str.translate`` table: Russian letters that look like Latin letters or digits."""
    table = {ord(c): t.casefold() for c, t in _confusable_ascii().items() if c in _RUSSIAN_LETTERS}
    table.update({ord(c): t for c, t in _EXTRA_CYRILLIC_AS_LATIN.items()})
    return table


@cache
def latin_as_cyrillic() -> dict[int, str]:
    """The reverse of :func:`cyrillic_as_latin`, with the usual leetspeak digits and ``@``."""
    table = {ord(t): chr(c) for c, t in cyrillic_as_latin().items()}
    table.update({ord("0"): "о", ord("@"): "а", ord("y"): "у", ord("i"): "и", ord("z"): "з"})
    return table
