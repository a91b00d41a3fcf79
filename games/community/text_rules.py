"""The comment rules (spec C3): no URLs, e-mail addresses, phone numbers, addresses, schools,
messenger IDs or blocked words, and length limits.

Checks run on normalised copies of the text (NFKC, so full-width letters, digits and dots become
ASCII; case-folded; zero-width characters removed), and again with runs of single spaced-out
characters joined ("e x a m p l e . c o m"). The stored text is the author's own, only cleaned
of control and zero-width characters.
"""

import re
import unicodedata
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from games.community.errors import RuleViolation

COMMENT_MAX_LENGTH = 1000
COMMENT_MAX_LINES = 20
REASON_MAX_LENGTH = 500
BUG_REPORT_MAX_LENGTH = 5000

BLOCKLIST_PATH = Path(__file__).resolve().parent / "data" / "blocklist.txt"

_ZERO_WIDTH = dict.fromkeys(map(ord, "\u200b\u200c\u200d\u2060\ufeff\u00ad\u180e"), None)
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
# Characters used as dots and dashes that NFKC leaves alone.
_DOTS = str.maketrans({"。": ".", "｡": ".", "․": ".", "∙": ".", "ё": "е"})
_DASHES = str.maketrans(dict.fromkeys("‐‑‒–—―−ー", "-"))

# Top-level domains worth catching. Short ones that are common English words glued after a
# full stop ("fun.It", "me.So") are left out on purpose to keep innocent texts passing.
_TLDS = (
    "com|net|org|info|biz|edu|gov|jp|ru|su|ua|by|kz|uk|de|fr|es|nl|pl|cn|kr|tw|hk|io|co|me|tv|"
    "ly|gg|gl|app|dev|xyz|site|online|top|club|shop|store|link|live|blog|page|us|ca|au|ch|se|eu|"
    "asia|mobi|tk|ml|рф|рус|онлайн|сайт|москва|орг|ком"
)
_LABEL = r"[a-z0-9а-яё](?:[a-z0-9а-яё-]*[a-z0-9а-яё])?"
# "." (optionally spaced), "(.)", "[dot]", " dot ", "ドット", "точка".
_DOT = (
    r"(?:\s*\.(?!\s)|\s+\.\s+"
    r"|\s*[(\[{<]\s*(?:\.|dot|точка|ドット|てん)\s*[)\]}>]\s*"
    r"|\s+dot\s+|\s*(?:ドット|どっと)\s*|\s+точка\s+)"
)
_DOMAIN = rf"{_LABEL}(?:{_DOT}{_LABEL})*{_DOT}(?:{_TLDS})(?![a-z0-9а-яё])"
# "it.Me too": a full stop between a lower-case letter and a capitalised word ends a sentence
# typed without its space; it is read as ". " (like "Great game. Com on!").
_GLUED_SENTENCE = re.compile(r"(?<=[a-zа-яё])\.(?=[A-ZА-ЯЁ][a-zа-яё])")

_URL_PATTERNS = (
    re.compile(r"[a-z][a-z0-9+.-]{1,15}\s*:\s*/\s*/"),  # any scheme://
    re.compile(r"\b(?:https?|hxxps?|ftp)\s*[:：]"),
    re.compile(rf"(?<![a-z0-9])www\d*{_DOT}{_LABEL}"),
    re.compile(rf"(?<![a-z0-9а-яё@.-]){_DOMAIN}"),
    re.compile(r"[a-z0-9]dot(?:com|net|org|ru|jp)(?![a-z])"),  # "exampledotcom"
)
_EMAIL_PATTERNS = (
    re.compile(r"[a-z0-9._%+-]+\s*@\s*[a-z0-9-]+(?:\.[a-z0-9-]+)*\.[a-z]{2,}"),
    re.compile(
        rf"[a-z0-9._%+-]+\s*(?:@|[(\[{{<]\s*(?:at|@|собака)\s*[)\]}}>]\s*|\s+at\s+"
        rf"|\s*(?:アットマーク|あっとまーく|アット)\s*|\s+собака\s+){_DOMAIN}"
    ),
)
_MESSENGER = re.compile(
    r"(?:(?:line|ライン)\s*id\s*[:@]?|(?:discord|telegram|skype|kakao|wechat|whatsapp|viber|"
    r"instagram|insta|twitter|インスタ|ツイッター|テレグラム|телеграм|телега|вконтакте|ватсап|"
    r"инстаграм)\s*(?:id|アカウント|аккаунт|ник)?\s*[:@])\s*@?[a-z0-9_.-]{3,}"
)
# Addresses: Japanese postal codes, "N丁目" / "N番地" blocks, Russian streets with a house number,
# English house-number-and-street.
_ADDRESS = re.compile(
    r"(?:〒|住所|郵便番号|postal code|zip code)\D{0,6}\d{3}-?\d{4}|\d+\s*丁目|\d+\s*番地"
    r"|(?:ул\.|улиц[аеы]|проспект|пр-т|переулок|пер\.)\s*[а-яё.-]+\s*,?\s*(?:д\.|дом)?\s*\d+"
    r"|\bкв\.\s*\d+"
    r"|\b\d+\s+[a-z]+(?:\s+[a-z]+)?\s+(?:street|st\.|avenue|ave\.|road|rd\.|lane|drive|blvd)"
)
# Schools: a named Japanese school ("市立北小学校", "第三中学校"), a Japanese class ("3年2組"),
# Russian numbered schools, English named schools.
_SCHOOL = re.compile(
    r"(?:市|区|町|村|県|都|府|道|国|私)立[一-龥々ぁ-んァ-ヶー]{1,10}"
    r"(?:小学校|中学校|高等学校|高校|中学|学園|学院)"
    r"|第[一二三四五六七八九十\d]+(?:小学校|中学校|高等学校|高校)"
    r"|\d+\s*年\s*\d+\s*組"
    r"|(?:школ[аеуыой]*|гимнази[яиюей]|лице[йяюе])\s*(?:no\.?|n|номер)\s*\d+"
    r"|\b(?!(?:in|at|to|a|an|the|my|our|your|his|her|their|of|from|finished|attended|local|"
    r"junior|senior|and|or)\s)[a-z]+\s+(?:elementary|primary|middle|junior high|high)\s+school"
)
# Dates and clock times look like digit groups; they are removed before the phone check.
_DATE_OR_TIME = re.compile(r"\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}:\d{2}(?::\d{2})?")
_DIGIT_RUN = re.compile(r"\+?\(?\d[\d \t().\-/]*\d")
_JAPANESE_PHONE = re.compile(r"(?<!\d)0\d{1,4}-\d{1,4}-\d{3,4}(?!\d)")

_LEET = str.maketrans({"0": "o", "1": "i", "3": "e", "4": "a", "5": "s", "7": "t", "@": "a"})
_CYRILLIC_AS_LATIN = str.maketrans("авекмнорстухі", "abekmhopctyxi")
_LATIN_AS_CYRILLIC = str.maketrans("abekmhopctyx", "авекмнорстух")
_OBFUSCATION_GAP = r"[\s.\-_*·・,'\"]*"
_LETTER = r"[^\W\d_]"
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")


@dataclass(frozen=True)
class BlockedTerm:
    """One block-list entry compiled to an obfuscation-tolerant pattern."""

    entry: str
    pattern: re.Pattern[str]


def clean_text(text: str) -> str:
    """The text as stored: newlines unified, control and zero-width characters removed."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").translate(_ZERO_WIDTH)
    return _CONTROL.sub("", text).strip()


def check_length(text: str, *, field: str, max_length: int, max_lines: int | None = None) -> None:
    """Reject an empty text, or one over ``max_length`` characters or ``max_lines`` lines."""
    if not text:
        raise RuleViolation("empty", field=field)
    if len(text) > max_length:
        raise RuleViolation("too_long", field=field, limit=max_length, length=len(text))
    if max_lines is not None and text.count("\n") >= max_lines:
        raise RuleViolation("too_many_lines", field=field, limit=max_lines)


def check_comment_text(text: str, *, field: str = "text") -> None:
    """Raise :class:`RuleViolation` naming the first comment rule ``text`` breaks."""
    check_length(text, field=field, max_length=COMMENT_MAX_LENGTH, max_lines=COMMENT_MAX_LINES)
    variants = _normalised_variants(text)
    if any(p.search(v) for v in variants for p in _EMAIL_PATTERNS):
        raise RuleViolation("email_not_allowed", field=field)
    if any(p.search(v) for v in variants for p in _URL_PATTERNS):
        raise RuleViolation("url_not_allowed", field=field)
    if any(_has_phone_number(v) for v in variants):
        raise RuleViolation("phone_not_allowed", field=field)
    if any(_ADDRESS.search(v) for v in variants):
        raise RuleViolation("address_not_allowed", field=field)
    if any(_SCHOOL.search(v) for v in variants):
        raise RuleViolation("school_not_allowed", field=field)
    if any(_MESSENGER.search(v) for v in variants):
        raise RuleViolation("contact_not_allowed", field=field)
    word = find_blocked_word(text)
    if word is not None:
        raise RuleViolation("blocked_word", field=field, word=word)


def normalise(text: str) -> str:
    """NFKC, case-folded, zero-width characters removed, odd dots and dashes made ASCII."""
    text = unicodedata.normalize("NFKC", text.translate(_ZERO_WIDTH)).casefold()
    return text.translate(_DOTS)


def _normalised_variants(text: str) -> tuple[str, ...]:
    plain = normalise(_GLUED_SENTENCE.sub(". ", text))
    joined = _join_spaced_out(plain)
    return (plain,) if joined == plain else (plain, joined)


def _join_spaced_out(text: str) -> str:
    """Join runs of three or more single characters: "e x a m p l e" -> "example"."""
    tokens = text.split()
    out: list[str] = []
    run: list[str] = []
    for token in [*tokens, ""]:
        if len(token) == 1:
            run.append(token)
            continue
        out.extend(["".join(run)] if len(run) >= 3 else run)
        run = []
        if token:
            out.append(token)
    return " ".join(out)


def _has_phone_number(text: str) -> bool:
    text = _DATE_OR_TIME.sub(" ", text.translate(_DASHES))
    if _JAPANESE_PHONE.search(text):
        return True
    for match in _DIGIT_RUN.finditer(text):
        candidate = match.group()
        groups = re.findall(r"\d+", candidate)
        digits = sum(len(g) for g in groups)
        if digits < 9 or digits > 15:
            continue
        # Lists of game scores ("33 31 40 24 35 29") are groups of one or two digits.
        if len(groups) > 1 and max(len(g) for g in groups) <= 2 and "+" not in candidate:
            continue
        if digits >= 10 or candidate.startswith(("+", "(", "0", "8")):
            return True
    return False


def find_blocked_word(text: str) -> str | None:
    """The block-list entry ``text`` contains (spacing, dots, full-width and leet tolerated)."""
    plain = normalise(text)
    candidates = {
        plain,
        _katakana_to_hiragana(plain),
        plain.translate(_LEET),
        plain.translate(_CYRILLIC_AS_LATIN),
        plain.translate(_LATIN_AS_CYRILLIC),
    }
    for term in blocked_terms():
        if any(term.pattern.search(candidate) for candidate in candidates):
            return term.entry
    return None


@cache
def blocked_terms() -> tuple[BlockedTerm, ...]:
    """The block list from ``data/blocklist.txt`` (read once per process).

    One entry per line, ``#`` starts a comment. A trailing ``*`` matches any ending
    (``fuck*``); other Latin/Cyrillic entries match whole words; Japanese entries match
    anywhere.
    """
    terms = []
    for raw in BLOCKLIST_PATH.read_text(encoding="utf-8").splitlines():
        entry = raw.split("#", 1)[0].strip()
        if entry:
            terms.append(BlockedTerm(entry.rstrip("*"), _compile_entry(entry)))
    return tuple(terms)


def _compile_entry(entry: str) -> re.Pattern[str]:
    prefix = entry.endswith("*")
    word = _katakana_to_hiragana(normalise(entry.rstrip("*")))
    letters = [re.escape(char) + "+" for char in word if not char.isspace()]
    body = _OBFUSCATION_GAP.join(letters)
    if _CJK.search(word):
        return re.compile(body)
    end = "" if prefix else rf"(?!{_LETTER})"
    return re.compile(rf"(?<!{_LETTER}){body}{end}")


def _katakana_to_hiragana(text: str) -> str:
    return "".join(chr(ord(c) - 0x60) if "ァ" <= c <= "ヶ" else c for c in text)
