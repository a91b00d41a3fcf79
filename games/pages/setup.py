"""The setup page's form, built from the engine's variant registry (``Variant.choices()``) and
the list of levels, so the page restates no rule.

Every choice (and some whole fields) carries ``requires``: the values other fields must have
for it to be allowed, e.g. the 6x6 board ``{"players": ["2"]}``. The page's script only
enables what these allow (``data-requires``); it knows nothing of boards or players.
"""

import json
from dataclasses import dataclass, field
from typing import Any

from ai_worker.engine import Variant
from ai_worker.levels import LEVELS
from games.pages.labels import LEVEL_LABELS, OPPONENT_LABELS, RANDOM_LABEL, label

BLOCKED_COUNTS = (0, 2, 4, 6, 8, 10)  # the random wall counts the page offers
Requires = dict[str, list[str]]


@dataclass(frozen=True)
class Choice:
    value: str
    label: str
    requires: Requires = field(default_factory=dict)
    checked: bool = False

    @property
    def requires_json(self) -> str:
        return json.dumps(self.requires)


@dataclass(frozen=True)
class Field:
    name: str
    label: str
    choices: list[Choice]
    requires: Requires = field(default_factory=dict)

    @property
    def requires_json(self) -> str:
        return json.dumps(self.requires)


@dataclass(frozen=True)
class SetupForm:
    """The setup form's fields: opponent, level, colour, players, the variant settings, and the
    seats after the first (for rooms)."""

    opponent: Field
    level: Field
    color: Field
    players: Field
    board: Field
    opening: Field
    anti: Field
    blocked: Field
    handicap: Field
    handicap_color: Field
    seats: Field

    @property
    def select_fields(self) -> list[Field]:
        """The settings drawn as a drop-down list."""
        return [self.blocked, self.handicap, self.handicap_color]


def setup_form() -> SetupForm:
    """The setup form in the active language."""
    choices = Variant.choices()
    counts = [str(entry["value"]) for entry in choices["players"]["choices"]]
    colors = {str(entry["value"]): entry["colors"] for entry in choices["players"]["choices"]}
    all_colors = colors[counts[-1]]
    players_of_opponent = {
        "cpu": counts,
        "local": counts,
        "friend": counts[:1],
        "group": counts[1:],
    }
    boards = choices["board"]["choices"]
    handicap = choices["handicap"]
    return SetupForm(
        opponent=Field(
            "opponent",
            "",
            [
                Choice(name, str(OPPONENT_LABELS[name]), checked=name == "cpu")
                for name in players_of_opponent
            ],
        ),
        level=Field(
            "level",
            "",
            [
                Choice(level, str(LEVEL_LABELS[level]), checked=index == 0)
                for index, level in enumerate(LEVELS)
            ],
        ),
        color=Field(
            "color",
            "",
            [
                Choice(
                    color,
                    label(f"color.{color}"),
                    {"players": [n for n in counts if color in colors[n]]},
                    checked=index == 0,
                )
                for index, color in enumerate(all_colors)
            ]
            + [Choice("random", str(RANDOM_LABEL))],
        ),
        players=Field(
            "players",
            label(choices["players"]["label"]),
            [
                Choice(
                    count,
                    count,
                    {
                        "opponent": [
                            o for o, allowed in players_of_opponent.items() if count in allowed
                        ]
                    },
                    checked=count == str(choices["players"]["default"]),
                )
                for count in counts
            ],
        ),
        board=_choice_field("board", choices["board"]),
        opening=_choice_field("opening", choices["opening"]),
        anti=Field("anti", label(choices["anti"]["label"]), [], _players(choices["anti"])),
        blocked=Field(
            "blocked",
            label(choices["blocked"]["label"]),
            [Choice(str(count), str(count), checked=count == 0) for count in BLOCKED_COUNTS],
            _players(choices["blocked"]),
        ),
        handicap=Field(
            "handicap",
            label(handicap["label"]),
            [
                Choice(
                    str(corners),
                    str(corners),
                    {}
                    if corners == handicap["default"]
                    else {
                        **_players(handicap),
                        "board": [b["value"] for b in boards if len(b["corners"]) >= corners],
                    },
                    checked=corners == handicap["default"],
                )
                for corners in range(handicap["min"], handicap["max"] + 1)
            ],
        ),
        handicap_color=Field(
            "handicap_color",
            label(choices["handicap_color"]["label"]),
            [
                Choice(entry["value"], label(entry["label"]))
                for entry in choices["handicap_color"]["choices"]
            ],
            {
                choices["handicap_color"]["requires"]: [
                    str(n)
                    for n in range(handicap["min"], handicap["max"] + 1)
                    if n != handicap["default"]
                ]
            },
        ),
        seats=Field(
            "seats",
            "",
            [
                Choice(
                    color,
                    label(f"color.{color}"),
                    {"players": [n for n in counts if color in colors[n]]},
                    checked=index == 0,  # checked: a person by default, else the CPU
                )
                for index, color in enumerate(all_colors[1:])
            ],
        ),
    )


def _choice_field(name: str, setting: dict[str, Any]) -> Field:
    return Field(
        name,
        label(setting["label"]),
        [
            Choice(
                entry["value"],
                label(entry["label"]),
                _players(entry),
                checked=entry["value"] == setting["default"],
            )
            for entry in setting["choices"]
        ],
    )


def _players(entry: dict[str, Any]) -> Requires:
    return {"players": [str(count) for count in entry["players"]]}
