"""Levels against levels: strong beats normal, normal beats easy (spec M1, issue targets)."""

from typing import Any

import pytest

from ai_worker.engine import Board, Variant
from ai_worker.search import SearchResult
from benchmarks import engine
from benchmarks.engine import MatchResult, generic_match, play_match


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


def test_the_generic_match_puts_the_trained_player_in_every_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Three games of 3 players: the trained evaluation plays seat 0, then 1, then 2 (the
    game's number is its searches' seed); each game is counted once."""
    trained: dict[int, set[int]] = {}
    real = engine.choose_move

    def recording(board: Board, level: str, **options: Any) -> SearchResult:
        if not options["hand_evaluation"]:
            trained.setdefault(options["seed"], set()).add(board.turn)
        return real(board, level, **options)

    monkeypatch.setattr(engine, "choose_move", recording)
    result = generic_match(Variant(players=3), 3, 0.002)
    assert trained == {0: {0}, 1: {1}, 2: {2}}
    assert result.wins + result.draws + result.losses == 3
