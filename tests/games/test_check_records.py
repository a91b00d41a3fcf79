"""`manage.py check_records`: every game's record replayed by the engine against its stored
position, with the games' versions (the soak's final check)."""

import json
from io import StringIO

import pytest
from django.core.management import call_command

from ai_worker.engine import Board, Move, Variant
from games.identity import Player
from games.models import Game
from games.services import games

pytestmark = pytest.mark.django_db

PLAYER = Player(guest_id="records-browser")


def check_records() -> dict:
    out = StringIO()
    call_command("check_records", stdout=out)
    return json.loads(out.getvalue())


def test_games_whose_record_replays_pass_and_a_tampered_position_is_named() -> None:
    played = games.create_local_game(player=PLAYER, variant={}, undo_allowed=False)
    for ply, notation in enumerate(["f5", "d6", "c3"]):
        games.play_move(player=PLAYER, public_id=played.public_id, notation=notation, ply=ply)
    tampered = games.create_local_game(player=PLAYER, variant={}, undo_allowed=False)
    games.play_move(player=PLAYER, public_id=tampered.public_id, notation="f5", ply=0)
    board = Board(Variant.from_json(tampered.variant))
    board.push(Move.from_notation("d3"))  # another move than the record's
    Game.objects.filter(pk=tampered.pk).update(position=board.to_text())
    played.refresh_from_db()
    tampered.refresh_from_db()

    report = check_records()

    assert report["games"] == 2
    assert report["moves"] == 4
    assert report["not_replaying"] == [tampered.public_id]
    assert report["versions"] == {
        played.public_id: played.version,
        tampered.public_id: tampered.version,
    }
