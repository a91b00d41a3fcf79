"""The one list of CPU levels, which the search and the web app share."""

from ai_worker import levels, search


def test_levels_run_weakest_first_and_name_the_default_and_the_hint() -> None:
    assert levels.LEVELS == ("easy", "normal", "strong")
    assert levels.DEFAULT_LEVEL == "normal"
    assert levels.HINT_LEVEL == "strong"


def test_the_search_has_a_time_limit_for_every_level_and_no_other() -> None:
    assert tuple(search.DEFAULT_TIME_LIMIT) == levels.LEVELS
    assert search.LEVELS is levels.LEVELS
