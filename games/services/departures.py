"""An account that is deleted (issue 14 §7) leaves its finished games to the other players:
its seats keep a name, ``DELETED_PLAYER``, and no longer point at anyone. Games still waiting
for players give its seat back (a game nobody else sits at goes, as a cancelled seek's does);
games in progress must end first (``games.public.active_game_count``)."""

from django.db.models import Q
from django.dispatch import receiver

from games.models import Game, Room, Seat
from games.services import events
from games.shared.personal_data import account_deleting

DELETED_PLAYER = "deleted player"


@receiver(account_deleting)
def release_account(sender: object, user_id: int, **kwargs: object) -> None:
    """Free the account's seats of waiting games, drop the waiting games left with nobody,
    name its other seats ``DELETED_PLAYER`` and take it off its rooms (inside the deletion's
    transaction)."""
    held = Seat.objects.filter(user_id=user_id).values("game_id")
    waiting = list(
        Game.objects.select_for_update()
        .filter(pk__in=held, status=Game.Status.WAITING)
        .order_by("pk")
    )
    if waiting:
        Seat.objects.filter(game__in=waiting, user_id=user_id).update(user=None)
        seated = Q(seats__user__isnull=False) | ~Q(seats__guest_id="")
        Game.objects.filter(pk__in=[game.pk for game in waiting]).exclude(seated).delete()
        events.publish_lobby()
    Seat.objects.filter(user_id=user_id).update(user=None, name=DELETED_PLAYER)
    Room.objects.filter(owner_user_id=user_id).update(owner_user=None)
