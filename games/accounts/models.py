"""Models of the player rating (spec M5); their tables keep the names they had in ``games``."""

from django.conf import settings
from django.db import models

INITIAL_RATING = 1500


class PlayerRating(models.Model):
    """An account's Elo rating and how its rated games ended."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="player_rating"
    )
    rating = models.IntegerField(default=INITIAL_RATING)
    played = models.PositiveIntegerField(default=0)
    won = models.PositiveIntegerField(default=0)
    lost = models.PositiveIntegerField(default=0)
    drawn = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        db_table = "games_playerrating"

    def __str__(self) -> str:
        return f"{self.user_id}: {self.rating}"


class RatingChange(models.Model):
    """How one rated game changed one account's rating; one row per game and account."""

    game = models.ForeignKey("games.Game", on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes"
    )
    opponent_rating = models.IntegerField()
    score = models.FloatField()
    rating_before = models.IntegerField()
    rating_after = models.IntegerField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        db_table = "games_ratingchange"
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="rating_change_once_per_game")
        ]

    def __str__(self) -> str:
        return (
            f"game {self.game_id}, user {self.user_id}: {self.rating_before}->{self.rating_after}"
        )

    @property
    def delta(self) -> int:
        return self.rating_after - self.rating_before
