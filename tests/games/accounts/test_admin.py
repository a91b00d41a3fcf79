"""The ratings in the admin: shown to superusers, never added or changed there."""

import pytest
from django.urls import reverse

from games.accounts.models import PlayerRating

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
