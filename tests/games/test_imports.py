"""Imports (issue 14 §4): a transcript or a GGF record becomes a finished game to view, export
and analyse; a game may start from an OBF position against the CPU or a friend; a bad record
is refused naming the move at fault and why."""

import pytest
from rest_framework.test import APIClient

from ai_worker.engine import Board
from ai_worker.engine.records import read_obf, read_transcript, write_obf
from games.models import Game, GameReview
from games.services import rooms

pytestmark = pytest.mark.django_db

TIGER = "f5d6c3d3c4f4f6f3e6e7"
GGF = (
    "(;GM[Othello]PC[GGS/os]DT[2003.12.15_13:24:03.MST]PB[Saio1200]PW[Saio3000]"
    "RB[2197.01]RW[2199.72]TI[05:00//02:00]TY[8]RE[+2.000:r]"
    "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]"
    "B[f5//0.01]W[d6/-1.50/0.01]B[c3]W[d3]B[c4];)"
)


def import_record(client: APIClient, **body: object):
    return client.post("/api/games/import/", body, format="json")


def test_a_transcript_imports_as_a_finished_game_reviewed_only_when_asked(guest) -> None:
    response = import_record(guest, format="txt", text="F5 d6 C3 d3 c4 f4 f6 f3 e6 e7")

    assert response.status_code == 201, response.json()
    state = response.json()
    assert (state["mode"], state["status"], state["ply"]) == ("imported", "finished", 10)
    assert "".join(state["moves"]) == TIGER
    assert state["result"] is None  # the record stops before the end
    game = Game.objects.get(public_id=state["id"])
    assert not GameReview.objects.filter(game=game).exists()  # a review costs minutes of search
    review = guest.get(f"/api/games/{state['id']}/review/").json()
    assert (review["status"], review["total"]) == ("none", 10)
    exported = guest.get(f"/api/games/{state['id']}/export/?format=txt").content.decode()
    assert exported.strip() == TIGER


def test_a_ggf_game_keeps_its_players_and_result(guest) -> None:
    state = import_record(guest, format="ggf", text=GGF).json()

    assert [seat["name"] for seat in state["seats"]] == ["Saio1200", "Saio3000"]
    assert (state["result"]["reason"], state["result"]["resigned"]) == ("resign", "white")
    assert state["result"]["winner"] == "black"


@pytest.mark.parametrize(
    ("body", "code", "message"),
    [
        (
            {"format": "txt", "text": "f5 f5"},
            "bad_record_move",
            "Move 2 of the record: f5 is already taken.",
        ),
        ({"format": "txt", "text": "f5 z9"}, "bad_record", None),
        ({"format": "ggf", "text": "(;GM[Chess];)"}, "bad_record", None),
        ({"format": "ggf", "text": "no game here"}, "bad_record", None),
    ],
)
def test_a_bad_record_is_refused_with_the_move_and_the_reason(
    guest, body: dict, code: str, message: str | None
) -> None:
    response = import_record(guest, **body)

    assert response.status_code == 400
    error = response.json()["error"]
    assert (error["code"], error["field"]) == (code, "text")
    if message is not None:
        assert error["message"] == message
    assert not Game.objects.exists()


def test_a_bad_record_is_explained_in_the_clients_language(guest) -> None:
    response = guest.post(
        "/api/games/import/",
        {"format": "txt", "text": "f5 f5"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    assert response.json()["error"]["message"].startswith("Ход 2 записи:")


def test_a_game_against_the_cpu_starts_from_an_obf_position(guest) -> None:
    position = write_obf(read_transcript(TIGER).board())
    response = guest.post(
        "/api/games/", {"mode": "cpu", "color": "black", "start": position}, format="json"
    )

    assert response.status_code == 201, response.json()
    state = response.json()
    assert state["ply"] == 0
    assert state["moves"] == []
    expected = read_obf(position)
    assert state["board"] == expected.rows()
    assert state["to_move"] == "black"
    game = Game.objects.get(public_id=state["id"])
    assert Board.from_text(game.start_position).to_text() == expected.to_text()

    move = next(iter(state["legal_moves"]))
    assert (
        guest.post(
            f"/api/games/{state['id']}/moves/", {"move": move, "ply": 0}, format="json"
        ).status_code
        == 201
    )
    undone = guest.post(f"/api/games/{state['id']}/undo/").json()
    assert undone["board"] == expected.rows()  # back to the position, not the variant's start


def test_a_room_starts_from_a_position_and_its_rematch_too(make_account) -> None:
    _, alice = make_account("alice")
    position = "-" * 27 + "OX" + "-" * 6 + "XO" + "-" * 27 + " O"
    room = rooms.create_room(player=alice, variant={}, seats=None, from_position=position)
    assert Board.from_text(room.game.position).turn == 1
    assert room.game.start_position


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"start": "XO"}, "bad_record", "start"),
        ({"start": "-" * 27 + "OX------XO" + "-" * 27 + " X", "variant": {"board": "6x6"}},
         "start_with_variant", "variant"),
        ({"start": "X" * 64 + " O"}, "start_game_over", "start"),
    ],
)  # fmt: skip
def test_a_bad_start_position_is_a_clear_400(guest, body: dict, code: str, field: str) -> None:
    response = guest.post("/api/games/", {"mode": "cpu", **body}, format="json")
    assert response.status_code == 400
    assert (response.json()["error"]["code"], response.json()["error"]["field"]) == (code, field)


def test_a_game_from_a_position_is_never_rated(make_account) -> None:
    """A position is anything its creator likes: one move from wiping out the strong CPU (rated
    2000) gained an account 542 points in one request. Such a game is refused as rated, versus
    the CPU and in a room."""
    client, _ = make_account("alice")
    one_move_wipe_out = "XO" + "-" * 62 + " X"
    cpu = {"mode": "cpu", "level": "strong", "rated": True, "start": one_move_wipe_out}
    response = client.post("/api/games/", cpu, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "rated_from_position",
        "message": "A game begun from a position cannot be rated.",
        "field": "start",
    }
    room = client.post("/api/rooms/", {"rated": True, "start": one_move_wipe_out}, format="json")
    assert (room.status_code, room.json()["error"]["code"]) == (400, "rated_from_position")
    casual = client.post("/api/games/", {**cpu, "rated": False}, format="json")
    assert casual.status_code == 201
