"""The block-list rule: words, not substrings, in English, Japanese and Russian.

English and Russian words are the text's words (split at spaces and punctuation, the pieces of
"f.u.c.k" or "f u c k" joined again) compared whole with each entry, or by their start for an
entry ending in ``*``. Before the comparison a word is folded (:func:`..normalise.fold`:
accents, full-width and stylised letters, look-alikes from other scripts) and tried as written,
with leetspeak read as letters ("5h1t", "sh!t", "a$$"), with Latin look-alikes read as Cyrillic
("cyka", "xyй", "6лять", "пи3дец") and Cyrillic ones as Latin ("fuсk"); repeated letters count
once ("fuuuck", "сууука"), and masked letters ("f*ck", "с*ка", "motherf***er") match any letter.
So "Scunthorpe", "Dickens", "cocktail", "assassin" and "застрахуй" pass, and so do phrases
the list calls innocent ("в дурака", the card game).

Japanese text is split into words by MeCab (``fugashi`` with the ``unidic-lite`` dictionary): an
entry matches where a word starts and ends (a trailing "ー", "ぇ" or "よ" in the same word is
allowed), or when it is a word's dictionary form ("バカ", "ばーか" -> 馬鹿; "キモ" -> きもい).
Katakana and hiragana count alike, spaces, dots and masks between Japanese letters are ignored
("し・ね", "し　ね", "バ〜カ"), and kanji that look like katakana are read as katakana next to
katakana ("バ力"). So "少しね", "必死ね", "シネマ", "バカンス", "やくそく" and "ガイジン" pass.
"""

import bisect
import re
from collections.abc import Iterator
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import fugashi
from confusable_homoglyphs import utils as confusables_data

from games.community.text_rules.normalise import (
    cyrillic_as_latin,
    fold,
    has_japanese,
    latin_as_cyrillic,
    nfkc,
)

BLOCKLIST_PATH = Path(__file__).resolve().parent.parent / "data" / "blocklist.txt"

_MASKS = frozenset("*＊∗✱#%?●○◯•")
# Symbols that are leetspeak for a letter ("a$$", "sh!t") or a mask for one ("бл@дь").
_SYMBOL_MASKS = _MASKS | frozenset("@$!&")
# Masks that stand for one Japanese letter ("ク○野郎"); "〇" is a numeral, "・" a gap.
_JAPANESE_MASKS = "○●◯*＊"
_LEET_I = str.maketrans(
    {
        "0": "o",
        "1": "i",
        "3": "e",
        "4": "a",
        "5": "s",
        "7": "t",
        "@": "a",
        "$": "s",
        "!": "i",
        "|": "l",
        "€": "e",
        "+": "t",
        "©": "c",
        "®": "r",
    }
)
_LEET_L = str.maketrans({"1": "l", "!": "l", "|": "l"})
_LEET_U = str.maketrans({"v": "u"})  # "fvck"
_GAPS = re.compile(r"[.\-_'`~·]+")
_EDGE_PUNCTUATION = "\"'“”«»()[]{}<>.,;:?!~*_-"
_REPEATS = re.compile(r"(.)\1+")
_WORD_CHUNK = re.compile(r"\S+")
_LETTER = re.compile(r"[^\W\d_]")
_LATIN_OR_LEET = re.compile(r"[a-z0-9@]")
_CYRILLIC = re.compile(r"[а-я]")
_JAPANESE_GAP = re.compile(
    r"(?<=[\u3040-\u30ff\u3400-\u9fff])[\s・･.．、,*＊○●◯〇~〜～_\-]+(?=[\u3040-\u30ff\u3400-\u9fff])"
)
_LONG_MARKS = re.compile(r"ー{2,}")
# A small vowel inside a hiragana word draws the vowel out, like "ー": "ばぁか" is "ばーか".
_SMALL_VOWEL = re.compile(r"(?<=[ぁ-ゖ])[ぁぃぅぇぉ](?=[ぁ-ゖ])")
# "4" read "し" before kana, as in net slang: "4ね" (not "c4ね": a move, then "ね").
_FOUR_AS_SHI = re.compile(r"(?<![0-9a-zA-Z])4(?=[ねぬんネヌン])")
# What may follow an entry inside the same Japanese word: "死ねー", "しねぇ", "死ねよ".
_JAPANESE_TAILS = frozenset("ーぇえぃいっよやなぁwｗ!！〜～")
# Dictionary forms of the negation after a verb: "死ねない", "しねん" (cannot / will not die).
_NEGATION = frozenset({"ない", "ず", "ぬ"})
# Parts of speech (UniDic) of particles and auxiliaries.
_FUNCTION_WORDS = frozenset({"助詞", "助動詞"})
# Parts of speech a conjunctive particle follows: "強い|し", "雨だ|し", "行く|し".
_PREDICATE_PARTS = frozenset({"形容詞", "助動詞", "動詞"})
# A noun, interjection or prefix before an adjective intensifies it ("バカ強い", "くそ暑い").
_INTENSIFIER_PARTS = frozenset({"名詞", "感動詞", "接頭辞"})
_KATAKANA_TO_HIRAGANA = {code: code - 0x60 for code in range(ord("ァ"), ord("ヶ") + 1)}
# Species names are written in katakana and end in a class noun: -ドリ (鳥), -ガイ (貝).
_SPECIES_CLASSES = frozenset("鳥貝草虫魚花木蜂蛇亀蟹茸蘭藻")
_KATAKANA_WORD = re.compile(r"[ァ-ヶー]+")


@dataclass(frozen=True)
class BlockedTerm:
    """One block-list entry: how it is written in the list, and how it is compared."""

    entry: str
    key: str
    prefix: bool
    inside: bool
    japanese: bool


@cache
def allowed_words() -> frozenset[str]:
    """Innocent words that start like a blocked one ("!shiitake" for "shit*"), folded."""
    return frozenset(
        _collapsed(fold(e[1:])) for e in _list_lines() if e.startswith("!") and " " not in e
    )


@cache
def _innocent_phrases() -> re.Pattern[str]:
    """Innocent phrases with a blocked word in them ("!в дурака": the card game), folded."""
    phrases = [fold(e[1:]) for e in _list_lines() if e.startswith("!") and " " in e]
    alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
    return re.compile(rf"(?<![^\W\d_])(?:{alternatives or '(?!)'})(?![^\W\d_])")


def _list_lines() -> list[str]:
    lines = (raw.split("#", 1)[0].strip() for raw in BLOCKLIST_PATH.read_text("utf-8").splitlines())
    return [line for line in lines if line]


@dataclass(frozen=True)
class _Index:
    exact: dict[str, str]
    parts: dict[str, str]
    part_pattern: re.Pattern[str]
    masked: tuple[BlockedTerm, ...]
    masked_by_first: dict[str, tuple[BlockedTerm, ...]]  # the same, by their first letter
    phrases: re.Pattern[str] | None
    phrase_entries: dict[str, str]
    japanese: tuple[BlockedTerm, ...]
    japanese_lemmas: dict[str, str]


@cache
def blocked_terms() -> tuple[BlockedTerm, ...]:
    """The block list from ``data/blocklist.txt`` (read once per process).

    One entry per line, ``#`` starts a comment; a trailing ``*`` also matches longer words
    that start with the entry ("fuck*" -> "fucking"); a leading one also longer words that
    end with it ("*shit" -> "dipshit"), and both words that contain it ("*fuck*" ->
    "clusterfucking"): for entries no innocent word ends with or contains. Lines starting
    with ``!`` are innocent words that an entry with ``*`` would match (see
    :func:`allowed_words`), or innocent phrases with a blocked word in them ("!в дурака").
    """
    terms = []
    for entry in _list_lines():
        if entry.startswith("!"):
            continue
        word = entry.strip("*")
        japanese = has_japanese(word)
        key = _hiragana(nfkc(word)) if japanese else fold(word)
        terms.append(BlockedTerm(word, key, entry.endswith("*"), entry.startswith("*"), japanese))
    return tuple(terms)


def find_blocked_word(text: str) -> str | None:
    """The block-list entry ``text`` uses as a word, if any (see the module docstring)."""
    index = _index()
    folded = _innocent_phrases().sub(" ", fold(text))
    found = _latin_or_cyrillic_word(folded, index)
    if found is None and has_japanese(folded):
        found = _japanese_word(nfkc(text), index)
    return found


@cache
def _index() -> _Index:
    exact: dict[str, str] = {}
    prefixes: dict[str, str] = {}
    inside: dict[str, str] = {}
    endings: dict[str, str] = {}
    phrases: dict[str, str] = {}
    masked, japanese, lemmas = [], [], {}
    for term in blocked_terms():
        if term.japanese:
            japanese.append(term)
            lemmas[term.key] = term.entry
        elif " " in term.key:
            phrases[_collapsed(term.key)] = term.entry
        elif term.inside:
            (inside if term.prefix else endings)[_collapsed(term.key)] = term.entry
            masked.append(term)
        else:
            (prefixes if term.prefix else exact)[_collapsed(term.key)] = term.entry
            masked.append(term)
    phrase_pattern = None
    if phrases:
        alternatives = "|".join(re.escape(p) for p in sorted(phrases, key=len, reverse=True))
        phrase_pattern = re.compile(rf"(?<![^\W\d_])(?:{alternatives})(?![^\W\d_])")
    return _Index(
        exact=exact,
        parts={**prefixes, **inside, **endings},
        part_pattern=re.compile(
            f"^{_alternatives(prefixes)}|{_alternatives(inside)}|{_alternatives(endings)}$"
        ),
        masked=tuple(masked),
        masked_by_first={
            first: tuple(term for term in masked if term.key[0] == first)
            for first in {term.key[0] for term in masked}
        },
        phrases=phrase_pattern,
        phrase_entries=phrases,
        japanese=tuple(japanese),
        japanese_lemmas=lemmas,
    )


def _alternatives(keys: dict[str, str]) -> str:
    """A group matching any of the keys, longest first (one that never matches for none)."""
    return (
        "(" + ("|".join(re.escape(k) for k in sorted(keys, key=len, reverse=True)) or "(?!)") + ")"
    )


def _latin_or_cyrillic_word(folded: str, index: _Index) -> str | None:
    words = [chunk.strip(_EDGE_PUNCTUATION) or chunk for chunk in _WORD_CHUNK.findall(folded)]
    candidates: list[str] = []
    singles: list[str] = []
    for word in [*words, ""]:
        if len(word) == 1:
            singles.append(word)
            continue
        if len(singles) >= 3:
            # "f u c k", and "a b i t c h" with a word spelled out after "a"
            candidates.extend(["".join(singles), "".join(singles[1:]), "".join(singles[:-1])])
        singles = []
        if word:
            candidates.append(word)
            pieces = [p for p in _GAPS.split(word) if p]
            if len(pieces) > 1:
                candidates.append("".join(pieces))
                candidates.extend(pieces)
    for candidate in dict.fromkeys(candidates):
        found = _match_word(candidate, index)
        if found:
            return found
    if index.phrases is not None:
        spaced = " ".join(_collapsed(w) for w in words)
        phrase = index.phrases.search(spaced)
        if phrase:
            return index.phrase_entries[phrase.group()]
    return None


def _match_word(word: str, index: _Index) -> str | None:
    if not _LETTER.search(word):
        return None
    for variant in _variants(word):
        key = _collapsed(variant)
        if key in allowed_words():
            return None
        if key in index.exact:
            return index.exact[key]
        part = index.part_pattern.search(key)  # a start, an inside or an end of the word
        if part:
            return index.parts[part.group(part.lastindex or 0)]
    if any(c in _SYMBOL_MASKS for c in word):
        return _masked_match(word, index)
    return None


def _variants(word: str) -> list[str]:
    """``word`` and its readings, in this order (the first that matches names the entry: a set's
    order changed with the process's hash seed, and so did the entry a refusal named)."""
    variants = [word, word.translate(_LEET_I), word.translate(_LEET_L), word.translate(_LEET_U)]
    if "ph" in word:
        variants.append(word.replace("ph", "f"))  # "phuq"
    if _CYRILLIC.search(word):
        # Russian with Latin look-alikes and leetspeak: "cyka", "пи3дец", "п!зда", "д3бил"
        variants += [v.translate(latin_as_cyrillic()) for v in variants if _LATIN_OR_LEET.search(v)]
        variants.append(word.translate(cyrillic_as_latin()))
    elif _LATIN_OR_LEET.search(word):
        variants.append(word.translate(latin_as_cyrillic()))
    return list(dict.fromkeys(variants))


def _masked_match(word: str, index: _Index) -> str | None:
    """ "f*ck", "с*ка", "motherf***er": masks stand for single letters, the first is a letter."""
    real = sum(1 for c in word if c not in _SYMBOL_MASKS)
    if word[0] in _SYMBOL_MASKS or real < 2 or real < len(word) / 2:
        return None
    for variant in _variants(word):
        # A letter matches only itself: only the entries with the variant's first letter can.
        first = variant[0]
        terms = index.masked if first in _SYMBOL_MASKS else index.masked_by_first.get(first, ())
        for term in terms:
            if len(variant) == len(term.key) or (term.prefix and len(variant) > len(term.key)):
                head = variant[: len(term.key)]
                if all(c == t or c in _SYMBOL_MASKS for c, t in zip(head, term.key, strict=True)):
                    return term.entry
    return None


def _collapsed(text: str) -> str:
    return _REPEATS.sub(r"\1", text)


def _japanese_word(text: str, index: _Index) -> str | None:
    masked = (
        _japanese_masked_match(text, index) if any(m in text for m in _JAPANESE_MASKS) else None
    )
    if masked:
        return masked
    text = _SMALL_VOWEL.sub("ー", _FOUR_AS_SHI.sub("し", _JAPANESE_GAP.sub("", text)))
    text = _LONG_MARKS.sub("ー", text)
    for variant in dict.fromkeys((text, _katakana_look_alikes(text))):
        found = _japanese_match(variant, index)
        if found:
            return found
    return None


def _japanese_masked_match(text: str, index: _Index) -> str | None:
    """ "ク○野郎", "死○": masks that stand for letters of an entry (its first letter shown, at
    most half of it masked)."""
    hiragana = _hiragana(text)
    for term in index.japanese:
        pattern = _japanese_mask_pattern(term.key)
        if pattern is not None and pattern.search(hiragana):
            return term.entry
    return None


@cache
def _japanese_mask_pattern(key: str) -> re.Pattern[str] | None:
    """Every way of masking ``key``: letters after the first may be masks, at least one and at
    most half of them are."""
    mask = f"[{re.escape(_JAPANESE_MASKS)}]"
    ways = []
    for bits in range(1, 1 << (len(key) - 1)):
        hidden = [i > 0 and bool(bits >> (i - 1) & 1) for i in range(len(key))]
        if sum(hidden) <= len(key) // 2:
            ways.append(
                "".join(mask if h else re.escape(c) for c, h in zip(key, hidden, strict=True))
            )
    return re.compile("|".join(ways)) if ways else None


def _japanese_match(text: str, index: _Index) -> str | None:
    tokens = list(japanese_tagger()(text))
    starts, ends, position = {}, {}, 0
    for number, token in enumerate(tokens):
        start = text.find(token.surface, position)
        if start < 0:
            continue
        position = start + len(token.surface)
        starts[start] = number
        ends[position] = number
        pos1, lemma = _pos_and_lemma(token)
        if pos1 in _FUNCTION_WORDS:
            # MeCab often glues a particle or auxiliary onto the next word ("まじでしね" ->
            # "でし/ね"): a match may start inside one.
            for inside in range(start + 1, position):
                starts.setdefault(inside, number)
        lemma = lemma.split("-", 1)[0]
        entry = index.japanese_lemmas.get(lemma) or index.japanese_lemmas.get(_hiragana(lemma))
        if entry and not _innocent_after(tokens, number):
            return entry
    hiragana = _hiragana(text)
    word_ends = list(ends)  # in increasing order, as the tokens came
    for term in index.japanese:
        for start in _occurrences(term.key, hiragana):
            end = start + len(term.key)
            if start not in starts or _starts_with_a_conjunction(tokens, starts[start]):
                continue
            if end in ends:
                if not _innocent_after(tokens, ends[end]):
                    return term.entry
                continue
            after = bisect.bisect_right(word_ends, end)
            word_end = word_ends[after] if after < len(word_ends) else len(text)
            if all(c in _JAPANESE_TAILS for c in hiragana[end:word_end]):
                return term.entry
    return None


def _occurrences(key: str, text: str) -> Iterator[int]:
    """Where ``key`` starts in ``text``, left to right, not overlapping (as ``re.finditer``)."""
    start = text.find(key)
    while start >= 0:
        yield start
        start = text.find(key, start + len(key))


def _pos_and_lemma(token: fugashi.UnidicNode) -> tuple[str, str]:
    """The part of speech and the dictionary form ("" for an unknown word) of ``token``: fields
    0 and 7 of its raw UniDic features. fugashi's ``token.feature`` parses all of them into a
    named tuple, a few microseconds a token that were a third of a long Japanese comment's
    time; it is still read for a raw line with a quoted field (a comma in the text)."""
    raw = token.feature_raw
    if '"' in raw:
        return token.feature.pos1, token.feature.lemma or ""
    fields = raw.split(",", 8)
    return fields[0], fields[7] if len(fields) > 7 else ""


def _starts_with_a_conjunction(tokens: list[fugashi.UnidicNode], first: int) -> bool:
    """The match starts with the conjunctive particle "し" after a predicate: "雨だしね",
    "強いしね" ("since..., you know"), not "しね" on its own or after a noun ("お前しね")."""
    token = tokens[first].feature
    return (
        token.pos2 == "接続助詞"
        and first > 0
        and tokens[first - 1].feature.pos1 in _PREDICATE_PARTS
    )


def _innocent_after(tokens: list[fugashi.UnidicNode], last: int) -> bool:
    """What follows the word makes it innocent: a negation ("死ねない": cannot die), "らしい"
    ("バカらしい": absurd), or an adjective, which makes the word an intensifier ("バカ強い",
    "くそ暑い"), also one used before another word ("バカ丁寧な解説", "くそ真面目に覚えた")."""
    if last + 1 >= len(tokens):
        return False
    following = tokens[last + 1].feature
    if following.lemma in _NEGATION or following.lemma == "らしい":
        return True
    if (
        following.pos1 == "形状詞"
        and tokens[last].feature.pos1 in _INTENSIFIER_PARTS
        and last + 3 < len(tokens)
        and tokens[last + 2].surface in ("な", "に")
        and tokens[last + 3].feature.pos1 not in _FUNCTION_WORDS
    ):
        return True
    if (
        following.lemma in _SPECIES_CLASSES
        and _KATAKANA_WORD.fullmatch(tokens[last].surface)
        and _KATAKANA_WORD.fullmatch(tokens[last + 1].surface)
    ):
        return True  # a species name in katakana: "アホウドリ" (albatross), "バカガイ" (a clam)
    return following.pos1 == "形容詞" and tokens[last].feature.pos1 in _INTENSIFIER_PARTS


def _katakana_look_alikes(text: str) -> str:
    """Kanji that look like katakana, read as katakana where they touch katakana ("バ力")."""
    table = _kanji_as_katakana()
    chars = list(text)
    for i, char in enumerate(chars):
        if char in table:
            neighbours = text[max(i - 1, 0) : i] + text[i + 1 : i + 2]
            if any("ァ" <= n <= "ヶ" or n == "ー" for n in neighbours):
                chars[i] = table[char]
    return "".join(chars)


@cache
def _kanji_as_katakana() -> dict[str, str]:
    """Kanji whose Unicode confusables include a katakana letter (力 -> カ, 夕 -> タ)."""
    table = {}
    for char, homoglyphs in confusables_data.load("confusables.json").items():
        if len(char) == 1 and "\u4e00" <= char <= "\u9fff":
            katakana = [h["c"] for h in homoglyphs if len(h["c"]) == 1 and "ァ" <= h["c"] <= "ヶ"]
            if katakana:
                table[char] = katakana[0]
    return table


def _hiragana(text: str) -> str:
    return text.translate(_KATAKANA_TO_HIRAGANA)


@cache
def japanese_tagger() -> fugashi.Tagger:
    """The MeCab tagger with the unidic-lite dictionary (loaded once per process)."""
    return fugashi.Tagger()
