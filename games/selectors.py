"""Read-only queries of games, rooms and CPU turns (output is built by ``games.presenters``)."""

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef, Prefetch, Q, QuerySet
from django.utils import timezone

from ai_worker.engine import Board, Move, Variant
from ai_worker.levels import HINT_LEVEL
from games.identity import Player
from games.models import Challenge, Game, GameReview, PositionAnalysis, Room, Seat, Seek
from games.policy import CPU_TURN_STALLED_AFTER, QUEUED_SEARCHES_PER_PLAYER
from games.shared import presence as presence_store
from games.shared.errors import NotFound
from games.shared.ids import is_public_id
from games.shared.ratings import rating_of
from games.shared.time_controls import speed_of

SEATS = Prefetch("seats", queryset=Seat.objects.select_related("user"))


def game_pk(public_id: str) -> int:
    """The primary key of the game whose public id is ``public_id``; ``NotFound`` when there is
    none, whether the id is malformed (never queried) or names no game."""
    found = (
        Game.objects.filter(public_id=public_id).values_list("pk", flat=True).first()
        if is_public_id(public_id)
        else None
    )
    if found is None:
        raise NotFound("not_found")
    return found


def game(game_id: int) -> Game:
    """The game ``game_id`` with its seats; ``NotFound`` when there is none."""
    found = Game.objects.prefetch_related(SEATS).filter(pk=game_id).first()
    if found is None:
        raise NotFound("not_found")
    return found


def finished_games_of_user(
    user_id: int, *, after: tuple[datetime, int] | None = None
) -> QuerySet[Game]:
    """The account's finished games, oldest first (by ``(created_at, pk)``; those after
    ``after`` in that order), with their seats and moves."""
    held = Seat.objects.filter(user_id=user_id).values("game_id")
    games = Game.objects.filter(pk__in=held, status=Game.Status.FINISHED)
    if after is not None:
        created_at, pk = after
        games = games.filter(Q(created_at__gt=created_at) | Q(created_at=created_at, pk__gt=pk))
    return games.prefetch_related(SEATS, "moves").order_by("created_at", "pk")


def room(code: str) -> Room:
    """The room of ``code`` with its game and seats; ``NotFound`` when there is none."""
    rooms = Room.objects.select_related("game", "rematch").prefetch_related("game__seats__user")
    found = rooms.filter(code=code).first()
    if found is None:
        raise NotFound("not_found")
    return found


def games_of(player: Player | None, *, status: str | None = None) -> QuerySet[Game]:
    """The games where the player holds a seat, most recently changed first (G4), with all
    that ``games.presenters.game_state`` reads (a fixed number of queries for any count)."""
    if player is None:
        return Game.objects.none()
    held = Seat.objects.filter(player.seat_filter).values("game_id")
    games = (
        Game.objects.filter(pk__in=held)
        .select_related("room__rematch")
        .prefetch_related(SEATS, "moves")
    )
    if status:
        games = games.filter(status=status)
    return games.order_by("-updated_at")


def open_seeks() -> QuerySet[Seek]:
    """The seeks in the lobby (their game waiting for players), oldest first, with what
    ``games.presenters.lobby_seeks`` reads."""
    return (
        Seek.objects.filter(room__game__status=Game.Status.WAITING)
        .select_related("room__game", "room__owner_user")
        .prefetch_related(Prefetch("room__game__seats", queryset=Seat.objects.all()))
        .order_by("created_at")
    )


def matching_seeks(player: Player, *, time_control: str | None, rated: bool) -> list[Seek]:
    """Open seeks of the standard game (8x8, 2 players) from others with this time control and
    rating kind (quick pairing's candidates), oldest first."""
    seeks = open_seeks().filter(
        room__game__time_control=time_control or "",
        room__game__rated=rated,
        room__game__variant=Variant().to_json(),
    )
    mine = Seat.objects.filter(player.seat_filter).values("game_id")
    return list(seeks.exclude(room__game__in=mine))


def challenges_of(user_id: int, *, limit: int) -> QuerySet[Challenge]:
    """The account's latest challenges, sent and received, newest first."""
    return (
        Challenge.objects.filter(Q(challenger_id=user_id) | Q(challenged_id=user_id))
        .select_related("challenger", "challenged", "room")
        .order_by("-created_at")[:limit]
    )


def pending_challenges_of(user_id: int) -> QuerySet[Challenge]:
    """The account's challenges, sent and received, still waiting for an answer, oldest first."""
    return (
        Challenge.objects.filter(Q(challenger_id=user_id) | Q(challenged_id=user_id))
        .filter(status=Challenge.Status.PENDING, expires_at__gt=timezone.now())
        .select_related("challenger", "challenged", "room")
        .order_by("created_at")
    )


LIVE_GAME_CANDIDATES = 200


def live_games(*, limit: int) -> list[tuple[Game, int | None, int]]:
    """Games between people being played now (every seat taken, no CPU) that began in public,
    from a lobby seek or a challenge (a friend room is an invitation: only those who hold its
    link watch it), with their players' mean rating and their number of spectators: rated games
    first, then the highest rated, the most watched, the latest move; with what
    ``presenters.live_game`` reads."""
    with_cpu = Seat.objects.filter(kind=Seat.Kind.CPU).values("game_id")
    candidates = (
        Game.objects.filter(status=Game.Status.ACTIVE, mode=Game.Mode.ROOM)
        .filter(Q(room__seek__isnull=False) | Q(room__challenge__isnull=False))
        .exclude(pk__in=with_cpu)
        .prefetch_related(SEATS)
        .order_by("-rated", "-updated_at")[:LIVE_GAME_CANDIDATES]
    )
    watched = presence_store.spectators(game_ids=[game.pk for game in candidates])
    listed = [(game, mean_rating(game), watched[game.pk]) for game in candidates]
    listed.sort(key=lambda entry: (entry[0].rated, entry[1] or 0, entry[2]), reverse=True)
    return listed[:limit]


def mean_rating(game: Game) -> int | None:
    """The mean rating of the game's players in its speed class (None when one has none)."""
    speed = speed_of(game.time_control)
    ratings = [rating_of(seat.user_id, speed) for seat in game.seats.all()]
    known = [rating for rating in ratings if rating is not None]
    return round(sum(known) / len(known)) if known and len(known) == len(ratings) else None


ONLINE_NAMES_SHOWN = 50


@dataclass(frozen=True)
class Online:
    """Who is online: the first ``ONLINE_NAMES_SHOWN`` accounts' names (alphabetical), how many
    accounts, and how many people without one (guests, visitors)."""

    names: list[str]
    accounts: int
    guests: int


def online_players() -> Online:
    """Everyone connected now (a lobby or game socket, an API stream: ``games.shared.presence``),
    each person once: the signed-in accounts by name, the others counted."""
    viewers = presence_store.online_viewers()
    user_ids = [int(key) for kind, _, key in (v.partition(":") for v in viewers) if kind == "user"]
    users = get_user_model().objects.filter(pk__in=user_ids, is_active=True)
    names = sorted(users.values_list("username", flat=True))
    # An account deleted or deactivated while its socket lives counts no more, as name or guest.
    return Online(names[:ONLINE_NAMES_SHOWN], len(names), len(viewers) - len(user_ids))


def board_after(game: Game, notations: Iterable[str]) -> Board:
    """The board after ``notations`` from where the game began (its variant's start, or the
    position it was started from), with those moves on its move stack."""
    if game.start_position:
        board = Board.from_text(game.start_position)
    else:
        board = Board(Variant.from_json(game.variant))
    for notation in notations:
        board.push(Move.from_notation(notation))
    return board


def replays_to_position(game: Game) -> bool:
    """Whether the move record, replayed through the engine, gives the stored position."""
    notations = list(game.moves.order_by("ply").values_list("notation", flat=True))
    if len(notations) != game.ply:
        return False
    return board_after(game, notations).to_text() == Board.from_text(game.position).to_text()


@dataclass(frozen=True)
class SearchJob:
    """What a worker needs to search a game's position for the CPU or a hint."""

    position: str
    board: Board
    level: str
    seed: int


def cpu_job(game_id: int, ply: int) -> SearchJob | None:
    """The CPU's search at ``ply``, or None when that turn is gone (stale or repeated task).
    One query: the game's CPU seats with the game."""
    seats = list(
        Seat.objects.select_related("game").filter(
            game_id=game_id, game__ply=ply, game__status=Game.Status.ACTIVE, kind=Seat.Kind.CPU
        )
    )
    if not seats:
        return None
    game = seats[0].game
    board = Board.from_text(game.position)
    seat = next((seat for seat in seats if seat.color == board.turn), None)
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


def clock_remaining_ms(game: Game, now: datetime) -> list[int] | None:
    """Each colour's time left at ``now`` (the player to move's clock running), or None when the
    game is untimed."""
    if game.clock_ms is None:
        return None
    clocks = list(game.clock_ms)
    if game.turn_started_at is not None and game.status == Game.Status.ACTIVE:
        turn = Board.from_text(game.position).turn
        spent = max(0, round((now - game.turn_started_at).total_seconds() * 1000))
        clocks[turn] = max(0, clocks[turn] - spent)
    return clocks


def flag_due(game_id: int, *, ply: int | None = None) -> bool:
    """The cheap look before ``games.services.games.end_if_out_of_time`` locks the row: whether
    the active game's player to move has run out of time by now or, for the flag check of
    ``ply``, whether that turn is still on its clock."""
    games = Game.objects.filter(pk=game_id, status=Game.Status.ACTIVE, flag_at__isnull=False)
    if ply is None:
        return games.filter(flag_at__lte=timezone.now()).exists()
    return games.filter(ply=ply).exists()


def overdue_game_ids() -> list[int]:
    """Active games whose player to move has run out of time by now."""
    games = Game.objects.filter(status=Game.Status.ACTIVE, flag_at__lte=timezone.now())
    return list(games.values_list("pk", flat=True).order_by("flag_at"))


def board_at(game: Game, ply: int) -> Board:
    """The position of ``game`` after its first ``ply`` moves (0 <= ``ply`` <= ``game.ply``)."""
    if ply == game.ply:
        return Board.from_text(game.position)
    played = game.moves.filter(ply__lt=ply).order_by("ply").values_list("notation", flat=True)
    return board_after(game, played)


def analysis(game_id: int, ply: int) -> PositionAnalysis:
    """The analysis of ``game_id`` at ``ply``; ``NotFound`` when none was asked for."""
    found = PositionAnalysis.objects.filter(game_id=game_id, ply=ply).first()
    if found is None:
        raise NotFound("not_found")
    return found


def analysis_job(analysis_id: int) -> PositionAnalysis | None:
    """A pending analysis for a worker to compute, or None (done, or gone)."""
    pending = PositionAnalysis.Status.PENDING
    return PositionAnalysis.objects.filter(pk=analysis_id, status=pending).first()


@dataclass(frozen=True)
class ReviewJob:
    """What a worker needs to review one move of a game: the position before it, and it."""

    board: Board
    move: Move


def review_job(game_id: int, ply: int) -> ReviewJob | None:
    """The review of the move at ``ply``, or None when it is not the next one to review."""
    review = GameReview.objects.filter(game_id=game_id, next_ply=ply).first()
    if review is None:
        return None
    game = Game.objects.get(pk=game_id)
    notations = list(game.moves.order_by("ply").values_list("notation", flat=True)[: ply + 1])
    if len(notations) <= ply:
        return None
    return ReviewJob(
        board=board_after(game, notations[:ply]), move=Move.from_notation(notations[ply])
    )


def game_review(game_id: int) -> GameReview | None:
    """The game's review, if one was queued."""
    return GameReview.objects.filter(game_id=game_id).first()


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


def seat_holders(game: Game) -> list[Player]:
    """The people who hold a seat of the game (each once)."""
    holders = {
        Player(user_id=seat.user_id) if seat.user_id else Player(guest_id=seat.guest_id)
        for seat in game.seats.all()
        if seat.kind == Seat.Kind.HUMAN and (seat.user_id or seat.guest_id)
    }
    return sorted(holders, key=lambda player: (player.user_id or 0, player.guest_id))


def queued_searches(player: Player, *, besides: int = 0) -> int:
    """How many of the player's games (but ``besides``) have a CPU search queued and not yet
    answered (queued less than ``CPU_TURN_STALLED_AFTER`` ago: older ones are lost)."""
    return (
        Game.objects.filter(
            status=Game.Status.ACTIVE,
            cpu_queued_at__gte=timezone.now() - CPU_TURN_STALLED_AFTER,
            pk__in=_games_of(player),
        )
        .exclude(pk=besides)
        .count()
    )


def may_queue_search(game: Game) -> bool:
    """Whether the CPU's search of ``game`` may be queued now: none of its players has
    ``QUEUED_SEARCHES_PER_PLAYER`` queued in their other games."""
    return all(
        queued_searches(player, besides=game.pk) < QUEUED_SEARCHES_PER_PLAYER
        for player in seat_holders(game)
    )


def waiting_cpu_game_ids(player: Player, *, besides: int = 0) -> list[int]:
    """The player's active games (but ``besides``) where the CPU is to move and no search is
    queued (the turns held back by the per-player limit), the longest waiting first. Two
    queries (the games with a CPU seat and no search queued, their seats); the games where it
    is the player's own turn are left out here, not each locked to be looked at."""
    games = (
        Game.objects.filter(
            Exists(Seat.objects.filter(game=OuterRef("pk"), kind=Seat.Kind.CPU)),
            status=Game.Status.ACTIVE,
            cpu_queued_at__isnull=True,
            pk__in=_games_of(player),
        )
        .exclude(pk=besides)
        .only("pk", "status", "position")
        .prefetch_related("seats")
        .order_by("updated_at", "pk")
    )
    return [game.pk for game in games if cpu_to_move(game, Board.from_text(game.position))]


def _games_of(player: Player) -> "QuerySet[Seat, int]":
    """The keys of the games where ``player`` holds a seat (a subquery)."""
    return Seat.objects.filter(player.seat_filter).values_list("game_id", flat=True)


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
