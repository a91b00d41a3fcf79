"""Models of the player ratings (spec M5, issue 14 §3), bot accounts and access tokens (issue 14
§6); the ratings' tables keep the names they had in ``games``. One rating per account and
class: a Glicko-2 rating per time class of 2-player games, an OpenSkill rating (``rating`` is
its mu, ``deviation`` its sigma) for 3-4 player tables."""

from django.conf import settings
from django.contrib.postgres.fields import ArrayField
from django.db import models

INITIAL_RATING = 1500.0  # the Glicko-2 library's defaults, and OpenSkill's scaled to them
INITIAL_DEVIATION = 350.0
INITIAL_VOLATILITY = 0.06
TABLES = "tables"  # the class of 3-4 player games (OpenSkill)


class PlayerRating(models.Model):
    """An account's rating in one class (``pool``) and how its rated games there ended."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings"
    )
    pool = models.CharField(max_length=16, default="untimed")
    rating = models.FloatField(default=INITIAL_RATING)
    deviation = models.FloatField(default=INITIAL_DEVIATION)
    volatility = models.FloatField(default=INITIAL_VOLATILITY)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "games_playerrating"
        constraints = [
            models.UniqueConstraint(fields=["user", "pool"], name="rating_once_per_class")
        ]
        indexes = [models.Index(fields=["pool", "-rating"], name="rating_leaderboard")]

    def __str__(self) -> str:
        return f"{self.user_id} ({self.pool}): {self.rating:.0f}"


class RatingChange(models.Model):
    """How one rated game changed one account's rating; one row per game and account.

    ``score``: 1 win, 0.5 draw, 0 loss (at a table, the share of the others beaten);
    ``opponent_rating``: the opponent's rating before (none at a table).
    """

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    pool = models.CharField(max_length=16, default="untimed")
    opponent_rating = models.FloatField(null=True)
    score = models.FloatField()
    rating_before = models.FloatField()
    rating_after = models.FloatField()
    deviation_after = models.FloatField(default=INITIAL_DEVIATION)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_ratingchange"
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once_per_game")
        ]

    def __str__(self) -> str:
        return (
            f"game {self.game_id}, user {self.user_id}: "
            f"{self.rating_before:.0f}->{self.rating_after:.0f}"
        )

    @property
    def delta(self) -> int:
        """The change, rounded to whole points as the pages show it."""
        return round(self.rating_after) - round(self.rating_before)


class EmailVerification(models.Model):
    """Whether an account's e-mail address (``User.email``) is verified (issue 14 §7): the
    address the link was sent to and when its owner followed it. Verified only while ``email``
    is still the account's address; a new address starts unverified."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="email_verification"
    )
    email = models.EmailField()
    verified_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        db_table = "accounts_emailverification"

    def __str__(self) -> str:
        state = "verified" if self.verified_at else "unverified"
        return f"{self.user_id}: {self.email} ({state})"


class BotAccount(models.Model):
    """The mark of a bot account (issue 14 §6): it plays through the API only, and is shown as
    "BOT" on its profile and at its seats. Set at sign-up, or by an upgrade before the account
    has played (``games.accounts.services.upgrade_to_bot``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, primary_key=True, related_name="bot"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"bot {self.user_id}"


class AccessToken(models.Model):
    """A personal access token: named, with scopes (``SCOPES``), revocable (deleted). Only the
    SHA-256 of its secret is kept (``games.accounts.tokens``); ``prefix`` is its first
    characters, for the owner to tell tokens apart."""

    READ = "read"
    PLAY = "play"
    CHALLENGE = "challenge"
    SCOPES = (READ, PLAY, CHALLENGE)

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="access_tokens"
    )
    name = models.CharField(max_length=100)
    key_hash = models.CharField(max_length=64, unique=True)
    prefix = models.CharField(max_length=8)
    scopes = ArrayField(models.CharField(max_length=16))
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return f"{self.name} ({self.prefix}…) of {self.user_id}"

    def allows(self, scope: str) -> bool:
        """Whether the token was given ``scope``."""
        return scope in self.scopes
