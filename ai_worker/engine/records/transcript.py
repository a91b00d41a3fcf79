"""Plain transcripts: the squares played, one after the other (``f5d6c3d3c4``).

Reading is tolerant: any case (``F5 d6 C3``), with or without spaces or commas between moves,
and a pass written ``pass``, ``PA`` or ``--``. With 2 players a forced pass may be left out:
when the side to move must pass and the next move is a square, the pass is put in. Squares go
up to ``j10`` on 10x10 boards (``a10`` is read before ``a1``). Every move is checked against
the rules; a bad one raises ``RecordError`` naming its number (counting the moves as written)
and the engine's reason.

Writing gives the compact form the Othello programs read: lowercase squares, no separators,
and no forced passes except a pass that ends the transcript (written ``pass``), which reading
could not put back. Writing then reading gives the same moves.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from ai_worker.engine.board import Board
from ai_worker.engine.records.record import GameRecord, RecordedMove, RecordError, play_move
from ai_worker.engine.squares import PASS, Move
from ai_worker.engine.variant import Variant

_TOKEN = re.compile(r"[\s,]*(?:(pass|pa|--)|([a-j](?:10|[1-9])))", re.IGNORECASE)
_SEPARATORS = re.compile(r"[\s,]*")


def read_transcript(
    text: str, *, variant: Variant | None = None, start: Board | None = None
) -> GameRecord:
    """The game of ``text`` played from ``start`` (a position, copied) or the start of
    ``variant`` (standard 8x8 reversi by default); illegal moves raise ``RecordError``."""
    board = Board(variant) if start is None else start.copy()
    if start is not None and variant is not None and start.variant != variant:
        raise RecordError("transcript", "the start position is of another variant")
    record = GameRecord.from_board(board)
    first = len(board.move_stack)
    for number, move in enumerate(_moves_of(text), start=1):
        if not move.is_pass and board.legal_moves == [PASS]:
            board.push(PASS)
        play_move(board, move, number, "transcript")
    played = tuple(RecordedMove(move) for move in board.move_stack[first:])
    return GameRecord(record.variant, record.moves + played, record.start)


def write_transcript(moves: GameRecord | Iterable[Move]) -> str:
    """The compact transcript of a record's moves (or of a list of moves)."""
    if isinstance(moves, GameRecord):
        moves = [recorded.move for recorded in moves.moves]
    played = list(moves)
    kept = [move for move in played if not move.is_pass]
    trailing_pass = bool(played) and played[-1].is_pass
    return "".join(str(move) for move in kept) + ("pass" if trailing_pass else "")


def _moves_of(text: str) -> Iterable[Move]:
    position = 0
    while True:
        found = _TOKEN.match(text, position)
        if found is None:
            rest = _SEPARATORS.match(text, position)
            position = rest.end() if rest is not None else position
            if position == len(text):
                return
            raise RecordError(
                "transcript",
                f"{text[position : position + 8]!r} (character {position + 1}) is not a move",
            )
        position = found.end()
        yield PASS if found[1] else Move.from_notation(found[2])
