"""GGF, the Generic Game Format of the Generic Game Server (GGS) and its Othello server ``/os``.

A game is ``(;`` properties ``;)``, each property a name and a bracketed value::

    (;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]
    RB[2197.01]RW[2199.72]TI[05:00//02:00]TY[8]RE[+0.000]
    BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]
    B[d3//0.01]W[c5/-1.50/0.01]...;)

Read and written (``read_ggf`` gives every game of a text, ``write_ggf`` one game):

- ``GM[Othello]``; ``PC`` the place (``GameRecord.site``); ``DT`` the date: written
  ``2026.11.29_14:26:00.UTC`` (to the second, UTC); read in the servers' forms
  ``YYYY.MM.DD_HH:MM:SS.ZONE``, ``YYYY-M-D H:MM[:SS] ZONE`` and seconds since 1970 (a year
  alone is refused), with the zones UTC, GMT, EST, EDT, CST, CDT, MST, MDT, PST, PDT, CET,
  CEST and JST.
- ``PB``/``PW`` the names, ``RB``/``RW`` the ratings of black and white.
- ``TI`` (or an equal ``TB`` and ``TW``) the clock ``initial/increment/extension``, each
  ``[[HH:]MM:]SS`` (an empty part is 0): a ``TimeControl``.
- ``TY`` the game type: the board ``6``, ``8``, ``10`` or ``88`` (the octagon: 10x10 less three
  squares at each corner) and ``a`` for anti-reversi. Read also: ``s`` (synchro: the match's
  two games are read as two games), ``k`` (komi: the ``KB``/``KW``/``KM`` properties are read
  and dropped), ``r<n>`` (a random start of n discs, given by ``BO``) and ``b``/``w`` (a colour
  wish).
- ``BO`` the start: the board type, its squares row by row (``*`` black, ``O`` white, ``-``
  empty; ``X``/``x``, ``o``/``0`` and ``.``/``_`` are read too; spaces between rows are
  optional) and the colour to move (``*`` or ``O``). A
  start that is a variant's own start (cross, parallel, a corner handicap) reads as that
  variant; any other is the record's ``start`` position, at ply 0 since GGF has no ply. When
  writing, a parallel, handicap or random start is a ``BO`` of that position, and a free opening
  starts at the position after its four centre placements (the placements are not GGF moves).
- ``B``/``W`` the moves: a square (any case, up to ``J10``) or ``PA`` (``pass`` is read too),
  then optionally ``/evaluation`` and ``/seconds spent``: ``B[f5/1.25/3.20]``, ``W[d6//0.5]``.
  A pass left out before a move of the other colour is put back when forced.
- ``RE`` the result in black's view: the margin in discs (``+12``, ``-3``, ``0``), then ``:r``
  (resigned), ``:t`` (time out) or ``:s`` (a score agreed); ``?`` or no ``RE`` for no result.
  The margin is ``black_margin``'s (for anti-reversi: positive when black won); a result
  without a score is written as 0 for a draw, else the winner's lead in discs, at least 2.
- ``CO`` (a comment) is read and dropped.

Rejected with a ``RecordError``: other games than Othello, other boards (4x4, 12x12, 14x14),
unknown properties, clocks with move counts (``05:00,10``), different ``TB`` and ``TW``, moves of
the wrong colour, illegal moves (by number), results the moves contradict; for writing, 3-4
players and blocked cells, which GGF cannot express (use the JSON form or a transcript), and
text values holding brackets.
"""

from __future__ import annotations

import re
from dataclasses import replace
from datetime import UTC, datetime, timedelta, timezone
from decimal import Decimal
from typing import Any

from ai_worker.engine.board import Board
from ai_worker.engine.records.record import (
    GameRecord,
    Player,
    RecordedMove,
    RecordError,
    Result,
    TimeControl,
    black_margin,
    board_from_rows,
    optional_number,
    parse_move,
    play_move,
)
from ai_worker.engine.registry import HANDICAP_COLORS, OPENINGS
from ai_worker.engine.squares import BLACK, OFF_BOARD, PASS, WHITE, Move
from ai_worker.engine.variant import Variant, VariantError

BOARD_TYPES = {"6": "6x6", "8": "8x8", "10": "10x10", "88": "octagon"}
_TYPE_OF_BOARD = {board: kind for kind, board in BOARD_TYPES.items()}
_BLACK_CHARS, _WHITE_CHARS, _EMPTY_CHARS = "*Xx", "Oo0", "-._"
_ZONES = {
    "UTC": 0, "GMT": 0, "Z": 0, "EST": -5, "EDT": -4, "CST": -6, "CDT": -5, "MST": -7,
    "MDT": -6, "PST": -8, "PDT": -7, "CET": 1, "CEST": 2, "JST": 9,
}  # fmt: skip
_PROPERTY = re.compile(r"\s*([A-Z]+)\[([^\]]*)\]")
_GAME_END = re.compile(r"\s*;\s*\)")
_TYPE = re.compile(r"(s?)(88|10|8|6|4|12|14)((?:[kabw]|r\d*)*)", re.IGNORECASE)
_RESULT = re.compile(r"([+-]?\d+(?:\.\d*)?)(?::([rts]))?")
_DOTTED_DATE = re.compile(r"(\d{4})\.(\d{1,2})\.(\d{1,2})_(\d{1,2}):(\d{2}):(\d{2})\.([A-Za-z]+)")
_DASHED_DATE = re.compile(
    r"(\d{4})-(\d{1,2})-(\d{1,2})[ T](\d{1,2}):(\d{2})(?::(\d{2}))? ?([A-Za-z]+)"
)
_ENDINGS = {None: "end", "r": "resign", "t": "timeout", "s": "agreement"}
_FLAGS = {reason: flag for flag, reason in _ENDINGS.items()}
_SINGLE = ("GM", "PC", "DT", "PB", "PW", "RB", "RW", "TI", "TB", "TW", "TY", "RE", "BO", "KM")
_KNOWN = (*_SINGLE, "B", "W", "KB", "KW", "CO")


def read_ggf(text: str) -> list[GameRecord]:
    """Every game in ``text`` (a file may hold many, e.g. ``1 (;...;)`` per line or a synchro
    match's two); a bad game raises ``RecordError`` whose message starts with its number."""
    games = []
    position = text.find("(;")
    while position >= 0:
        try:
            properties, position = _properties(text, position + 2)
            games.append(_read_game(properties))
        except RecordError as error:
            raise RecordError(
                error.field,
                f"game {len(games) + 1}: {error.message}",
                code=error.code,
                move_number=error.move_number,
            ) from None
        position = text.find("(;", position)
    if not games:
        raise RecordError("ggf", "no game found: a GGF game is (; ... ;)")
    return games


def write_ggf(record: GameRecord) -> str:
    """The GGF text of a 2-player game on a board GGF knows (see the module docstring)."""
    variant = record.variant
    if variant.players != 2:
        raise RecordError("variant", "GGF holds 2-player games only", code="unsupported")
    if variant.blocked:
        raise RecordError("variant", "GGF has no blocked cells", code="unsupported")
    board = record.start_board()
    moves = list(record.moves)
    while board.in_placement_phase and moves:
        board.push(moves.pop(0).move)
    if board.in_placement_phase:
        raise RecordError(
            "moves",
            "a free opening starts a GGF game once its four centre discs are placed",
            code="unsupported",
        )
    parts = _header(record)
    parts.append(f"BO[{_board_text(board)}]")
    for recorded in moves:
        parts.append(f"{'BW'[board.turn]}[{_move_text(recorded)}]")
        board.push(recorded.move)
    return "(;" + "".join(parts) + ";)"


def _header(record: GameRecord) -> list[str]:
    """The game's properties before the board: type, place, date, players, clock, result."""
    variant = record.variant
    parts = ["GM[Othello]"]
    if record.site is not None:
        parts.append(f"PC[{_text(record.site, 'site')}]")
    if record.date is not None:
        parts.append(f"DT[{record.date.astimezone(UTC):%Y.%m.%d_%H:%M:%S}.UTC]")
    for tag, player in zip(("B", "W"), record.players, strict=False):
        parts.append(f"P{tag}[{_text(player.name, 'players')}]")
    for tag, player in zip(("B", "W"), record.players, strict=False):
        if player.rating is not None:
            parts.append(f"R{tag}[{_number(player.rating)}]")
    if record.time_control is not None:
        parts.append(f"TI[{_clock(record.time_control)}]")
    parts.append(f"TY[{_TYPE_OF_BOARD[variant.board]}{'a' if variant.anti else ''}]")
    if record.result is not None:
        parts.append(f"RE[{_result_text(record.result, record.board())}]")
    return parts


# -- reading ---------------------------------------------------------------------------------


def _read_game(properties: dict[str, list[str]]) -> GameRecord:
    single = {name: values[0] for name, values in properties.items() if name in _SINGLE}
    if single.get("GM", "Othello").strip().lower() != "othello":
        raise RecordError("GM", f"{single['GM']!r} is not Othello")
    board_type, anti, komi = _game_type(single.get("TY"), single.get("BO"))
    if not komi and ("KB" in properties or "KW" in properties or "KM" in single):
        raise RecordError("TY", "komi moves (KB, KW, KM) need a komi game type (k)")
    variant, start = _start(board_type, anti, single.get("BO"))
    board = Board(variant) if start is None else Board.from_text(start)
    return GameRecord(
        variant,
        _moves(board, properties.get("MOVES", [])),
        start,
        _players(single),
        _time_control(single),
        None if "DT" not in single else _date(single["DT"]),
        single.get("PC"),
        None if "RE" not in single else _result(single["RE"]),
    )


def _properties(text: str, position: int) -> tuple[dict[str, list[str]], int]:
    """The property values by name of the game starting at ``position`` (after its ``(;``)
    and where the game ends; ``B`` and ``W`` moves go in order under ``MOVES`` as
    ``"B:value"``."""
    properties: dict[str, list[str]] = {}
    while (end := _GAME_END.match(text, position)) is None:
        found = _PROPERTY.match(text, position)
        if found is None:
            snippet = text[position : position + 12].strip() or "the end of the text"
            raise RecordError("ggf", f"cannot read {snippet!r}: expected a property or ;)")
        name, value = found[1], found[2]
        position = found.end()
        if name not in _KNOWN:
            raise RecordError(name, "is not a GGF property of an Othello game")
        if name in ("B", "W"):
            properties.setdefault("MOVES", []).append(f"{name}:{value}")
        elif name in _SINGLE and name in properties:
            raise RecordError(name, "is given twice")
        else:
            properties.setdefault(name, []).append(value)
    return properties, end.end()


def _game_type(kind: str | None, board_text: str | None) -> tuple[str, bool, bool]:
    """The board, anti-reversi and komi of the ``TY`` (or, without one, of ``BO``)."""
    if kind is None:
        if board_text is None:
            raise RecordError("TY", "a game needs its type (TY) or its board (BO)")
        kind = board_text.split(maxsplit=1)[0] if board_text.strip() else ""
    found = _TYPE.fullmatch(kind.strip())
    if found is None:
        raise RecordError("TY", f"{kind!r} is not a game type like 8, 10, 88, s8r20 or 8a")
    if found[2] not in BOARD_TYPES:
        raise RecordError("TY", f"the {found[2]}x{found[2]} board is not played here",
                          code="unsupported")  # fmt: skip
    options = found[3].lower()
    return BOARD_TYPES[found[2]], "a" in options, "k" in options


def _start(board_type: str, anti: bool, text: str | None) -> tuple[Variant, str | None]:
    """The variant whose own start ``BO`` is, or the plain variant and ``BO`` as its start."""
    base = Variant(board=board_type, anti=anti)
    if text is None:
        return base, None
    parts = text.split()
    if len(parts) < 2:
        raise RecordError("BO", "expected the board type, the squares and the colour to move")
    if BOARD_TYPES.get(parts[0]) != board_type:
        raise RecordError("BO", f"board type {parts[0]!r} differs from the game type")
    turn = _disc(parts[-1], "the colour to move")
    if turn is None:
        raise RecordError("BO", "the colour to move must be * or O")
    squares = "".join(parts[1:-1])
    empty = Board(base)
    cells = [
        Move(col, row)
        for row in range(base.height)
        for col in range(base.width)
        if empty.piece_at(col, row) != OFF_BOARD
    ]
    if len(squares) != len(cells):
        raise RecordError("BO", f"expected {len(cells)} squares, found {len(squares)}")
    grid = [[" "] * base.width for _ in range(base.height)]
    for square, char in zip(cells, squares, strict=True):
        disc = _disc(char, f"square {square}")
        grid[square.row][square.col] = "-" if disc is None else "XO"[disc]
    board = board_from_rows(base, ["".join(line) for line in grid], turn, "BO")
    own = _variant_starting_with(board)
    return (own, None) if own is not None else (base, board.to_text())


def _variant_starting_with(board: Board) -> Variant | None:
    """The 2-player variant of ``board``'s size whose own start ``board`` is (an opening that
    places no disc itself, or a corner handicap), if any."""
    if board.turn != BLACK:
        return None
    options: list[dict[str, Any]] = [
        {"opening": opening.name}
        for opening in OPENINGS.values()
        if 2 in opening.players and not opening.placement
    ]
    options += [
        {"handicap": count, "handicap_color": colour}
        for count in range(1, len(board.variant.board_shape.corners) + 1)
        for colour in HANDICAP_COLORS
    ]
    for settings in options:
        try:
            variant = replace(board.variant, **settings)
        except VariantError:
            continue
        if variant.start_discs() == board.disc_masks:
            return variant
    return None


def _disc(char: str, what: str) -> int | None:
    if char in _BLACK_CHARS:
        return BLACK
    if char in _WHITE_CHARS:
        return WHITE
    if char in _EMPTY_CHARS:
        return None
    raise RecordError("BO", f"{what}: {char!r} is not * (black), O (white) or - (empty)")


def _moves(board: Board, values: list[str]) -> tuple[RecordedMove, ...]:
    moves = []
    for number, entry in enumerate(values, start=1):
        tag, _, value = entry.partition(":")
        notation, *annotations = (part.strip() for part in value.split("/"))
        if len(annotations) > 2:
            raise RecordError(tag, f"move {number}: {value!r} is not move/eval/time",
                              move_number=number)  # fmt: skip
        colour = BLACK if tag == "B" else WHITE
        if colour != board.turn and board.legal_moves == [PASS]:
            board.push(PASS)
            moves.append(RecordedMove(PASS))
        if colour != board.turn:
            raise RecordError(tag, f"move {number} ({notation}) is {tag}, but the other colour "
                              "is to move", code="wrong_colour", move_number=number)  # fmt: skip
        move = PASS if notation.lower() in ("pa", "pass") else parse_move(notation, number, tag)
        play_move(board, move, number, tag)
        evaluation = _float(annotations[0], tag) if annotations else None
        elapsed = _seconds(annotations[1], tag) if len(annotations) > 1 else None
        moves.append(RecordedMove(move, elapsed=elapsed, evaluation=evaluation))
    return tuple(moves)


def _float(text: str, tag: str) -> float | None:
    """The number of a ``RB``/``RW`` rating or of a move's evaluation; empty for none."""
    if not text.strip():
        return None
    try:
        value = float(text)
    except ValueError:
        raise RecordError(tag, f"{text!r} is not a number") from None
    return optional_number(tag, value)


def _players(single: dict[str, str]) -> tuple[Player, ...]:
    if not any(tag in single for tag in ("PB", "PW", "RB", "RW")):
        return ()
    return tuple(
        Player(single.get(f"P{tag}", ""), _float(single.get(f"R{tag}", ""), f"R{tag}"))
        for tag in ("B", "W")
    )


def _time_control(single: dict[str, str]) -> TimeControl | None:
    black, white = single.get("TB"), single.get("TW")
    if black is None and white is None:
        return None if "TI" not in single else _clock_of(single["TI"], "TI")
    if "TI" in single or black is None or white is None:
        raise RecordError("TB", "give TI, or both TB and TW")
    control = _clock_of(black, "TB")
    if control != _clock_of(white, "TW"):
        raise RecordError("TB", "black and white need the same clock", code="unsupported")
    return control


def _clock_of(text: str, tag: str) -> TimeControl:
    parts = text.strip().split("/")
    if len(parts) > 3:
        raise RecordError(tag, f"{text!r} is not initial/increment/extension")
    values = [_seconds(part, tag) or 0.0 for part in parts]
    return TimeControl(*values)


def _seconds(text: str, tag: str) -> float | None:
    """Seconds of ``[[HH:]MM:]SS`` (fractions allowed), ``None`` for an empty text."""
    text = text.strip()
    if not text:
        return None
    if "," in text:
        raise RecordError(tag, f"clocks with move counts ({text!r}) are not supported",
                          code="unsupported")  # fmt: skip
    total = 0.0
    pieces = text.split(":")
    try:
        for piece in pieces[:-1]:
            total = (total + int(piece)) * 60
        total += float(pieces[-1])
    except ValueError:
        raise RecordError(tag, f"{text!r} is not a time like 05:00 or 1.25") from None
    if len(pieces) > 3 or total < 0:
        raise RecordError(tag, f"{text!r} is not a time like 05:00 or 1.25")
    return total


def _date(text: str) -> datetime:
    text = text.strip()
    if text.isdigit() and len(text) >= 9:  # seconds since 1970 (a year alone is 4 digits)
        return datetime.fromtimestamp(int(text), UTC)
    found = _DOTTED_DATE.fullmatch(text) or _DASHED_DATE.fullmatch(text)
    if found is None:
        raise RecordError("DT", f"{text!r} is not a date like 2003.12.15_13:24:03.MST")
    year, month, day, hour, minute, second, zone = found.groups()
    if zone.upper() not in _ZONES:
        raise RecordError("DT", f"the time zone {zone!r} is not known")
    try:
        return datetime(
            int(year),
            int(month),
            int(day),
            int(hour),
            int(minute),
            int(second or 0),
            tzinfo=timezone(timedelta(hours=_ZONES[zone.upper()])),
        )
    except ValueError as error:
        raise RecordError("DT", f"{text!r}: {error}") from None


def _result(text: str) -> Result | None:
    text = text.strip()
    if text == "?":
        return None
    found = _RESULT.fullmatch(text)
    if found is None:
        raise RecordError("RE", f"{text!r} is not a result like +12, -3.00:r or 0")
    score = float(found[1])
    winner = BLACK if score > 0 else WHITE if score < 0 else None
    reason = _ENDINGS[found[2]]
    if reason in ("resign", "timeout"):
        if winner is None:
            raise RecordError("RE", f"a {reason} needs a winner: the score cannot be 0")
        return Result(reason, winner, 1 - winner, score)
    return Result(reason, winner, score=score)


# -- writing ---------------------------------------------------------------------------------


def _text(value: str, part: str) -> str:
    if "[" in value or "]" in value:
        raise RecordError(part, f"{value!r}: GGF text cannot hold [ or ]", code="unsupported")
    return value


def _number(value: float) -> str:
    """A float in plain decimals (no exponent) that reads back as the same float."""
    text = format(Decimal(repr(value)), "f")
    return text[:-2] if text.endswith(".0") else text


def _clock(control: TimeControl) -> str:
    increment = "" if control.increment == 0 else _time(control.increment)
    return f"{_time(control.initial)}/{increment}/{_time(control.extension)}"


def _time(seconds: float) -> str:
    """``[H:]MM:SS`` for whole seconds, plain seconds with a fraction (exact either way)."""
    if seconds != int(seconds):
        return _number(seconds)
    minutes, rest = divmod(int(seconds), 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02d}:{rest:02d}" if hours else f"{minutes:02d}:{rest:02d}"


def _board_text(board: Board) -> str:
    chars = {"X": "*", "O": "O", "-": "-"}
    rows = ["".join(chars[char] for char in row if char != " ") for row in board.rows()]
    return f"{_TYPE_OF_BOARD[board.variant.board]} {' '.join(rows)} {'*O'[board.turn]}"


def _move_text(recorded: RecordedMove) -> str:
    move = "PA" if recorded.move.is_pass else str(recorded.move).upper()
    evaluation = "" if recorded.evaluation is None else _number(recorded.evaluation)
    if recorded.elapsed is not None:
        return f"{move}/{evaluation}/{_number(recorded.elapsed)}"
    return f"{move}/{evaluation}" if evaluation else move


def _result_text(result: Result, board: Board) -> str:
    score = _score(result, board)
    flag = _FLAGS[result.reason]
    return ("+" if score > 0 else "") + _number(score) + (f":{flag}" if flag else "")


def _score(result: Result, board: Board) -> float:
    """The result's score, or for a result without one: 0 for a draw, the final margin at
    the end, else the winner's lead in discs on ``board``, at least 2."""
    if result.score is not None:
        return result.score
    margin = black_margin(board)
    if result.winner is None or margin is None:
        return 0.0
    if result.reason == "end":
        return margin
    side = 1 if result.winner == BLACK else -1
    return side * max(2.0, side * margin)
