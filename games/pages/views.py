"""Page views: each renders a template shell; the scripts take the state from the API."""

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.csrf import ensure_csrf_cookie

from ai_worker.engine import Variant
from ai_worker.levels import DEFAULT_LEVEL, LEVELS
from games import selectors
from games.models import Game
from games.shared.errors import NotFound
from games.shared.pages import counts_as_page_view

from .labels import DECLINE_REASON_LABELS, LEVEL_LABELS, time_control_choices
from .rules import rule_badges, rule_notes
from .setup import Choice, setup_form
from .strings import client_strings


@ensure_csrf_cookie
@counts_as_page_view
def setup(request: HttpRequest) -> HttpResponse:
    """The setup page: opponent, level, colour, board and rules; resume an unfinished game."""
    context = {
        "strings": client_strings(),
        "form": setup_form(),
        "time_controls": time_control_choices(),
        "default_level": LEVEL_LABELS[DEFAULT_LEVEL],
    }
    return render(request, "games/setup.html", context)


@ensure_csrf_cookie
@counts_as_page_view
def lobby(request: HttpRequest) -> HttpResponse:
    """The lobby: open seeks listed live, a seek of your own, quick pairing."""
    time_controls = time_control_choices()
    strings = {
        **client_strings(),
        **{f"time.{choice['value']}": choice["label"] for choice in time_controls},
    }
    strings.update({f"decline.{name}": str(text) for name, text in DECLINE_REASON_LABELS.items()})
    context = {
        "strings": strings,
        "form": setup_form(),
        "time_controls": time_controls,
        "decline_reasons": [
            {"value": name, "label": text} for name, text in DECLINE_REASON_LABELS.items()
        ],
    }
    return render(request, "games/lobby.html", context)


@counts_as_page_view
def watch(request: HttpRequest) -> HttpResponse:
    """The games being played now and who is at a board (the script polls ``/api/watch/``)."""
    strings = {
        **client_strings(),
        **{f"time.{choice['value']}": choice["label"] for choice in time_control_choices()},
    }
    return render(request, "games/watch.html", {"strings": strings})


@ensure_csrf_cookie
@counts_as_page_view
def play(request: HttpRequest, public_id: str) -> HttpResponse:
    """The page of one game by its public id (versus the CPU, hot-seat, or a room's game
    watched by someone without its room's link)."""
    try:
        game = selectors.game(selectors.game_pk(public_id))
    except NotFound as error:
        raise Http404 from error
    return render(request, "games/game.html", game_context(game, game_id=public_id, room_code=""))


@ensure_csrf_cookie
@counts_as_page_view
def room(request: HttpRequest, code: str) -> HttpResponse:
    """The page of a friend or multi-player room: share, join, play, rematch (404 when no room
    has the code)."""
    try:
        found = selectors.room(code)
    except NotFound as error:
        raise Http404 from error
    return render(request, "games/game.html", game_context(found.game, game_id="", room_code=code))


def game_context(game: Game, *, game_id: str, room_code: str) -> dict[str, object]:
    """What the game page's template draws on the server: the ids its script follows and the
    rules badge line of the game's variant."""
    variant = Variant.from_json(game.variant)
    return {
        "game_id": game_id,
        "room_code": room_code,
        "strings": client_strings(),
        "rules": rule_badges(variant),
        "rule_notes": rule_notes(variant),
        "levels": [
            Choice(level, str(LEVEL_LABELS[level]), checked=level == DEFAULT_LEVEL)
            for level in LEVELS
        ],
    }
