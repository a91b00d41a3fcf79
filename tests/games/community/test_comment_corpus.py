"""The comment rules against an adversarial corpus (issue 10, §4).

``data/comment_corpus.jsonl`` holds one case per line: the text, the verdict (``refuse`` or
``allow``), the rule a refused text breaks (its error code), the language and a note. The
``heldout`` cases were written before the checker and kept out of its tuning; ``dev`` cases
were written as it was built. Figures per split: ``python -m games.community.text_rules.bench``.
"""

import json
from collections import Counter
from pathlib import Path

import pytest

from games.community.text_rules import find_refusal

CORPUS = Path(__file__).parent / "data" / "comment_corpus.jsonl"
CASES = [json.loads(line) for line in CORPUS.read_text(encoding="utf-8").splitlines()]


@pytest.mark.parametrize(
    "case", CASES, ids=[f"{c['split']}-{c['lang']}-{c['verdict']}-{i}" for i, c in enumerate(CASES)]
)
def test_corpus_case(case: dict) -> None:
    refusal = find_refusal(case["text"])
    if case["verdict"] == "refuse":
        assert refusal is not None, f"not refused: {case['text']!r} ({case['note']})"
        assert refusal.code == case["rule"], (case["text"], refusal)
        assert refusal.fragment
    else:
        assert refusal is None, (case["text"], case["note"], refusal)


def test_corpus_is_balanced_over_verdicts_and_languages() -> None:
    assert len(CASES) >= 300
    verdicts = Counter(c["verdict"] for c in CASES)
    assert verdicts["refuse"] == verdicts["allow"]
    languages = Counter(c["lang"] for c in CASES)
    assert set(languages) == {"en", "ja", "ru"}
    assert all(count >= len(CASES) / 4 for count in languages.values()), languages
    held_out = [c for c in CASES if c["split"] == "heldout"]
    assert len(held_out) >= 80
    assert Counter(c["verdict"] for c in held_out) == {"refuse": 40 + 10, "allow": 50}
    assert all(c["rule"] for c in CASES if c["verdict"] == "refuse")
    assert len({c["text"] for c in CASES}) == len(CASES), "duplicate texts"
