"""Imported records (issue 14 §4): a transcript or a GGF game stored as a finished game of mode
``imported``, to view, export and analyse (its review only when asked: ``reviews.request_review``).
The engine reads and checks the record; a bad one is refused with the part and the move at
fault."""

import re

from django.db import transaction

from ai_worker.engine.records import GameRecord, RecordError, read_ggf, read_transcript
from games import presenters
from games.models import Game, Seat
from games.services import games, steps
from games.shared.errors import MESSAGES, ServiceError

_MOVE_PREFIX = re.compile(r"move \d+(?: \((?P<move>[^)]*)\))?: ")


def import_record(*, text: str, record_format: str, variant: object = None) -> Game:
    """Store the game of ``text`` (``txt``: a transcript of ``variant``, standard 8x8 by
    default; ``ggf``: the first game of a GGF text) as a finished game, not yet reviewed."""
    record = read_record(text=text, record_format=record_format, variant=variant)
    board = record.start_board()
    with transaction.atomic():
        game = Game.objects.create(
            mode=Game.Mode.IMPORTED,
            variant=record.variant.to_json(),
            position=board.to_text(),
            start_position=record.start or "",
            seed=steps.new_seed(),
            status=Game.Status.FINISHED,
        )
        for color in range(record.variant.players):
            name = record.players[color].name if record.players else ""
            Seat.objects.create(game=game, color=color, kind=Seat.Kind.HUMAN, name=name[:64])
        for recorded in record.moves:
            games.record(game=game, board=board, move=recorded.move)
        game.result = _result(game, record)
        game.save(update_fields=["ply", "position", "result"])
    return game


def read_record(*, text: str, record_format: str, variant: object) -> GameRecord:
    """The record of ``text``; ``bad_record`` (with the move number when a move is at fault)."""
    try:
        if record_format == "ggf":
            found = read_ggf(text)
            if not found:
                raise RecordError("ggf", "no game found: a game is (; properties ;)")
            return found[0]
        parsed = games.parse_variant(data=variant or {}, seed=0) if variant else None
        return read_transcript(text, variant=parsed)
    except RecordError as error:
        if error.move_number is not None:
            raise ServiceError(
                "bad_record_move", field="text", number=error.move_number, detail=_reason(error)
            ) from error
        raise ServiceError("bad_record", field="text", detail=error.message) from error


def _reason(error: RecordError) -> str:
    """Why a move of a record is illegal, in the request's language when the engine's code has
    a message (``f5 is already taken``), else the engine's words without the move's number."""
    found = _MOVE_PREFIX.match(error.message)
    detail = error.message[found.end() :] if found else error.message
    if found and found.group("move") and error.code in MESSAGES:
        return str(MESSAGES[error.code]) % {"move": found.group("move")}
    return detail


def _result(game: Game, record: GameRecord) -> presenters.GameResult | None:
    board = record.board()
    outcome = board.outcome()
    if outcome is not None:
        return presenters.finished_result(game, outcome)
    if record.result is not None and record.result.loser is not None:
        return presenters.forfeit_result(game, board, record.result.loser, reason="resign")
    return None
