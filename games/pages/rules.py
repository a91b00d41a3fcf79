"""The rules badge line of a game page, from the game's variant (the page restates no rule)."""

from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from ai_worker.engine import Variant
from ai_worker.engine.squares import NEUTRAL
from games.pages.labels import label


def rule_badges(variant: Variant) -> list[str]:
    """Short labels of the rules in force: board, opening, players, anti-reversi, corner
    handicap and blocked cells, in the active language."""
    badges = [label(f"board.{variant.board}"), label(f"opening.{variant.opening}")]
    if variant.players > 2:
        badges.append(
            ngettext("%(count)d players", "%(count)d players", variant.players)
            % {"count": variant.players}
        )
    if variant.anti:
        badges.append(label("variant.anti"))
    if variant.handicap:
        badges.append(
            _("%(rule)s: %(count)d (%(color)s)")
            % {
                "rule": label("variant.handicap"),
                "count": variant.handicap,
                "color": label(f"color.{variant.handicap_color}"),
            }
        )
    if variant.blocked:
        badges.append(
            _("%(rule)s: %(count)d")
            % {"rule": label("variant.blocked"), "count": len(variant.blocked)}
        )
    return badges


def rule_notes(variant: Variant) -> list[str]:
    """Sentences that explain what the badges cannot: the neutral disc and placements without
    capture of 3–4 player games."""
    if variant.players <= 2:
        return []
    notes = [
        _(
            "No passes: a player with no flipping move places a disc next to any disc instead; "
            "it flips nothing."
        )
    ]
    if variant.start_discs()[NEUTRAL]:
        notes.append(
            _("The grey disc is neutral: it belongs to nobody and flips like any other disc.")
        )
    return notes
