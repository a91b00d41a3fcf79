"""What accounts do when the game service says something happened."""

from django.dispatch import receiver

from games.accounts.services import rate_finished_game
from games.public import FinishedGame, game_finished


@receiver(game_finished)
def rate_game(sender: object, finished: FinishedGame, **kwargs: object) -> None:
    """A finished game changes its players' ratings, in the transaction that finished it."""
    rate_finished_game(finished=finished)
