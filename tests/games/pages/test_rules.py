"""The rules badge line and notes of the game page (games.pages.rules), in three languages."""

from django.utils import translation

from ai_worker.engine import Variant
from games.pages.rules import rule_badges, rule_notes


def test_a_standard_game_names_its_board_and_opening() -> None:
    assert rule_badges(Variant()) == ["8×8", "Cross"]
    assert rule_notes(Variant()) == []


def test_every_rule_in_force_has_a_badge() -> None:
    variant = Variant(anti=True, handicap=2, handicap_color="white", blocked=("a3", "h6"))
    assert rule_badges(variant) == [
        "8×8",
        "Cross",
        "Anti-reversi (fewest discs wins)",
        "Corner handicap: 2 (White)",
        "Blocked cells: 2",
    ]


def test_three_players_explain_the_neutral_disc_and_placements_four_only_placements() -> None:
    three = rule_notes(Variant(players=3))
    assert len(three) == 2
    assert "neutral" in three[1]
    four = rule_notes(Variant(players=4))
    assert len(four) == 1
    assert "flips nothing" in four[0]
    assert "3 players" in rule_badges(Variant(players=3))


def test_badges_and_notes_are_translated() -> None:
    variant = Variant(players=3, anti=True, blocked=("a3",))
    with translation.override("en"):
        english = rule_badges(variant) + rule_notes(variant)
    for language in ("ja", "ru"):
        with translation.override(language):
            translated = rule_badges(variant) + rule_notes(variant)
        changed = [a != b for a, b in zip(english, translated, strict=True)]
        assert changed[1:] == [True] * (len(english) - 1), language  # the board is "8×8" in all
