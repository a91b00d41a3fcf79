"""An account's data download and its deletion (issue 14 §7).

Deleting an account keeps its finished games for the other players: its seats show
``games.public.DELETED_PLAYER``. Its own ratings and rating changes go with it (the opponents'
rating changes stay as they were); its comments stay, anonymised (no account, address or
visitor key of it). Its seats of games waiting for players are given back; an account with
games in progress must finish or resign them first.
"""

from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.accounts import bots, emails, selectors
from games.accounts.models import PlayerRating, RatingChange
from games.public import active_game_count
from games.shared.errors import Conflict, ServiceError
from games.shared.personal_data import forget_account, personal_data_sections


def account_data(user: AbstractBaseUser) -> dict[str, Any]:
    """Everything the site keeps of the account, as JSON-ready data: the account (with its bot
    flag), its profile, access tokens (never their secrets: only the digest is kept), ratings and
    rating changes, then each app's sections (games with their records, comments)."""
    ratings = PlayerRating.objects.filter(user_id=user.pk).order_by("pool")
    changes = RatingChange.objects.filter(user_id=user.pk).order_by("created_at", "pk")
    joined = getattr(user, "date_joined", None)
    return {
        "account": {
            "username": user.get_username(),
            "email": emails.email_of(user),
            "email_verified": emails.is_verified(user),
            "date_joined": joined.isoformat() if joined else None,
            "last_login": user.last_login.isoformat() if user.last_login else None,
            "bot": bots.is_bot(user.pk),
        },
        "profile": selectors.player_profile(user),
        "access_tokens": selectors.tokens_of(user.pk),
        "ratings": [
            {
                "rating_class": rating.pool,
                "rating": rating.rating,
                "deviation": rating.deviation,
                "volatility": rating.volatility,
                "played": rating.played,
                "won": rating.won,
                "lost": rating.lost,
                "drawn": rating.drawn,
            }
            for rating in ratings
        ],
        "rating_changes": [
            {
                "rating_class": change.pool,
                "score": change.score,
                "opponent_rating": change.opponent_rating,
                "rating_before": change.rating_before,
                "rating_after": change.rating_after,
                "at": change.created_at.isoformat(),
            }
            for change in changes
        ],
        **personal_data_sections(user.pk),
    }


def delete_account(*, user: AbstractBaseUser, password: str) -> None:
    """Delete the account after checking its password: every app anonymises what it keeps
    of it, then the account row goes with its ratings, tokens and e-mail verification."""
    if not user.check_password(password):
        raise ServiceError("wrong_password", field="password")
    with transaction.atomic():
        in_progress = active_game_count(user.pk)
        if in_progress:
            raise Conflict("games_in_progress", count=in_progress)
        forget_account(user.pk)
        user.delete()
