"""Friend rooms and 3-4 player rooms (M3/M4): create, join a free seat, rematch."""

import random
import secrets
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from ai_worker.engine import COLOR_NAMES, Board, Variant
from games.identity import Player
from games.models import Game, Room, Seat
from games.services import clocks, games, steps
from games.shared.errors import Conflict, Forbidden, NotFound, ServiceError
from games.shared.time_controls import TimeControl, TimeControlError, offered_time_controls


@dataclass(frozen=True)
class SeatSpec:
    """A seat asked for when a room is created: a person, or the CPU at ``level``."""

    kind: str
    level: str = ""


def create_room(
    *,
    player: Player,
    variant: object,
    seats: list[SeatSpec] | None,
    time_control: str | None = None,
    rated: bool = False,
    color: str | None = None,
    from_position: str = "",
) -> Room:
    """M3/M4: a room whose creator takes the first person's seat (or the ``color`` seat, a
    colour or "random"); others join by its URL.

    ``time_control`` (one of ``settings.TIME_CONTROLS``) gives it clocks; a ``rated`` room is
    played between accounts only (no CPU seat, no guest; rooms offer no hint or undo either
    way); ``from_position`` is an OBF position to begin at."""
    seed = steps.new_seed()
    parsed, board = games.starting_board(
        variant=variant, seed=seed, start=from_position, rated=rated
    )
    control = parse_time_control(text=time_control)
    specs = seats if seats else [SeatSpec(Seat.Kind.HUMAN)] * parsed.players
    if len(specs) != parsed.players:
        raise ServiceError("seat_count", field="seats", players=parsed.players, seats=len(specs))
    if all(spec.kind == Seat.Kind.CPU for spec in specs):
        raise ServiceError("no_person_seat", field="seats")
    if rated and any(spec.kind == Seat.Kind.CPU for spec in specs):
        raise ServiceError("rated_needs_people", field="rated")
    if rated:
        require_account(player=player)
    creator = next(index for index, spec in enumerate(specs) if spec.kind == Seat.Kind.HUMAN)
    if color is not None:
        creator = steps.color_index(color=color, players=parsed.players, rng=random.Random(seed))
        if specs[creator].kind != Seat.Kind.HUMAN:
            raise ServiceError("not_a_person_seat", field="color", color=COLOR_NAMES[creator])
    with transaction.atomic():
        game = games.new_game(
            mode=Game.Mode.ROOM,
            variant=parsed,
            seed=seed,
            undo_allowed=False,
            control=control,
            rated=rated,
            start=board,
        )
        for index, spec in enumerate(specs):
            if index == creator:
                games.new_human_seat(game=game, color=index, player=player)
            else:
                Seat.objects.create(game=game, color=index, kind=spec.kind, level=spec.level)
        room = Room.objects.create(
            code=_new_room_code(),
            game=game,
            owner_user_id=player.user_id,
            owner_guest_id=player.guest_id,
        )
        if any(not seat.is_taken for seat in game.seats.all()):
            game.status = Game.Status.WAITING
            steps.commit(
                game=game, board=Board.from_text(game.position), kind="created", fields=["status"]
            )
        else:
            games.start(game=game)
    return room


def join_room(*, player: Player, code: str, color: str | None = None) -> Room:
    """Take a free person's seat (the given colour, or the first free one) in a room."""
    room = Room.objects.filter(code=code).first()
    if room is None:
        raise NotFound("not_found")
    with transaction.atomic():
        game = steps.locked_game(game_id=room.game_id)
        seats = list(game.seats.all())
        if any(player.holds(seat) for seat in seats):
            return room
        if game.rated:
            require_account(player=player)
        free = [seat for seat in seats if not seat.is_taken]
        if color is not None:
            seat = seats[steps.color_index(color=color, players=len(seats))]
            if seat.is_taken:
                raise Conflict("seat_taken", field="color", color=color)
        elif free:
            seat = free[0]
        else:
            raise Conflict("room_full")
        seat.user_id = player.user_id
        seat.guest_id = player.guest_id
        seat.absent_since = timezone.now()
        seat.save(update_fields=["user", "guest_id", "absent_since"])
        if free == [seat]:
            games.start(game=game)
        else:
            steps.commit(game=game, board=Board.from_text(game.position), kind="joined")
    return room


def rematch_room(*, player: Player, code: str) -> tuple[Room, bool]:
    """After a room's game: a new room with the same people, colours rotated by one seat.

    Returns the new room and whether this call created it (a second request gets the same).
    """
    with transaction.atomic():
        room = Room.objects.select_for_update().filter(code=code).first()
        if room is None:
            raise NotFound("not_found")
        game = steps.locked_game(game_id=room.game_id)
        seats = list(game.seats.all())
        if not any(player.holds(seat) for seat in seats):
            raise Forbidden("not_your_seat")
        if room.rematch is not None:
            return room.rematch, False
        if game.status != Game.Status.FINISHED:
            raise ServiceError("game_not_finished")
        new_game = games.new_game(
            mode=Game.Mode.ROOM,
            variant=Variant.from_json(game.variant),
            seed=steps.new_seed(),
            undo_allowed=False,
            control=clocks.time_control(game),
            rated=game.rated,
            start=Board.from_text(game.start_position) if game.start_position else None,
        )
        for seat in seats:
            Seat.objects.create(
                game=new_game,
                color=(seat.color + 1) % len(seats),
                kind=seat.kind,
                level=seat.level,
                user_id=seat.user_id,
                guest_id=seat.guest_id,
                absent_since=timezone.now() if seat.kind == Seat.Kind.HUMAN else None,
            )
        new_room = Room.objects.create(
            code=_new_room_code(),
            game=new_game,
            owner_user_id=room.owner_user_id,
            owner_guest_id=room.owner_guest_id,
        )
        room.rematch = new_room
        room.save(update_fields=["rematch"])
        games.start(game=new_game)
        steps.commit(game=game, board=Board.from_text(game.position), kind="rematch")
    return new_room, True


def parse_time_control(*, text: str | None) -> TimeControl | None:
    """The offered time control written ``text`` (None: untimed); ``bad_time_control`` else."""
    if text is None:
        return None
    try:
        return TimeControl.offered(text)
    except TimeControlError as error:
        raise ServiceError(
            "bad_time_control",
            field="time_control",
            choices=", ".join(offered_time_controls()),
        ) from error


def require_account(*, player: Player) -> None:
    """Rated games are played by accounts: a guest is refused."""
    if player.user_id is None:
        raise Forbidden("rated_needs_account", field="rated")


def _new_room_code() -> str:
    return secrets.token_urlsafe(12)
