"""A guest who signs up or logs in keeps their games (G4): seats and rooms move to the account."""

from django.contrib.auth.signals import user_logged_in
from django.db import transaction
from django.dispatch import receiver
from django.http import HttpRequest

from games.identity import GUEST_SESSION_KEY
from games.models import Room, Seat


def claim_guest_games(*, guest_id: str, user_id: int) -> int:
    """Move the guest's seats and rooms to the account; returns how many seats moved."""
    with transaction.atomic():
        Room.objects.filter(owner_guest_id=guest_id).update(
            owner_user_id=user_id, owner_guest_id=""
        )
        return Seat.objects.filter(guest_id=guest_id).update(user_id=user_id, guest_id="")


@receiver(user_logged_in)
def claim_games_on_login(
    sender: object, request: HttpRequest | None, user: object, **kwargs: object
) -> None:
    """A browser that played as a guest and then logs in keeps its games on the account."""
    session = getattr(request, "session", None)
    guest_id = session.pop(GUEST_SESSION_KEY, None) if session is not None else None
    if guest_id:
        claim_guest_games(guest_id=guest_id, user_id=user.pk)  # type: ignore[attr-defined]
