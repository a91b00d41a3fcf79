"""Page views: each renders a template shell; the scripts take the state from the API."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.csrf import ensure_csrf_cookie

from games.community.pages import counts_page_view
from games.community.selectors import site_counters
from games.models import Game

from .setup import setup_form
from .strings import client_strings


@ensure_csrf_cookie
@counts_page_view
def setup(request: HttpRequest) -> HttpResponse:
    """The setup page: opponent, level, colour, board and rules; resume an unfinished game."""
    context = {
        "strings": client_strings(),
        "counters": site_counters(),
        "form": setup_form(),
    }
    return render(request, "games/setup.html", context)


@ensure_csrf_cookie
@counts_page_view
def play(request: HttpRequest, game_id: int) -> HttpResponse:
    """The page of one game (versus the CPU or hot-seat)."""
    game = get_object_or_404(Game, pk=game_id)
    return render(
        request,
        "games/game.html",
        {"game_id": game.pk, "room_code": "", "strings": client_strings()},
    )


@ensure_csrf_cookie
@counts_page_view
def room(request: HttpRequest, code: str) -> HttpResponse:
    """The page of a friend or multi-player room: share, join, play, rematch."""
    return render(
        request, "games/game.html", {"game_id": "", "room_code": code, "strings": client_strings()}
    )
