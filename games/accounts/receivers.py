"""What accounts do when the game service says something happened."""

from django.dispatch import receiver

from games.accounts.models import RatingChange
from games.accounts.services import rate_finished_game
from games.public import FinishedGame, game_finished, ratings_requested


@receiver(game_finished)
def rate_game(sender: object, finished: FinishedGame, **kwargs: object) -> None:
    """A finished game changes its players' ratings, in the transaction that finished it."""
    rate_finished_game(finished=finished)


@receiver(ratings_requested)
def ratings_of_game(sender: object, game_id: int, **kwargs: object) -> dict[int, float]:
    """The ratings the accounts of a rated game had before it (for its exported record)."""
    changes = RatingChange.objects.filter(game_id=game_id).values_list("user_id", "rating_before")
    return dict(changes)
