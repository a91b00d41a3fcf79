"""The phone-number rule: ``phonenumbers``' matcher over a digits view of the text.

The view writes number words and numerals as digits (:mod:`.numbers`), letters that stand in
for digits inside a number as digits ("9I6", "З45"), odd separators as dashes, and removes
dates and clock times. Each run of at least seven digits is then given to
:class:`phonenumbers.PhoneNumberMatcher` for Japan, Russia, the US and the UK (numbers with a
``+`` are read as international). Lists of scores ("33-31, 35-29") are groups of one or two
digits and are not phone numbers.
"""

import re
from itertools import pairwise

from phonenumbers import Leniency, PhoneNumberMatcher

from games.community.text_rules.numbers import words_to_digits

REGIONS = ("JP", "RU", "US", "GB")
MIN_DIGITS = 7
MAX_DIGITS = 15

_DAY = r"(?:0?[1-9]|[12]\d|3[01])"
_MONTH = r"(?:0?[1-9]|1[0-2])"
_YEAR = r"(?:19|20)\d{2}"
_DATES_AND_TIMES = re.compile(
    rf"(?<!\d){_YEAR}\s*[-/.年]\s*{_MONTH}\s*[-/.月]\s*{_DAY}\s*日?(?!\d)"
    rf"|(?<![\d+]){_DAY}\s*[-/.]\s*{_MONTH}\s*[-/.]\s*{_YEAR}(?!\d)"
    rf"|(?<![\d+]){_MONTH}\s*[-/.]\s*{_DAY}\s*[-/.]\s*{_YEAR}(?!\d)"
    r"|(?<!\d)\d{1,2}\s*[:時]\s*\d{2}(?:\s*[:分]\s*\d{2})?"
)
# Inside a number: o/о for 0, l/i/|/і for 1, з for 3, б for 6.
_DIGIT_LOOK_ALIKES = str.maketrans("oоli|ізб", "00111136")
_NUMBER_WORD = re.compile(r"(?<!\S)[\d()+\-olі|iзб]*\d[\d()+\-olі|iзб]*(?!\S)")
# Separators people put between digit groups: punctuation, symbols and emoji ("090♡1234",
# "090 ➖ 1234"), underscores, "ー" and "の"; not "+" ("3+2") or brackets.
_SEPARATORS = re.compile(r"(?<=\d)\s*(?:[^\w\s+()]{1,3}|_{1,3}|[ーの])\s*(?=\d)")
_CANDIDATE = re.compile(r"\+?\s*\(?\d(?:[\s()\-]{0,4}\d)+")
# Written like a North American number: "(555) 123-4567", "555-123-4567".
_NORTH_AMERICAN_LAYOUT = re.compile(r"(?:\+?1[\s-]*)?\(?\d{3}\)?[\s-]*\d{3}[\s-]+\d{4}")
_PHONE_WORDS = re.compile(
    r"(?<![a-z])(?:tel|phone|call|text me|mobile|cell|whatsapp|viber)(?![a-z])"
    r"|電話|でんわ|携帯|けいたい|ケータイ|番号"
    r"|(?<![а-я])(?:тел|телефон\w*|звони\w*|позвони\w*|номер\w*|мобильн\w*|ватсап\w*|вайбер\w*)"
)


def find_phone_number(folded: str) -> str | None:
    """The first phone number in ``folded`` (see :func:`..normalise.fold`), as written there."""
    view = phone_view(folded)
    if sum(c.isdigit() for c in view) < MIN_DIGITS:
        return None
    context = _PHONE_WORDS.search(folded) is not None
    for match in _CANDIDATE.finditer(view):
        candidate = match.group().strip()
        if _is_phone_number(candidate, context=context):
            return candidate
    return None


def phone_view(folded: str) -> str:
    """Digits view: number words as digits, dates and times removed, separators as dashes."""
    text = words_to_digits(folded)
    text = _NUMBER_WORD.sub(_digits_for_look_alikes, text)
    text = _DATES_AND_TIMES.sub(" ", text)
    return _SEPARATORS.sub("-", text)


def _digits_for_look_alikes(match: re.Match[str]) -> str:
    word = match.group()
    return word.translate(_DIGIT_LOOK_ALIKES) if sum(c.isdigit() for c in word) >= 2 else word


def _is_counting(groups: list[str]) -> bool:
    """Five or more numbers that go up or down by the same step: a count, not a number."""
    if len(groups) < 5 or any(len(g) > 1 and g.startswith("0") for g in groups):
        return False
    steps = {int(b) - int(a) for a, b in pairwise(groups)}
    return len(steps) == 1 and 0 not in steps


def _is_phone_number(candidate: str, *, context: bool) -> bool:
    groups = re.findall(r"\d+", candidate)
    digits = sum(map(len, groups))
    if not MIN_DIGITS <= digits <= MAX_DIGITS:
        return False
    international = candidate.startswith("+")
    if not international and _is_counting(groups):
        return False  # "1 2 3 4 5 6 7 8 9 10", "10 20 30 40 50 60 64"
    if not international and len(groups) > 2 and max(map(len, groups)) <= 2:
        if max(map(len, groups)) == 2:
            return False  # a list of scores: "40-24 33-31 35-29"
        candidate = "".join(groups)  # spaced-out digits: "0 9 0 1 2 3 4 ..."
    if context and (len(groups) <= 2 or {len(g) for g in groups} != {4}):
        return True  # "tel 555 0199"; not a list of ratings ("call it: 1500 1520 1540")
    possible = international or candidate.startswith("0")
    if possible or _NORTH_AMERICAN_LAYOUT.fullmatch(candidate):
        leniency = Leniency.POSSIBLE
    else:
        leniency = Leniency.VALID
    for region in REGIONS:
        if next(iter(PhoneNumberMatcher(candidate, region, leniency=leniency)), None):
            return True
    return False
