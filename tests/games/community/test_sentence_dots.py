"""A full stop typed without a space before the next sentence is not a web address."""

import pytest

from games.community.errors import RuleViolation
from games.community.text_rules import check_comment_text


@pytest.mark.parametrize(
    "text",
    [
        "I like it.Me too",
        "Thanks.Info about the rules helped",
        "Great game.Live games are the best",
        "What a comeback.Top corner saved me",
        "Хорошая игра.Сайт удобный",
    ],
)
def test_a_sentence_glued_to_a_full_stop_passes(text: str) -> None:
    check_comment_text(text)


@pytest.mark.parametrize(
    "text",
    [
        "visit example.com",
        "Visit Example.com now",
        "see EXAMPLE.COM",
        "mail john.Doe@example.com",
        "see example.Com.au/page",
    ],
)
def test_domains_are_still_refused(text: str) -> None:
    with pytest.raises(RuleViolation):
        check_comment_text(text)
