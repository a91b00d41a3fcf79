"""Hypothesis strategies of random legal games and records, shared by the record tests."""

from datetime import UTC, datetime, timedelta, timezone

from hypothesis import strategies as st

from ai_worker.engine import Board, Variant
from ai_worker.engine.records import GameRecord, Player, RecordedMove, Result, TimeControl
from ai_worker.engine.records.record import black_margin

# The 2-player variants GGF can express (its board types, anti, and starts it writes as BO).
GGF_VARIANTS = [
    Variant(),
    Variant(board="6x6"),
    Variant(board="10x10"),
    Variant(board="octagon"),
    Variant(anti=True),
    Variant(board="10x10", anti=True),
    Variant(opening="parallel"),
    Variant(handicap=3, handicap_color="white"),
    Variant(handicap=1, anti=True),
]

names = st.text(st.characters(codec="utf-8", exclude_characters="[]"), max_size=12)
seconds = st.floats(min_value=0, max_value=10_000, allow_nan=False, allow_infinity=False)
evaluations = st.floats(min_value=-64, max_value=64, allow_nan=False, allow_infinity=False)
dates = st.datetimes(
    min_value=datetime(1990, 1, 1), max_value=datetime(2100, 1, 1), timezones=st.just(UTC)
).map(lambda date: date.replace(microsecond=0))
# Fixed offsets: a zone like Africa/Cairo has times in its gaps that equal no other datetime.
offsets = st.integers(min_value=-14 * 60, max_value=14 * 60).map(
    lambda minutes: timezone(timedelta(minutes=minutes))
)
whole_seconds = st.integers(min_value=0, max_value=100 * 3600).map(float)


@st.composite
def played_board(draw: st.DrawFn, variant: Variant, *, start_plies: int = 0) -> Board:
    """A board of ``variant`` after random legal moves; ``start_plies`` random moves are made
    first and forgotten, so the game starts from that position (at ply 0)."""
    board = Board(variant)
    choices = draw(st.lists(st.integers(min_value=0, max_value=1 << 16), max_size=130))
    for _ in range(start_plies):
        if board.is_game_over():
            break
        board.push(board.legal_moves[draw(st.integers(0, 1 << 16)) % len(board.legal_moves)])
    if start_plies:
        board = Board.from_rows(variant, board.rows(), turn=board.turn)
    for choice in choices:
        legal = board.legal_moves
        if not legal:
            break
        board.push(legal[choice % len(legal)])
    return board


@st.composite
def results(draw: st.DrawFn, board: Board) -> Result | None:
    """A result that fits ``board``: the real one when it is over, else none, a resignation,
    a time-out or an agreed draw (2 players: with black's margin as the score)."""
    players = board.variant.players
    if board.is_game_over():
        return Result.at_end(board)
    reason = draw(st.sampled_from([None, "resign", "timeout", "agreement"]))
    if reason is None:
        return None
    if reason == "agreement":
        return Result("agreement", None, score=0.0 if players == 2 else None)
    loser = draw(st.integers(0, players - 1))
    if players > 2:
        return Result(reason, draw(st.sampled_from([None, (loser + 1) % players])), loser)
    margin = black_margin(board) or 0.0
    side = 1 if loser == 1 else -1
    return Result(reason, 1 - loser, loser, side * max(2.0, side * margin))


@st.composite
def records(
    draw: st.DrawFn, variants: list[Variant], *, start_plies: int = 0, ggf: bool = False
) -> GameRecord:
    """A record of a random game with random metadata. ``ggf``: only what GGF keeps (dates to
    the second, whole-second clocks, no clock remaining after moves)."""
    variant = draw(st.sampled_from(variants))
    board = draw(played_board(variant, start_plies=start_plies))
    moves = tuple(
        RecordedMove(
            move,
            elapsed=draw(st.none() | seconds),
            remaining=None if ggf else draw(st.none() | seconds),
            evaluation=draw(st.none() | evaluations),
        )
        for move in board.move_stack
    )
    players = draw(
        st.just(())
        | st.tuples(
            *[st.builds(Player, names, st.none() | evaluations) for _ in range(variant.players)]
        )
    )
    clock = whole_seconds if ggf else seconds
    control = draw(st.none() | st.builds(TimeControl, clock, clock, clock))
    zones = st.just(UTC) if ggf else offsets
    date = draw(st.none() | (dates if ggf else st.datetimes(timezones=zones)))
    site = draw(st.none() | names)
    record = GameRecord.from_board(
        board,
        players=players,
        time_control=control,
        date=date,
        site=site,
        result=draw(results(board)),
    )
    return GameRecord(
        record.variant,
        moves,
        record.start,
        record.players,
        record.time_control,
        record.date,
        record.site,
        record.result,
    )
