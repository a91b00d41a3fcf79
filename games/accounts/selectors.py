"""Read-only queries of accounts: ratings and player profiles (spec M5)."""

from typing import TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser

from games.accounts.models import INITIAL_RATING, PlayerRating, RatingChange
from games.public import FinishedGameEntry, finished_games_of

RECENT_GAMES = 20


class GameCounts(TypedDict):
    played: int
    won: int
    lost: int
    drawn: int


class RecentGame(TypedDict):
    id: int
    url: str
    mode: str
    players: int
    colors: list[str]
    opponents: list[str]
    outcome: str | None
    finished_at: str
    rating_change: int | None


class PlayerProfile(TypedDict):
    username: str
    rating: int
    games: GameCounts
    recent_games: list[RecentGame]


def user_by_username(username: str) -> AbstractBaseUser | None:
    """The active account called ``username``, or ``None`` (also for a name PostgreSQL refuses)."""
    if "\x00" in username:
        return None
    return get_user_model().objects.filter(username=username, is_active=True).first()


def rating_of(user_id: int) -> int:
    """The account's current Elo rating (the starting rating before its first rated game)."""
    rating = PlayerRating.objects.filter(user_id=user_id).values_list("rating", flat=True).first()
    return INITIAL_RATING if rating is None else rating


def player_profile(user: AbstractBaseUser) -> PlayerProfile:
    """The public profile of an account: rating, rated-game counts and recent finished games."""
    rating = PlayerRating.objects.filter(user_id=user.pk).first() or PlayerRating(user_id=user.pk)
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


def recent_games(user: AbstractBaseUser) -> list[RecentGame]:
    """The account's latest finished games, newest first, as the user saw them."""
    entries = finished_games_of(user.pk, limit=RECENT_GAMES)
    changes = {
        change.game_id: change.delta
        for change in RatingChange.objects.filter(
            user_id=user.pk, game_id__in=[entry.game_id for entry in entries]
        )
    }
    return [_recent_game(entry, changes.get(entry.game_id)) for entry in entries]


def _recent_game(entry: FinishedGameEntry, rating_change: int | None) -> RecentGame:
    return {
        "id": entry.game_id,
        "url": entry.url,
        "mode": entry.mode,
        "players": entry.players,
        "colors": entry.colors,
        "opponents": entry.opponents,
        "outcome": _outcome(entry),
        "finished_at": entry.finished_at,
        "rating_change": rating_change,
    }


def _outcome(entry: FinishedGameEntry) -> str | None:
    """``win``, ``loss`` or ``draw`` for the player; ``None`` when they held every seat (a
    hot-seat game: they won and lost)."""
    if len(entry.colors) == entry.players:
        return None
    if entry.draw or entry.winner is None:
        return "draw"
    return "win" if entry.winner in entry.colors else "loss"
