"""Read-only queries and the game state JSON shared by the API, the websocket and the tasks."""

from dataclasses import dataclass
from datetime import timedelta

from django.db.models import Prefetch, Q, QuerySet
from django.utils import timezone

from ai_worker.engine import COLOR_NAMES, PASS, Board, Outcome, Variant
from ai_worker.levels import HINT_LEVEL
from games.identity import Player
from games.models import Game, Room, Seat

PASS_NOTATION = str(PASS)
SEATS = Prefetch("seats", queryset=Seat.objects.select_related("user"))
CPU_TURN_STALLED_AFTER = timedelta(seconds=60)


def game_group(game_id: int) -> str:
    """The channel-layer group of a game's viewers."""
    return f"game-{game_id}"


def games_of(player: Player | None, *, status: str | None = None) -> QuerySet[Game]:
    """The games where the player holds a seat, most recently changed first (G4)."""
    if player is None:
        return Game.objects.none()
    held = Seat.objects.filter(player.seat_filter).values("game_id")
    games = Game.objects.filter(pk__in=held).prefetch_related(SEATS)
    if status:
        games = games.filter(status=status)
    return games.order_by("-updated_at")


def viewer_colors(game: Game, player: Player | None) -> list[str]:
    """The colour names of the seats the viewer holds (empty for spectators)."""
    if player is None:
        return []
    return [
        COLOR_NAMES[seat.color] for seat in game.seats.filter(player.seat_filter).order_by("color")
    ]


def replays_to_position(game: Game) -> bool:
    """Whether the move record, replayed through the engine, gives the stored position."""
    notations = list(game.moves.order_by("ply").values_list("notation", flat=True))
    if len(notations) != game.ply:
        return False
    board = Board.from_moves(Variant.from_json(game.variant), notations)
    return board.to_text() == Board.from_text(game.position).to_text()


@dataclass(frozen=True)
class SearchJob:
    """What a worker needs to search a game's position for the CPU or a hint."""

    position: str
    board: Board
    level: str
    seed: int


def cpu_job(game_id: int, ply: int) -> SearchJob | None:
    """The CPU's search at ``ply``, or None when that turn is gone (stale or repeated task)."""
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.ACTIVE).first()
    if game is None:
        return None
    board = Board.from_text(game.position)
    seat = game.seats.filter(color=board.turn, kind=Seat.Kind.CPU).first()
    if seat is None:
        return None
    return SearchJob(position=game.position, board=board, level=seat.level, seed=game.seed + ply)


def hint_job(game_id: int, ply: int) -> SearchJob | None:
    """The hint search at ``ply``, or None when no hint is pending there."""
    game = Game.objects.filter(pk=game_id, ply=ply, status=Game.Status.ACTIVE).first()
    if game is None or not game.hint or game.hint["ply"] != ply or game.hint["move"]:
        return None
    board = Board.from_text(game.position)
    return SearchJob(position=game.position, board=board, level=HINT_LEVEL, seed=game.seed + ply)


def stalled_cpu_game_ids() -> list[int]:
    """Active games with a CPU seat whose CPU was last queued ``CPU_TURN_STALLED_AFTER`` ago or
    more (the candidates of ``cpu_turn_stalled``, which decides for each)."""
    queued_long_ago = Q(cpu_queued_at__isnull=True) | Q(
        cpu_queued_at__lt=timezone.now() - CPU_TURN_STALLED_AFTER
    )
    games = Game.objects.filter(
        queued_long_ago, status=Game.Status.ACTIVE, seats__kind=Seat.Kind.CPU
    )
    return list(games.values_list("pk", flat=True).distinct().order_by("pk"))


def cpu_turn_stalled(game: Game) -> bool:
    """Whether the CPU is to move and was last queued longer than ``CPU_TURN_STALLED_AFTER`` ago."""
    if game.cpu_queued_at and timezone.now() - game.cpu_queued_at < CPU_TURN_STALLED_AFTER:
        return False
    return cpu_to_move(game, Board.from_text(game.position))


def cpu_to_move(game: Game, board: Board) -> bool:
    """Whether the game is active and the seat to move in ``board`` is a CPU's."""
    if game.status != Game.Status.ACTIVE:
        return False
    return game.seats.all()[board.turn].kind == Seat.Kind.CPU


def level_to_move(game: Game, board: Board) -> str:
    """The CPU level of the seat to move in ``board`` (on a CPU's turn)."""
    return game.seats.all()[board.turn].level


def outcome_result(board: Board) -> dict:
    """The R7 result of a finished board: discs, empties, tournament count, winner."""
    outcome: Outcome | None = board.outcome()
    assert outcome is not None, "only a finished board has an outcome"
    names = COLOR_NAMES[: len(outcome.discs)]
    return {
        "reason": "end",
        "discs": dict(zip(names, outcome.discs, strict=True)),
        "empties": outcome.empties,
        "tournament": dict(zip(names, outcome.tournament, strict=True)),
        "winner": None if outcome.winner is None else COLOR_NAMES[outcome.winner],
        "draw": outcome.draw,
        "resigned": None,
    }


def resignation_result(board: Board, loser: int) -> dict:
    """The result when ``loser`` resigns: the others are ranked by the variant's own rule (the
    most discs, the fewest in anti-reversi); one leader wins, tied leaders draw (R4, R8)."""
    counts = board.counts()
    names = COLOR_NAMES[: len(counts)]
    others = {color: count for color, count in enumerate(counts) if color != loser}
    leaders = board.variant.leaders(others)
    return {
        "reason": "resign",
        "discs": dict(zip(names, counts, strict=True)),
        "empties": board.empties(),
        "tournament": None,
        "winner": COLOR_NAMES[leaders[0]] if len(leaders) == 1 else None,
        "draw": len(leaders) > 1,
        "resigned": COLOR_NAMES[loser],
    }


def game_state(game: Game, *, board: Board | None = None, viewer: Player | None = None) -> dict:
    """The full state of a game as JSON; ``you`` lists the colours ``viewer`` plays."""
    board = board or Board.from_text(game.position)
    seats = list(game.seats.all())
    record = list(game.moves.order_by("ply").values_list("ply", "notation", "color", "flipped"))
    active = game.status == Game.Status.ACTIVE
    room = (
        Room.objects.select_related("rematch").filter(game=game).first()
        if game.mode == Game.Mode.ROOM
        else None
    )
    counts = board.counts()
    return {
        "id": game.pk,
        "url": f"/room/{room.code}/" if room else f"/play/{game.pk}/",
        "mode": game.mode,
        "variant": game.variant,
        "status": game.status,
        "ply": game.ply,
        "version": game.version,
        "to_move": COLOR_NAMES[board.turn] if active else None,
        "legal_moves": [str(move) for move in board.legal_moves] if active else [],
        "board": board.rows(),
        "discs": dict(zip(COLOR_NAMES[: len(counts)], counts, strict=True)),
        "empties": board.empties(),
        "last_move": _last_move(record),
        "pass_notice": _pass_notice(record),
        "moves": [notation for _, notation, _, _ in record],
        "result": game.result,
        "undo": {"allowed": game.undo_allowed, "used": game.undo_count},
        "hints": {"used": game.hint_count, "current": game.hint},
        "seats": [_seat_state(seat) for seat in seats],
        "you": [COLOR_NAMES[seat.color] for seat in seats if viewer and viewer.holds(seat)],
        "room": _room_state(room),
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
    }


def room_state(room: Room, *, viewer: Player | None = None) -> dict:
    """A room with its game's state (the rooms endpoints' answer)."""
    return {
        "code": room.code,
        "url": f"/room/{room.code}/",
        "state": room.state,
        "rematch": _room_link(room.rematch),
        "game": game_state(room.game, viewer=viewer),
    }


def _room_state(room: Room | None) -> dict | None:
    if room is None:
        return None
    return {"code": room.code, "state": room.state, "rematch": _room_link(room.rematch)}


def _room_link(room: Room | None) -> dict | None:
    return None if room is None else {"code": room.code, "url": f"/room/{room.code}/"}


def _last_move(record: list[tuple]) -> dict | None:
    """G6: the last placed disc (passes are announced by the pass notice instead)."""
    for ply, notation, color, flipped in reversed(record):
        if notation != PASS_NOTATION:
            name = COLOR_NAMES[color]
            count = len(flipped)
            return {
                "ply": ply,
                "color": name,
                "move": notation,
                "flipped": flipped,
                "text": f"{name.capitalize()} {notation}, {count} "
                f"disc{'' if count == 1 else 's'} flipped",
            }
    return None


def _pass_notice(record: list[tuple]) -> dict | None:
    """G5: a player whose latest record entry is a pass (shown until they move again)."""
    latest: dict[int, tuple] = {}
    for entry in record:
        latest[entry[2]] = entry
    passes = [entry for entry in latest.values() if entry[1] == PASS_NOTATION]
    if not passes:
        return None
    ply, _, color, _ = max(passes)
    name = COLOR_NAMES[color]
    return {"ply": ply, "color": name, "text": f"{name.capitalize()} passes: no legal move"}


def _seat_state(seat: Seat) -> dict:
    if seat.kind == Seat.Kind.CPU:
        name = f"CPU ({seat.level})"
    elif seat.user_id is not None:
        name = seat.user.username
    else:
        name = "Guest" if seat.guest_id else None
    return {
        "color": COLOR_NAMES[seat.color],
        "kind": seat.kind,
        "level": seat.level or None,
        "name": name,
        "taken": seat.is_taken,
        "connected": seat.connections > 0,
        "absent_since": seat.absent_since.isoformat() if seat.absent_since else None,
    }
