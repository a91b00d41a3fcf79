"""The only code that changes games: create, join, move, pass, undo, hint, resign, take over.

Every write runs in ``transaction.atomic`` with the game row locked (``select_for_update``), lets
the engine judge the move, and sends channel-layer events and Celery tasks with
``transaction.on_commit`` so nothing leaves the process before the data is stored.
"""

import random
import secrets
from dataclasses import dataclass
from datetime import timedelta

from asgiref.sync import async_to_sync
from celery import current_app
from channels.layers import get_channel_layer
from django.conf import settings
from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest
from django.utils import timezone

from ai_worker.engine import (
    COLOR_NAMES,
    PASS,
    Board,
    IllegalMoveError,
    Move,
    Variant,
    VariantError,
)
from ai_worker.levels import EASY, HINT_LEVEL, NORMAL, STRONG
from games import selectors
from games.accounts.services import rate_finished_game
from games.errors import ServiceError
from games.identity import GUEST_SESSION_KEY, Player
from games.models import Game, Room, Seat
from games.models import Move as MoveRecord

ABSENCE_BEFORE_TAKEOVER = timedelta(minutes=2)
CPU_MOVE_TASK = "ai_worker.tasks.cpu_move"
HINT_TASK = "ai_worker.tasks.hint"


class GameError(ServiceError):
    """A request the rules or the game's state refuse."""


class NotYourSeatError(GameError):
    status_code = 403


class GameNotFoundError(GameError):
    status_code = 404


class ConflictError(GameError):
    """The request was based on a state that has changed (stale ply, seat already taken)."""

    status_code = 409


@dataclass(frozen=True)
class SeatSpec:
    """A seat asked for when a room is created: a person, or the CPU at ``level``."""

    kind: str
    level: str = ""


# --- creating games ------------------------------------------------------------------------


def create_cpu_game(
    *, player: Player, variant: dict, level: str, color: str, undo_allowed: bool
) -> Game:
    """M1: the player takes ``color`` (a colour or "random"); the CPU plays the other seats."""
    seed = _new_seed()
    parsed = parse_variant(variant, seed=seed)
    human = _color_index(color, parsed.players, rng=random.Random(seed))
    with transaction.atomic():
        game = _new_game(Game.Mode.CPU, parsed, seed=seed, undo_allowed=undo_allowed)
        for index in range(parsed.players):
            if index == human:
                _new_human_seat(game, index, player)
            else:
                Seat.objects.create(game=game, color=index, kind=Seat.Kind.CPU, level=level)
        _start(game)
    return game


def create_local_game(*, player: Player, variant: dict, undo_allowed: bool) -> Game:
    """M2: a hot-seat game; the player holds every seat."""
    seed = _new_seed()
    parsed = parse_variant(variant, seed=seed)
    with transaction.atomic():
        game = _new_game(Game.Mode.LOCAL, parsed, seed=seed, undo_allowed=undo_allowed)
        for index in range(parsed.players):
            _new_human_seat(game, index, player)
        _start(game)
    return game


def create_room(*, player: Player, variant: dict, seats: list[SeatSpec] | None) -> Room:
    """M3/M4: a room whose creator takes the first person's seat; others join by its URL."""
    seed = _new_seed()
    parsed = parse_variant(variant, seed=seed)
    specs = seats if seats else [SeatSpec(Seat.Kind.HUMAN)] * parsed.players
    if len(specs) != parsed.players:
        raise GameError(
            "seat_count",
            f"A {parsed.players}-player game needs {parsed.players} seats, not {len(specs)}.",
            field="seats",
        )
    if all(spec.kind == Seat.Kind.CPU for spec in specs):
        raise GameError("no_person_seat", "A room needs at least one person's seat.", "seats")
    creator_index = next(i for i, spec in enumerate(specs) if spec.kind == Seat.Kind.HUMAN)
    with transaction.atomic():
        game = _new_game(Game.Mode.ROOM, parsed, seed=seed, undo_allowed=False)
        for index, spec in enumerate(specs):
            if index == creator_index:
                _new_human_seat(game, index, player)
            else:
                Seat.objects.create(game=game, color=index, kind=spec.kind, level=spec.level)
        room = Room.objects.create(
            code=_new_room_code(),
            game=game,
            owner_user_id=player.user_id,
            owner_guest_id=player.guest_id,
        )
        if _free_seats(game):
            game.status = Game.Status.WAITING
            _publish(game, "created", Board.from_text(game.position))
        else:
            _start(game)
    return room


def parse_variant(data: dict, *, seed: int) -> Variant:
    """The engine's variant from API JSON; ``"blocked": n`` (a count) places n random walls."""
    if not isinstance(data, dict):
        raise GameError("invalid", "The variant must be a JSON object.", field="variant")
    blocked = data.get("blocked")
    try:
        if isinstance(blocked, int) and not isinstance(blocked, bool):
            others = {key: value for key, value in data.items() if key != "blocked"}
            Variant.from_json(others)  # names a bad key before any walls are placed
            return Variant.with_random_blocked(blocked, seed, **others)
        return Variant.from_json(data)
    except VariantError as error:
        field = "variant" if error.field == "variant" else f"variant.{error.field}"
        raise GameError("bad_variant", error.message, field=field) from error


def _new_game(mode: str, variant: Variant, *, seed: int, undo_allowed: bool) -> Game:
    return Game.objects.create(
        mode=mode,
        variant=variant.to_json(),
        position=Board(variant).to_text(),
        seed=seed,
        undo_allowed=undo_allowed,
    )


def _new_human_seat(game: Game, index: int, player: Player) -> Seat:
    return Seat.objects.create(
        game=game,
        color=index,
        kind=Seat.Kind.HUMAN,
        user_id=player.user_id,
        guest_id=player.guest_id,
        absent_since=timezone.now(),
    )


def _start(game: Game) -> None:
    """Begin play: passes or the end may already be due (walls, handicap)."""
    game.status = Game.Status.ACTIVE
    board = Board.from_text(game.position)
    _settle(game, board)
    _publish(game, "started", board)


def _new_seed() -> int:
    return secrets.randbits(31)


def _new_room_code() -> str:
    return secrets.token_urlsafe(12)


def _color_index(color: str, players: int, *, rng: random.Random | None = None) -> int:
    """The index of a colour name; "random" picks one with ``rng`` where it is allowed."""
    if color == "random" and rng is not None:
        return rng.randrange(players)
    names = COLOR_NAMES[:players]
    if color not in names:
        raise GameError(
            "bad_color",
            f"Choose one of {', '.join(names)} or random for a {players}-player game.",
            field="color",
        )
    return names.index(color)


# --- rooms -----------------------------------------------------------------------------------


def join_room(*, player: Player, code: str, color: str | None = None) -> Room:
    """Take a free person's seat (the given colour, or the first free one) in a room."""
    room = _room(code)
    with transaction.atomic():
        game = _locked_game(room.game_id)
        seats = list(game.seats.all())
        if any(player.holds(seat) for seat in seats):
            return room
        free = [seat for seat in seats if not seat.is_taken]
        if color is not None:
            wanted = _color_index(color, len(seats))
            seat = seats[wanted]
            if seat.is_taken:
                raise ConflictError(
                    "seat_taken", f"The {color} seat is already taken.", field="color"
                )
        elif free:
            seat = free[0]
        else:
            raise ConflictError("room_full", "Every seat of this room is taken.")
        seat.user_id = player.user_id
        seat.guest_id = player.guest_id
        seat.absent_since = timezone.now()
        seat.save(update_fields=["user", "guest_id", "absent_since"])
        if len(free) == 1 and seat in free:
            _start(game)
        else:
            _publish(game, "joined", Board.from_text(game.position))
    return room


def rematch_room(*, player: Player, code: str) -> tuple[Room, bool]:
    """After a room's game: a new room with the same people, colours rotated by one seat.

    Returns the new room and whether this call created it (a second request gets the same).
    """
    with transaction.atomic():
        try:
            room = Room.objects.select_for_update().get(code=code)
        except Room.DoesNotExist as error:
            raise GameNotFoundError("not_found", "No room has this code.") from error
        game = _locked_game(room.game_id)
        seats = list(game.seats.all())
        if not any(player.holds(seat) for seat in seats):
            raise NotYourSeatError("not_your_seat", "Only the room's players can ask a rematch.")
        if room.rematch_id is not None:
            return room.rematch, False
        if game.status != Game.Status.FINISHED:
            raise GameError("game_not_finished", "A rematch starts after the game has ended.")
        variant = Variant.from_json(game.variant)
        new_game = _new_game(Game.Mode.ROOM, variant, seed=_new_seed(), undo_allowed=False)
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
        _start(new_game)
        _publish(game, "rematch", Board.from_text(game.position))
    return new_room, True


def _room(code: str) -> Room:
    try:
        return Room.objects.get(code=code)
    except Room.DoesNotExist as error:
        raise GameNotFoundError("not_found", "No room has this code.") from error


def _free_seats(game: Game) -> list[Seat]:
    return [seat for seat in game.seats.all() if not seat.is_taken]


# --- moves -----------------------------------------------------------------------------------


def play_move(*, player: Player, game_id: int, notation: str, ply: int) -> Game:
    """A person's move at ``ply`` (the ply their client saw); passes that follow are automatic."""
    with transaction.atomic():
        game = _locked_game(game_id)
        mine = _my_colors(game, player)
        _require_active(game)
        if ply != game.ply:
            raise ConflictError(
                "stale_ply",
                f"The game is at ply {game.ply}, not {ply}: reload the game.",
                field="ply",
            )
        board = Board.from_text(game.position)
        if board.turn not in mine:
            raise GameError(
                "not_your_turn", f"It is {COLOR_NAMES[board.turn]}'s turn.", field="move"
            )
        _record(game, board, _parse_move(notation))
        _mark_seen(game, player)
        _settle(game, board)
        _publish(game, "move", board)
    return game


def _mark_seen(game: Game, player: Player) -> None:
    """A move over HTTP is presence too: the 2-minute clock of the player's unconnected seats
    starts again (a websocket clears ``absent_since`` while it is open)."""
    for seat in game.seats.all():
        if player.holds(seat) and seat.connections == 0:
            seat.absent_since = timezone.now()
            seat.save(update_fields=["absent_since"])


def apply_cpu_move(*, game_id: int, ply: int, position: str, notation: str) -> bool:
    """Store the CPU's move searched in ``position`` at ``ply``; stale or repeated does nothing.

    The position guards against an undo followed by other moves back to the same ply.
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        board = Board.from_text(game.position)
        if game.ply != ply or game.position != position or not selectors.cpu_to_move(game, board):
            return False
        _record(game, board, _parse_move(notation))
        _settle(game, board)
        _publish(game, "move", board)
    return True


def _parse_move(notation: str) -> Move:
    try:
        return Move.from_notation(notation)
    except IllegalMoveError as error:
        raise GameError(error.code, error.message, field="move") from error


def _record(game: Game, board: Board, move: Move) -> None:
    """Check ``move`` with the engine, play it on ``board`` and append it to the record."""
    try:
        board.check_move(move)
    except IllegalMoveError as error:
        raise GameError(error.code, error.message, field="move") from error
    color = board.turn
    flipped = [] if move.is_pass else [str(square) for square in board.flips_for(move)]
    board.push(move)
    MoveRecord.objects.create(
        game=game, ply=game.ply, notation=str(move), color=color, flipped=flipped
    )
    game.ply += 1
    game.position = board.to_text()


def _settle(game: Game, board: Board) -> None:
    """G5: record the compulsory passes that follow, then end the game if nobody can move."""
    while not board.is_game_over() and board.legal_moves == [PASS]:
        _record(game, board, PASS)
    if board.is_game_over():
        _finish(game, selectors.outcome_result(board))


def _finish(game: Game, result: dict) -> None:
    game.status = Game.Status.FINISHED
    game.result = result | {"undos": game.undo_count, "hints": game.hint_count}
    game.hint = None
    rate_finished_game(game)


# --- undo, hint, resign ----------------------------------------------------------------------


def undo_move(*, player: Player, game_id: int) -> Game:
    """G1: back to just before the player's last move (and everything after it).

    Versus the CPU this removes the CPU's replies and a pass of the player in between; in a
    hot-seat game, where every seat is the player's, it takes back exactly one move.
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        mine = _my_colors(game, player)
        if game.mode == Game.Mode.ROOM:
            raise GameError("undo_not_available", "Undo is not available in online rooms.")
        if not game.undo_allowed:
            raise GameError("undo_disabled", "Undo was not enabled when this game was set up.")
        _require_active(game)
        notations = list(game.moves.values_list("notation", "color"))
        last_own = [
            index
            for index, (notation, color) in enumerate(notations)
            if color in mine and notation != str(PASS)
        ]
        if not last_own:
            raise GameError("nothing_to_undo", "You have no move to take back.")
        keep = last_own[-1]
        game.moves.filter(ply__gte=keep).delete()
        board = Board.from_moves(
            Variant.from_json(game.variant), [notation for notation, _ in notations[:keep]]
        )
        game.ply = keep
        game.position = board.to_text()
        game.hint = None
        game.undo_count += 1
        _publish(game, "undo", board)
    return game


def request_hint(*, player: Player, game_id: int) -> Game:
    """G2: ask a worker for the strong CPU's move in the current position (once per ply)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        mine = _my_colors(game, player)
        if game.mode == Game.Mode.ROOM:
            raise GameError("hint_not_available", "Hints are not available in online rooms.")
        _require_active(game)
        board = Board.from_text(game.position)
        if board.turn not in mine:
            raise GameError("not_your_turn", f"It is {COLOR_NAMES[board.turn]}'s turn.")
        if game.hint and game.hint["ply"] == game.ply:
            return game
        game.hint = {"ply": game.ply, "move": None}
        game.hint_count += 1
        _send_task(HINT_TASK, game, HINT_LEVEL)
        _publish(game, "hint", board)
    return game


def store_hint(*, game_id: int, ply: int, position: str, notation: str) -> bool:
    """Store the hint searched in ``position`` at ``ply``; stale or repeated does nothing."""
    with transaction.atomic():
        game = _locked_game(game_id)
        pending = game.hint and game.hint["ply"] == ply and not game.hint["move"]
        if game.ply != ply or game.position != position or not pending:
            return False
        game.hint = {"ply": ply, "move": notation}
        _publish(game, "hint", Board.from_text(game.position))
    return True


def resign(*, player: Player, game_id: int) -> Game:
    """G3: the player's seat (the one to move, in a hot-seat game) gives up; the game ends."""
    with transaction.atomic():
        game = _locked_game(game_id)
        mine = _my_colors(game, player)
        _require_active(game)
        board = Board.from_text(game.position)
        loser = board.turn if board.turn in mine else min(mine)
        _finish(game, selectors.resignation_result(board, loser))
        _publish(game, "resign", board)
    return game


# --- presence and CPU takeover ----------------------------------------------------------------


def seat_connected(*, player: Player, game_id: int) -> None:
    """A websocket of the player opened on the game: their seats are present."""
    _change_presence(player, game_id, +1)


def seat_disconnected(*, player: Player, game_id: int) -> None:
    """A websocket of the player closed; with none left their seats count as absent."""
    _change_presence(player, game_id, -1)


def _change_presence(player: Player, game_id: int, delta: int) -> None:
    with transaction.atomic():
        game = _locked_game(game_id)
        seats = [seat for seat in game.seats.all() if player.holds(seat)]
        if not seats:
            return
        for seat in seats:
            seat.connections = max(0, seat.connections + delta)
            seat.absent_since = None if seat.connections else timezone.now()
            seat.save(update_fields=["connections", "absent_since"])
        _publish(game, "presence", Board.from_text(game.position))


def take_over_seat(*, player: Player, game_id: int, color: str, level: str) -> Game:
    """M3: a remaining player hands the seat of someone away for 2 minutes to the CPU."""
    with transaction.atomic():
        game = _locked_game(game_id)
        mine = _my_colors(game, player)
        if game.mode != Game.Mode.ROOM:
            raise GameError("takeover_not_available", "Only room games have absent players.")
        _require_active(game)
        seats = list(game.seats.all())
        seat = seats[_color_index(color, len(seats))]
        if seat.kind != Seat.Kind.HUMAN or seat.color in mine:
            raise GameError(
                "not_an_opponent", f"The {color} seat is not another person's.", field="color"
            )
        if seat.absent_since is None:
            raise GameError("player_present", f"The {color} player is connected.", "color")
        away = timezone.now() - seat.absent_since
        if away < ABSENCE_BEFORE_TAKEOVER:
            raise GameError(
                "player_recently_left",
                f"The {color} player left {int(away.total_seconds())} s ago; the CPU may take "
                f"over after {int(ABSENCE_BEFORE_TAKEOVER.total_seconds())} s.",
                field="color",
            )
        seat.kind = Seat.Kind.CPU
        seat.level = level
        seat.user = None
        seat.guest_id = ""
        seat.connections = 0
        seat.absent_since = None
        seat.save()
        _publish(game, "takeover", Board.from_text(game.position))
    return game


def requeue_stalled_cpu_turn(*, game_id: int) -> bool:
    """Queue the CPU again when its turn has waited too long (a lost task must not stall)."""
    with transaction.atomic():
        game = _locked_game(game_id)
        if not selectors.cpu_turn_stalled(game):
            return False
        game.cpu_queued_at = timezone.now()
        board = Board.from_text(game.position)
        _send_task(CPU_MOVE_TASK, game, selectors.level_to_move(game, board))
        game.save(update_fields=["cpu_queued_at"])
    return True


def requeue_stalled_cpu_turns() -> int:
    """The safety net for lost CPU tasks that nobody's reading of the game has noticed: queue the
    CPU again in every game where its turn has stalled; returns how many were queued."""
    return sum(
        requeue_stalled_cpu_turn(game_id=game_id) for game_id in selectors.stalled_cpu_game_ids()
    )


def claim_guest_games(*, guest_id: str, user_id: int) -> int:
    """A guest who signs up keeps their games (G4): their seats and rooms move to the account."""
    with transaction.atomic():
        Room.objects.filter(owner_guest_id=guest_id).update(
            owner_user_id=user_id, owner_guest_id=""
        )
        return Seat.objects.filter(guest_id=guest_id).update(user_id=user_id, guest_id="")


@receiver(user_logged_in)
def claim_games_on_login(
    sender: object, request: HttpRequest | None, user: object, **kwargs: object
) -> None:
    """A browser that played as a guest and then logs in keeps its games on the account."""
    session = getattr(request, "session", None)
    guest_id = session.pop(GUEST_SESSION_KEY, None) if session is not None else None
    if guest_id:
        claim_guest_games(guest_id=guest_id, user_id=user.pk)  # type: ignore[attr-defined]


# --- shared steps ----------------------------------------------------------------------------


def _locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().prefetch_related(selectors.SEATS).get(pk=game_id)
    except Game.DoesNotExist as error:
        raise GameNotFoundError("not_found", f"There is no game {game_id}.") from error


def _my_colors(game: Game, player: Player) -> set[int]:
    mine = {seat.color for seat in game.seats.all() if player.holds(seat)}
    if not mine:
        raise NotYourSeatError("not_your_seat", "You do not have a seat in this game.")
    return mine


def _require_active(game: Game) -> None:
    if game.status == Game.Status.FINISHED:
        raise GameError("game_over", "The game is over.")
    if game.status == Game.Status.WAITING:
        raise GameError("waiting_for_players", "The game starts when every seat is taken.")


# Redis broker priorities, 0 served first: a quick easy or normal reply never waits in the CPU
# queue behind strong searches of 1.5 s. A game has at most one CPU task in flight, so a strong
# game waits only for the quick tasks already queued, never starves.
TASK_PRIORITY_BY_LEVEL = {EASY: 0, NORMAL: 3, STRONG: 6}


def _send_task(name: str, game: Game, level: str) -> None:
    game_id, ply = game.pk, game.ply
    options = {"queue": settings.CELERY_CPU_QUEUE, "priority": TASK_PRIORITY_BY_LEVEL[level]}
    transaction.on_commit(lambda: current_app.send_task(name, args=(game_id, ply), **options))


def _publish(game: Game, kind: str, board: Board) -> None:
    """Save the game, queue the CPU when it is to move, and push the new state on commit."""
    if selectors.cpu_to_move(game, board):
        game.cpu_queued_at = timezone.now()
        _send_task(CPU_MOVE_TASK, game, selectors.level_to_move(game, board))
    game.version += 1
    game.save()
    event = {
        "type": kind,
        "ply": game.ply,
        "version": game.version,
        "state": selectors.game_state(game, board=board),
    }
    group = selectors.game_group(game.pk)
    transaction.on_commit(
        lambda: async_to_sync(get_channel_layer().group_send)(
            group, {"type": "game.event", "event": event}
        )
    )
