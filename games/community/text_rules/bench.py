"""Benchmark of the comment rules: ``python -m games.community.text_rules.bench``.

Runs the rules over the test corpus (``tests/games/community/data/comment_corpus.jsonl``) and
prints the median time per comment, with the ratio against a baseline measured in the same run
on the same texts: NFKC plus ``str.casefold()``, the least any check does. Resources (tagger,
suffix list, block list) are loaded before timing, as a long-running process has them; the
time that takes is printed too. Then the catch rate and the rate of innocent comments refused,
per split of the corpus.
"""

import argparse
import json
import statistics
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

CORPUS = (
    Path(__file__).resolve().parents[3]
    / "tests"
    / "games"
    / "community"
    / "data"
    / "comment_corpus.jsonl"
)


def median_seconds(check: Callable[[str], object], texts: list[str], rounds: int) -> float:
    """The median over texts of each text's best time over ``rounds`` runs."""
    per_text = []
    for text in texts:
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            check(text)
            best = min(best, time.perf_counter() - start)
        per_text.append(best)
    return statistics.median(per_text)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="runs per text (best counts)")
    args = parser.parse_args()

    import django

    django.setup()
    from games.community.text_rules import find_refusal

    cases = [json.loads(line) for line in CORPUS.read_text("utf-8").splitlines()]
    texts = [case["text"] for case in cases]
    start = time.perf_counter()
    verdicts = [find_refusal(text) is not None for text in texts]  # loads every resource once
    loading = time.perf_counter() - start

    def baseline(text: str) -> str:
        return unicodedata.normalize("NFKC", text).casefold()

    rules = median_seconds(find_refusal, texts, args.rounds)
    base = median_seconds(baseline, texts, args.rounds)
    long_comments = {
        lang: " ".join(c["text"] for c in cases if c["lang"] == lang and c["verdict"] == "allow")[
            :1000
        ]
        for lang in ("en", "ja", "ru")
    }
    long_times = {
        lang: median_seconds(find_refusal, [text], args.rounds)
        for lang, text in long_comments.items()
    }
    print(f"comments: {len(texts)} (corpus), best of {args.rounds} runs each")
    print(f"rules median per comment:    {rules * 1e3:8.3f} ms")
    print(f"baseline (NFKC + casefold):  {base * 1e3:8.3f} ms")
    print(f"ratio rules / baseline:      {rules / base:8.1f}x")
    for lang, seconds in long_times.items():
        print(
            f"1000 characters of {lang} text:  {seconds * 1e3:8.3f} ms (innocent comments joined)"
        )
    print(f"first pass (loads resources): {loading:7.2f} s")
    for split in sorted({case["split"] for case in cases}):
        rows = [(c, v) for c, v in zip(cases, verdicts, strict=True) if c["split"] == split]
        abusive = [v for c, v in rows if c["verdict"] == "refuse"]
        innocent = [v for c, v in rows if c["verdict"] == "allow"]
        print(
            f"{split:8} caught {sum(abusive)}/{len(abusive)} ({sum(abusive) / len(abusive):.1%}),"
            f" innocent refused {sum(innocent)}/{len(innocent)}"
            f" ({sum(innocent) / len(innocent):.1%})"
        )


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reversi_site.settings")
    main()
