"""Who is at the board: websocket connections (``games.shared.presence``, in Redis, expiring by
themselves) and HTTP moves keep a seat present; the CPU may take the seat of a player away for
``policy.ABSENCE_BEFORE_TAKEOVER`` (M3). A presence change is no change of the game: it bumps no
version, queues no search, and its event carries the seats only."""

from django.db import transaction
from django.utils import timezone

from ai_worker.engine import Board
from games import policy, selectors
from games.identity import Player
from games.models import Game, Seat
from games.services import events, steps
from games.shared import presence as presence_store
from games.shared.errors import ServiceError


def held_colors(*, player: Player, game_id: int) -> list[int]:
    """The colours of the human seats ``player`` holds in the game (whose presence they drive)."""
    seats = Seat.objects.filter(player.seat_filter, game_id=game_id, kind=Seat.Kind.HUMAN)
    return list(seats.values_list("color", flat=True))


def seat_connected(*, game_id: int, colors: list[int], connection: str) -> None:
    """A websocket of the seats ``colors`` opened, or renewed its heartbeat: they are present
    (the viewers hear of it when one of them was not)."""
    came_back = presence_store.renew(game_id=game_id, colors=colors, connection=connection)
    if came_back:  # no absence recorded while connected: a dead server's ends at its last renewal
        Seat.objects.filter(game_id=game_id, color__in=came_back).update(absent_since=None)
        events.announce_presence(game=selectors.game(game_id))


def seat_disconnected(*, game_id: int, colors: list[int], connection: str) -> None:
    """A websocket of the seats ``colors`` closed; those with none left count as absent."""
    left = presence_store.remove(game_id=game_id, colors=colors, connection=connection)
    if left:
        seats = Seat.objects.filter(game_id=game_id, color__in=left, kind=Seat.Kind.HUMAN)
        seats.update(absent_since=timezone.now())
        events.announce_presence(game=selectors.game(game_id))


def mark_seen(*, game: Game, player: Player) -> None:
    """A move over HTTP is presence too: the absence clock of the player's seats starts again,
    unless it did less than ``policy.SEEN_RENEWED_AFTER`` ago (a seat with a websocket open is
    present whatever its ``absent_since``)."""
    now = timezone.now()
    held = [
        seat
        for seat in game.seats.all()
        if player.holds(seat)
        and (seat.absent_since is None or now - seat.absent_since >= policy.SEEN_RENEWED_AFTER)
    ]
    if not held:
        return
    for seat in held:
        seat.absent_since = now
    Seat.objects.filter(pk__in=[seat.pk for seat in held]).update(absent_since=now)


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
        seen = presence_store.read(game_id=game.pk, colors=[seat.color])[seat.color]
        absent_since = presence_store.absence_start(seat.absent_since, seen)
        if absent_since is None:
            raise ServiceError("player_present", field="color", color=color)
        now = timezone.now()
        if now < policy.takeover_allowed_at(absent_since):
            raise ServiceError(
                "player_recently_left",
                field="color",
                color=color,
                away=int((now - absent_since).total_seconds()),
                limit=int(policy.ABSENCE_BEFORE_TAKEOVER.total_seconds()),
            )
        seat.kind = Seat.Kind.CPU
        seat.level = level
        seat.user = None
        seat.guest_id = ""
        seat.absent_since = None
        seat.save(update_fields=["kind", "level", "user", "guest_id", "absent_since"])
        steps.commit(game=game, board=Board.from_text(game.position), kind="takeover")
    return game
