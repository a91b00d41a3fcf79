"""A game's record in the engine's formats (issue 14 §4): the ``GameRecord`` of a stored game,
and its export as a plain transcript, GGF or the JSON form, and an account's games in bulk as
NDJSON streamed a chunk at a time (``ndjson_export``). Reads only; the formats themselves are
the engine's (``ai_worker.engine.records``)."""

import json
from collections.abc import AsyncGenerator
from dataclasses import dataclass
from datetime import datetime

from asgiref.sync import sync_to_async
from django.dispatch import receiver

from ai_worker.engine import COLOR_NAMES, Board, Variant
from ai_worker.engine.records import (
    GameRecord,
    Player,
    RecordedMove,
    RecordError,
    Result,
    TimeControl,
    record_to_json,
    write_ggf,
    write_transcript,
)
from games import presenters, selectors
from games.models import Game
from games.public import game_ratings
from games.shared import time_controls
from games.shared.errors import Conflict, ServiceError
from games.shared.personal_data import personal_data_requested

EXPORT_FORMATS = ("txt", "ggf", "json")


@dataclass(frozen=True)
class Export:
    """An exported record: the text, its media type and the file name to save it as."""

    text: str
    content_type: str
    filename: str


def game_record(game: Game, *, site: str | None = None) -> GameRecord:
    """The record of ``game`` (seats and moves prefetched or not): its variant, start, moves,
    players with the ratings they had when a rated game began, its clock (the seconds left
    on the mover's clock after each move), date, site and result."""
    variant = Variant.from_json(game.variant)
    stored = list(game.moves.all())
    board = selectors.board_after(game, [entry.notation for entry in stored])
    moves = tuple(
        RecordedMove(move, remaining=_seconds_left(entry.clock_ms, entry.color))
        for move, entry in zip(board.move_stack, stored, strict=True)
    )
    ratings = game_ratings(game.pk)
    players = tuple(
        Player(presenters.seat_name(seat) or "-", ratings.get(seat.user_id or 0))
        for seat in game.seats.all()
    )
    return GameRecord(
        variant=variant,
        moves=moves,
        start=game.start_position or None,
        players=players if len(players) == variant.players else (),
        time_control=_time_control(game),
        date=game.created_at,
        site=site,
        result=_result(game, board),
    )


def _time_control(game: Game) -> TimeControl | None:
    """The record's clock: seconds each and added per move (correspondence, days per move
    with the allowance renewed, has no such form: none)."""
    if not game.time_control:
        return None
    control = time_controls.TimeControl.parse(game.time_control)
    if control.correspondence:
        return None
    return TimeControl(control.initial_ms / 1000, control.increment_ms / 1000)


def _seconds_left(clock_ms: list[int] | None, color: int) -> float | None:
    return None if not clock_ms else clock_ms[color] / 1000


def export(game: Game, export_format: str, *, site: str | None = None) -> Export:
    """A finished game as ``txt``, ``ggf`` or ``json``; a format the variant cannot be written
    in (GGF with 3-4 players or walls) is a clear 400."""
    if game.status != Game.Status.FINISHED:
        raise Conflict("export_not_finished")
    record = game_record(game, site=site)
    name = f"reversi-{game.public_id}.{export_format}"
    try:
        if export_format == "ggf":
            return Export(write_ggf(record), "application/x-ggf; charset=utf-8", name)
    except RecordError as error:
        raise ServiceError("export_unsupported", field="format", detail=error.message) from error
    if export_format == "json":
        text = json.dumps(record_json(game, record), ensure_ascii=False, indent=1)
        return Export(text, "application/json", name)
    return Export(write_transcript(record) + "\n", "text/plain; charset=utf-8", name)


def record_json(game: Game, record: GameRecord) -> dict[str, object]:
    """The JSON form of the record, with the game's public id and rated flag."""
    return {"id": game.public_id, "rated": game.rated, **record_to_json(record)}


EXPORT_CHUNK_GAMES = 50  # the games a bulk export reads and writes at a time (its memory)
ExportKey = tuple[datetime, int]  # where a bulk export goes on from: a game's (created_at, pk)


def ndjson_chunk(
    user_id: int, *, after: ExportKey | None, site: str | None
) -> tuple[bytes, ExportKey | None]:
    """The NDJSON lines (one JSON record a line) of the account's next ``EXPORT_CHUNK_GAMES``
    finished games after ``after``, and the key to go on from (None: there are no more)."""
    chunk = list(selectors.finished_games_of_user(user_id, after=after)[:EXPORT_CHUNK_GAMES])
    lines = (
        json.dumps(record_json(game, game_record(game, site=site)), ensure_ascii=False) + "\n"
        for game in chunk
    )
    more = len(chunk) == EXPORT_CHUNK_GAMES
    return "".join(lines).encode(), (chunk[-1].created_at, chunk[-1].pk) if more else None


async def ndjson_export(user_id: int, *, site: str | None) -> AsyncGenerator[bytes]:
    """Every finished game of the account as NDJSON, oldest first, a chunk of games at a time:
    an ASGI server sends each chunk as it is read (a synchronous iterator would be read whole
    first), and holds no more than one in memory. The reads run off the event loop in the
    request's thread (``sync_to_async``)."""
    after: ExportKey | None = None
    while True:
        text, after = await sync_to_async(ndjson_chunk)(user_id, after=after, site=site)
        if text:
            yield text
        if after is None:
            return


@receiver(personal_data_requested)
def games_of_account(sender: object, user_id: int, **kwargs: object) -> dict[str, object]:
    """The account's finished games, oldest first, each with its record and the colours the
    account played (its data download, issue 14 §7)."""
    games = selectors.finished_games_of_user(user_id).iterator(chunk_size=100)
    return {
        "games": [
            {
                **record_json(game, game_record(game)),
                "colors": [
                    COLOR_NAMES[seat.color] for seat in game.seats.all() if seat.user_id == user_id
                ],
            }
            for game in games
        ]
    }


def _result(game: Game, board: Board) -> Result | None:
    """The record's result: none for an unfinished or aborted game (it has no result)."""
    result = game.result
    if game.status != Game.Status.FINISHED or not result or result["reason"] == "aborted":
        return None
    if result["reason"] == "end":
        return Result.at_end(board)
    winner = None if result["winner"] is None else COLOR_NAMES.index(result["winner"])
    if result["reason"] == "agreement":
        return Result("agreement", winner)
    if result["reason"] == "time":
        return Result("timeout", winner, loser=COLOR_NAMES.index(result["flagged"]))
    return Result(result["reason"], winner, loser=COLOR_NAMES.index(result["resigned"]))
