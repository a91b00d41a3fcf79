"""Issue 14 §1, challenges addressed to a username: accepted (the game starts for both), declined
with a reason, taken back, expired; each change reaches both players' lobby sockets."""

from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from rest_framework.test import APIClient

from games.models import Challenge, Game
from tests.games.sockets import Socket, token_header

pytestmark = pytest.mark.django_db


def challenge(client: APIClient, username: str, **terms) -> dict:
    answer = client.post("/api/challenges/", {"username": username, **terms}, format="json")
    assert answer.status_code == 201, answer.json()
    return answer.json()


def error_of(answer) -> tuple[int, str, str | None]:
    error = answer.json()["error"]
    return answer.status_code, error["code"], error["field"]


def test_an_accepted_challenge_starts_the_game_for_both(alice, bob) -> None:
    (challenger, _), (challenged, _) = alice, bob
    sent = challenge(challenger, "bob", color="white", time_control="5+3", rated=True)
    assert (sent["status"], sent["incoming"], sent["speed"]) == ("pending", False, "blitz")
    (received,) = challenged.get("/api/challenges/").json()["challenges"]
    assert (received["id"], received["incoming"], received["challenger"]) == (
        sent["id"],
        True,
        "alice",
    )
    room = challenged.post(f"/api/challenges/{sent['id']}/accept/").json()
    game = room["game"]
    assert (game["status"], game["you"], game["rated"]) == ("active", ["black"], True)
    assert game["clock"]["time_control"] == "5+3"
    (seen,) = challenger.get("/api/challenges/").json()["challenges"]
    assert (seen["status"], seen["url"]) == ("accepted", room["url"])
    again = challenged.post(f"/api/challenges/{sent['id']}/accept/")
    assert error_of(again)[:2] == (409, "challenge_closed")


def test_a_declined_challenge_tells_the_reason(alice, bob) -> None:
    (challenger, _), (challenged, _) = alice, bob
    sent = challenge(challenger, "bob")
    bad = challenged.post(f"/api/challenges/{sent['id']}/decline/", {"reason": "rude"})
    assert error_of(bad) == (400, "bad_decline_reason", "reason")
    declined = challenged.post(f"/api/challenges/{sent['id']}/decline/", {"reason": "too_fast"})
    assert (declined.json()["status"], declined.json()["decline_reason"]) == (
        "declined",
        "too_fast",
    )
    (seen,) = challenger.get("/api/challenges/").json()["challenges"]
    assert (seen["status"], seen["decline_reason"]) == ("declined", "too_fast")
    assert not Game.objects.exists()


def test_only_the_challenged_answers_and_only_the_challenger_takes_it_back(
    alice, bob, make_account
) -> None:
    (challenger, _), (challenged, _) = alice, bob
    stranger, _ = make_account("carol")
    sent = challenge(challenger, "bob")
    path = f"/api/challenges/{sent['id']}"
    assert error_of(stranger.post(f"{path}/accept/"))[:2] == (404, "challenge_not_found")
    assert error_of(challenger.post(f"{path}/accept/"))[:2] == (403, "not_the_challenged")
    assert error_of(challenged.post(f"{path}/cancel/"))[:2] == (403, "not_the_challenger")
    assert challenger.post(f"{path}/cancel/").json()["status"] == "cancelled"
    assert error_of(challenged.post(f"{path}/accept/"))[:2] == (409, "challenge_closed")


def test_a_challenge_expires(alice, bob) -> None:
    (challenger, _), (challenged, _) = alice, bob
    sent = challenge(challenger, "bob", time_control="1+0")
    quick = Challenge.objects.get(public_id=sent["id"])
    assert timedelta(minutes=9) < quick.expires_at - quick.created_at <= timedelta(minutes=10)
    Challenge.objects.filter(pk=quick.pk).update(created_at=quick.created_at - timedelta(hours=1))
    Challenge.objects.filter(pk=quick.pk).update(expires_at=quick.expires_at - timedelta(hours=1))
    late = challenged.post(f"/api/challenges/{sent['id']}/accept/")
    assert error_of(late)[:2] == (409, "challenge_expired")
    assert late.json()["error"]["message"] == "This challenge has expired."
    assert challenger.get("/api/challenges/").json()["challenges"][0]["status"] == "expired"
    slow = Challenge.objects.get(public_id=challenge(challenger, "bob", time_control="3d")["id"])
    assert slow.expires_at - slow.created_at > timedelta(days=2)


def test_bad_challenges_name_the_problem(alice, guest) -> None:
    client, _ = alice
    for body, expected in (
        ({"username": "nobody"}, (404, "player_not_found", "username")),
        ({"username": "alice"}, (400, "challenge_yourself", "username")),
        ({"username": "alice", "variant": {"players": 3}}, (400, "challenge_yourself", "username")),
        ({"username": "alice", "color": "red"}, (400, "invalid_choice", "color")),
        ({"username": "alice", "time_control": "2+1"}, (400, "challenge_yourself", "username")),
        ({}, (400, "required", "username")),
    ):
        assert error_of(client.post("/api/challenges/", body, format="json")) == expected, body
    assert error_of(guest.get("/api/challenges/"))[:2] == (403, "challenge_needs_account")
    assert not Challenge.objects.exists()


def test_a_challenge_is_a_two_player_game_of_an_offered_clock(alice, bob) -> None:
    client, _ = alice
    three = client.post("/api/challenges/", {"username": "bob", "variant": {"players": 3}})
    assert error_of(three) == (400, "challenge_two_players", "variant.players")
    clock = client.post("/api/challenges/", {"username": "bob", "time_control": "2+1"})
    assert error_of(clock) == (400, "bad_time_control", "time_control")


@pytest.mark.django_db(transaction=True)
def test_both_lobby_sockets_hear_of_the_challenge_and_its_answer(alice, bob) -> None:
    (challenger, _), (challenged, _) = alice, bob

    def socket_of(client: APIClient) -> Socket:
        token = client._credentials["HTTP_AUTHORIZATION"].split()[1]
        return Socket("/ws/lobby/", headers=[token_header(token)])

    async def watch() -> tuple[dict, dict]:
        theirs, mine = socket_of(challenged), socket_of(challenger)
        for socket in (theirs, mine):
            assert (await socket.connect())[0]
            await socket.receive_json_from()  # the seeks
            await socket.receive_json_from()  # who is online
        sent = await database_sync_to_async(challenge)(challenger, "bob")
        incoming = await theirs.receive_json_from()
        await mine.receive_json_from()  # the challenger hears of its own too
        await database_sync_to_async(challenged.post)(f"/api/challenges/{sent['id']}/accept/")
        accepted = await mine.receive_json_from()
        for socket in (theirs, mine):
            await socket.disconnect()
        return incoming, accepted

    incoming, accepted = async_to_sync(watch)()
    assert incoming["type"] == "challenge"
    assert (incoming["challenge"]["incoming"], incoming["challenge"]["challenger"]) == (
        True,
        "alice",
    )
    assert accepted["challenge"]["status"] == "accepted"
    assert accepted["challenge"]["url"].startswith("/room/")


def test_one_pending_challenge_per_challenger_and_addressee(alice, bob, make_account) -> None:
    """An attack once sent 40 challenges from one account to another, all pending: a second
    challenge to the same account waits until the first is answered, taken back or expired;
    other accounts may still be challenged."""
    (challenger, _), (challenged, _) = alice, bob
    make_account("carol")
    first = challenge(challenger, "bob", time_control="1+0")
    again = challenger.post("/api/challenges/", {"username": "bob"}, format="json")
    assert error_of(again) == (409, "challenge_pending", "username")
    assert len(challenged.get("/api/challenges/").json()["challenges"]) == 1
    challenge(challenger, "carol")
    declined = challenged.post(f"/api/challenges/{first['id']}/decline/", {"reason": "later"})
    assert declined.status_code == 200
    challenge(challenger, "bob")
