"""What the players of a room game agree on (issue 14 §2): aborting a game before everyone has
moved, and a draw offered by one of two people and accepted or declined by the other."""

from typing import Literal

from django.db import transaction

from ai_worker.engine import PASS, Board
from games import policy, presenters
from games.identity import Player
from games.models import Game, Seat
from games.services import games, steps
from games.shared.errors import Conflict, ServiceError

DrawAction = Literal["offer", "accept", "decline"]


def abort(*, player: Player, game_id: int) -> Game:
    """End a room game that not every colour has moved in yet; it counts for nobody."""
    games.end_if_out_of_time(game_id=game_id)
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        steps.colors_of(game=game, player=player)
        steps.require_active(game=game)
        moved = set(game.moves.exclude(notation=str(PASS)).values_list("color", flat=True))
        if not policy.abort_allowed(game.mode, len(game.seats.all()), moved):
            raise ServiceError("abort_not_allowed")
        board = Board.from_text(game.position)
        games.finish(game=game, result=presenters.agreed_result(game, board, reason="aborted"))
        steps.commit(game=game, board=board, kind="abort", fields=games.END_FIELDS)
    return game


def draw(*, player: Player, game_id: int, action: DrawAction) -> Game:
    """Offer a draw (an offer to someone who already offered one accepts it), accept the
    opponent's offer (the game ends drawn), or decline it. A move of the opponent declines it
    too (``games.services.games.play``). After a declined offer, the next waits for a move."""
    games.end_if_out_of_time(game_id=game_id)
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        mine = steps.colors_of(game=game, player=player)
        steps.require_active(game=game)
        seats = list(game.seats.all())
        people = sum(seat.kind == Seat.Kind.HUMAN for seat in seats)
        if not policy.draw_offers_allowed(game.mode, len(seats), people) or len(mine) != 1:
            raise ServiceError("draw_not_available")
        (color,) = mine
        offered_by_opponent = game.draw_offer is not None and game.draw_offer != color
        board = Board.from_text(game.position)
        if action == "accept" or (action == "offer" and offered_by_opponent):
            if not offered_by_opponent:
                raise Conflict("no_draw_offer")
            games.finish(
                game=game, result=presenters.agreed_result(game, board, reason="agreement")
            )
            steps.commit(game=game, board=board, kind="draw", fields=games.END_FIELDS)
        elif action == "offer":
            if game.draw_offer == color:
                return game
            if game.draw_declined_ply == game.ply:
                raise Conflict("draw_just_declined")
            game.draw_offer = color
            steps.commit(game=game, board=board, kind="draw_offer", fields=["draw_offer"])
        else:
            if not offered_by_opponent:
                raise Conflict("no_draw_offer")
            game.draw_offer = None
            game.draw_declined_ply = game.ply
            steps.commit(
                game=game,
                board=board,
                kind="draw_declined",
                fields=["draw_offer", "draw_declined_ply"],
            )
    return game
