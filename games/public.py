"""What the other apps (accounts, community) may use of the game service: nothing else of
``games`` outside ``games.shared`` (an import-linter contract in ``pyproject.toml`` checks it).

- ``game_finished``: sent inside the transaction that finishes a game, with ``finished=`` a
  ``FinishedGame``; a receiver's writes commit or roll back with the game.
- ``finished_games_of``: an account's latest finished games, as that player saw them.
- ``GUEST_SESSION_KEY``: the session key of a guest's identity.
- ``active_game_count``, ``DELETED_PLAYER``: an account about to be deleted (its finished
  games stay, their seats named ``DELETED_PLAYER``; ``games.services.departures``).
- ``provide_ratings``: the ratings app tells the game service an account's rating in a speed
  class (quick pairing by rating range, the lobby, the watch page's order); ``rating_of`` reads.
- ``provide_bots``: the accounts app tells the game service which accounts are bots (seats show
  "BOT", bots stay out of the lobby); ``bots_among`` reads.
- ``has_played``: whether an account has ever held a seat (only such an account may turn bot).
"""

from dataclasses import dataclass

from django.dispatch import Signal

from ai_worker.engine import COLOR_NAMES
from games import presenters
from games.identity import GUEST_SESSION_KEY
from games.models import Game, Seat
from games.policy import TIME_CLASSES, UNTIMED
from games.selectors import SEATS
from games.services.departures import DELETED_PLAYER
from games.shared.bots import bots_among, provide_bots
from games.shared.ratings import provide_ratings, rating_of

__all__ = [
    "DELETED_PLAYER",
    "GUEST_SESSION_KEY",
    "TIME_CLASSES",
    "FinishedGame",
    "FinishedGameEntry",
    "FinishedSeat",
    "active_game_count",
    "bots_among",
    "finished_games_of",
    "game_finished",
    "game_ratings",
    "has_played",
    "provide_bots",
    "provide_ratings",
    "rating_of",
    "ratings_requested",
]


@dataclass(frozen=True)
class FinishedSeat:
    """A seat of a finished game: the CPU at ``cpu_level``, an account, or a guest."""

    color: str
    cpu_level: str | None
    user_id: int | None

    @property
    def is_guest(self) -> bool:
        return self.cpu_level is None and self.user_id is None


@dataclass(frozen=True)
class FinishedGame:
    """A game that has just finished: who sat where and who won (``winner`` None: a draw).

    ``reason``: "end" (on the board), "resign", "time" (the loser's clock ran out) or
    "agreement" (a draw agreed); ``time_control`` ("3+2", "3d"; None untimed, see
    ``games.shared.time_controls``) is what the game was created with; ``rated``: created rated
    and played without hints or undo; ``time_class`` its rating class, one of
    ``TIME_CLASSES``; ``ranks`` each seat's place (1 first, ties share a place).
    """

    game_id: int
    hot_seat: bool
    seats: tuple[FinishedSeat, ...]
    winner: str | None
    reason: str = "end"
    time_control: str | None = None
    rated: bool = False
    time_class: str = UNTIMED
    ranks: tuple[int, ...] = ()


game_finished = Signal()

# Sent with ``game_id=`` when a record is exported; a receiver answers ``{user_id: rating}``,
# the ratings the game's accounts had when it began (none for an unrated game).
ratings_requested = Signal()


def game_ratings(game_id: int) -> dict[int, float]:
    """The ratings of a game's accounts as the other apps know them (``ratings_requested``)."""
    ratings: dict[int, float] = {}
    for _receiver, answer in ratings_requested.send(sender=Game, game_id=game_id):
        if isinstance(answer, dict):
            ratings.update(answer)
    return ratings


@dataclass(frozen=True)
class FinishedGameEntry:
    """One finished game in a player's history: ``game_id`` is internal (ratings), ``public_id``
    and ``url`` (the game's own page, never its room's) are what a page may show."""

    game_id: int
    public_id: str
    url: str
    mode: str
    players: int
    colors: list[str]
    opponents: list[str]
    winner: str | None
    draw: bool
    finished_at: str


def finished_games_of(user_id: int, *, limit: int) -> list[FinishedGameEntry]:
    """The account's latest ``limit`` finished games, newest first."""
    games = (
        Game.objects.filter(status=Game.Status.FINISHED, seats__user_id=user_id)
        .distinct()
        .prefetch_related(SEATS)
        .order_by("-updated_at")[:limit]
    )
    return [_entry(game, user_id) for game in games]


def _entry(game: Game, user_id: int) -> FinishedGameEntry:
    seats = list(game.seats.all())
    result = game.result or {}
    return FinishedGameEntry(
        game_id=game.pk,
        public_id=game.public_id,
        url=presenters.play_url(game.public_id),
        mode=game.mode,
        players=len(seats),
        colors=[COLOR_NAMES[seat.color] for seat in seats if seat.user_id == user_id],
        opponents=[
            presenters.seat_name(seat) or "Guest" for seat in seats if seat.user_id != user_id
        ],
        winner=result.get("winner"),
        draw=bool(result.get("draw")),
        finished_at=game.updated_at.isoformat(),
    )


def active_game_count(user_id: int) -> int:
    """How many games in progress the account holds a seat of."""
    return Game.objects.filter(seats__user_id=user_id, status=Game.Status.ACTIVE).distinct().count()


def has_played(user_id: int) -> bool:
    """Whether the account has held a seat in any game (finished or not)."""
    return Seat.objects.filter(user_id=user_id).exists()
