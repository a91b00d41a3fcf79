"""The URL and e-mail rules: host names are checked against the Public Suffix List.

``tldextract`` reads its bundled snapshot of the list (never the network). A host is a run of
labels (Latin, Cyrillic or Japanese; punycode ``xn--`` too) joined by dots, however they are
written: ".", " . ", a look-alike dot ("。", "・", "•"…), a bracketed dot ("(.)", "[dot]",
"（ドット）"), or a spelled one ("dot", "ドット", "点", "точка", "тчк"). Whether such a run is
refused depends on how sure it is to be a host:

- always, with a scheme, ``www``, a path, a punycode label, a bracketed dot or a two-level
  suffix ("co.jp", "com.ru");
- for the usual top-level domains (``.com``, ``.jp``, ``.рф``… :data:`COMMON_TLDS`) with a plain
  dot, and with any other kind of dot when the label before it is a real name;
- for the other suffixes (many are English words: ``.it``, ``.me``, ``.so``, ``.next``) only with
  a plain dot and a sign of a host: a digit or hyphen in the name, or a link word ("site",
  "サイト", "сайт") in the comment. "good game.next time" passes, "reversi-club.fun" does not.

A full stop typed without its space before a capitalised word ("Nice game.Next time") ends a
sentence: :func:`unglue_sentences` puts the space back before the text is folded.
"""

import re
from dataclasses import dataclass
from functools import cache

import tldextract

from games.community.text_rules.normalise import cyrillic_as_latin

COMMON_TLDS = frozenset(
    [
        "com",
        "net",
        "org",
        "info",
        "biz",
        "edu",
        "gov",
        "mil",
        "int",
        "jp",
        "ru",
        "su",
        "ua",
        "kz",
        "uk",
        "de",
        "fr",
        "es",
        "pl",
        "nl",
        "cn",
        "kr",
        "tw",
        "hk",
        "io",
        "ly",
        "tv",
        "cc",
        "ws",
        "xyz",
        "online",
        "site",
        "shop",
        "store",
        "app",
        "dev",
        "tk",
        "ml",
        "ga",
        "cf",
        "gq",
        "eu",
        "ca",
        "au",
        "br",
        "ch",
        "se",
        "fi",
        "dk",
        "cz",
        "sk",
        "gr",
        "pt",
        "ro",
        "hu",
        "bg",
        "rs",
        "hr",
        "lt",
        "lv",
        "ee",
        "asia",
        "mobi",
        "рф",
        "рус",
        "укр",
        "бел",
        "срб",
        "қаз",
        "мкд",
    ]
)
# Words that are never the name part of a host in a spelled-out one ("the dot in", "a dot com").
_NOT_A_NAME = frozenset(
    [
        "a",
        "an",
        "and",
        "are",
        "as",
        "at",
        "be",
        "by",
        "do",
        "for",
        "go",
        "he",
        "i",
        "if",
        "in",
        "is",
        "it",
        "me",
        "my",
        "no",
        "of",
        "on",
        "or",
        "so",
        "the",
        "to",
        "up",
        "us",
        "we",
        "you",
        "your",
        "our",
        "this",
        "that",
        "what",
        "with",
        "dot",
    ]
)
# Words before a spelled "at" that make it a place, not an e-mail address.
_VERBS_BEFORE_AT = frozenset(
    [
        "play",
        "plays",
        "played",
        "playing",
        "join",
        "meet",
        "see",
        "look",
        "find",
        "visit",
        "come",
        "us",
    ]
)
_LOOK_ALIKE_DOTS = "。｡・･•∙⋅·․‧﹒︒⸳ꓸ˙◦●⚫"
_SPELLED_DOT = r"dot|d0t|дот|точка|тчк|ドット|どっと|点|てん"
_SEPARATOR = (
    r"(?P<bracket>\s*[(\[{<（［｛〈「【]\s*(?:\.|["
    + _LOOK_ALIKE_DOTS
    + "]|"
    + _SPELLED_DOT
    + r")\s*[)\]}>）］｝〉」】]\s*)"
    r"|(?P<plain>\.)"
    r"|(?P<spaced_glued>\s+\.(?=[^\s.]))"
    r"|(?P<spaced>\s+\.\s*)"
    r"|(?P<look_alike>\s*[" + _LOOK_ALIKE_DOTS + r"]\s*)"
    r"|(?P<comma>,(?=[a-z]))"
    r"|(?P<spelled>(?:\s+|\s*[_-])(?:dot|d0t|дот|точка|тчк)(?:\s+|[_-]\s*)"
    r"|\s*(?:ドット|どっと|点)\s*)"
)
_LATIN_LABEL = r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?"
_CYRILLIC_LABEL = r"[а-я0-9](?:[а-я0-9-]{0,61}[а-я0-9])?"
_JAPANESE_LABEL = r"[\u3040-\u30ff\u3400-\u9fff]+"
_LABEL = rf"(?:{_LATIN_LABEL}|{_CYRILLIC_LABEL}|{_JAPANESE_LABEL})"
_SEPARATORS = re.compile(_SEPARATOR)
_ANY_SEPARATOR = re.sub(r"\(\?P<\w+>", "(?:", _SEPARATOR)
_HOST = re.compile(rf"(?<![a-z0-9а-я@.-]){_LABEL}(?:(?:{_ANY_SEPARATOR}){_LABEL})+(?![a-z0-9а-я])")
_JAPANESE_CHAR = re.compile(r"[\u3040-\u30ff\u3400-\u9fff]")

_SCHEME = re.compile(
    r"(?<![a-z])(?:[a-z][a-z0-9+.-]{1,15}\s*:\s*/\s*/|(?:https?|hxxps?|h\*\*ps?|ftp)\s*:)"
)
_WWW = re.compile(rf"(?<![a-z0-9])www\d*(?:{_ANY_SEPARATOR})[a-z0-9]{{2}}")
_SPELLED_SLASH = r"(?<![a-z])slash(?![a-z])|(?<![а-я])сл[эе]ш(?![а-я])|スラッシュ"
_PATH_OR_PORT = re.compile(rf"\s*(?:(?:/|{_SPELLED_SLASH})\s*[\w%~#?=&@-]|:\d{{2,5}}(?!\d))")
# A host with a space for its dot, then a path: "youtube com slash othellokid".
_SPACED_HOST_WITH_PATH = re.compile(
    r"(?<![a-z0-9])[a-z0-9][a-z0-9-]+\s+(?:"
    + "|".join(sorted((tld for tld in COMMON_TLDS if tld.isascii()), key=len, reverse=True))
    + rf")\s*(?:/|{_SPELLED_SLASH})\s*[\w%~#?=&@-]+"
)
_GLUED_SPELLED_TLD = re.compile(
    r"[a-z0-9]{2,}(?:dot|d0t)(?:com|net|org|ru|jp|info|io)(?![a-z])"
    r"|(?:ドット|どっと|点)\s*(?:コム|こむ|ネット|ねっと|ジェーピー|ジェイピー|じぇーぴー"
    r"|オルグ|おるぐ|アールユー|インフォ)"
    r"|[a-zа-я0-9-]{2,}\s*(?:точка|тчк|дот)\s*(?:ком|ру|рф|нет|орг|инфо|су)(?![а-я])"
)
_LINK_WORDS = re.compile(
    r"(?<![a-z])(?:site|website|link|url|visit|homepage|check out|go to)(?![a-z])"
    r"|サイト|ホームページ|リンク|(?<![а-я])(?:сайт|ссылк|заход|переход|зайди)"
)

_LOCAL_PART = r"[a-z0-9](?:[a-z0-9._%+-]{0,63}[a-z0-9])?"
_AT = (
    r"(?P<at_sign>\s*@\s*)"
    r"|(?P<at_bracket>\s*[(\[{<（［【]\s*(?:at|@|собака|アット|あっと)\s*[)\]}>）］】]\s*)"
    r"|(?P<at_word>\s+at\s+|\s*(?:アットマーク|あっとまーく|アット|あっと)\s*"
    r"|\s+(?:собака|собачка)\s+)"
)
_EMAIL_START = re.compile(rf"(?<![a-z0-9._%+-]){_LOCAL_PART}(?:{_AT})")
_MAIL_PROVIDERS = re.compile(
    r"(?:gmail|googlemail|yahoo|hotmail|outlook|icloud|yandex|protonmail|rambler|docomo|ezweb"
    r"|softbank|aol|gmx|гмейл|гмаил|джимейл|яндекс"
    # mail.ru's hosts with their suffix in any spelling but a dot ("собака mail ру")
    r"|(?:mail|bk|list|inbox|майл|мейл)\s*(?:ru|ру))(?![a-zа-я])"
)
# Glued sentences: a lower-case letter, a full stop, then a capitalised word and a space.
_GLUED_SENTENCE = re.compile(r"(?<=[a-zа-яё])\.(?=[A-ZА-ЯЁ][a-zа-яё]+(?:[\s,!?)]|$))")
_MIXED_TOKEN = re.compile(r"[\w.-]+")
_LETTER_AND_DIGIT = re.compile(r"(?=.*[a-z])(?=.*\d)[a-z0-9]+")
_LEET_TLD = str.maketrans("0134", "olea")
_LATIN_LETTER = re.compile("[a-z]")
_CYRILLIC_LETTER = re.compile("[а-я]")


@dataclass(frozen=True)
class Host:
    """A run of labels read as a host name, with what makes it sure."""

    text: str
    labels: tuple[str, ...]
    separators: frozenset[str]
    end: int


def unglue_sentences(text: str) -> str:
    """ "Nice game.Next time" -> "Nice game. Next time" (before case folding)."""
    return _GLUED_SENTENCE.sub(". ", text)


def latin_look_alikes(folded: str) -> str:
    """Words that mix Latin and Cyrillic letters, written in Latin letters ("оthеllо")."""

    def latin(match: re.Match[str]) -> str:
        word = match.group()
        if not (_LATIN_LETTER.search(word) and _CYRILLIC_LETTER.search(word)):
            return word
        head, dot, last = word.rpartition(".")
        if dot and last in _cyrillic_suffixes():
            return head.translate(cyrillic_as_latin()) + dot + last  # "othello-ru.рф"
        return word.translate(cyrillic_as_latin())

    return _MIXED_TOKEN.sub(latin, folded)


def find_url(text: str) -> str | None:
    """The first URL or host name in ``text`` (folded, look-alikes made Latin)."""
    for pattern in (_SCHEME, _WWW, _GLUED_SPELLED_TLD, _SPACED_HOST_WITH_PATH):
        match = pattern.search(text)
        if match:
            return match.group().strip()
    for host in _hosts(text):
        # A link word before the host ("visit reversi.fun"), not the host itself ("site.love").
        link_words = _LINK_WORDS.search(text, 0, host.end - len(host.text)) is not None
        if _is_sure_host(host, text, link_words=link_words):
            return host.text
    return None


def find_email(text: str) -> str | None:
    """The first e-mail address in ``text`` (folded, look-alikes made Latin)."""
    for start in _EMAIL_START.finditer(text):
        rest = text[start.end() :]
        provider = _MAIL_PROVIDERS.match(rest) or _GLUED_SPELLED_TLD.match(rest)
        if provider:
            return (start.group() + provider.group()).strip()
        host_match = _HOST.match(rest)
        if host_match is None:
            continue
        host = _host(host_match, offset=start.end())
        if host is None:
            continue
        if start.group("at_word") is not None:
            local = start.group().split()[0]
            if (
                local in _NOT_A_NAME
                or local in _VERBS_BEFORE_AT
                or _PATH_OR_PORT.match(text, host.end)
            ):
                continue  # "play at example.net", "games at site.org/@/me": the URL rule
            if not _is_sure_host(host, text, link_words=False):
                continue
        return (start.group() + host.text).strip()
    return None


def _hosts(text: str) -> list[Host]:
    hosts = []
    for match in _HOST.finditer(text):
        host = _host(match, offset=0)
        if host is not None:
            hosts.append(host)
    return hosts


def _host(match: re.Match[str], *, offset: int) -> Host | None:
    """The host a candidate run names, or None when its last labels are no public suffix."""
    text = match.group()
    labels, separators, start = [], set(), 0
    for separator in _SEPARATORS.finditer(text):
        labels.append(text[start : separator.start()])
        separators.add(separator.lastgroup or "")
        start = separator.end()
    labels.append(text[start:])
    if separators != {"plain"} and any(_JAPANESE_CHAR.search(label) for label in labels):
        return None  # Japanese sentences end in "。": only "例え.jp" is a Japanese host
    host = Host(text, tuple(labels), frozenset(separators), offset + match.end())
    return host if _suffix_and_name(host) else None


def _suffix_and_name(host: Host) -> tuple[str, str] | None:
    """The public suffix and the name before it ("example" in "www.example.co.jp")."""
    labels = [_decoded(label) for label in host.labels]
    extracted = _extractor()(".".join(labels))
    if not extracted.suffix and _LETTER_AND_DIGIT.fullmatch(labels[-1]):
        # Leetspeak in the top-level domain: "c0m", "n3t".
        extracted = _extractor()(".".join([*labels[:-1], labels[-1].translate(_LEET_TLD)]))
    if not extracted.suffix or not extracted.domain:
        return None
    return extracted.suffix, extracted.domain.rsplit(".", 1)[-1]


def _is_sure_host(host: Host, text: str, *, link_words: bool) -> bool:
    suffix_and_name = _suffix_and_name(host)
    if suffix_and_name is None:
        return False
    suffix, name = suffix_and_name
    common = suffix.rsplit(".", 1)[-1] in COMMON_TLDS
    if (
        _PATH_OR_PORT.match(text, host.end)
        or any(label.startswith("xn--") for label in host.labels)
        or "bracket" in host.separators
        or "." in suffix
    ):
        return True
    if any(_JAPANESE_CHAR.search(label) for label in host.labels):
        return host.separators == {"plain"} and common
    if host.separators == {"plain"}:
        return (
            common
            or link_words
            or (len(name) >= 3 and not name.isdigit() and _has_digit_or_hyphen(name))
        )
    if not (len(name) >= 2 and name not in _NOT_A_NAME and not name.isdigit()):
        return False
    # "othello dot guru", "reversi .club": nobody spells a dot or glues one to the next word
    # by chance, so any suffix counts; a look-alike dot ("nice • fun") needs a common one.
    deliberate = host.separators & {"spelled", "spaced_glued"}
    loose = host.separators <= {"plain", "spelled", "spaced_glued"}
    if deliberate and loose and len(name) >= 3 and all(label.isascii() for label in host.labels):
        return True
    return common


def _has_digit_or_hyphen(name: str) -> bool:
    return "-" in name or any(c.isdigit() for c in name)


def _decoded(label: str) -> str:
    """A punycode label as Unicode (``xn--p1ai`` -> ``рф``), others as they are."""
    if label.startswith("xn--"):
        try:
            return label.encode("ascii").decode("idna")
        except UnicodeError:
            return label
    return label


@cache
def _cyrillic_suffixes() -> frozenset[str]:
    """Top-level domains in Cyrillic letters on the Public Suffix List (рф, рус, онлайн...)."""
    return frozenset(t for t in _extractor().tlds if "." not in t and _CYRILLIC_LETTER.search(t))


@cache
def _extractor() -> tldextract.TLDExtract:
    """The Public Suffix List from tldextract's bundled snapshot (no network, no cache dir)."""
    return tldextract.TLDExtract(suffix_list_urls=(), cache_dir=None)
