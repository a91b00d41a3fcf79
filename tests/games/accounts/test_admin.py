"""The ratings in the admin: shown to superusers, never added or changed there."""

import pytest
from django.urls import reverse

from games.accounts.models import AccessToken, PlayerRating
from games.accounts.tokens import issue_token

pytestmark = pytest.mark.django_db


def test_the_rating_pages_load_for_a_superuser(admin_client, django_user_model) -> None:
    player = django_user_model.objects.create_user("rated-player", password="a long passphrase")
    PlayerRating.objects.create(user=player, rating=1532, played=1, won=1)
    page = admin_client.get(reverse("admin:accounts_playerrating_changelist"))
    assert page.status_code == 200
    assert b"rated-player" in page.content
    assert b"1532" in page.content
    assert admin_client.get(reverse("admin:accounts_ratingchange_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:accounts_playerrating_add")).status_code == 403


def test_tokens_are_listed_without_secrets_and_staff_may_revoke_one(
    admin_client, django_user_model
) -> None:
    owner = django_user_model.objects.create_user("token-owner", password="a long passphrase")
    token, secret = issue_token(user=owner, name="leaked script")
    listed = admin_client.get(reverse("admin:accounts_accesstoken_changelist"))
    assert b"leaked script" in listed.content
    page = admin_client.get(reverse("admin:accounts_accesstoken_change", args=[token.pk]))
    assert page.status_code == 200
    assert token.key_hash.encode() not in page.content
    assert secret.encode() not in page.content
    assert admin_client.get(reverse("admin:accounts_accesstoken_add")).status_code == 403
    delete = reverse("admin:accounts_accesstoken_delete", args=[token.pk])
    assert admin_client.post(delete, {"post": "yes"}).status_code == 302
    assert not AccessToken.objects.exists()
    assert admin_client.get(reverse("admin:accounts_botaccount_changelist")).status_code == 200
