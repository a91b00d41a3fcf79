"""Read-only queries of accounts: ratings and player profiles (spec M5)."""

from collections.abc import Collection
from typing import TypedDict

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db.models import BooleanField, Case, Sum, Value, When
from django.urls import reverse

from games.accounts.models import (
    INITIAL_DEVIATION,
    INITIAL_RATING,
    TABLES,
    AccessToken,
    BotAccount,
    PlayerRating,
    RatingChange,
)
from games.accounts.services import PROVISIONAL_DEVIATION, is_provisional
from games.public import TIME_CLASSES, FinishedGameEntry, finished_games_of
from games.shared.ratings import RatingKey, Standing

RECENT_GAMES = 20
LEADERBOARD_SIZE = 100
RATING_CLASSES = (*TIME_CLASSES, TABLES)  # the 2-player time classes, then 3-4 player tables
MAIN_CLASS = "untimed"  # the class ``/api/me`` and the profile's headline show


class GameCounts(TypedDict):
    played: int
    won: int
    lost: int
    drawn: int


class RecentGame(TypedDict):
    id: str  # the game's public id
    url: str
    mode: str
    players: int
    colors: list[str]
    opponents: list[str]
    outcome: str | None
    finished_at: str
    rating_change: int | None


class ClassRating(TypedDict):
    """An account's rating in one class, rounded; ``provisional`` while the deviation is high."""

    rating_class: str
    rating: int
    deviation: int
    provisional: bool
    games: GameCounts


class PlayerProfile(TypedDict):
    username: str
    bot: bool
    rating: int
    provisional: bool
    ratings: list[ClassRating]
    games: GameCounts
    recent_games: list[RecentGame]


class LeaderboardEntry(TypedDict):
    rank: int
    username: str
    url: str
    rating: int
    deviation: int
    provisional: bool
    played: int


def user_by_username(username: str) -> AbstractBaseUser | None:
    """The active account called ``username``, or ``None`` (also for a name PostgreSQL refuses)."""
    if "\x00" in username:
        return None
    return get_user_model().objects.filter(username=username, is_active=True).first()


def rating_of(user_id: int, rating_class: str = MAIN_CLASS) -> int:
    """The account's rating in ``rating_class``, rounded (the start before its first game)."""
    key = (user_id, rating_class, 2)
    return AccountRatings().standings([key])[key].rating


class AccountRatings:
    """The game service's view of the ratings (``games.shared.ratings.RatingsProvider``)."""

    def standings(self, keys: Collection[RatingKey]) -> dict[RatingKey, Standing]:
        """Each account's rating in the class of its kind of game (2 players: the time class;
        more: the tables), the start before its first game there; one query."""
        classes = {key: key[1] if key[2] == 2 else TABLES for key in keys}
        rows = PlayerRating.objects.filter(
            user_id__in={user_id for user_id, _speed, _players in keys},
            pool__in=set(classes.values()),
        ).values_list("user_id", "pool", "rating", "deviation")
        found = {(user_id, pool): (rating, deviation) for user_id, pool, rating, deviation in rows}
        start = (INITIAL_RATING, INITIAL_DEVIATION)
        standings = {}
        for key, rating_class in classes.items():
            rating, deviation = found.get((key[0], rating_class), start)
            standings[key] = Standing(rating=round(rating), provisional=is_provisional(deviation))
        return standings

    def changes(self, game_ids: Collection[int]) -> dict[tuple[int, int], int]:
        """How the rated games changed each account's rating, rounded as the ratings are."""
        return {
            (change.game_id, change.user_id): change.delta
            for change in RatingChange.objects.filter(game_id__in=game_ids)
        }


def player_profile(user: AbstractBaseUser) -> PlayerProfile:
    """The public profile of an account: its rating in each class it has played (the main
    class always), rated-game counts over all classes and recent finished games."""
    rows = {rating.pool: rating for rating in PlayerRating.objects.filter(user_id=user.pk)}
    rows.setdefault(MAIN_CLASS, PlayerRating(user_id=user.pk, pool=MAIN_CLASS))
    ratings = [_class_rating(rows[name]) for name in RATING_CLASSES if name in rows]
    totals = PlayerRating.objects.filter(user_id=user.pk).aggregate(
        played=Sum("played"), won=Sum("won"), lost=Sum("lost"), drawn=Sum("drawn")
    )
    main = _class_rating(rows[MAIN_CLASS])
    return {
        "username": user.get_username(),
        "bot": BotAccount.objects.filter(user_id=user.pk).exists(),
        "rating": main["rating"],
        "provisional": main["provisional"],
        "ratings": ratings,
        "games": {
            "played": totals["played"] or 0,
            "won": totals["won"] or 0,
            "lost": totals["lost"] or 0,
            "drawn": totals["drawn"] or 0,
        },
        "recent_games": recent_games(user),
    }


class TokenEntry(TypedDict):
    """One of the account's access tokens as its owner sees it (never its secret)."""

    id: int
    name: str
    prefix: str
    scopes: list[str]
    created_at: str
    last_used_at: str | None


def tokens_of(user_id: int) -> list[TokenEntry]:
    """The account's access tokens, newest first."""
    return [
        {
            "id": token.pk,
            "name": token.name,
            "prefix": token.prefix,
            "scopes": token.scopes,
            "created_at": token.created_at.isoformat(),
            "last_used_at": token.last_used_at.isoformat() if token.last_used_at else None,
        }
        for token in AccessToken.objects.filter(user_id=user_id).order_by("-created_at", "-pk")
    ]


def leaderboard(rating_class: str, *, limit: int = LEADERBOARD_SIZE) -> list[LeaderboardEntry]:
    """The best-rated active accounts of ``rating_class`` (a name of ``RATING_CLASSES``),
    established ratings first, then provisional ones, each by rating."""
    provisional = Case(
        When(deviation__gt=PROVISIONAL_DEVIATION, then=Value(True)),
        default=Value(False),
        output_field=BooleanField(),
    )
    ordered = (
        PlayerRating.objects.filter(pool=rating_class, played__gt=0, user__is_active=True)
        .select_related("user")
        .order_by(provisional, "-rating", "user__username")[:limit]
    )
    return [
        {
            "rank": rank,
            "username": row.user.get_username(),
            "url": reverse("player", args=[row.user.get_username()]),
            "rating": round(row.rating),
            "deviation": round(row.deviation),
            "provisional": is_provisional(row.deviation),
            "played": row.played,
        }
        for rank, row in enumerate(ordered, start=1)
    ]


def _class_rating(rating: PlayerRating) -> ClassRating:
    return {
        "rating_class": rating.pool,
        "rating": round(rating.rating),
        "deviation": round(rating.deviation),
        "provisional": is_provisional(rating.deviation),
        "games": {
            "played": rating.played,
            "won": rating.won,
            "lost": rating.lost,
            "drawn": rating.drawn,
        },
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
        "id": entry.public_id,
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
