"""Database models of the game service."""

from django.db import models


class Game(models.Model):
    """A game of reversi; ``variant`` is the engine's variant description as JSON."""

    variant = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return f"Game {self.pk}"


from games.community.models import *  # noqa: E402, F403  (community models live in their package)
