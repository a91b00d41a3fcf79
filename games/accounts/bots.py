"""Bot accounts (issue 14 §6): made at sign-up or upgraded before the account has played, then
marked "BOT" wherever the account is shown. The rules: a bot plays through the API, meets
people only by challenge (rated or casual; never the lobby's seeks or quick pairing, as on
lichess), and stays a bot."""

from collections.abc import Collection

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from games.accounts.models import BotAccount
from games.public import has_played
from games.shared.errors import Conflict


def upgrade_to_bot(*, user: AbstractBaseUser) -> None:
    """Make the account a bot; refused (409 ``bot_has_played``) once it has held a seat. An
    account that already is a bot stays one (repeating the upgrade changes nothing)."""
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        if BotAccount.objects.filter(user_id=user.pk).exists():
            return
        if has_played(user.pk):
            raise Conflict("bot_has_played")
        BotAccount.objects.create(user_id=user.pk)


def is_bot(user_id: int) -> bool:
    return BotAccount.objects.filter(user_id=user_id).exists()


def bot_ids(user_ids: Collection[int]) -> set[int]:
    """Which of ``user_ids`` are bots (``games.public.provide_bots``)."""
    return set(BotAccount.objects.filter(user_id__in=user_ids).values_list("user_id", flat=True))
