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
    "pass.banner": _("{color} passes: no legal move"),
    "result.draw": _("Draw"),
    "result.wins": _("{color} wins"),
    "result.you_win": _("You win ({color})"),
    "result.over": _("Game over"),
    "result.resigned": _("{color} resigned."),
    "result.flagged": _("{color} ran out of time."),
    "result.agreement": _("Draw agreed."),
    "result.aborted": _("Game aborted: it counts for nobody."),
    "clock.label": _("{color}'s clock"),
    "draw.offered_by_you": _("You offered a draw."),
    "draw.offered_to_you": _("{color} offers a draw."),
    "error.stale": _("The game moved on; the board has been updated."),
    "error.network": _("No connection to the server. Please try again."),
    "sound.on": _("Sound: on"),
    "sound.off": _("Sound: off"),
    "room.copied": _("Copied"),
    "lobby.empty": _("No open seeks: offer one, or try quick pairing."),
    "lobby.accept": _("Accept"),
    "lobby.cancel": _("Take back"),
    "lobby.waiting": _("Waiting for an opponent…"),
    "lobby.rated": _("rated"),
    "lobby.casual": _("casual"),
    "lobby.untimed": _("no clock"),
    "lobby.players": _("{count} players"),
    "lobby.open_seats": _("{count} open"),
    "challenge.incoming": _("{name} challenges you: {terms}"),
    "challenge.outgoing": _("You challenged {name}: {terms}"),
    "challenge.declined": _("{name} declined: {reason}"),
    "challenge.cancelled": _("Taken back"),
    "challenge.expired": _("Expired"),
    "challenge.accepted": _("Accepted: go to the game"),
    "challenge.decline": _("Decline"),
    "watch.spectators": _("{count} watching"),
    "watch.empty": _("No games between people right now."),
    "watch.online": _("At a board now: {names}"),
    "watch.guests": _("{count} guests"),
    "watch.move": _("move {ply}"),
    "resume.link": _("Continue: {mode}, {board}, move {ply}"),
    "mode.cpu": _("versus the CPU"),
    "mode.local": _("two players on this device"),
    "mode.room": _("room"),
}


def client_strings() -> dict[str, str]:
    """The page strings in the active language."""
    return {key: str(text) for key, text in CLIENT_STRINGS.items()}
