"""Who is at the board: websocket connections and HTTP moves keep a seat present; the CPU may
take the seat of a player away for ``policy.ABSENCE_BEFORE_TAKEOVER`` (M3)."""

from django.db import transaction
from django.utils import timezone

from ai_worker.engine import Board
from games import policy
from games.identity import Player
from games.models import Game, Seat
from games.services import steps
from games.shared.errors import ServiceError


def seat_connected(*, player: Player, game_id: int) -> None:
    """A websocket of the player opened on the game: their seats are present."""
    _change_presence(player=player, game_id=game_id, delta=+1)


def seat_disconnected(*, player: Player, game_id: int) -> None:
    """A websocket of the player closed; with none left their seats count as absent."""
    _change_presence(player=player, game_id=game_id, delta=-1)


def mark_seen(*, game: Game, player: Player) -> None:
    """A move over HTTP is presence too: the absence clock of the player's unconnected seats
    starts again (a websocket clears ``absent_since`` while it is open)."""
    for seat in game.seats.all():
        if player.holds(seat) and seat.connections == 0:
            seat.absent_since = timezone.now()
            seat.save(update_fields=["absent_since"])


def take_over_seat(*, player: Player, game_id: int, color: str, level: str) -> Game:
    """M3: a remaining player hands the seat of someone away long enough to the CPU."""
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        mine = steps.colors_of(game=game, player=player)
        if game.mode != Game.Mode.ROOM:
            raise ServiceError("takeover_not_available")
        steps.require_active(game=game)
        seats = list(game.seats.all())
        seat = seats[steps.color_index(color=color, players=len(seats))]
        if seat.kind != Seat.Kind.HUMAN or seat.color in mine:
            raise ServiceError("not_an_opponent", field="color", color=color)
        if seat.absent_since is None:
            raise ServiceError("player_present", field="color", color=color)
        now = timezone.now()
        if now < policy.takeover_allowed_at(seat.absent_since):
            raise ServiceError(
                "player_recently_left",
                field="color",
                color=color,
                away=int((now - seat.absent_since).total_seconds()),
                limit=int(policy.ABSENCE_BEFORE_TAKEOVER.total_seconds()),
            )
        seat.kind = Seat.Kind.CPU
        seat.level = level
        seat.user = None
        seat.guest_id = ""
        seat.connections = 0
        seat.absent_since = None
        seat.save(
            update_fields=["kind", "level", "user", "guest_id", "connections", "absent_since"]
        )
        steps.commit(game=game, board=Board.from_text(game.position), kind="takeover")
    return game


def _change_presence(*, player: Player, game_id: int, delta: int) -> None:
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        seats = [seat for seat in game.seats.all() if player.holds(seat)]
        if not seats:
            return
        for seat in seats:
            seat.connections = max(0, seat.connections + delta)
            seat.absent_since = None if seat.connections else timezone.now()
            seat.save(update_fields=["connections", "absent_since"])
        steps.commit(game=game, board=Board.from_text(game.position), kind="presence")
