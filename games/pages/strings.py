"""The strings the page scripts show, translated on the server and rendered into the page."""

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.pages.labels import LABELS

CLIENT_STRINGS = {
    **LABELS,  # colours, boards, openings: the registry's label keys
    "color.neutral": pgettext_lazy("disc colour", "Neutral"),
    "level.easy": _("easy"),
    "level.normal": _("normal"),
    "level.strong": _("strong"),
    "turn.over": _("Game over"),
    "title.your_turn": _("● Your move"),
    "turn.color": _("{color} to move"),
    "turn.yours": _("Your turn ({color})"),
    "turn.cpu": _("{color} (CPU) is thinking…"),
    "turn.waiting": _("Waiting for {color}"),
    "turn.waiting_players": _("Waiting for players to join"),
    "seat.you": _("(you)"),
    "seat.open": _("open seat"),
    "seat.cpu": _("CPU ({level})"),
    "seat.player": _("player"),
    "seat.away": _("away"),
    "last.move": _("{color} {square} · {count} flipped"),
    "last.placed": _("{color} {square} · placed without capture (no flipping move)"),
    "pass.banner": _("{color} passes: no legal move"),
    "cell.empty": _("empty"),
    "cell.wall": _("blocked"),
    "cell.legal": _("legal, flips {count}"),
    "cell.last": _("last move"),
    "cell.hint": _("hint"),
    "result.draw": _("Draw"),
    "result.wins": _("{color} wins"),
    "result.you_win": _("You win ({color})"),
    "result.you_lose": _("You lost ({color} wins)"),
    "result.over": _("Game over"),
    "result.resigned": _("{color} resigned."),
    "error.stale": _("The game moved on; the board has been updated."),
    "error.network": _("No connection to the server. Please try again."),
    "sound.on": _("Sound: on"),
    "sound.off": _("Sound: off"),
    "room.copied": _("Copied"),
    "takeover.countdown": _("{color} is away: the CPU may take the seat in {time}"),
    "takeover.now": _("{color} is away: the CPU may take the seat now"),
    "resume.link": _("Continue: {mode}, {board}, move {ply}"),
    "mode.cpu": _("versus the CPU"),
    "mode.local": _("two players on this device"),
    "mode.room": _("room"),
    "review.queued": _("The analysis is queued…"),
    "review.running": _("Analysing: {done} of {total} moves"),
    "review.done": _("Analysis: mistakes are marked"),
    "review.none": _("No analysis"),
    "review.opening": _("Opening: {name}"),
    "review.start": _("Starting position"),
    "review.move": _("{number}. {color} {move}"),
    "review.mistake": _("mistake: {loss} discs lost, best {best}"),
    "review.best": _("best {best} ({score})"),
}


def client_strings() -> dict[str, str]:
    """The page strings in the active language."""
    return {key: str(text) for key, text in CLIENT_STRINGS.items()}
