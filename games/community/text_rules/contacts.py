"""The messenger rule: IDs and handles for LINE, Telegram, Discord, WeChat, Skype, VK, Instagram,
KakaoTalk and the like, named in English, Japanese or Russian.

A messenger's name alone passes ("I use Discord", "LINEで教えた", "Телеграм лучше"); so does a
name followed by an ordinary word ("Instagram is full of memes"). Refused are: the name with an
ID after it ("discord: bob", "skype petya.ivanov88", "ラインのIDは hanako_0808"), a Discord tag
("bob#1234"), an ``@handle`` in a comment that names a messenger or asks to be added or
followed, and a request to swap messenger IDs ("LINE交換しよ"). Names that are also common
words ("line", "snap", "ig", "вк") need an unmistakable ID: one with a digit, an underscore or
an ``@``, or the word "ID" in front.
"""

import re

# Names made of two words may be written apart: "tele gram", "whats-app", "insta.gram".
_UNAMBIGUOUS = (
    r"tele[\s._-]?gram|discord|skype|we[\s._-]?chat|weixin|kakao(?:[\s._-]?talk)?"
    r"|insta[\s._-]?gram|insta|whats[\s._-]?app|viber"
    r"|snap[\s._-]?chat|tik[\s._-]?tok|twitter|face[\s._-]?book|vkontakte"
    r"|телеграм\w*|телег[аиеуо]\w*|дискорд\w*|скайп\w*|вайбер\w*|ватсап\w*|вотсап\w*"
    r"|инстаграм\w*|инст(?:[аеуы]\w*)?|тикток\w*|твиттер\w*|фейсбук\w*|вконтакт\w*|снэпчат\w*"
    r"|テレグラム|ディスコード|ディスコ|スカイプ|インスタグラム|インスタ|ツイッター|ティックトック"
    r"|フェイスブック|カカオトーク|カカオ|微信|카톡|카카오톡"
)
_AMBIGUOUS = r"line|ライン|らいん|snap|ig|vk|вк|tg|тг|fb|steam|стим|twitch|твич|signal|kik"
_NAME = re.compile(
    rf"(?<![a-zа-я0-9_])(?:(?P<unambiguous>{_UNAMBIGUOUS})|(?P<ambiguous>{_AMBIGUOUS}))"
    r"(?![a-zа-я0-9_])"
)
_ID_WORD = r"id|ｉｄ|号|アイディー|アカウント|аккаунт|ник|никнейм|username|user ?name|handle"
_AFTER_NAME = re.compile(
    rf"\s*(?:の|で)?\s*(?P<id>(?:{_ID_WORD})\s*(?:は|:|：|-|→|=)?)?"
    r"\s*(?P<link>[:：=→>\-—]+|is|は|это|—)?\s*"
    r"(?P<handle>@?[a-z0-9][a-z0-9_.\-:]{1,31}[a-z0-9_])"
)
_DISCORD_TAG = re.compile(r"(?<![\w#])[a-z0-9_.]{2,32}#\d{4}(?!\d)")
_AT_HANDLE = re.compile(r"(?<![\w@.])@[a-z0-9_][a-z0-9_.]{2,31}")
_ANY_HANDLE = re.compile(r"(?<![\w@.])@?[a-z0-9][a-z0-9_.\-]{2,31}")
_ASKS_TO_CONNECT = re.compile(
    r"(?<![a-z])(?:add me|follow me|follow my|dm me|pm me|message me|text me|find me|hit me up"
    r"|contact me)(?![a-z])"
    r"|(?<![а-я])(?:пиши|напиши|пишите|добавь\w*|добавляй\w*|стучи\w*|подпиш\w*|фоллов\w*)"
    r"|フォロー|追加して|ついかして|連絡して|れんらくして"
)
_ID_SWAP = re.compile(
    rf"(?:line|ライン|らいん|{_UNAMBIGUOUS})\s*(?:の)?\s*(?:id|ｉｄ)?\s*(?:交換|こうかん|教えて|おしえて)"
)
_MESSENGER_ID = re.compile(
    rf"(?:line|ライン|らいん|{_UNAMBIGUOUS})\s*(?:の)?\s*(?:id|ｉｄ)(?![a-z])"
)
_ID_THEN_HANDLE = re.compile(
    rf"(?<![a-z])(?P<id_word>{_ID_WORD})\s*(?:は|:|：|=|→|->|>|-)\s*(?P<handle>@?[a-z0-9][a-z0-9_.\-]{{1,31}}[a-z0-9_])"
)
_MOVES = re.compile(r"(?:[a-j](?:10|[1-9]))+")
_NOT_AN_ID = re.compile(
    r"(?:[a-j](?:10|[1-9]))+|(?:v|ver|version|rev)?\d+(?:\.\d+)*[a-z]?|\d+(?:x\d+)+|\d+(?:st|nd|rd|th)|\d+[a-z]{1,3}"
)
# "my tele is @grisha", "мой ник — @grisha"
_MY_HANDLE = re.compile(
    r"(?<![a-zа-я])(?:my|мой|моя)\s+\w+\s*(?:is|это|—|-|:)\s*@[a-z0-9_][a-z0-9_.]{2,31}"
)
_COMMON_WORDS = frozenset(
    [
        "the",
        "and",
        "but",
        "for",
        "not",
        "now",
        "too",
        "very",
        "really",
        "just",
        "also",
        "down",
        "up",
        "out",
        "off",
        "back",
        "here",
        "there",
        "this",
        "that",
        "these",
        "those",
        "with",
        "from",
        "into",
        "about",
        "better",
        "best",
        "good",
        "great",
        "cool",
        "fun",
        "nice",
        "full",
        "down",
    ]
)


def find_messenger_id(text: str) -> str | None:
    """The first messenger ID or handle in ``text`` (folded, look-alikes made Latin)."""
    tag = _DISCORD_TAG.search(text)
    if tag:
        return tag.group()
    swap = _ID_SWAP.search(text)
    if swap:
        return swap.group()
    names = list(_NAME.finditer(text))
    for name in names:
        found = _id_after(name, text)
        if found:
            return found
    if names or _ASKS_TO_CONNECT.search(text):
        handle = _AT_HANDLE.search(text)
        if handle:
            return handle.group()
        for given in _ID_THEN_HANDLE.finditer(text):
            if _looks_like_an_id(given.group("handle")):
                return given.group()
    if names or _MESSENGER_ID.search(text) or _ASKS_TO_CONNECT.search(text):
        for handle in _ANY_HANDLE.finditer(text):
            if _is_an_id(handle.group()):
                return handle.group()
    return _handle_given_alone(text)


def _handle_given_alone(text: str) -> str | None:
    """A handle with no messenger named: "ID: hanako_0808" (not "game ID: 4821"), "my tele
    is @grisha"."""
    for given in _ID_THEN_HANDLE.finditer(text):
        if given.group("id_word") in ("id", "ｉｄ") and _is_an_id(given.group("handle")):
            return given.group()
    mine = _MY_HANDLE.search(text)
    return mine.group() if mine else None


def _id_after(name: re.Match[str], text: str) -> str | None:
    if re.match(r"-[a-zа-я]", text[name.end() : name.end() + 2]):
        return None  # a compound: "telegram-style"
    after = _AFTER_NAME.match(text, name.end())
    if after is None:
        return None
    handle = after.group("handle")
    bare = handle.lstrip("@")
    if _MOVES.fullmatch(bare) or bare in _COMMON_WORDS:
        return None
    if name.group("unambiguous"):
        sure = bool(after.group("id") or after.group("link") not in (None, "is"))
        sure = sure or _looks_like_an_id(handle)
    else:
        sure = bool(after.group("id")) or _looks_like_an_id(handle)
    return (name.group() + text[name.end() : after.end()]) if sure else None


def _is_an_id(handle: str) -> bool:
    """An ID standing on its own: letters with digits or an underscore ("mika0303"), and not
    a move list, a version, a board size or an ordinal."""
    bare = handle.lstrip("@")
    if _NOT_AN_ID.fullmatch(bare):
        return False
    letters = sum(c.isalpha() for c in bare)
    digits = sum(c.isdigit() for c in bare)
    return letters >= 2 and (digits >= 2 or "_" in bare)


def _looks_like_an_id(handle: str) -> bool:
    """An ``@``, a digit or an underscore: what ordinary words do not have."""
    bare = handle.lstrip("@")
    if _MOVES.fullmatch(bare) or bare.isdigit():
        return False
    return handle.startswith("@") or "_" in bare or any(c.isdigit() for c in bare)
