"""Levels against levels: strong beats normal, normal beats easy (spec M1, issue targets)."""

import pytest

from benchmarks.engine import MatchResult, play_match


def test_a_match_score_has_wilson_s_interval() -> None:
    low, high = MatchResult("a", "b", 40, 0, 0).interval()
    assert (round(low, 3), high) == (0.912, 1.0)
    low, high = MatchResult("a", "b", 10, 20, 10).interval()
    assert round(low, 3) == round(1 - high, 3) == 0.352


def test_the_levels_keep_their_order_at_small_budgets() -> None:
    strong = play_match("strong", "normal", 4, time_limit=0.2, seed=1)
    normal = play_match("normal", "easy", 4, seed=1)
    assert strong.wins >= 3, strong
    assert normal.wins >= 3, normal


# strong-normal at full time takes about half an hour (1.5 s a strong move): by hand only.
MARATHON = [pytest.mark.marathon, pytest.mark.timeout(3600)]


@pytest.mark.slow
@pytest.mark.parametrize(
    ("first", "second"), [pytest.param("strong", "normal", marks=MARATHON), ("normal", "easy")]
)
def test_forty_games_at_full_time(first: str, second: str) -> None:
    result = play_match(first, second, 40)
    assert result.wins >= 36, result
