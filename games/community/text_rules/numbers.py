"""Numbers written as words or numerals, turned into digits (for the phone-number rule).

English ("five five five", "twenty one", "double five"), Russian ("восемь девятьсот
двенадцать"), Japanese kana readings ("ぜろきゅうぜろ") and kanji or daiji numerals
("〇九〇", "零壱弐"). A run of number words becomes one string of digits: "девятьсот
двенадцать" is "912", "five five five" is "555"; counting ("one two three four five") stays
separate numbers. Single words are left alone ("one more game"), and so are kana runs shorter
than three digits that touch no number, so that ordinary words stay words.
"""

import re
from functools import cache
from itertools import pairwise

_ENGLISH_UNITS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine"]
_ENGLISH_TEENS = [
    "ten",
    "eleven",
    "twelve",
    "thirteen",
    "fourteen",
    "fifteen",
    "sixteen",
    "seventeen",
    "eighteen",
    "nineteen",
]
_ENGLISH_TENS = ["twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
_RUSSIAN_UNITS = [
    "ноль",
    "один",
    "два",
    "три",
    "четыре",
    "пять",
    "шесть",
    "семь",
    "восемь",
    "девять",
]
_RUSSIAN_TEENS = [
    "десять",
    "одиннадцать",
    "двенадцать",
    "тринадцать",
    "четырнадцать",
    "пятнадцать",
    "шестнадцать",
    "семнадцать",
    "восемнадцать",
    "девятнадцать",
]
_RUSSIAN_TENS = [
    "двадцать",
    "тридцать",
    "сорок",
    "пятьдесят",
    "шестьдесят",
    "семьдесят",
    "восемьдесят",
    "девяносто",
]
_RUSSIAN_HUNDREDS = [
    "сто",
    "двести",
    "триста",
    "четыреста",
    "пятьсот",
    "шестьсот",
    "семьсот",
    "восемьсот",
    "девятьсот",
]

# Word -> (value, place): 1 units and teens, 2 tens, 3 hundreds.
_UNITS, _TENS, _HUNDREDS = 1, 2, 3


@cache
def _word_values() -> dict[str, tuple[int, int]]:
    values: dict[str, tuple[int, int]] = {"oh": (0, _UNITS), "нуль": (0, _UNITS)}
    for units, teens, tens in (
        (_ENGLISH_UNITS, _ENGLISH_TEENS, _ENGLISH_TENS),
        (_RUSSIAN_UNITS, _RUSSIAN_TEENS, _RUSSIAN_TENS),
    ):
        values.update({w: (i, _UNITS) for i, w in enumerate(units)})
        values.update({w: (10 + i, _UNITS) for i, w in enumerate(teens)})
        values.update({w: (20 + 10 * i, _TENS) for i, w in enumerate(tens)})
    values.update({w: (100 * (i + 1), _HUNDREDS) for i, w in enumerate(_RUSSIAN_HUNDREDS)})
    values.update({"одна": (1, _UNITS), "одно": (1, _UNITS), "две": (2, _UNITS)})
    return values


_REPEATS = {"double": 2, "triple": 3}
_HUNDRED = "hundred"
_WORD_RUN = re.compile(
    r"(?<![\w])(?:{w})(?:[\s,.\-–—]+(?:{w}))+(?![\w])".format(
        w="|".join(sorted([*_word_values(), *_REPEATS, _HUNDRED], key=len, reverse=True))
    )
)
_WORD = re.compile(r"[^\W\d_]+")
# Digit words written together: "zeroninezero" (three or more, "oh" left out: "ohohoh").
_GLUED_DIGIT_WORDS = re.compile(
    r"(?<![^\W\d_])(?:{u})(?:{u}){{2,}}(?![^\W\d_])".format(
        u="|".join(_ENGLISH_UNITS + _RUSSIAN_UNITS)
    )
)
_DIGIT_WORD = re.compile("|".join(_ENGLISH_UNITS + _RUSSIAN_UNITS))

_KANA_READINGS = {
    "ぜろ": "0",
    "れい": "0",
    "まる": "0",
    "いち": "1",
    "に": "2",
    "さん": "3",
    "よん": "4",
    "し": "4",
    "ご": "5",
    "ろく": "6",
    "なな": "7",
    "しち": "7",
    "はち": "8",
    "きゅう": "9",
    "きゅー": "9",
    "く": "9",
}
_KANA_RUN = re.compile("(?:{})+".format("|".join(sorted(_KANA_READINGS, key=len, reverse=True))))
_KANA_READING = re.compile("|".join(sorted(_KANA_READINGS, key=len, reverse=True)))
_KANJI_DIGITS = str.maketrans(
    {
        **dict.fromkeys("〇零", "0"),
        **dict.fromkeys("一壱", "1"),
        **dict.fromkeys("二弐", "2"),
        **dict.fromkeys("三参", "3"),
        **dict.fromkeys("四肆", "4"),
        **dict.fromkeys("五伍", "5"),
        **dict.fromkeys("六陸", "6"),
        **dict.fromkeys("七漆", "7"),
        **dict.fromkeys("八捌", "8"),
        **dict.fromkeys("九玖", "9"),
    }
)
_DIGITS_BEFORE = re.compile(r"\d{3}[-\sー・の]?$")
_DIGITS_AFTER = re.compile(r"[-\sー・の]?\d{3}")
_KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(ord("ァ"), ord("ヶ") + 1)}


def words_to_digits(text: str) -> str:
    """``text`` (folded) with number words and numerals written as digits."""
    text = _GLUED_DIGIT_WORDS.sub(lambda m: " ".join(_DIGIT_WORD.findall(m.group())), text)
    text = _WORD_RUN.sub(lambda m: _run_digits(_WORD.findall(m.group())), text)
    if text.isascii():
        return text
    text = text.translate(_KATAKANA_TO_HIRAGANA).translate(_KANJI_DIGITS)
    return _KANA_RUN.sub(_kana_digits, text)


def _run_digits(words: list[str]) -> str:
    """Digits of a run of number words: each group (hundreds, tens, units) in turn."""
    values = _word_values()
    groups: list[list[int]] = []  # [value, place of the last word]
    repeat = 1
    for word in words:
        if word in _REPEATS:
            repeat = _REPEATS[word]
            continue
        if word == _HUNDRED:
            if groups and groups[-1][1] == _UNITS and groups[-1][0] < 10:
                groups[-1] = [groups[-1][0] * 100, _HUNDREDS]
            continue
        value, place = values[word]
        for _ in range(repeat):
            last = groups[-1] if groups else None
            fits = last is not None and place < last[1] and not 10 <= last[0] % 100 < 20
            if fits and last is not None and value > 0:
                last[0] += value
                last[1] = place
            else:
                groups.append([value, place])
        repeat = 1
    numbers = [value for value, _place in groups]
    steps = {b - a for a, b in pairwise(numbers)}
    if len(numbers) >= 5 and len(steps) == 1 and 0 not in steps:
        return " ".join(map(str, numbers))  # counting, "one, two, three...": numbers apart
    return "".join(map(str, numbers))


def _kana_digits(match: re.Match[str]) -> str:
    """Kana readings as digits: a run of three or more, or one that touches three digits
    ("090-いち二三四"; not "c4に")."""
    readings = _KANA_READING.findall(match.group())
    text, start, end = match.string, match.start(), match.end()
    before = text[max(start - 4, 0) : start]
    touches_digits = _DIGITS_BEFORE.search(before) or _DIGITS_AFTER.match(text, end)
    if len(readings) >= 3 or touches_digits:
        return "".join(_KANA_READINGS[r] for r in readings)
    return match.group()
