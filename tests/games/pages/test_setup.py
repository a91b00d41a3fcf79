"""The setup form comes from the engine's variant registry and the list of levels."""

from ai_worker.engine import Variant
from ai_worker.levels import LEVELS
from games.pages.labels import LABELS
from games.pages.setup import setup_form


def label_keys(value: object) -> set[str]:
    """Every ``label`` in ``Variant.choices()``."""
    if isinstance(value, dict):
        keys = {value["label"]} if isinstance(value.get("label"), str) else set()
        return keys.union(*(label_keys(item) for item in value.values()))
    if isinstance(value, list):
        return set().union(*(label_keys(item) for item in value))
    return set()


def test_every_label_of_the_registry_has_a_translation() -> None:
    assert label_keys(Variant.choices()) <= set(LABELS)


def requires(field) -> dict[str, dict[str, list[str]]]:
    return {choice.value: choice.requires for choice in field.choices}


def test_choices_say_which_other_values_they_need() -> None:
    form = setup_form()
    assert [choice.value for choice in form.board.choices] == list(
        entry["value"] for entry in Variant.choices()["board"]["choices"]
    )
    assert requires(form.board)["6x6"] == {"players": ["2"]}
    assert requires(form.opening)["free"] == {"players": ["2"]}
    assert requires(form.handicap)["0"] == {}
    assert requires(form.handicap)["4"] == {"players": ["2"], "board": ["6x6", "8x8", "10x10"]}
    assert form.handicap_color.requires == {"handicap": ["1", "2", "3", "4"]}
    assert requires(form.color)["green"] == {"players": ["4"]}
    assert requires(form.players)["3"] == {"opponent": ["cpu", "local", "group"]}
    assert [choice.value for choice in form.level.choices] == list(LEVELS)


def test_every_choice_the_form_allows_is_a_variant_the_engine_accepts() -> None:
    form = setup_form()
    for players in form.players.choices:
        for board in form.board.choices:
            for handicap in form.handicap.choices:
                values = {"players": players.value, "board": board.value}
                allowed = all(
                    values[name] in accepted
                    for choice in (board, handicap)
                    for name, accepted in choice.requires.items()
                    if name in values
                )
                settings = {"players": int(players.value), "board": board.value}
                settings["handicap"] = int(handicap.value)
                try:
                    Variant(**settings)
                except ValueError:
                    assert not allowed, settings
                else:
                    assert allowed, settings
