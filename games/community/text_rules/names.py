"""The real-name rule (spec C3): a comment in which its writer gives their own name.

A name is refused where the writer says it is theirs: "my name is Tom Baker", "my real name's
tom", "call me Emily", "меня зовут Иван", "моё настоящее имя — аня", "моя фамилия Петров",
"私の名前は山田太郎です", "僕は田中です", "さくらと申します", "本名はたろうだよ". Other names
pass: players, singers and openings ("Сукачев — мой любимый певец", "羽生善治さんすごい", "the
Rose"), and the sentences that only look like an introduction ("my name is on the leaderboard",
"меня зовут играть", "名前は内緒", "私は学生です"). Japanese person names are told by MeCab's
dictionary (``fugashi`` with ``unidic-lite`` tags family and given names 人名), so a name after
"私は" counts only when the dictionary knows it as one.
"""

import re

from games.community.text_rules.words import japanese_tagger

# Words after "my name is" / "меня зовут" that are no name.
# fmt: off
_NOT_A_NAME = frozenset({
    "not", "on", "in", "at", "the", "a", "an", "my", "your", "his", "her", "their", "our", "same",
    "also", "just", "too", "what", "nothing", "there", "here", "shown", "written", "spelled",
    "spelt", "like", "up", "top", "first", "last", "below", "above", "next", "long", "short",
    "hard", "weird", "funny", "cool", "secret", "private", "hidden", "known", "unknown", "wrong",
    "right", "correct", "gone", "missing", "still", "now", "never", "always", "already", "listed",
    "red", "green", "blue", "black", "white", "bold",
    "не", "никак", "так", "секрет", "тайна", "неважно", "какое", "как", "никто", "тоже", "тут",
    "там", "здесь",
})
# fmt: on
_EN_INTRODUCTION = re.compile(
    r"(?<![a-z])(?:my\s+(?:real\s+|full\s+|actual\s+|first\s+|last\s+|given\s+|family\s+)?"
    r"(?:name|surname)\s*(?:is|'s|’s|=|:|-)|(?:i\s+am|i'm|im)\s+called)"
    r"\s*[:\-–—]?\s*(?P<name>[a-z][a-z'’-]+)"
)
# "call me when it starts": after "call me" only a capitalised word is a name ("call me Emily").
_EN_CALL_ME = re.compile(r"(?<![A-Za-z])[Cc]all\s+me\s+(?P<name>[A-Z][a-z'’-]+)")
_RU_INTRODUCTION = re.compile(
    r"(?<![а-яё])(?:меня\s+зовут|зовите\s+меня|мо[её]\s+(?:настоящее\s+|полное\s+)?имя"
    r"|имя\s+мо[её]|моя\s+фамилия|фамилия\s+моя)\s*[:\-–—,]?\s*(?P<name>[а-яё][а-яё-]+)"
)
_RU_VERB = re.compile(r"(?:ть|ться|ти)$")  # "меня зовут играть": an infinitive, not a name

# Japanese: the slot before "と申します" / after "本名は" is the writer's name whatever its
# script; a name after "私は" or "名前は" must be one the dictionary knows.
_JA_SELF = r"(?:私|わたし|わたくし|僕|ぼく|俺|おれ|あたし|うち|自分)"
_JA_NAME_FOLLOWS = re.compile(
    rf"(?:{_JA_SELF}の)?(?:名前|なまえ|本名|ほんみょう|フルネーム)は|{_JA_SELF}は"
)
_JA_HUMBLE_NAME = re.compile(r"(?P<name>[^\s、。!?！？]{1,12})(?:と|って)(?:申|もう)します")
_JA_TRUE_NAME = re.compile(
    r"(?:本名|ほんみょう)は\s*(?P<name>[ぁ-んァ-ヶー\u4e00-\u9fff々]{1,10}?)(?:です|だよ|だ|。|$)"
)
_JA_NAME_WINDOW = 12  # characters read after "私は": a family and a given name fit
_JA_NOT_A_NAME = frozenset({
    "内緒", "ないしょ", "秘密", "ひみつ", "何", "なに", "なん", "誰", "だれ",
    "言えない", "いえない", "教えない", "おしえない",
})  # fmt: skip


def find_real_name(folded: str, cased: str) -> str | None:
    """The name the writer gives as their own in ``folded`` (see :func:`.normalise.fold`) or
    ``cased`` (the text before case folding), as written there; None when there is none."""
    for match in (*_EN_INTRODUCTION.finditer(folded), *_RU_INTRODUCTION.finditer(folded)):
        name = match.group("name")
        if name not in _NOT_A_NAME and not _RU_VERB.search(name):
            return match.group()
    called = _EN_CALL_ME.search(cased)
    if called and called.group("name").casefold() not in _NOT_A_NAME:
        return called.group()
    return _japanese_name(cased)


def _japanese_name(text: str) -> str | None:
    for pattern in (_JA_HUMBLE_NAME, _JA_TRUE_NAME):
        match = pattern.search(text)
        if match and match.group("name") not in _JA_NOT_A_NAME:
            return match.group()
    for match in _JA_NAME_FOLLOWS.finditer(text):
        words = japanese_tagger()(text[match.end() : match.end() + _JA_NAME_WINDOW])
        names = [word.surface for word in words[:2] if word.feature.pos3 == "人名"]
        if names and words[0].feature.pos3 == "人名":
            return match.group() + "".join(names)
    return None
