"""Spectators (issue 14 §1): a websocket open on a game by someone who holds none of its seats
counts as one spectator while it is open; every viewer hears of the new count."""

from django.db import transaction

from ai_worker.engine import Board
from games.services import steps


def spectator_connected(*, game_id: int) -> None:
    """A spectator's websocket opened on the game."""
    _change(game_id=game_id, delta=+1)


def spectator_disconnected(*, game_id: int) -> None:
    """A spectator's websocket closed."""
    _change(game_id=game_id, delta=-1)


def _change(*, game_id: int, delta: int) -> None:
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        game.spectators = max(0, game.spectators + delta)
        board = Board.from_text(game.position)
        steps.commit(game=game, board=board, kind="spectators", fields=["spectators"])
