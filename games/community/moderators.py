"""Who moderates (C5): superusers and members of the ``moderators`` group."""

from django.contrib.auth.models import AbstractBaseUser, AbstractUser, AnonymousUser

MODERATORS_GROUP = "moderators"


def is_moderator(user: AbstractBaseUser | AnonymousUser | None) -> bool:
    """True for a signed-in superuser or member of the ``moderators`` group."""
    if not isinstance(user, AbstractUser) or not user.is_active:
        return False
    return user.is_superuser or user.groups.filter(name=MODERATORS_GROUP).exists()
