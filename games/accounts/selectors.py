"""Read-only queries of accounts: ratings and player profiles (spec M5)."""

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from ai_worker.engine import COLOR_NAMES
from games import selectors
from games.accounts.models import INITIAL_RATING, PlayerRating, RatingChange
from games.models import Game, Seat

RECENT_GAMES = 20


def user_by_username(username: str) -> AbstractBaseUser | None:
    """The active account called ``username``, or ``None`` (also for a name PostgreSQL refuses)."""
    if "\x00" in username:
        return None
    return get_user_model().objects.filter(username=username, is_active=True).first()


def rating_of(user_id: int) -> int:
    """The account's current Elo rating (the starting rating before its first rated game)."""
    rating = PlayerRating.objects.filter(user_id=user_id).values_list("rating", flat=True).first()
    return INITIAL_RATING if rating is None else rating


def player_profile(user: AbstractBaseUser) -> dict:
    """The public profile of an account: rating, rated-game counts and recent finished games."""
    rating = PlayerRating.objects.filter(user=user).first() or PlayerRating(user=user)
    return {
        "username": user.get_username(),
        "rating": rating.rating,
        "games": {
            "played": rating.played,
            "won": rating.won,
            "lost": rating.lost,
            "drawn": rating.drawn,
        },
        "recent_games": recent_games(user),
    }


def recent_games(user: AbstractBaseUser) -> list[dict]:
    """The account's latest finished games, newest first, as the user saw them."""
    games = (
        Game.objects.filter(status=Game.Status.FINISHED, seats__user=user)
        .distinct()
        .prefetch_related(selectors.SEATS)
        .order_by("-updated_at")[:RECENT_GAMES]
    )
    changes = {
        change.game_id: change
        for change in RatingChange.objects.filter(user=user, game__in=[game.pk for game in games])
    }
    return [_history_entry(game, user.pk, changes.get(game.pk)) for game in games]


def _history_entry(game: Game, user_id: int, change: RatingChange | None) -> dict:
    seats = list(game.seats.all())
    mine = [seat for seat in seats if seat.user_id == user_id]
    opponents = [_seat_name(seat) for seat in seats if seat.user_id != user_id]
    return {
        "id": game.pk,
        "url": f"/play/{game.pk}/",
        "mode": game.mode,
        "players": len(seats),
        "colors": [COLOR_NAMES[seat.color] for seat in mine],
        "opponents": opponents,
        "outcome": _outcome(
            game.result or {}, {COLOR_NAMES[seat.color] for seat in mine}, len(seats)
        ),
        "finished_at": game.updated_at.isoformat(),
        "rating_change": None if change is None else change.delta,
    }


def _outcome(result: dict, colors: set[str], seats: int) -> str | None:
    """``win``, ``loss`` or ``draw`` for the player of ``colors``; ``None`` when they held every
    seat (a hot-seat game: they won and lost)."""
    if len(colors) == seats:
        return None
    if result.get("draw") or result.get("winner") is None:
        return "draw"
    return "win" if result["winner"] in colors else "loss"


def _seat_name(seat: Seat) -> str:
    if seat.kind == Seat.Kind.CPU:
        return f"CPU ({seat.level})"
    return seat.user.username if seat.user is not None else "Guest"
