"""An account that is deleted (issue 14 §7) leaves its finished games to the other players:
its seats keep a name, ``DELETED_PLAYER``, and no longer point at anyone."""

from django.dispatch import receiver

from games.models import Room, Seat
from games.shared.personal_data import account_deleting

DELETED_PLAYER = "deleted player"


@receiver(account_deleting)
def anonymise_seats(sender: object, user_id: int, **kwargs: object) -> None:
    """The account's seats are named ``DELETED_PLAYER``; its rooms lose their owner (inside
    the deletion's transaction)."""
    Seat.objects.filter(user_id=user_id).update(user=None, name=DELETED_PLAYER)
    Room.objects.filter(owner_user_id=user_id).update(owner_user=None)
