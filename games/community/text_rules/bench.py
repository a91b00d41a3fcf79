"""Benchmark of the comment rules: ``python -m games.community.text_rules.bench``.

Runs the rules over the test corpora (``tests/games/community/data/*.jsonl``) and prints the
median time per comment (its 99th percentile and maximum too), with the ratio against a
baseline measured in the same run on the same texts: NFKC plus ``str.casefold()``, the least
any check does. Resources (tagger, suffix list, block list) are loaded before timing, as a
long-running process has them; the time that takes is printed too, and the time for 1000
characters (the longest comment) of the main corpus's innocent comments per language. Then the
catch rate and the rate of innocent comments refused per corpus and split; ``--misses`` lists
the cases the rules get wrong.
"""

import argparse
import json
import statistics
import time
import unicodedata
from collections.abc import Callable
from pathlib import Path

CORPORA = Path(__file__).resolve().parents[3] / "tests" / "games" / "community" / "data"
CORPUS = CORPORA / "comment_corpus.jsonl"


def best_seconds(check: Callable[[str], object], texts: list[str], rounds: int) -> list[float]:
    """Each text's best time over ``rounds`` runs, in order."""
    per_text = []
    for text in texts:
        best = float("inf")
        for _ in range(rounds):
            start = time.perf_counter()
            check(text)
            best = min(best, time.perf_counter() - start)
        per_text.append(best)
    return per_text


def median_seconds(check: Callable[[str], object], texts: list[str], rounds: int) -> float:
    """The median over texts of each text's best time over ``rounds`` runs."""
    return statistics.median(best_seconds(check, texts, rounds))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="runs per text (best counts)")
    parser.add_argument("--misses", action="store_true", help="list the cases each rule misses")
    args = parser.parse_args()

    import django

    django.setup()
    from games.community.text_rules import find_refusal

    cases = [json.loads(line) for line in CORPUS.read_text("utf-8").splitlines()]
    texts = [
        json.loads(line)["text"]
        for corpus in sorted(CORPORA.glob("*.jsonl"))
        for line in corpus.read_text("utf-8").splitlines()
    ]
    start = time.perf_counter()
    for text in texts:
        find_refusal(text)  # loads every resource once
    loading = time.perf_counter() - start

    def baseline(text: str) -> str:
        return unicodedata.normalize("NFKC", text).casefold()

    per_comment = best_seconds(find_refusal, texts, args.rounds)
    rules = statistics.median(per_comment)
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
    print(f"comments: {len(texts)} (every corpus), best of {args.rounds} runs each")
    print(f"rules median per comment:    {rules * 1e3:8.3f} ms")
    print(
        f"rules p99, max per comment:  {statistics.quantiles(per_comment, n=100)[98] * 1e3:8.3f} ms"
        f" {max(per_comment) * 1e3:.3f} ms"
    )
    print(f"baseline (NFKC + casefold):  {base * 1e3:8.3f} ms")
    print(f"ratio rules / baseline:      {rules / base:8.1f}x")
    for lang, seconds in long_times.items():
        print(
            f"1000 characters of {lang} text:  {seconds * 1e3:8.3f} ms (innocent comments joined)"
        )
    print(f"first pass (loads resources): {loading:7.2f} s")
    for corpus in sorted(CORPORA.glob("*.jsonl")):
        print_rates(corpus, find_refusal, misses=args.misses)


def print_rates(corpus: Path, check: Callable[[str], object], *, misses: bool) -> None:
    """Catch rate and innocent comments refused, per split of ``corpus``."""
    cases = [json.loads(line) for line in corpus.read_text("utf-8").splitlines()]
    refused = [check(case["text"]) is not None for case in cases]
    for split in sorted({case["split"] for case in cases}):
        rows = [(c, r) for c, r in zip(cases, refused, strict=True) if c["split"] == split]
        abusive = [r for c, r in rows if c["verdict"] == "refuse"]
        innocent = [r for c, r in rows if c["verdict"] == "allow"]
        print(
            f"{corpus.name} {split:8} caught {sum(abusive)}/{len(abusive)}"
            f" ({sum(abusive) / len(abusive):.1%}), innocent refused"
            f" {sum(innocent)}/{len(innocent)} ({sum(innocent) / len(innocent):.1%})"
        )
    if misses:
        for case, was_refused in zip(cases, refused, strict=True):
            if was_refused != (case["verdict"] == "refuse"):
                print(f"  wrong: {case['verdict']} {case['lang']} {case['text']!r}")


if __name__ == "__main__":
    import os

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "reversi_site.settings")
    main()
