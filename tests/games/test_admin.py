"""The admin pages of the game models: they load for a superuser and change nothing."""

import pytest
from django.urls import reverse

from games.identity import Player
from games.services import games, rooms

pytestmark = pytest.mark.django_db

ALICE = Player(guest_id="alice-browser")


def test_the_game_and_room_pages_load_for_a_superuser(admin_client) -> None:
    room = rooms.create_room(player=ALICE, variant={}, seats=None)
    game = games.create_local_game(player=ALICE, variant={}, undo_allowed=True)
    games.play_move(player=ALICE, public_id=game.public_id, notation="f5", ply=0)
    for name in ("admin:games_game_changelist", "admin:games_room_changelist"):
        assert admin_client.get(reverse(name)).status_code == 200
    page = admin_client.get(reverse("admin:games_game_change", args=[game.pk]))
    assert page.status_code == 200
    assert b"f5" in page.content
    assert b"alice-browser" in page.content
    assert admin_client.get(reverse("admin:games_room_change", args=[room.pk])).status_code == 200


def test_games_cannot_be_added_or_deleted_in_the_admin(admin_client) -> None:
    game = games.create_local_game(player=ALICE, variant={}, undo_allowed=True)
    assert admin_client.get(reverse("admin:games_game_add")).status_code == 403
    assert admin_client.post(reverse("admin:games_game_delete", args=[game.pk])).status_code == 403
    assert admin_client.get(reverse("admin:index")).status_code == 200
