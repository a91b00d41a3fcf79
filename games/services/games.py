"""Games versus the CPU and hot-seat games: create, move, undo, resign; and the steps of play
that rooms and CPU turns share (a new game, its start, a recorded move, the end)."""

import random
from dataclasses import dataclass

from django.conf import settings
from django.db import transaction
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
from ai_worker.engine.records import RecordError, read_obf
from games import policy, presenters, selectors
from games.identity import Player
from games.models import Game, Seat
from games.models import Move as MoveRecord
from games.public import FinishedGame, FinishedSeat, game_finished
from games.services import clocks, events, presence, reviews, steps
from games.shared.errors import Conflict, ServiceError
from games.shared.time_controls import TimeControl

# The fields a move (and the passes, the clocks and the end that may follow) changes.
PLAY_FIELDS = ("ply", "position", "status", "result", "hint", "draw_offer", *clocks.CLOCK_FIELDS)
# The fields the end of a game changes.
END_FIELDS = ("status", "result", "hint", "draw_offer", *clocks.CLOCK_FIELDS)


def create_cpu_game(
    *,
    player: Player,
    variant: object,
    level: str,
    color: str,
    undo_allowed: bool,
    rated: bool = False,
    from_position: str = "",
) -> Game:
    """M1: the player takes ``color`` (a colour or "random"); the CPU plays the other seats.

    A ``rated`` game offers neither undo nor hints (asking for undo too is refused).
    ``from_position``: an OBF position to begin at instead of the variant's start (8x8 only).
    """
    if rated and undo_allowed:
        raise ServiceError("rated_no_undo", field="undo")
    seed = steps.new_seed()
    parsed, board = starting_board(variant=variant, seed=seed, start=from_position, rated=rated)
    human = steps.color_index(color=color, players=parsed.players, rng=random.Random(seed))
    with transaction.atomic():
        _refuse_too_many_cpu_games(player=player)
        game = new_game(
            mode=Game.Mode.CPU,
            variant=parsed,
            seed=seed,
            undo_allowed=undo_allowed,
            rated=rated,
            start=board,
        )
        for index in range(parsed.players):
            if index == human:
                new_human_seat(game=game, color=index, player=player)
            else:
                Seat.objects.create(game=game, color=index, kind=Seat.Kind.CPU, level=level)
        start(game=game)
    return game


def _refuse_too_many_cpu_games(*, player: Player) -> None:
    """``Conflict`` when the player has ``settings.CPU_GAMES_IN_PROGRESS_LIMIT`` CPU games in
    progress;
    serialised per player (an advisory lock held to the end of the transaction), so
    concurrent creations cannot all slip through."""
    steps.serialise(purpose="cpu-games", key=player)
    in_progress = Game.objects.filter(
        pk__in=Seat.objects.filter(player.seat_filter).values("game_id"),
        mode=Game.Mode.CPU,
        status=Game.Status.ACTIVE,
        updated_at__gte=timezone.now() - policy.CPU_GAME_IDLE_AFTER,
    ).count()
    limit = settings.CPU_GAMES_IN_PROGRESS_LIMIT
    if in_progress >= limit:
        raise Conflict("too_many_cpu_games", limit=limit)


def create_local_game(
    *, player: Player, variant: object, undo_allowed: bool, rated: bool = False
) -> Game:
    """M2: a hot-seat game; the player holds every seat (so it is never rated)."""
    if rated:
        raise ServiceError("rated_not_available", field="rated")
    seed = steps.new_seed()
    parsed = parse_variant(data=variant, seed=seed)
    with transaction.atomic():
        game = new_game(
            mode=Game.Mode.LOCAL, variant=parsed, seed=seed, undo_allowed=undo_allowed, rated=False
        )
        for index in range(parsed.players):
            new_human_seat(game=game, color=index, player=player)
        start(game=game)
    return game


def starting_board(
    *, variant: object, seed: int, start: str, rated: bool = False
) -> tuple[Variant, Board | None]:
    """The variant and, for a game begun from the OBF position ``start``, its board (an OBF
    position is standard 8x8 reversi, so no other variant goes with it). Such a game is never
    ``rated``: its creator picks the position (one move from a wipe-out, say)."""
    if not start:
        parsed = parse_variant(data=variant, seed=seed)
        refuse_rated_handicap(variant=parsed, rated=rated)
        return parsed, None
    if rated:
        raise ServiceError("rated_from_position", field="start")
    if variant not in ({}, None):
        raise ServiceError("start_with_variant", field="variant")
    try:
        board = read_obf(start)
    except RecordError as error:
        raise ServiceError("bad_record", field="start", detail=error.message) from error
    if board.is_game_over():
        raise ServiceError("start_game_over", field="start")
    return board.variant, board


def refuse_rated_handicap(*, variant: Variant, rated: bool) -> None:
    """Corners given before play are an advantage the ratings know nothing of: a game with a
    handicap is never rated (``rated_handicap``)."""
    if rated and variant.handicap:
        raise ServiceError("rated_handicap", field="variant.handicap")


def parse_variant(*, data: object, seed: int) -> Variant:
    """The engine's variant from API JSON; ``"blocked": n`` (a count) places n random walls."""
    if not isinstance(data, dict):
        raise ServiceError("invalid", field="variant")
    blocked = data.get("blocked")
    try:
        if isinstance(blocked, int) and not isinstance(blocked, bool):
            others = {key: value for key, value in data.items() if key != "blocked"}
            Variant.from_json(others)  # names a bad key before any walls are placed
            return Variant.with_random_blocked(blocked, seed, **others)
        return Variant.from_json(data)
    except VariantError as error:
        field = "variant" if error.field == "variant" else f"variant.{error.field}"
        raise ServiceError(
            "bad_variant", field=field, setting=error.field, detail=error.message
        ) from error


@dataclass(frozen=True)
class PlayedMove:
    """What ``play_move`` did: the game after it, and the move's event as every viewer gets it
    (``presenters.MoveEvent``, serialized once: the request's answer is the same text), or
    ``event`` None when the request repeated a move already played (nothing new to announce)."""

    game: Game
    event: str | None


def play_move(*, player: Player, public_id: str, notation: str, ply: int) -> PlayedMove:
    """A person's move at ``ply`` (the ply their client saw) in the game ``public_id``; passes
    that follow are automatic.

    The same move sent again for a ply it was played at answers the game as it is now; a move
    after the mover's flag is refused (``out_of_time``), and the game ends on time. The flag is
    read from the locked row (no look of its own before the lock: one query less per move)."""
    with transaction.atomic():
        game = steps.locked_game(public_id=public_id)
        flag_fell = clocks.out_of_time(game, timezone.now())
        if not flag_fell:
            mine = steps.colors_of(game=game, player=player)
            require_time_left(game=game)
            steps.require_active(game=game)
            if ply != game.ply:
                if repeats_saved_move(game=game, colors=mine, ply=ply, notation=notation):
                    # A request retried after its answer was lost: it is done.
                    return PlayedMove(game=game, event=None)
                raise Conflict("stale_ply", field="ply", ply=game.ply, sent=ply)
            board = Board.from_text(game.position)
            if board.turn not in mine:
                raise ServiceError("not_your_turn", field="move", color=COLOR_NAMES[board.turn])
            play(game=game, board=board, move=parse_move(notation=notation))
            presence.mark_seen(game=game, player=player)
            message = steps.commit(game=game, board=board, kind="move", fields=PLAY_FIELDS)
            return PlayedMove(game=game, event=message["texts"][events.SPECTATOR])
    # The mover's flag fell: the game ends on time in a transaction of its own (which commits,
    # unlike this refused move), then the move is refused.
    end_if_out_of_time(game_id=game.pk)
    raise time_out_error(game=game)


def undo_move(*, player: Player, game_id: int) -> Game:
    """G1: back to just before the player's last move (and everything after it).

    Versus the CPU this removes the CPU's replies and a pass of the player in between; in a
    hot-seat game, where every seat is the player's, it takes back exactly one move.
    """
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        mine = steps.colors_of(game=game, player=player)
        if game.mode == Game.Mode.ROOM:
            raise ServiceError("undo_not_available")
        if game.rated:
            raise ServiceError("rated_no_undo")
        if not game.undo_allowed:
            raise ServiceError("undo_disabled")
        steps.require_active(game=game)
        notations = list(game.moves.values_list("notation", "color"))
        last_own = [
            index
            for index, (notation, color) in enumerate(notations)
            if color in mine and notation != str(PASS)
        ]
        if not last_own:
            raise ServiceError("nothing_to_undo")
        keep = last_own[-1]
        game.moves.filter(ply__gte=keep).delete()
        board = selectors.board_after(game, [notation for notation, _ in notations[:keep]])
        game.ply = keep
        game.position = board.to_text()
        game.hint = None
        game.undo_count += 1
        steps.commit(
            game=game, board=board, kind="undo", fields=("ply", "position", "hint", "undo_count")
        )
    return game


def resign(*, player: Player, game_id: int) -> Game:
    """G3: the player's seat (the one to move, in a hot-seat game) gives up; the game ends."""
    end_if_out_of_time(game_id=game_id)
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        mine = steps.colors_of(game=game, player=player)
        steps.require_active(game=game)
        board = Board.from_text(game.position)
        loser = board.turn if board.turn in mine else min(mine)
        finish(game=game, result=presenters.forfeit_result(game, board, loser, reason="resign"))
        steps.commit(game=game, board=board, kind="resign", fields=END_FIELDS)
    return game


def end_if_out_of_time(*, game_id: int, ply: int | None = None) -> bool:
    """The server's flag: end the game on time when the player to move has run out (at ``ply``,
    when given: a flag check of a turn since played does nothing). Returns whether it ended.

    A check that arrives before the flag is due (a timer firing early) schedules itself again."""
    if not selectors.flag_due(game_id, ply=ply):
        return False
    with transaction.atomic():
        game = steps.locked_game(game_id=game_id)
        if ply is not None and game.ply != ply:
            return False
        if not clocks.out_of_time(game, timezone.now()):
            clocks.reschedule(game=game)
            return False
        board = Board.from_text(game.position)
        loser = board.turn
        finish(game=game, result=presenters.forfeit_result(game, board, loser, reason="time"))
        game.clock_ms = [
            0 if color == loser else left for color, left in enumerate(game.clock_ms or [])
        ]
        steps.commit(game=game, board=board, kind="time", fields=END_FIELDS)
    return True


def end_overdue_games() -> int:
    """The safety net of lost or far-off flag checks: end on time every active game whose player
    to move has run out; returns how many ended."""
    return sum(end_if_out_of_time(game_id=game_id) for game_id in selectors.overdue_game_ids())


def require_time_left(*, game: Game) -> None:
    """Refuse a move of a game that ended on time, or whose player to move has run out."""
    ended_on_time = game.result is not None and game.result["reason"] == "time"
    if ended_on_time or clocks.out_of_time(game, timezone.now()):
        raise time_out_error(game=game)


def time_out_error(*, game: Game) -> Conflict:
    """The refusal of a move once the flag of the player to move (as ``game`` was read) fell."""
    board = Board.from_text(game.position)
    loser = game.result["flagged"] if game.result else COLOR_NAMES[board.turn]
    return Conflict("out_of_time", field="move", color=loser)


# --- the steps of play shared with rooms and CPU turns ----------------------------------------


def new_game(
    *,
    mode: str,
    variant: Variant,
    seed: int,
    undo_allowed: bool,
    rated: bool = False,
    control: TimeControl | None = None,
    start: Board | None = None,
) -> Game:
    """A new game row (not started) of ``variant`` at its start, or at the position ``start``;
    ``control`` its clocks, if timed."""
    start_position = "" if start is None else start.to_text()
    game = Game(
        mode=mode,
        variant=variant.to_json(),
        position=start_position or Board(variant).to_text(),
        start_position=start_position,
        seed=seed,
        undo_allowed=undo_allowed,
        rated=rated,
    )
    clocks.set_up(game=game, control=control, players=variant.players)
    game.save()
    return game


def new_human_seat(*, game: Game, color: int, player: Player) -> Seat:
    return Seat.objects.create(
        game=game,
        color=color,
        kind=Seat.Kind.HUMAN,
        user_id=player.user_id,
        guest_id=player.guest_id,
        absent_since=timezone.now(),
    )


def start(*, game: Game) -> None:
    """Begin play: passes or the end may already be due (walls, handicap)."""
    game.status = Game.Status.ACTIVE
    events.publish_to_seats(game=game, kind="gameStart")
    board = Board.from_text(game.position)
    settle(game=game, board=board)
    clocks.run(game=game, board=board, now=timezone.now())
    steps.commit(game=game, board=board, kind="started", fields=PLAY_FIELDS)


def repeats_saved_move(*, game: Game, colors: set[int], ply: int, notation: str) -> bool:
    """Whether ``notation`` at ``ply`` is the move one of ``colors`` played there: a retried
    request (the server died before answering, the network dropped the answer) is answered
    as done, never played twice."""
    try:
        move = Move.from_notation(notation)
    except IllegalMoveError:
        return False
    return game.moves.filter(ply=ply, notation=str(move), color__in=colors).exists()


def parse_move(*, notation: str) -> Move:
    try:
        return Move.from_notation(notation)
    except IllegalMoveError as error:
        raise ServiceError(error.code, field="move", move=notation) from error


def play(*, game: Game, board: Board, move: Move) -> None:
    """The player to move plays ``move``: their clock pressed, the move recorded, a draw offer
    of the opponent's declined, the passes and the end that follow, the next clock started."""
    now = timezone.now()
    mover = board.turn
    clocks.press(game=game, color=mover, now=now)
    record(game=game, board=board, move=move)
    if game.draw_offer is not None and game.draw_offer != mover:
        game.draw_offer = None
    settle(game=game, board=board)
    clocks.run(game=game, board=board, now=now)


def record(*, game: Game, board: Board, move: Move) -> None:
    """Check ``move`` with the engine, play it on ``board`` and append it to the record."""
    try:
        board.check_move(move)
    except IllegalMoveError as error:
        raise ServiceError(error.code, field="move", move=str(move)) from error
    color = board.turn
    flipped = [] if move.is_pass else [str(square) for square in board.flips_for(move)]
    board.push(move)
    MoveRecord.objects.create(
        game=game,
        ply=game.ply,
        notation=str(move),
        color=color,
        flipped=flipped,
        clock_ms=game.clock_ms,
    )
    game.ply += 1
    game.position = board.to_text()


def settle(*, game: Game, board: Board) -> None:
    """G5: record the compulsory passes that follow, then end the game if nobody can move."""
    while not board.is_game_over() and board.legal_moves == [PASS]:
        record(game=game, board=board, move=PASS)
    outcome = board.outcome()
    if outcome is not None:
        finish(game=game, result=presenters.finished_result(game, outcome))


def finish(*, game: Game, result: presenters.GameResult) -> None:
    """End the game with ``result`` and tell the other apps (``game_finished``, e.g. ratings);
    an aborted game is told to nobody (it never counts)."""
    clocks.stop(game=game, now=timezone.now())
    game.status = Game.Status.FINISHED
    game.result = result
    game.hint = None
    game.draw_offer = None
    events.publish_to_seats(game=game, kind="gameFinish")
    if result["reason"] == "aborted":
        return
    moved = set(game.moves.exclude(notation=str(PASS)).values_list("color", flat=True))
    seats = tuple(
        FinishedSeat(
            color=COLOR_NAMES[seat.color],
            cpu_level=seat.level if seat.kind == Seat.Kind.CPU else None,
            user_id=seat.user_id,
        )
        for seat in game.seats.all()
    )
    finished = FinishedGame(
        game_id=game.pk,
        hot_seat=game.mode == Game.Mode.LOCAL,
        seats=seats,
        winner=None if result["draw"] else result["winner"],
        reason=result["reason"],
        time_control=game.time_control or None,
        rated=game.rated
        and game.hint_count == 0
        and game.undo_count == 0
        and policy.rated_so_far(seats=[seat.kind for seat in game.seats.all()], moved=moved),
        time_class=policy.time_class(clocks.time_control(game)),
        ranks=finishing_ranks(variant=Variant.from_json(game.variant), result=result),
    )
    game_finished.send(sender=Game, finished=finished)
    reviews.review_finished_game(game=game)


def finishing_ranks(*, variant: Variant, result: presenters.GameResult) -> tuple[int, ...]:
    """Each colour's place (1 first, ties share a place): the winner first, then the others by
    the variant's own count (tournament discs, or discs after a resignation); who resigned
    or ran out of time comes last, whatever their discs; a draw agreed by all shares first place."""
    names = list(result["discs"])
    if result["reason"] == "agreement":
        return (1,) * len(names)
    counts = result["tournament"] or result["discs"]
    forfeited = result["resigned"] or result["flagged"]
    left = {index: counts[name] for index, name in enumerate(names) if name != forfeited}
    ranks = [len(names)] * len(names)
    place = 1
    while left:
        leaders = variant.leaders(left)
        for index in leaders:
            ranks[index] = place
            del left[index]
        place += len(leaders)
    return tuple(ranks)
