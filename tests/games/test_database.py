"""The suite runs against the real PostgreSQL server, not a stand-in."""

import pytest
from django.db import connection

from games.identity import Player
from games.models import Game
from games.services import games


@pytest.mark.django_db
def test_suite_uses_postgresql() -> None:
    assert connection.vendor == "postgresql"
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        (version,) = cursor.fetchone()
    assert int(version.split(".")[0]) >= 13


@pytest.mark.django_db
def test_variant_json_round_trips_through_jsonb() -> None:
    variant = {"players": 3, "board": "octagon", "blocked": ["c3"]}
    game = games.create_local_game(
        player=Player(guest_id="someone"), variant=variant, undo_allowed=False
    )
    found = Game.objects.get(variant__board="octagon", variant__blocked__contains=["c3"])
    assert found.pk == game.pk
    assert found.variant["players"] == 3
