"""Issue 14 §1, the lobby: seeks listed live to every lobby viewer, accepted by anyone (the
last seat starts the game for all), taken back by their seeker; quick pairing."""

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games import policy
from games.accounts.models import PlayerRating
from games.models import Game, Room, Seek
from tests.games.sockets import Socket

pytestmark = pytest.mark.django_db


def seek(client: APIClient, **body) -> dict:
    answer = client.post("/api/lobby/seeks/", body, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def lobby(client: APIClient) -> list[dict]:
    return client.get("/api/lobby/").json()["seeks"]


def test_a_seek_is_listed_with_its_terms_and_only_its_seeker_gets_its_room(alice, guest) -> None:
    client, _ = alice
    mine = seek(client, color="white", time_control="3+2", rated=True)
    assert (mine["color"], mine["time_control"], mine["speed"]) == ("white", "3+2", "blitz")
    assert (mine["rated"], mine["by"], mine["open_seats"], mine["mine"]) == (True, "alice", 1, True)
    assert mine["url"].startswith("/room/")
    (listed,) = lobby(guest)
    assert (listed["id"], listed["mine"], listed["seated"]) == (mine["id"], False, False)
    assert listed["url"] is None
    game = Game.objects.get(room__seek__public_id=mine["id"])
    assert game.status == Game.Status.WAITING
    assert game.seats.get(color=1).user is not None


def test_accepting_a_seek_starts_the_game_for_both(alice, bob, guest) -> None:
    (seeker, _), (taker, _) = alice, bob
    offered = seek(seeker, color="white", time_control="1+0")
    answer = taker.post(f"/api/lobby/seeks/{offered['id']}/accept/")
    assert answer.status_code == 200
    room = answer.json()
    assert room["url"] == offered["url"]
    assert room["game"]["status"] == "active"
    assert room["game"]["you"] == ["black"]
    assert room["game"]["clock"]["running"] == "black"
    assert lobby(guest) == []  # no longer listed
    late = guest.post(f"/api/lobby/seeks/{offered['id']}/accept/")
    assert (late.status_code, late.json()["error"]["code"]) == (409, "seek_taken")


def test_a_seeker_cannot_accept_their_own_seek_and_may_take_it_back(alice, bob) -> None:
    (seeker, _), (other, _) = alice, bob
    offered = seek(seeker)
    own = seeker.post(f"/api/lobby/seeks/{offered['id']}/accept/")
    assert (own.status_code, own.json()["error"]["code"]) == (400, "own_seek")
    refused = other.delete(f"/api/lobby/seeks/{offered['id']}/")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "not_your_seek")
    assert seeker.delete(f"/api/lobby/seeks/{offered['id']}/").status_code == 204
    assert not Seek.objects.exists()
    assert not Room.objects.exists()
    assert not Game.objects.exists()
    gone = other.post(f"/api/lobby/seeks/{offered['id']}/accept/")
    assert (gone.status_code, gone.json()["error"]["code"]) == (404, "seek_not_found")


def test_a_rated_seek_is_for_accounts(alice, guest) -> None:
    client, _ = alice
    assert guest.post("/api/lobby/seeks/", {"rated": True}, format="json").status_code == 403
    offered = seek(client, rated=True)
    answer = guest.post(f"/api/lobby/seeks/{offered['id']}/accept/")
    assert (answer.status_code, answer.json()["error"]["code"]) == (403, "rated_needs_account")


def test_a_four_player_table_fills_from_the_lobby(make_account) -> None:
    clients = [make_account(name)[0] for name in ("ann", "ben", "cat", "dan")]
    table = seek(clients[0], variant={"players": 4}, color="black")
    for number, client in enumerate(clients[1:], start=1):
        room = client.post(f"/api/lobby/seeks/{table['id']}/accept/").json()
        listed = lobby(client)
        if number < 3:
            assert room["game"]["status"] == "waiting"
            assert listed[0]["open_seats"] == 3 - number
            assert (listed[0]["seated"], listed[0]["mine"]) == (True, False)
        else:
            assert room["game"]["status"] == "active"
            assert listed == []


def test_quick_pairing_takes_a_matching_seek_or_offers_one(alice, bob, make_account) -> None:
    (first, _), (second, _) = alice, bob
    other_terms = seek(make_account("carol")[0], time_control="5+3")
    waiting = first.post("/api/lobby/quick/", {"time_control": "3+2"}, format="json").json()
    assert waiting["started"] is False
    assert waiting["seek"]["time_control"] == "3+2"
    assert waiting["room"]["game"]["status"] == "waiting"
    paired = second.post("/api/lobby/quick/", {"time_control": "3+2"}, format="json").json()
    assert paired["started"] is True
    assert paired["seek"] is None
    assert paired["room"]["code"] == waiting["room"]["code"]
    assert paired["room"]["game"]["status"] == "active"
    assert [listed["id"] for listed in lobby(second)] == [other_terms["id"]]


def test_bad_seeks_name_the_field(alice) -> None:
    client, _ = alice
    for body, field in (
        ({"color": "purple"}, "color"),
        ({"time_control": "2+1"}, "time_control"),
        ({"variant": {"board": "9x9"}}, "variant.board"),
        ({"extra": 1}, "extra"),
    ):
        answer = client.post("/api/lobby/seeks/", body, format="json")
        assert (answer.status_code, answer.json()["error"]["field"]) == (400, field), body
    assert not Seek.objects.exists()


@pytest.mark.django_db(transaction=True)
def test_the_lobby_socket_lists_seeks_live_and_tells_when_one_is_accepted(alice, bob) -> None:
    (seeker, _), (taker, _) = alice, bob

    async def watch() -> list[dict]:
        socket = Socket("/ws/lobby/")
        connected, _ = await socket.connect()
        assert connected
        messages = [await socket.receive_json_from()]
        assert (await socket.receive_json_from())["type"] == "online"  # who is, on connect
        offered = await database_sync_to_async(seek)(seeker, time_control="10+0")
        messages.append(await socket.receive_json_from())
        await database_sync_to_async(taker.post)(f"/api/lobby/seeks/{offered['id']}/accept/")
        messages.append(await socket.receive_json_from())
        await socket.disconnect()
        return messages

    empty, listed, accepted = async_to_sync(watch)()
    assert (empty["type"], empty["seeks"]) == ("seeks", [])
    (shown,) = listed["seeks"]
    assert (shown["time_control"], shown["by"], shown["url"]) == ("10+0", "alice", None)
    assert accepted == {"type": "seeks", "accepted": shown["id"], "seeks": []}


def rate(client_and_player, rating: int, pool: str = "blitz") -> None:
    """Give the account ``rating`` in the rating class ``pool`` (3+2 is blitz)."""
    PlayerRating.objects.update_or_create(
        user_id=client_and_player[1].user_id, pool=pool, defaults={"rating": rating}
    )


def test_quick_pairing_by_rating_range(alice, bob, make_account) -> None:
    strong = make_account("strong")
    rate(alice, 1500)
    rate(bob, 1620)
    rate(strong, 2100)
    rate(strong, 1500, pool="untimed")  # only the blitz rating counts for 3+2
    waiting = (
        alice[0]
        .post("/api/lobby/quick/", {"time_control": "3+2", "rating_range": 200}, format="json")
        .json()
    )
    assert (waiting["seek"]["rating"], waiting["seek"]["rating_range"]) == (1500, 200)
    too_strong = strong[0].post("/api/lobby/quick/", {"time_control": "3+2"}, format="json")
    assert too_strong.json()["started"] is False  # outside alice's range: a seek of its own
    refused = strong[0].post(f"/api/lobby/seeks/{waiting['seek']['id']}/accept/")
    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "outside_rating_range")
    paired = (
        bob[0]
        .post("/api/lobby/quick/", {"time_control": "3+2", "rating_range": 150}, format="json")
        .json()
    )
    assert paired["started"] is True
    assert paired["room"]["code"] == waiting["room"]["code"]


def test_a_rating_range_is_for_accounts(guest) -> None:
    answer = guest.post("/api/lobby/quick/", {"rating_range": 100}, format="json")
    assert (answer.status_code, answer.json()["error"]["code"]) == (
        403,
        "rating_range_needs_account",
    )


def test_one_player_cannot_flood_the_lobby_with_seeks(alice, bob, guest) -> None:
    """An attack once offered 40 seeks from one account, all listed: now a player has at most
    ``policy.OPEN_SEEKS_PER_PLAYER`` open seeks (quick pairing's count too); others may still
    offer theirs, and a seek taken back or accepted frees a place."""
    client, _ = alice
    offered = [seek(client, time_control="1+0") for _ in range(policy.OPEN_SEEKS_PER_PLAYER)]
    refused = client.post("/api/lobby/seeks/", {"time_control": "1+0"}, format="json")
    assert refused.status_code == 409
    assert refused.json()["error"]["code"] == "too_many_seeks"
    quick = client.post("/api/lobby/quick/", {"time_control": "10+0"}, format="json")
    assert quick.status_code == 409
    assert len([listed for listed in lobby(bob[0]) if listed["mine"]]) == 0
    assert len(lobby(guest)) == policy.OPEN_SEEKS_PER_PLAYER
    seek(guest, time_control="1+0")
    assert client.delete(f"/api/lobby/seeks/{offered[0]['id']}/").status_code == 204
    seek(client, time_control="1+0")


def test_one_player_takes_one_seat_of_a_table(alice, bob) -> None:
    """A player seated at a 3-player table who accepts it again was told "This is your own
    seek"; it is not theirs: the refusal says they already have a seat."""
    table = seek(alice[0], variant={"players": 3})
    assert bob[0].post(f"/api/lobby/seeks/{table['id']}/accept/").status_code == 200
    again = bob[0].post(f"/api/lobby/seeks/{table['id']}/accept/")
    assert (again.status_code, again.json()["error"]["code"]) == (400, "already_seated")
    own = alice[0].post(f"/api/lobby/seeks/{table['id']}/accept/")
    assert (own.status_code, own.json()["error"]["code"]) == (400, "own_seek")
    assert lobby(alice[0])[0]["open_seats"] == 1
