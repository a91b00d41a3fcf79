"""The comment rules (spec C3): no URLs, e-mail addresses, phone numbers, addresses, schools,
messenger IDs or blocked words, and length limits.

A pipeline on kept libraries, each rule in its own module:

- :mod:`.normalise`: NFKC, invisible characters removed, case folding, confusables
  (``confusable-homoglyphs``) and transliteration (``anyascii``) of stylised and look-alike
  letters;
- :mod:`.links`: URLs and e-mail addresses, host names checked on the Public Suffix List
  (``tldextract``, bundled snapshot), dots and "at" in any spelling;
- :mod:`.phones`: ``phonenumbers``' matcher over a view with number words as digits
  (:mod:`.numbers`);
- :mod:`.places`: street addresses and schools; :mod:`.names`: the writer's own name;
  :mod:`.contacts`: messenger IDs;
- :mod:`.words`: the block list, matched as words (Japanese words by ``fugashi``).

Rules read normalised views of the text; the stored text is the author's own, only cleaned of
control and invisible characters (:func:`clean_text`). Each view and resource is built once per
process, when first needed.
"""

from dataclasses import dataclass

from games.community.errors import RuleViolation
from games.community.text_rules import contacts, links, names, phones, places, words
from games.community.text_rules.normalise import clean_text, fold, nfkc, unspell_underscores
from games.community.text_rules.words import BLOCKLIST_PATH, blocked_terms, find_blocked_word

__all__ = [
    "BLOCKLIST_PATH",
    "BUG_REPORT_MAX_LENGTH",
    "COMMENT_MAX_LENGTH",
    "COMMENT_MAX_LINES",
    "REASON_MAX_LENGTH",
    "Refusal",
    "blocked_terms",
    "check_comment_text",
    "check_length",
    "clean_text",
    "find_blocked_word",
    "find_refusal",
]

COMMENT_MAX_LENGTH = 1000
COMMENT_MAX_LINES = 20
REASON_MAX_LENGTH = 500
BUG_REPORT_MAX_LENGTH = 5000


@dataclass(frozen=True)
class Refusal:
    """Why a text is refused: the rule's ``code`` and the ``fragment`` that broke it (as the
    rules read it: folded, and for a blocked word the block-list entry)."""

    code: str
    fragment: str


def check_length(text: str, *, field: str, max_length: int, max_lines: int | None = None) -> None:
    """Reject an empty text, or one over ``max_length`` characters or ``max_lines`` lines."""
    if not text:
        raise RuleViolation("empty", field=field)
    if len(text) > max_length:
        raise RuleViolation("too_long", field=field, limit=max_length, length=len(text))
    if max_lines is not None and text.count("\n") >= max_lines:
        raise RuleViolation("too_many_lines", field=field, limit=max_lines)


def check_comment_text(text: str, *, field: str = "text") -> None:
    """Raise :class:`RuleViolation` naming the first comment rule ``text`` breaks (with the
    fragment that broke it)."""
    check_length(text, field=field, max_length=COMMENT_MAX_LENGTH, max_lines=COMMENT_MAX_LINES)
    refusal = find_refusal(text)
    if refusal is None:
        return
    params = {"word": refusal.fragment} if refusal.code == "blocked_word" else {}
    raise RuleViolation(refusal.code, field=field, fragment=refusal.fragment, **params)


def find_refusal(text: str) -> Refusal | None:
    """The first content rule ``text`` breaks, in the order e-mail, URL, phone, address,
    school, real name, messenger, blocked word; None when it breaks none."""
    cased = nfkc(links.unglue_sentences(text))
    folded = fold(cased)
    latin = unspell_underscores(links.latin_look_alikes(folded))
    joined = _join_spaced_out(latin)
    views = (latin,) if joined == latin else (latin, joined)
    checks = (
        ("email_not_allowed", links.find_email),
        ("url_not_allowed", links.find_url),
        ("phone_not_allowed", phones.find_phone_number),
    )
    for code, find in checks:
        for view in views:
            fragment = find(view)
            if fragment:
                return Refusal(code, fragment)
    for code, find_place in (
        ("address_not_allowed", places.find_address),
        ("school_not_allowed", places.find_school),
        ("name_not_allowed", names.find_real_name),
    ):
        fragment = find_place(folded, cased)
        if fragment:
            return Refusal(code, fragment)
    fragment = contacts.find_messenger_id(latin)
    if fragment:
        return Refusal("contact_not_allowed", fragment)
    entry = words.find_blocked_word(text)
    return Refusal("blocked_word", entry) if entry else None


def _join_spaced_out(text: str) -> str:
    """Join runs of three or more single characters with a letter among them: "e x a m p l e"
    -> "example" (spaced digits are the phone rule's to read: "levels 1 2 3 4 5 6 7 8 9 10")."""
    tokens = text.split()
    out: list[str] = []
    run: list[str] = []
    for token in [*tokens, ""]:
        if len(token) == 1:
            run.append(token)
            continue
        spelled = len(run) >= 3 and any(char.isalpha() for char in run)
        out.extend(["".join(run)] if spelled else run)
        run = []
        if token:
            out.append(token)
    return " ".join(out)
