"""The JSON form of a game record (``record_to_json`` / ``record_from_json``), the form the API
exports; any variant, any number of players::

    {
      "version": 1,
      "variant": {"players": 2, "board": "8x8", ...},           # Variant.to_json()
      "start": null,                                            # or {"turn", "ply", "rows"}
      "players": [{"color": "black", "name": "ann", "rating": 1500.0},
                  {"color": "white", "name": "bob", "rating": null}],     # or []
      "time_control": {"initial": 300.0, "increment": 2.0, "extension": 0.0},    # or null
      "date": "2026-11-29T14:26:00+00:00",                      # or null (ISO 8601, with zone)
      "site": "reversi.example",                                # or null
      "moves": [{"ply": 0, "color": "black", "move": "f5", "flips": ["e5"],
                 "elapsed": 1.5, "remaining": 298.5, "evaluation": null}, ...],
      "result": {"reason": "end", "winner": "black", "loser": null, "score": 12.0,
                 "discs": {"black": 38, "white": 26}},           # or null
      "transcript": "f5d6c3..."
    }

``start`` is null when the game began at the variant's own start, else the position it began
at: the colour to move, the ply number and the rows as ``Board.rows()`` writes them (``X``
black, ``O`` white, ``R`` red, ``G`` green, ``N`` neutral, ``-`` empty, ``#`` wall, a space off
the octagon). Times are seconds: ``elapsed`` spent on the move, ``remaining`` left on the
mover's clock after it; ``evaluation`` is an engine's score of the move for the mover, in discs.
``result`` is a ``Result``: ``reason`` ``end``, ``resign``, ``timeout`` or ``agreement``;
``winner`` null for a draw; ``loser`` the colour that resigned or ran out of time; ``score``
black's margin (2 players, see ``black_margin``). ``ply``, ``color``, ``flips``, ``discs`` and
``transcript`` are derived: a reader may leave them out, and when present they must agree.
"""

from __future__ import annotations

from dataclasses import fields
from datetime import datetime
from typing import Any

from ai_worker.engine.board import Board
from ai_worker.engine.records.record import (
    GameRecord,
    Player,
    RecordedMove,
    RecordError,
    Result,
    TimeControl,
    optional_number,
    parse_move,
    play_move,
)
from ai_worker.engine.records.transcript import write_transcript
from ai_worker.engine.squares import COLOR_NAMES
from ai_worker.engine.variant import Variant, VariantError

JSON_VERSION = 1
_MOVE_NUMBERS = ("elapsed", "remaining", "evaluation")


def record_to_json(record: GameRecord) -> dict[str, Any]:
    """The JSON form (plain JSON types) described in the module docstring."""
    start = record.start_board()
    control = record.time_control
    return {
        "version": JSON_VERSION,
        "variant": record.variant.to_json(),
        "start": None if record.start is None else _position(start),
        "players": [
            {"color": COLOR_NAMES[colour], "name": player.name, "rating": player.rating}
            for colour, player in enumerate(record.players)
        ],
        "time_control": None
        if control is None
        else {part.name: getattr(control, part.name) for part in fields(TimeControl)},
        "date": None if record.date is None else record.date.isoformat(),
        "site": record.site,
        "moves": _moves(start, record.moves),
        "result": None if record.result is None else _result(record.result, record.board()),
        "transcript": write_transcript(record),
    }


def record_from_json(data: object) -> GameRecord:
    """Read the JSON form; a bad part raises ``RecordError`` whose ``field`` is its path
    (``moves[3].move``, ``result.winner``...)."""
    entry = _object(data, "record")
    _known(entry, "", {"version", "variant", "start", "players", "time_control", "date",
                       "site", "moves", "result", "transcript"})  # fmt: skip
    if entry.get("version", JSON_VERSION) != JSON_VERSION:
        raise RecordError("version", f"only version {JSON_VERSION} is known")
    try:
        variant = Variant.from_json(entry.get("variant", {}))
    except VariantError as error:
        raise RecordError(f"variant.{error.field}", error.message) from None
    start = _read_start(variant, entry.get("start"))
    board = Board(variant) if start is None else Board.from_text(start)
    record = GameRecord(
        variant,
        _read_moves(board, entry.get("moves", [])),
        start,
        _read_players(variant, entry.get("players", [])),
        _read_time_control(entry.get("time_control")),
        _read_date(entry.get("date")),
        _read_site(entry.get("site")),
        _read_result(variant, entry.get("result")),
    )
    written = record_to_json(record)
    if "transcript" in entry and entry["transcript"] != written["transcript"]:
        raise RecordError("transcript", "disagrees with the moves")
    discs = (entry.get("result") or {}).get("discs")
    if discs is not None and discs != written["result"]["discs"]:
        raise RecordError("result.discs", "disagrees with the final position")
    return record


def _position(board: Board) -> dict[str, Any]:
    return {"turn": COLOR_NAMES[board.turn], "ply": board.ply, "rows": board.rows()}


def _moves(board: Board, moves: tuple[RecordedMove, ...]) -> list[dict[str, Any]]:
    written = []
    for recorded in moves:
        written.append(
            {
                "ply": board.ply,
                "color": COLOR_NAMES[board.turn],
                "move": str(recorded.move),
                "flips": [str(square) for square in board.flips_for(recorded.move)],
                **{name: getattr(recorded, name) for name in _MOVE_NUMBERS},
            }
        )
        board.push(recorded.move)
    return written


def _result(result: Result, board: Board) -> dict[str, Any]:
    names = COLOR_NAMES[: board.variant.players]
    return {
        "reason": result.reason,
        "winner": None if result.winner is None else names[result.winner],
        "loser": None if result.loser is None else names[result.loser],
        "score": result.score,
        "discs": dict(zip(names, board.counts(), strict=True)),
    }


def _read_start(variant: Variant, data: object) -> str | None:
    if data is None:
        return None
    entry = _object(data, "start")
    _known(entry, "start.", {"turn", "ply", "rows"})
    turn = _colour(variant, entry.get("turn"), "start.turn")
    ply = entry.get("ply", 0)
    if isinstance(ply, bool) or not isinstance(ply, int) or ply < 0:
        raise RecordError("start.ply", "must be a whole number, 0 or more")
    rows = entry.get("rows")
    if not isinstance(rows, list) or not all(isinstance(row, str) for row in rows):
        raise RecordError("start.rows", "must be a list of strings")
    if turn is None:
        raise RecordError("start.turn", "is missing")
    try:
        return Board.from_rows(variant, rows, turn=turn, ply=ply).to_text()
    except ValueError as error:
        raise RecordError("start.rows", str(error)) from None


def _read_moves(board: Board, data: object) -> tuple[RecordedMove, ...]:
    moves = []
    parts = {"ply", "color", "move", "flips", *_MOVE_NUMBERS}
    for number, (path, entry) in enumerate(_entries(data, "moves", parts), start=1):
        text = entry.get("move")
        if not isinstance(text, str):
            raise RecordError(f"{path}.move", "must be a move like 'f5' or 'pass'")
        move = parse_move(text, number, f"{path}.move")
        derived: dict[str, object] = {"ply": board.ply, "color": COLOR_NAMES[board.turn]}
        if board.is_legal(move):
            derived["flips"] = [str(square) for square in board.flips_for(move)]
        play_move(board, move, number, f"{path}.move")
        for key, expected in derived.items():
            if key in entry and entry[key] != expected:
                raise RecordError(f"{path}.{key}", f"should be {expected!r}")
        numbers = {
            name: optional_number(f"{path}.{name}", entry.get(name)) for name in _MOVE_NUMBERS
        }
        try:
            moves.append(RecordedMove(move, **numbers))
        except RecordError as error:
            raise RecordError(path, error.message) from None
    return tuple(moves)


def _read_players(variant: Variant, data: object) -> tuple[Player, ...]:
    players = []
    for index, (path, entry) in enumerate(_entries(data, "players", {"color", "name", "rating"})):
        if "color" in entry and _colour(variant, entry["color"], f"{path}.color") != index:
            raise RecordError(f"{path}.color", "players are listed in turn order")
        if not isinstance(entry.get("name"), str):
            raise RecordError(f"{path}.name", "must be a string")
        players.append(
            Player(entry["name"], optional_number(f"{path}.rating", entry.get("rating")))
        )
    return tuple(players)


def _read_time_control(data: object) -> TimeControl | None:
    if data is None:
        return None
    entry = _object(data, "time_control")
    names = [part.name for part in fields(TimeControl)]
    _known(entry, "time_control.", set(names))
    if "initial" not in entry:
        raise RecordError("time_control.initial", "is missing")
    values = {}
    for name in names:
        value = optional_number(f"time_control.{name}", entry.get(name))
        if value is not None:
            values[name] = value
    try:
        return TimeControl(**values)
    except RecordError as error:
        raise RecordError("time_control", error.message) from None


def _read_date(data: object) -> datetime | None:
    if data is None:
        return None
    if isinstance(data, str):
        try:
            date = datetime.fromisoformat(data)
        except ValueError:
            pass
        else:
            if date.utcoffset() is not None:
                return date
    raise RecordError("date", "must be an ISO 8601 date and time with a zone, or null")


def _read_site(data: object) -> str | None:
    if data is not None and not isinstance(data, str):
        raise RecordError("site", "must be a string or null")
    return data


def _read_result(variant: Variant, data: object) -> Result | None:
    if data is None:
        return None
    entry = _object(data, "result")
    _known(entry, "result.", {"reason", "winner", "loser", "score", "discs"})
    reason = entry.get("reason")
    if not isinstance(reason, str):
        raise RecordError("result.reason", "must be a string")
    return Result(
        reason,
        _colour(variant, entry.get("winner"), "result.winner"),
        _colour(variant, entry.get("loser"), "result.loser"),
        optional_number("result.score", entry.get("score")),
    )


def _colour(variant: Variant, name: object, path: str) -> int | None:
    names = list(COLOR_NAMES[: variant.players])
    if name is not None and name not in names:
        raise RecordError(path, f"must be one of {', '.join(names)}")
    return None if name is None else names.index(name)


def _entries(data: object, name: str, parts: set[str]) -> list[tuple[str, dict[str, Any]]]:
    """The objects of the JSON list ``name`` with their paths (``moves[3]``), each holding
    only ``parts``."""
    if not isinstance(data, list):
        raise RecordError(name, "must be a list")
    entries = []
    for index, item in enumerate(data):
        path = f"{name}[{index}]"
        entry = _object(item, path)
        _known(entry, f"{path}.", parts)
        entries.append((path, entry))
    return entries


def _object(data: object, path: str) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise RecordError(path, "must be a JSON object")
    return data


def _known(entry: dict[str, Any], prefix: str, names: set[str]) -> None:
    for key in entry:
        if key not in names:
            raise RecordError(f"{prefix}{key}", "is not a part of a game record")
