"""Issue 14 §2: a room game aborted before both have moved (it counts for nobody), and a draw
offered by one player and accepted or declined by the other."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games.accounts.models import RatingChange
from games.models import Game
from tests.games.sockets import Socket, token_header

pytestmark = pytest.mark.django_db


def room_game(black: APIClient, white: APIClient, **extra) -> dict:
    room = black.post("/api/rooms/", extra, format="json").json()
    return white.post(f"/api/rooms/{room['code']}/join/", {}, format="json").json()["game"]


def post(client: APIClient, state: dict, action: str, body: dict | None = None):
    return client.post(f"/api/games/{state['id']}/{action}/", body or {}, format="json")


def move(client: APIClient, state: dict) -> dict:
    """Play the first legal move; the game's state after it (the answer is the move's event)."""
    answer = post(
        client, state, "moves", {"move": next(iter(state["legal_moves"])), "ply": state["ply"]}
    )
    assert answer.status_code == 201, answer.json()
    return client.get(f"/api/games/{state['id']}/").json()


def error_of(answer) -> tuple[int, str]:
    return answer.status_code, answer.json()["error"]["code"]


def test_either_player_aborts_before_both_have_moved(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = room_game(black, white, time_control="3+2", rated=True)
    state = move(black, state)
    assert state["abort_allowed"] is True
    aborted = post(white, state, "abort")
    assert aborted.status_code == 200
    result = aborted.json()["result"]
    assert (result["reason"], result["winner"], result["draw"]) == ("aborted", None, False)
    assert aborted.json()["clock"]["running"] is None
    assert not RatingChange.objects.exists()  # an aborted game is never rated


def test_no_abort_once_both_have_moved_nor_by_a_spectator(alice, bob, guest) -> None:
    (black, _), (white, _) = alice, bob
    state = room_game(black, white)
    assert error_of(post(guest, state, "abort")) == (403, "not_your_seat")
    state = move(white, move(black, state))
    assert state["abort_allowed"] is False
    answer = post(black, state, "abort")
    assert error_of(answer) == (400, "abort_not_allowed")
    assert answer.json()["error"]["message"] == (
        "A game can be aborted only before every player has moved."
    )
    assert Game.objects.get(public_id=state["id"]).status == Game.Status.ACTIVE


def test_abort_is_for_room_games_only(alice) -> None:
    client, _ = alice
    state = client.post("/api/games/", {"mode": "local"}, format="json").json()
    assert state["abort_allowed"] is False
    assert error_of(post(client, state, "abort")) == (400, "abort_not_allowed")


def test_a_draw_offered_and_accepted_ends_the_game_drawn_and_rated(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = room_game(black, white, rated=True)
    assert state["draw"] == {"allowed": True, "offered_by": None}
    state = move(white, move(black, state))  # rated once both have moved
    offered = post(black, state, "draw", {"action": "offer"}).json()
    assert offered["draw"]["offered_by"] == "black"
    assert post(black, state, "draw", {"action": "offer"}).json()["draw"]["offered_by"] == "black"
    assert error_of(post(black, state, "draw", {"action": "accept"})) == (409, "no_draw_offer")
    accepted = post(white, state, "draw", {"action": "accept"}).json()
    assert accepted["status"] == "finished"
    result = accepted["result"]
    assert (result["reason"], result["draw"], result["winner"]) == ("agreement", True, None)
    assert RatingChange.objects.filter(score=0.5).count() == 2


def test_an_agreed_draw_is_rated_a_draw_whoever_has_more_discs(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = room_game(black, white, rated=True)
    for ply, notation in enumerate(["d3", "e3", "f3", "c3"]):  # black then leads 5 to 3
        played = post((black, white)[ply % 2], state, "moves", {"move": notation, "ply": ply})
        assert played.status_code == 201
    post(black, state, "draw", {"action": "offer"})
    accepted = post(white, state, "draw", {"action": "accept"}).json()
    assert accepted["result"]["discs"] == {"black": 5, "white": 3}
    assert accepted["result"]["draw"] is True
    scores = dict(RatingChange.objects.values_list("user__username", "score"))
    assert scores == {"alice": 0.5, "bob": 0.5}  # not a win for the one ahead on discs


def test_offering_when_the_opponent_has_offered_accepts(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = room_game(black, white)
    post(white, state, "draw", {"action": "offer"})
    assert post(black, state, "draw", {"action": "offer"}).json()["result"]["reason"] == "agreement"


def test_a_declined_draw_or_a_move_of_the_opponent_clears_the_offer(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = room_game(black, white)
    post(black, state, "draw", {"action": "offer"})
    assert error_of(post(black, state, "draw", {"action": "decline"})) == (409, "no_draw_offer")
    declined = post(white, state, "draw", {"action": "decline"}).json()
    assert declined["draw"]["offered_by"] is None
    assert declined["status"] == "active"
    state = move(white, move(black, state))
    post(black, state, "draw", {"action": "offer"})
    state = move(black, state)  # the offerer may move: the offer stands
    assert state["draw"]["offered_by"] == "black"
    state = move(white, state)  # the opponent moving instead declines it
    assert state["draw"]["offered_by"] is None


def test_a_declined_draw_is_offered_again_only_after_a_move(alice, bob) -> None:
    """An attack once offered and had declined 30 draws in a row at one position, each an event
    on the opponent's screen: after a declined offer, the next one waits for a move."""
    (black, _), (white, _) = alice, bob
    state = room_game(black, white)
    post(black, state, "draw", {"action": "offer"})
    post(white, state, "draw", {"action": "decline"})
    for offerer in (black, white):
        again = post(offerer, state, "draw", {"action": "offer"})
        assert error_of(again) == (409, "draw_just_declined")
    state = move(black, state)
    assert post(black, state, "draw", {"action": "offer"}).json()["draw"]["offered_by"] == "black"


def test_draws_need_two_people(alice) -> None:
    client, _ = alice
    cpu_game = client.post("/api/games/", {"mode": "cpu"}, format="json").json()
    assert cpu_game["draw"]["allowed"] is False
    answer = post(client, cpu_game, "draw", {"action": "offer"})
    assert error_of(answer) == (400, "draw_not_available")
    bad = post(client, cpu_game, "draw", {"action": "maybe"})
    assert bad.status_code == 400
    assert bad.json()["error"]["field"] == "action"


@pytest.mark.django_db(transaction=True)
def test_the_offer_reaches_the_opponent_over_the_websocket(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = room_game(black, white)
    token = white._credentials["HTTP_AUTHORIZATION"].split()[1]

    async def watch() -> dict:
        socket = Socket(f"/ws/games/{state['id']}/", headers=[token_header(token)])
        connected, _ = await socket.connect()
        assert connected
        await socket.receive_json_from(timeout=10)
        await database_sync_to_async(post)(black, state, "draw", {"action": "offer"})
        while True:
            event = await socket.receive_json_from(timeout=10)
            if event["type"] == "draw_offer":
                await socket.disconnect()
                return event

    event = async_to_sync(watch)()
    assert event["state"]["draw"]["offered_by"] == "black"
    assert event["state"]["you"] == ["white"]
