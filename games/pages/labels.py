"""Translations of the label keys the engine's variant registry uses (``board.octagon``,
``opening.cross``, ``variant.handicap``, ``color.black``, ...); a new board shape or opening adds
its key here (a test checks every key of ``Variant.choices()`` has one)."""

from collections.abc import Mapping

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ai_worker.levels import EASY, NORMAL, STRONG
from games.shared.errors import COLOR_LABELS
from games.shared.time_controls import TimeControl, offered_time_controls

LABELS: Mapping[str, Promise | str] = {
    "variant.players": _("Players"),
    "variant.board": _("Board"),
    "variant.opening": _("Opening"),
    "variant.anti": _("Anti-reversi (fewest discs wins)"),
    "variant.blocked": _("Blocked cells"),
    "variant.handicap": _("Corner handicap"),
    "variant.handicap_color": _("Handicap for"),
    "board.6x6": "6×6",
    "board.8x8": "8×8",
    "board.10x10": "10×10",
    "board.octagon": _("Octagon"),
    "opening.cross": _("Cross"),
    "opening.parallel": _("Parallel"),
    "opening.free": _("Free placement"),
    **{f"color.{name}": text for name, text in COLOR_LABELS.items()},
}


LEVEL_LABELS: Mapping[str, Promise] = {EASY: _("Easy"), NORMAL: _("Normal"), STRONG: _("Strong")}

OPPONENT_LABELS: Mapping[str, Promise] = {
    "cpu": _("CPU"),
    "local": _("Two players on this device"),
    "friend": _("A friend (send a link)"),
    "group": _("3–4 player room"),
}

RANDOM_LABEL = _("Random")

DECLINE_REASON_LABELS: Mapping[str, Promise] = {
    "generic": _("Not now, thanks"),
    "later": _("Later, please"),
    "too_fast": _("Too fast for me"),
    "too_slow": _("Too slow for me"),
    "rated": _("Rated games only, please"),
    "casual": _("Casual games only, please"),
    "variant": _("Not this variant"),
}


def time_control_label(name: str) -> str:
    """How a time control is shown: "3 min + 2 s", "3 days per move" (in the active language)."""
    control = TimeControl.parse(name)
    if control.days_per_move is not None:
        days = control.days_per_move
        return ngettext("%(days)d day per move", "%(days)d days per move", days) % {"days": days}
    minutes, seconds = name.split("+")
    return _("%(minutes)s min + %(seconds)s s") % {"minutes": minutes, "seconds": seconds}


def time_control_choices() -> list[dict[str, str]]:
    """The offered time controls as form choices (value and label), fastest first."""
    return [{"value": name, "label": time_control_label(name)} for name in offered_time_controls()]


def label(key: str) -> str:
    """The label of a registry key in the active language."""
    return str(LABELS[key])
