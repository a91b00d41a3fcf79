"""The JSON shapes the game service answers with: a game's state, a room, a result, an event.

The typed shapes here are the contract: the API's output serializers (and so the OpenAPI schema)
are checked against them (``games.api.serializers``), the websocket sends them, and the page
draws them. Every page address comes from ``page_url`` (``reverse()``).
"""

from collections.abc import Iterable
from datetime import datetime
from typing import Any, Literal, TypedDict

from django.urls import reverse
from django.utils import timezone

from ai_worker.engine import COLOR_NAMES, PASS, Board, Move, Outcome, Variant
from ai_worker.engine.records import opening_name
from games import policy, selectors
from games.identity import Player
from games.models import Challenge, Game, GameReview, PositionAnalysis, Room, Seat, Seek
from games.models import Move as MoveRecord
from games.shared import presence as presence_store
from games.shared.bots import bots_among
from games.shared.ratings import RatingKey, rating_changes_of, rating_of, standings_of
from games.shared.time_controls import TimeControl, speed_of

PASS_NOTATION = str(PASS)


class LastMove(TypedDict):
    ply: int
    color: str
    move: str
    flipped: list[str]
    text: str


class PassNotice(TypedDict):
    ply: int
    color: str
    text: str


class UndoState(TypedDict):
    allowed: bool
    used: int
    colors: list[str]  # the colours with a move of their own to take back


class PendingHint(TypedDict):
    ply: int
    move: str | None
    score: float | None  # expected final disc difference for the side to move
    exact: bool


class HintState(TypedDict):
    allowed: bool
    used: int
    current: PendingHint | None


class MoveValue(TypedDict):
    move: str
    score: float
    exact: bool


class AnalysisState(TypedDict):
    ply: int
    status: str
    to_move: str
    moves: list[MoveValue]
    depth: int
    exact: bool
    requested_at: str
    finished_at: str | None


class SeatRating(TypedDict):
    """A seated account's rating in the game's class (rounded; ``provisional`` while its
    deviation is high) and, once the rated game has finished, how the game changed it."""

    value: int
    provisional: bool
    change: int | None


class SeatState(TypedDict):
    color: str
    kind: str
    level: str | None
    name: str | None
    account: str | None  # the signed-in player's name
    bot: bool  # the account is a bot (shown "BOT")
    rating: SeatRating | None  # an account's; None for the CPU, a guest, an open seat
    taken: bool
    connected: bool
    absent_since: str | None
    takeover_at: str | None


class RoomLink(TypedDict):
    code: str
    url: str


class RoomSummary(TypedDict):
    """A game's room; ``code`` and ``rematch`` (join links) are None for anyone but its seats."""

    code: str | None
    state: str
    rematch: RoomLink | None


ResultReason = Literal["end", "resign", "time", "agreement", "aborted"]


class GameResult(TypedDict):
    reason: ResultReason
    discs: dict[str, int]
    empties: int
    tournament: dict[str, int] | None
    winner: str | None
    draw: bool
    resigned: str | None
    flagged: str | None
    undos: int
    hints: int


class ClockState(TypedDict):
    """A timed game's clocks: each colour's time left when the state was built (``server_time``
    of the state), the one running (the player to move), and when they run out."""

    time_control: str
    speed: str
    remaining_ms: dict[str, int]
    running: str | None
    flag_at: str | None


class DrawState(TypedDict):
    allowed: bool
    offered_by: str | None


class GameState(TypedDict):
    id: str  # the public id, never the primary key
    url: str
    mode: str
    variant: dict[str, Any]
    rated: bool
    status: str
    ply: int
    version: int
    to_move: str | None
    legal_moves: dict[str, list[str]]
    board: list[str]
    discs: dict[str, int]
    empties: int
    last_move: LastMove | None
    pass_notice: PassNotice | None
    moves: list[str]
    result: GameResult | None
    undo: UndoState
    hints: HintState
    seats: list[SeatState]
    you: list[str]
    room: RoomSummary | None
    clock: ClockState | None
    draw: DrawState
    abort_allowed: bool
    spectators: int
    server_time: str
    created_at: str
    updated_at: str


class PresenceEvent(TypedDict):
    """Who is at the board, pushed when a seat or a spectator connects or leaves: the seats and
    the number of spectators only, with the clocks as at its ``server_time`` (what the page
    counts the running clock down from). It bumps no version: ``version`` is the one it was
    read at, so that a viewer drops one older than its state (whose presence is newer)."""

    type: Literal["presence"]
    version: int
    seats: list[SeatState]
    spectators: int
    clock: ClockState | None
    server_time: str


class RoomState(TypedDict):
    code: str
    url: str
    state: str
    rematch: RoomLink | None
    game: GameState


class GameEvent(TypedDict):
    """A change pushed to a game's viewers that carries the whole state (``type``: created,
    started, joined, undo, hint, resign, time, abort, draw_offer, draw_declined, draw, takeover,
    rematch; and ``state`` on connect and on a resync); ``state`` is the game after it."""

    type: str
    ply: int
    version: int
    state: GameState


class MoveEvent(TypedDict):
    """A move pushed to a game's viewers: what changed, not the whole state. ``move`` is the
    placed disc and its flips, ``record`` the notations appended to the game's record from ply
    ``move.ply`` on (the move, then the compulsory passes that followed it); ``clock``, ``draw``
    and ``abort_allowed`` as after the move (it pressed the clock, cleared a draw offer)."""

    type: Literal["move"]
    ply: int
    version: int
    status: str
    move: LastMove
    record: list[str]
    pass_notice: PassNotice | None
    to_move: str | None
    legal_moves: dict[str, list[str]]
    discs: dict[str, int]
    empties: int
    undo: UndoState
    result: GameResult | None
    clock: ClockState | None
    draw: DrawState
    abort_allowed: bool
    server_time: str
    updated_at: str


class SeekState(TypedDict):
    """A seek of the lobby: ``color`` the seeker's; ``mine`` whether the viewer offered it,
    ``seated`` whether they hold a seat in it (the seeker, or at a 3-4 player table someone who
    accepted), and only then ``url``, its room's page, where the game is played."""

    id: str
    variant: dict[str, Any]
    players: int
    open_seats: int
    color: str
    time_control: str | None
    speed: str | None
    rated: bool
    by: str
    rating: int | None
    rating_range: int | None
    created_at: str
    mine: bool
    seated: bool
    url: str | None


class LobbyEvent(TypedDict):
    """The lobby's open seeks, pushed to every lobby viewer after each change; ``accepted``:
    the seek whose game has just started (its seeker's page goes to the game)."""

    type: str
    accepted: str | None
    seeks: list[SeekState]


class ChallengeState(TypedDict):
    """A challenge as one of its two players sees it: ``status`` pending, accepted, declined
    (``decline_reason`` one of ``policy.DECLINE_REASONS``), cancelled or expired; ``url`` the
    room of its game once accepted."""

    id: str
    challenger: str
    challenged: str
    incoming: bool
    variant: dict[str, Any]
    color: str
    time_control: str | None
    speed: str | None
    rated: bool
    status: str
    decline_reason: str | None
    created_at: str
    expires_at: str
    url: str | None


class ChallengeEvent(TypedDict):
    """A change of one of the account's challenges, pushed to its lobby sockets and streams."""

    type: Literal["challenge"]
    challenge: ChallengeState


class AccountGame(TypedDict):
    """One of an account's games as its event stream announces it (issue 14 §6): ``colors`` the
    account's, ``stream`` the address of the game's own stream, ``result`` once finished."""

    id: str
    url: str
    stream: str
    colors: list[str]
    opponents: list[str]
    variant: dict[str, Any]
    rated: bool
    time_control: str | None
    result: GameResult | None


class AccountGameEvent(TypedDict):
    """An account's game has started (``gameStart``) or finished (``gameFinish``)."""

    type: Literal["gameStart", "gameFinish"]
    game: AccountGame


UserEvent = ChallengeEvent | AccountGameEvent


class LiveGame(TypedDict):
    """A game being played now, as the watch page lists it (its own page: anyone may watch)."""

    id: str
    url: str
    variant: dict[str, Any]
    players: list[str]
    time_control: str | None
    rated: bool
    rating: int | None
    ply: int
    spectators: int
    updated_at: str


class OnlineState(TypedDict):
    """Who is online (``selectors.online_players``)."""

    names: list[str]
    accounts: int
    guests: int


class OnlineEvent(TypedDict):
    """Who is online, pushed to the lobby viewers when it changes (``watching.announce_online``)."""

    type: Literal["online"]
    online: OnlineState


class WatchState(TypedDict):
    games: list[LiveGame]
    online: OnlineState


def page_url(game: Game) -> str:
    """The page where ``game``'s seats play it: its room's page, or its own."""
    room = room_of(game)
    return room_url(room) if room else play_url(game.public_id)


def play_url(public_id: str) -> str:
    """A game's own page, by its public id (where anyone may watch it)."""
    return reverse("play", kwargs={"public_id": public_id})


def room_url(room: Room) -> str:
    return reverse("room", kwargs={"code": room.code})


def room_of(game: Game) -> Room | None:
    """The room of a room game (from the cache when the query selected it)."""
    if game.mode != Game.Mode.ROOM:
        return None
    try:
        return game.room
    except Room.DoesNotExist:
        return None


def game_state(
    game: Game,
    *,
    board: Board | None = None,
    viewer: Player | None = None,
    bots: set[int] | None = None,
    ratings: dict[int, SeatRating] | None = None,
) -> GameState:
    """The state of a game as ``viewer`` sees it (``seen_by``): ``you`` lists the colours they
    play, and only a seat learns the room's join link.

    Reads the game's seats, moves and room from the query's cache when it has them (see
    ``games.selectors.games_of``); ``bots``, the bot accounts among its seats, and ``ratings``,
    its seats' ratings (``seat_ratings`` of a list of games), when known.
    """
    state = _seats_state(game, board=board, viewer=viewer, bots=bots, ratings=ratings)
    return seen_by(state, you=state["you"])


def game_states(games: Iterable[Game], *, viewer: Player | None) -> list[GameState]:
    """``game_state`` of each game, the bot accounts and the ratings of their seats looked up
    once for them all."""
    listed = list(games)
    bots = bots_among([seat.user_id for game in listed for seat in game.seats.all()])
    ratings = seat_ratings(listed)
    return [game_state(game, viewer=viewer, bots=bots, ratings=ratings) for game in listed]


def event_state(game: Game, *, board: Board | None = None) -> GameState:
    """The state as the game's seats see it, join link included and ``you`` empty: what an event
    carries to the consumers, which pass it through ``seen_by`` for each viewer."""
    return _seats_state(game, board=board, viewer=None, ratings=None)


def seen_by(state: GameState, *, you: list[str]) -> GameState:
    """``state`` for a viewer who plays the colours ``you``: anyone but a seat gets the game's own
    page instead of its room's and no room code or rematch link (issue 10: a stranger watching a
    game must not be able to join its room)."""
    if you or state["room"] is None:
        return {**state, "you": you}
    room: RoomSummary = {**state["room"], "code": None, "rematch": None}
    return {**state, "you": you, "url": play_url(state["id"]), "room": room}


def _seats_state(
    game: Game,
    *,
    board: Board | None,
    viewer: Player | None,
    bots: set[int] | None = None,
    ratings: dict[int, SeatRating] | None = None,
) -> GameState:
    board = board or Board.from_text(game.position)
    seats = list(game.seats.all())
    record = list(game.moves.all())
    active = game.status == Game.Status.ACTIVE
    room = room_of(game)
    counts = board.counts()
    now = timezone.now()
    return {
        "id": game.public_id,
        "url": page_url(game),
        "mode": game.mode,
        "variant": game.variant,
        "rated": game.rated,
        "status": game.status,
        "ply": game.ply,
        "version": game.version,
        "to_move": COLOR_NAMES[board.turn] if active else None,
        "legal_moves": legal_moves(board) if active else {},
        "board": board.rows(),
        "discs": dict(zip(COLOR_NAMES[: len(counts)], counts, strict=True)),
        "empties": board.empties(),
        "last_move": _last_move(record),
        "pass_notice": _pass_notice(record),
        "moves": [entry.notation for entry in record],
        "result": game.result,
        "undo": {
            "allowed": game.undo_allowed,
            "used": game.undo_count,
            "colors": _colors_with_moves(record),
        },
        "hints": {
            "allowed": policy.hints_allowed(room=game.mode == Game.Mode.ROOM, rated=game.rated),
            "used": game.hint_count,
            "current": _pending_hint(game.hint),
        },
        "seats": seat_states(game, bots=bots, ratings=ratings),
        "you": [COLOR_NAMES[seat.color] for seat in seats if viewer and viewer.holds(seat)],
        "room": _room_summary(room),
        "clock": _clock_state(game, board, now),
        "draw": _draw_state(game, seats),
        "abort_allowed": _abort_allowed(game, seats, record),
        "spectators": presence_store.spectators(game_ids=[game.pk])[game.pk],
        "server_time": now.isoformat(),
        "created_at": game.created_at.isoformat(),
        "updated_at": game.updated_at.isoformat(),
    }


def legal_moves(board: Board) -> dict[str, list[str]]:
    """Each legal move of the player to move with the discs it flips, nearest first (a pass is
    never listed: the services play passes themselves)."""
    return {
        str(move): [str(square) for square in flips]
        for move, flips in board.legal_moves_with_flips().items()
        if not move.is_pass
    }


def room_state(room: Room, *, viewer: Player | None = None) -> RoomState:
    """A room with its game's state as ``viewer`` sees it (the rooms endpoints' answer, to
    someone who has the room's code): the rematch link only for the game's seats."""
    game = game_state(room.game, viewer=viewer)
    return {
        "code": room.code,
        "url": room_url(room),
        "state": room.state,
        "rematch": _room_link(room.rematch) if game["you"] else None,
        "game": game,
    }


def game_event(kind: str, state: GameState) -> GameEvent:
    return {"type": kind, "ply": state["ply"], "version": state["version"], "state": state}


def move_event(game: Game, *, board: Board) -> MoveEvent:
    """The event of the move just stored in ``game`` (its position is ``board``): the move, its
    flips, the passes after it, who moves next with the legal moves, the counts and the version.
    """
    record = list(game.moves.all())
    last = _last_move(record)
    if last is None:
        raise ValueError("a move event needs a placed move")
    active = game.status == Game.Status.ACTIVE
    counts = board.counts()
    seats = list(game.seats.all())
    now = timezone.now()
    return {
        "type": "move",
        "ply": game.ply,
        "version": game.version,
        "status": game.status,
        "move": last,
        "record": [entry.notation for entry in record[last["ply"] :]],
        "pass_notice": _pass_notice(record),
        "to_move": COLOR_NAMES[board.turn] if active else None,
        "legal_moves": legal_moves(board) if active else {},
        "discs": dict(zip(COLOR_NAMES[: len(counts)], counts, strict=True)),
        "empties": board.empties(),
        "undo": {
            "allowed": game.undo_allowed,
            "used": game.undo_count,
            "colors": _colors_with_moves(record),
        },
        "result": game.result,
        "clock": _clock_state(game, board, now),
        "draw": _draw_state(game, seats),
        "abort_allowed": _abort_allowed(game, seats, record),
        "server_time": now.isoformat(),
        "updated_at": game.updated_at.isoformat(),
    }


def seat_views(game: Game) -> dict[str, list[str]]:
    """The colours each holder of a seat plays, by ``viewer_key``: the few distinct views of a
    game's state (every other viewer is a spectator)."""
    views: dict[str, list[str]] = {}
    for seat in game.seats.all():
        key = _holder_key(seat.user_id, seat.guest_id)
        if key:
            views.setdefault(key, []).append(COLOR_NAMES[seat.color])
    return views


def viewer_key(player: Player | None) -> str:
    """The key of ``player`` in ``seat_views`` (empty for nobody)."""
    return "" if player is None else _holder_key(player.user_id, player.guest_id)


def _holder_key(user_id: int | None, guest_id: str) -> str:
    if user_id is not None:
        return f"user:{user_id}"
    return f"guest:{guest_id}" if guest_id else ""


def finished_result(game: Game, outcome: Outcome) -> GameResult:
    """The R7 result of a game that ended on the board: discs, empties, tournament, winner."""
    names = COLOR_NAMES[: len(outcome.discs)]
    return {
        "reason": "end",
        "discs": dict(zip(names, outcome.discs, strict=True)),
        "empties": outcome.empties,
        "tournament": dict(zip(names, outcome.tournament, strict=True)),
        "winner": None if outcome.winner is None else COLOR_NAMES[outcome.winner],
        "draw": outcome.draw,
        "resigned": None,
        "flagged": None,
        "undos": game.undo_count,
        "hints": game.hint_count,
    }


def forfeit_result(
    game: Game, board: Board, loser: int, *, reason: Literal["resign", "time"]
) -> GameResult:
    """The result when ``loser`` resigns or runs out of time (and so loses): the others are
    ranked by the variant's own rule (the most discs, the fewest in anti-reversi); one leader
    wins, tied leaders draw (R4, R8)."""
    counts = board.counts()
    others = {color: count for color, count in enumerate(counts) if color != loser}
    leaders = board.variant.leaders(others)
    return {
        **_unscored_result(game, board, reason),
        "winner": COLOR_NAMES[leaders[0]] if len(leaders) == 1 else None,
        "draw": len(leaders) > 1,
        "resigned": COLOR_NAMES[loser] if reason == "resign" else None,
        "flagged": COLOR_NAMES[loser] if reason == "time" else None,
    }


def agreed_result(
    game: Game, board: Board, *, reason: Literal["agreement", "aborted"]
) -> GameResult:
    """The result of a draw agreed by both players, or of a game aborted (which nobody wins and
    which never counts)."""
    return {**_unscored_result(game, board, reason), "draw": reason == "agreement"}


def _unscored_result(game: Game, board: Board, reason: ResultReason) -> GameResult:
    counts = board.counts()
    return {
        "reason": reason,
        "discs": dict(zip(COLOR_NAMES[: len(counts)], counts, strict=True)),
        "empties": board.empties(),
        "tournament": None,
        "winner": None,
        "draw": False,
        "resigned": None,
        "flagged": None,
        "undos": game.undo_count,
        "hints": game.hint_count,
    }


class QuickPairing(TypedDict):
    """Quick pairing's answer: a game started with someone's seek (``room``'s game), or a seek
    of yours now waits in the lobby (``seek``)."""

    started: bool
    seek: SeekState | None
    room: RoomState


def lobby_seeks(seeks: Iterable[Seek], *, viewer: Player | None) -> list[SeekState]:
    """The open seeks as ``viewer`` sees them (their own with the room's link)."""
    return [_seek_state(seek, viewer) for seek in seeks]


def _seek_state(seek: Seek, viewer: Player | None) -> SeekState:
    room = seek.room
    game = room.game
    seats = list(game.seats.all())
    owner = next(
        (
            seat
            for seat in seats
            if seat.is_taken
            and (seat.user_id, seat.guest_id) == (room.owner_user_id, room.owner_guest_id)
        ),
        None,
    )
    seated = viewer is not None and any(viewer.holds(seat) for seat in seats)
    control = TimeControl.parse(game.time_control) if game.time_control else None
    return {
        "id": seek.public_id,
        "variant": game.variant,
        "players": len(seats),
        "open_seats": sum(not seat.is_taken for seat in seats),
        "color": COLOR_NAMES[owner.color] if owner else "black",
        "time_control": control.name if control else None,
        "speed": control.speed if control else None,
        "rated": game.rated,
        "by": room.owner_user.get_username() if room.owner_user else "Guest",
        "rating": rating_of(room.owner_user_id, speed_of(game.time_control)),
        "rating_range": seek.rating_range,
        "created_at": seek.created_at.isoformat(),
        "mine": seated and owner is not None and viewer is not None and viewer.holds(owner),
        "seated": seated,
        "url": room_url(room) if seated else None,
    }


def challenge_status(challenge: Challenge, now: datetime) -> str:
    """The challenge's status: pending until it expires, then "expired"."""
    if challenge.status == Challenge.Status.PENDING and now >= challenge.expires_at:
        return "expired"
    return challenge.status


def challenge_state(challenge: Challenge, *, viewer_id: int) -> ChallengeState:
    control = TimeControl.parse(challenge.time_control) if challenge.time_control else None
    return {
        "id": challenge.public_id,
        "challenger": challenge.challenger.get_username(),
        "challenged": challenge.challenged.get_username(),
        "incoming": challenge.challenged_id == viewer_id,
        "variant": challenge.variant,
        "color": challenge.color,
        "time_control": control.name if control else None,
        "speed": control.speed if control else None,
        "rated": challenge.rated,
        "status": challenge_status(challenge, timezone.now()),
        "decline_reason": challenge.decline_reason or None,
        "created_at": challenge.created_at.isoformat(),
        "expires_at": challenge.expires_at.isoformat(),
        "url": room_url(challenge.room) if challenge.room else None,
    }


def account_game(game: Game, *, user_id: int) -> AccountGame:
    """``game`` as the account ``user_id`` (one of its seats) sees it in its event stream."""
    seats = list(game.seats.all())
    return {
        "id": game.public_id,
        "url": page_url(game),
        "stream": reverse("api-game-stream", args=[game.public_id]),
        "colors": [COLOR_NAMES[seat.color] for seat in seats if seat.user_id == user_id],
        "opponents": [seat_name(seat) or "Guest" for seat in seats if seat.user_id != user_id],
        "variant": game.variant,
        "rated": game.rated,
        "time_control": game.time_control or None,
        "result": game.result,
    }


def watch_state(
    games: Iterable[tuple[Game, int | None, int]], online: selectors.Online
) -> WatchState:
    """The watch page's answer: the live games (each with its players' mean rating and its
    number of spectators) and who is online."""
    return {
        "games": [live_game(game, rating, watched) for game, rating, watched in games],
        "online": online_state(online),
    }


def online_state(online: selectors.Online) -> OnlineState:
    return {"names": online.names, "accounts": online.accounts, "guests": online.guests}


def live_game(game: Game, rating: int | None, spectators: int) -> LiveGame:
    return {
        "id": game.public_id,
        "url": play_url(game.public_id),
        "variant": game.variant,
        "players": [seat_name(seat) or "Guest" for seat in game.seats.all()],
        "time_control": game.time_control or None,
        "rated": game.rated,
        "rating": rating,
        "ply": game.ply,
        "spectators": spectators,
        "updated_at": game.updated_at.isoformat(),
    }


def seat_name(seat: Seat) -> str | None:
    """How a seat is shown: the CPU and its level, the account's name, a guest, or nobody."""
    if seat.kind == Seat.Kind.CPU:
        return f"CPU ({seat.level})"
    if seat.user_id is not None and seat.user is not None:
        return seat.user.get_username()
    if seat.name:
        return seat.name
    return "Guest" if seat.guest_id else None


def _clock_state(game: Game, board: Board, now: datetime) -> ClockState | None:
    if not game.time_control or game.clock_ms is None:
        return None
    control = TimeControl.parse(game.time_control)
    left = selectors.clock_remaining_ms(game, now) or []
    running = game.status == Game.Status.ACTIVE and game.turn_started_at is not None
    return {
        "time_control": control.name,
        "speed": control.speed,
        "remaining_ms": dict(zip(COLOR_NAMES[: len(left)], left, strict=True)),
        "running": COLOR_NAMES[board.turn] if running else None,
        "flag_at": game.flag_at.isoformat() if game.flag_at else None,
    }


def _draw_state(game: Game, seats: list[Seat]) -> DrawState:
    humans = sum(seat.kind == Seat.Kind.HUMAN for seat in seats)
    allowed = policy.draw_offers_allowed(game.mode, len(seats), humans)
    return {
        "allowed": game.status == Game.Status.ACTIVE and allowed,
        "offered_by": None if game.draw_offer is None else COLOR_NAMES[game.draw_offer],
    }


def _abort_allowed(game: Game, seats: list[Seat], record: list[MoveRecord]) -> bool:
    moved = {entry.color for entry in record if entry.notation != PASS_NOTATION}
    return game.status == Game.Status.ACTIVE and policy.abort_allowed(game.mode, len(seats), moved)


def _pending_hint(hint: dict[str, Any] | None) -> PendingHint | None:
    if hint is None:
        return None
    return {
        "ply": hint["ply"],
        "move": hint["move"],
        "score": hint.get("score"),
        "exact": hint.get("exact", False),
    }


def analysis_state(analysis: PositionAnalysis) -> AnalysisState:
    """An analysis of a game's position: every legal move's value, best first (none while
    pending), for the side to move at that ply."""
    board = Board.from_text(analysis.position)
    return {
        "ply": analysis.ply,
        "status": analysis.status,
        "to_move": COLOR_NAMES[board.turn],
        "moves": analysis.moves,
        "depth": analysis.depth,
        "exact": analysis.exact,
        "requested_at": analysis.requested_at.isoformat(),
        "finished_at": analysis.finished_at.isoformat() if analysis.finished_at else None,
    }


def _room_summary(room: Room | None) -> RoomSummary | None:
    if room is None:
        return None
    return {"code": room.code, "state": room.state, "rematch": _room_link(room.rematch)}


def _room_link(room: Room | None) -> RoomLink | None:
    return None if room is None else {"code": room.code, "url": room_url(room)}


def _last_move(record: list[MoveRecord]) -> LastMove | None:
    """G6: the last placed disc (passes are announced by the pass notice instead)."""
    for entry in reversed(record):
        if entry.notation != PASS_NOTATION:
            name = COLOR_NAMES[entry.color]
            count = len(entry.flipped)
            return {
                "ply": entry.ply,
                "color": name,
                "move": entry.notation,
                "flipped": entry.flipped,
                "text": f"{name.capitalize()} {entry.notation}, {count} "
                f"disc{'' if count == 1 else 's'} flipped",
            }
    return None


def _colors_with_moves(record: list[MoveRecord]) -> list[str]:
    """The colours that placed a disc (what an undo takes back), in turn order."""
    placed = {entry.color for entry in record if entry.notation != PASS_NOTATION}
    return [COLOR_NAMES[color] for color in sorted(placed)]


def _pass_notice(record: list[MoveRecord]) -> PassNotice | None:
    """G5: a player whose latest record entry is a pass (shown until they move again)."""
    latest: dict[int, MoveRecord] = {}
    for entry in record:
        latest[entry.color] = entry
    passes = [entry for entry in latest.values() if entry.notation == PASS_NOTATION]
    if not passes:
        return None
    entry = max(passes, key=lambda candidate: candidate.ply)
    name = COLOR_NAMES[entry.color]
    return {"ply": entry.ply, "color": name, "text": f"{name.capitalize()} passes: no legal move"}


def seat_states(
    game: Game,
    *,
    bots: set[int] | None = None,
    ratings: dict[int, SeatRating] | None = None,
) -> list[SeatState]:
    """The game's seats, with their presence (``games.shared.presence``, one Redis round trip),
    whether their accounts are bots and their ratings (``bots``, ``ratings``: looked up for a
    list the game is in, else read for this game)."""
    seats = list(game.seats.all())
    if bots is None:
        bots = bots_among([seat.user_id for seat in seats])
    takeover = game.status == Game.Status.ACTIVE and game.mode == Game.Mode.ROOM
    seen = presence_store.read(game_id=game.pk, colors=[seat.color for seat in seats])
    ratings = seat_ratings([game]) if ratings is None else ratings
    return [
        _seat_state(
            seat,
            takeover=takeover,
            seen=seen[seat.color],
            bot=seat.user_id in bots,
            rating=ratings.get(seat.pk),
        )
        for seat in seats
    ]


def presence_event(game: Game) -> PresenceEvent:
    """Who is at the board now; ``version`` is the game's as read (a presence change bumps none:
    it is no change of the game)."""
    now = timezone.now()
    return {
        "type": "presence",
        "version": game.version,
        "seats": seat_states(game),
        "spectators": presence_store.spectators(game_ids=[game.pk])[game.pk],
        "clock": _clock_state(game, Board.from_text(game.position), now),
        "server_time": now.isoformat(),
    }


def seat_ratings(games: Iterable[Game]) -> dict[int, SeatRating]:
    """The seated accounts' ratings in the class of each game, by seat id, with the change once
    a rated game has finished: two queries for any number of games (a list's)."""
    games = list(games)
    keys: dict[Seat, RatingKey] = {}
    for game in games:
        seats = list(game.seats.all())
        speed = speed_of(game.time_control)
        for seat in seats:
            if seat.user_id is not None:
                keys[seat] = (seat.user_id, speed, len(seats))
    standings = standings_of(set(keys.values()))
    changes = rating_changes_of([game.pk for game in games if game.status == Game.Status.FINISHED])
    ratings: dict[int, SeatRating] = {}
    for seat, key in keys.items():
        if key in standings:
            ratings[seat.pk] = {
                "value": standings[key].rating,
                "provisional": standings[key].provisional,
                "change": changes.get((seat.game_id, key[0])),
            }
    return ratings


def _seat_state(
    seat: Seat,
    *,
    takeover: bool,
    seen: presence_store.SeatPresence,
    bot: bool,
    rating: SeatRating | None,
) -> SeatState:
    """A seat; ``takeover_at`` (when ``takeover`` applies: an active room) is when the CPU may
    take the seat of its absent player (M3); ``bot``: its account is a bot."""
    person = seat.kind == Seat.Kind.HUMAN and seat.is_taken
    absent_since = presence_store.absence_start(seat.absent_since, seen) if person else None
    return {
        "color": COLOR_NAMES[seat.color],
        "kind": seat.kind,
        "level": seat.level or None,
        "name": seat_name(seat),
        "account": seat.user.get_username() if seat.user_id is not None and seat.user else None,
        "bot": bot,
        "rating": rating,
        "taken": seat.is_taken,
        "connected": seen.connected,
        "absent_since": absent_since.isoformat() if absent_since else None,
        "takeover_at": (
            policy.takeover_allowed_at(absent_since).isoformat()
            if takeover and absent_since
            else None
        ),
    }


class MoveReviewState(TypedDict):
    """One analysed move (``ai_worker.review.MoveReview``) and whether it was a mistake."""

    ply: int
    color: str
    move: str
    best: str
    best_score: float
    score: float
    loss: float
    exact: bool
    depth: int
    mistake: bool


class OpeningState(TypedDict):
    name: str
    moves: int


class ReviewState(TypedDict):
    status: str
    analysed: int
    total: int
    moves: list[MoveReviewState]
    boards: list[list[str]]
    opening: OpeningState | None


OPENING_LANGUAGES = {"ja": "japanese", "ru": "russian"}


def review_state(game: Game, review: GameReview | None, *, language: str) -> ReviewState:
    """A game's review (``status`` ``none`` before one is queued), its mistakes (a loss of
    ``policy.MISTAKE_LOSS`` discs or more) and, for standard 8x8 games, the opening's name in
    ``language`` (a Django language code; English when the table has no name in it)."""
    moves = [_move_review(entry) for entry in (review.moves if review else [])]
    return {
        "status": review.status if review else "none",
        "analysed": len(moves),
        "total": game.ply,
        "moves": moves,
        "boards": _boards(game),
        "opening": _opening(game, language),
    }


def _boards(game: Game) -> list[list[str]]:
    """The board's rows before the first move and after each move (to step through a game)."""
    board = Board.from_text(game.start_position) if game.start_position else None
    board = board or Board(Variant.from_json(game.variant))
    boards = [board.rows()]
    for entry in game.moves.all():
        board.push(Move.from_notation(entry.notation))
        boards.append(board.rows())
    return boards


def _move_review(entry: dict[str, Any]) -> MoveReviewState:
    return {
        "ply": entry["ply"],
        "color": entry["color"],
        "move": entry["move"],
        "best": entry["best"],
        "best_score": entry["best_score"],
        "score": entry["score"],
        "loss": entry["loss"],
        "exact": entry["exact"],
        "depth": entry["depth"],
        "mistake": entry["loss"] >= policy.MISTAKE_LOSS,
    }


def _opening(game: Game, language: str) -> OpeningState | None:
    if game.start_position or Variant.from_json(game.variant) != Variant():
        return None
    notations = [entry.notation for entry in game.moves.all()]
    for table_language in dict.fromkeys([OPENING_LANGUAGES.get(language, "english"), "english"]):
        found = opening_name(notations, table_language)
        if found is not None:
            return {"name": found.name(table_language) or "", "moves": len(found.moves)}
    return None
