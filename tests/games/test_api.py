"""The REST API: status codes, the game state document and one error shape for bad input."""

from datetime import datetime, timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.http import HttpRequest
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games import presenters, selectors
from games.models import Game, Room, Seat

pytestmark = pytest.mark.django_db


def create(client: APIClient, **body: object) -> dict:
    response = client.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def move(client: APIClient, game: dict, notation: str, ply: int | None = None):
    body = {"move": notation, "ply": game["ply"] if ply is None else ply}
    return client.post(f"/api/games/{game['id']}/moves/", body, format="json")


def error_of(response) -> dict:
    return response.json()["error"]


def test_game_state_document(alice) -> None:
    client, _ = alice
    game = create(client, mode="local", undo=True)
    assert game["url"] == f"/play/{game['id']}/"
    assert (game["status"], game["ply"], game["to_move"]) == ("active", 0, "black")
    assert game["legal_moves"] == {"c4": ["d4"], "d3": ["d4"], "e6": ["e5"], "f5": ["e5"]}
    assert game["board"][3] == "---OX---"
    assert game["discs"] == {"black": 2, "white": 2}
    assert game["you"] == ["black", "white"]
    assert move(client, game, "f5").status_code == 201
    state = client.get(f"/api/games/{game['id']}/").json()
    assert state["last_move"] == {
        "ply": 0,
        "color": "black",
        "move": "f5",
        "flipped": ["e5"],
        "text": "Black f5, 1 disc flipped",
    }
    assert state["moves"] == ["f5"]
    for key in ("pass_notice", "result", "undo", "hints", "seats", "empties", "variant"):
        assert key in state
    assert timezone.now() - datetime.fromisoformat(state["server_time"]) < timedelta(minutes=1)
    assert [seat["takeover_at"] for seat in state["seats"]] == [None, None]  # not a room
    assert APIClient().get(f"/api/games/{game['id']}/").json()["you"] == []  # a spectator


def test_a_move_is_answered_with_its_event_and_a_retry_with_the_state(alice) -> None:
    """The answer to a move is the move's event, the socket's (what changed, not the whole
    state: that is GET's); the same move sent again for its ply gets the state as it is now."""
    client, _ = alice
    game = create(client, mode="local")
    response = move(client, game, "f5")
    assert (response.status_code, response["Content-Type"]) == (201, "application/json")
    event = response.json()
    assert set(event) == set(presenters.MoveEvent.__annotations__)
    state = client.get(f"/api/games/{game['id']}/").json()
    assert (event["type"], event["ply"], event["version"]) == ("move", 1, game["version"] + 1)
    assert event["move"] == state["last_move"]
    assert event["record"] == state["moves"] == ["f5"]
    for key in ("to_move", "legal_moves", "discs", "empties", "undo", "result", "clock"):
        assert event[key] == state[key], key
    retried = move(client, game, "f5", ply=0)
    assert retried.status_code == 201
    again = retried.json()
    assert (again["type"], again["version"]) == ("state", event["version"])
    assert again["state"]["you"] == ["black", "white"]
    assert again["state"]["moves"] == ["f5"]


def test_guest_plays_without_an_account_and_others_cannot_move(guest: APIClient) -> None:
    game = create(guest, mode="cpu", color="black", level="easy")
    assert game["seats"][1]["name"] == "CPU (easy)"
    assert move(guest, game, "f5").status_code == 201
    stranger = move(APIClient(), game, "d6", ply=1)
    assert (stranger.status_code, error_of(stranger)["code"]) == (403, "not_your_seat")
    listed = guest.get("/api/games/?status=active").json()["games"]
    assert [item["id"] for item in listed] == [game["id"]]
    assert APIClient().get("/api/games/").json() == {"games": []}


def test_guest_writes_need_the_csrf_token() -> None:
    browser = APIClient(enforce_csrf_checks=True)
    response = browser.post("/api/games/", {}, format="json")
    assert (response.status_code, error_of(response)["code"]) == (403, "csrf_failed")


def test_a_signed_in_sessions_write_without_the_token_is_the_same_translated_refusal() -> None:
    """A signed-in browser's refusal was DRF's ``permission_denied`` with an English message
    ("CSRF Failed: CSRF token missing."), unlike a guest's: both are ``csrf_failed`` now."""
    user = get_user_model().objects.create_user("carol", password="a long passphrase")
    browser = APIClient(enforce_csrf_checks=True)
    browser.force_login(user)
    refused = browser.post("/api/games/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    guest = APIClient(enforce_csrf_checks=True)
    as_guest = guest.post("/api/games/", {}, format="json", HTTP_ACCEPT_LANGUAGE="ja")
    assert (refused.status_code, error_of(refused)) == (403, error_of(as_guest))
    assert error_of(refused)["code"] == "csrf_failed"
    assert "CSRF Failed" not in error_of(refused)["message"]


@pytest.mark.parametrize(
    ("notation", "code"),
    [("d4", "occupied"), ("a1", "no_flips"), ("z9", "bad_square"), ("pass", "cannot_pass")],
)
def test_illegal_move_reasons(alice, notation: str, code: str) -> None:
    client, _ = alice
    game = create(client, mode="local")
    response = move(client, game, notation)
    assert response.status_code == 400
    assert error_of(response) == {
        "code": code,
        "message": error_of(response)["message"],
        "field": "move",
    }
    assert error_of(response)["message"]


def test_not_your_turn_stale_ply_and_game_over(alice) -> None:
    client, _ = alice
    game = create(client, mode="cpu", color="white")
    response = move(client, game, "f5")
    assert (response.status_code, error_of(response)["code"]) == (400, "not_your_turn")
    local = create(client, mode="local")
    assert move(client, local, "f5").status_code == 201
    stale = move(client, local, "d6", ply=0)
    assert (stale.status_code, error_of(stale)["code"], error_of(stale)["field"]) == (
        409,
        "stale_ply",
        "ply",
    )
    assert client.post(f"/api/games/{local['id']}/resign/").status_code == 200
    over = move(client, local, "d6", ply=1)
    assert (over.status_code, error_of(over)["code"]) == (400, "game_over")


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"move": "f5"}, "required", "ply"),
        ({"move": "f5", "ply": "zero"}, "invalid", "ply"),
        ({"move": "f5", "ply": -1}, "min_value", "ply"),
        ({"move": ["f5"], "ply": 0}, "invalid", "move"),
        ({"move": "f5", "ply": 0, "color": "black"}, "unknown_field", "color"),
    ],
)
def test_move_body_errors(alice, body: dict, code: str, field: str) -> None:
    client, _ = alice
    game = create(client, mode="local")
    response = client.post(f"/api/games/{game['id']}/moves/", body, format="json")
    assert response.status_code == 400
    assert (error_of(response)["code"], error_of(response)["field"]) == (code, field)


def test_malformed_json_and_wrong_shapes(alice) -> None:
    client, _ = alice
    response = client.post("/api/games/", "{not json", content_type="application/json")
    assert (response.status_code, error_of(response)["code"]) == (400, "malformed_json")
    response = client.post("/api/games/", [1, 2], format="json")
    assert (response.status_code, error_of(response)["field"]) == (400, None)
    response = client.post("/api/games/", {"variant": "8x8"}, format="json")
    assert (response.status_code, error_of(response)["field"]) == (400, "variant")
    assert not Game.objects.exists()


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"variant": {"board": "9x9"}}, "bad_variant", "variant.board"),
        ({"variant": {"handicap": 7}}, "bad_variant", "variant.handicap"),
        ({"variant": {"anti": "yes"}}, "bad_variant", "variant.anti"),
        ({"variant": {"players": 2}, "color": "red"}, "bad_color", "color"),
        ({"mode": "online"}, "invalid_choice", "mode"),
        ({"level": "godlike"}, "invalid_choice", "level"),
    ],
)
def test_create_game_errors_name_the_field(alice, body: dict, code: str, field: str) -> None:
    client, _ = alice
    response = client.post("/api/games/", body, format="json")
    assert response.status_code == 400
    assert (error_of(response)["code"], error_of(response)["field"]) == (code, field)


def test_unknown_game_and_bad_list_filter(alice) -> None:
    client, _ = alice
    for address in ("/api/games/999999/", "/api/games/abc/", "/api/games/AbCdEfGhIjKl/"):
        response = client.get(address)
        assert (response.status_code, error_of(response)["code"]) == (404, "not_found")
    response = client.post("/api/games/999999/moves/", {"move": "f5", "ply": 0}, format="json")
    assert response.status_code == 404
    for address in ("/api/nothing/", "/api/games"):
        response = client.post(address, {}, format="json")
        assert (response.status_code, error_of(response)["code"]) == (404, "not_found")
    response = client.get("/api/games/?status=paused")
    assert (response.status_code, error_of(response)["field"]) == (400, "status")


def test_undo_hint_and_resign_endpoints(alice, bob) -> None:
    client, _ = alice
    game = create(client, mode="local", undo=True)
    move(client, game, "f5")
    undone = client.post(f"/api/games/{game['id']}/undo/")
    assert (undone.status_code, undone.json()["ply"], undone.json()["undo"]["used"]) == (200, 0, 1)
    hint = client.post(f"/api/games/{game['id']}/hint/")
    pending = {"ply": 0, "move": None, "score": None, "exact": False}
    assert (hint.status_code, hint.json()["hints"]["current"]) == (202, pending)
    other, _ = bob
    refused = other.post(f"/api/games/{game['id']}/resign/")
    assert (refused.status_code, error_of(refused)["code"]) == (403, "not_your_seat")
    resigned = client.post(f"/api/games/{game['id']}/resign/").json()
    assert (resigned["status"], resigned["result"]["winner"]) == ("finished", "white")
    assert selectors.replays_to_position(Game.objects.get(public_id=game["id"]))


def test_rooms_create_join_and_rematch(alice, bob, make_account) -> None:
    client, _ = alice
    created = client.post("/api/rooms/", {}, format="json")
    assert created.status_code == 201
    room = created.json()
    assert room["url"] == f"/room/{room['code']}/"
    assert (room["state"], room["game"]["url"], room["game"]["you"]) == (
        "open",
        room["url"],
        ["black"],
    )
    other, _ = bob
    joined = other.post(f"/api/rooms/{room['code']}/join/", {}, format="json")
    assert (joined.status_code, joined.json()["state"], joined.json()["game"]["you"]) == (
        200,
        "playing",
        ["white"],
    )
    late, _ = make_account("carol")
    full = late.post(f"/api/rooms/{room['code']}/join/", {"color": "white"}, format="json")
    assert (full.status_code, error_of(full)["code"]) == (409, "seat_taken")
    assert client.get(f"/api/rooms/{room['code']}/").json()["state"] == "playing"
    undo = client.post(f"/api/games/{room['game']['id']}/undo/")
    assert error_of(undo)["code"] == "undo_not_available"
    other.post(f"/api/games/{room['game']['id']}/resign/")
    first = client.post(f"/api/rooms/{room['code']}/rematch/")
    second = other.post(f"/api/rooms/{room['code']}/rematch/")
    assert (first.status_code, second.status_code) == (201, 200)
    assert first.json()["code"] == second.json()["code"]
    assert first.json()["game"]["you"] == ["white"]
    assert (
        client.get(f"/api/rooms/{room['code']}/").json()["rematch"]["code"] == first.json()["code"]
    )
    assert APIClient().get("/api/rooms/nope/").status_code == 404


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"seats": [{"kind": "human"}]}, "seat_count", "seats"),
        ({"seats": [{"kind": "cpu"}, {"kind": "cpu"}]}, "no_person_seat", "seats"),
        (
            {"seats": [{"kind": "human"}, {"kind": "cpu", "level": "max"}]},
            "invalid_choice",
            "seats.1.level",
        ),
        (
            {"seats": [{"kind": "human", "level": "easy"}, {"kind": "human"}]},
            "invalid",
            "seats.0.level",
        ),
        ({"variant": {"players": 5}}, "bad_variant", "variant.players"),
    ],
)
def test_room_errors_name_the_field(alice, body: dict, code: str, field: str) -> None:
    client, _ = alice
    response = client.post("/api/rooms/", body, format="json")
    assert response.status_code == 400
    assert (error_of(response)["code"], error_of(response)["field"]) == (code, field)


def test_multiplayer_room_with_a_cpu_seat(alice, bob) -> None:
    client, _ = alice
    body = {
        "variant": {"players": 3, "board": "8x8"},
        "seats": [{"kind": "human"}, {"kind": "cpu", "level": "easy"}, {"kind": "human"}],
    }
    room = client.post("/api/rooms/", body, format="json").json()
    assert [seat["kind"] for seat in room["game"]["seats"]] == ["human", "cpu", "human"]
    other, _ = bob
    joined = other.post(f"/api/rooms/{room['code']}/join/", {}, format="json").json()
    assert (joined["state"], joined["game"]["you"]) == ("playing", ["red"])


def test_a_room_tells_when_the_cpu_may_take_an_absent_seat(alice, bob) -> None:
    creator, _ = alice
    joiner, _ = bob
    room = creator.post("/api/rooms/", {}, format="json").json()
    joiner.post(f"/api/rooms/{room['code']}/join/", {}, format="json")
    left = timezone.now() - timedelta(seconds=30)
    Seat.objects.filter(game__public_id=room["game"]["id"], color=1).update(absent_since=left)
    state = creator.get(f"/api/games/{room['game']['id']}/").json()
    white = state["seats"][1]
    assert datetime.fromisoformat(white["takeover_at"]) == left + timedelta(minutes=2)
    response = creator.post(
        f"/api/games/{room['game']['id']}/takeover/", {"color": "white"}, format="json"
    )
    assert (response.status_code, error_of(response)["code"]) == (400, "player_recently_left")


def test_takeover_endpoint_refuses_a_present_player(alice, bob) -> None:
    client, _ = alice
    room = client.post("/api/rooms/", {}, format="json").json()
    other, _ = bob
    other.post(f"/api/rooms/{room['code']}/join/", {}, format="json")
    response = client.post(
        f"/api/games/{room['game']['id']}/takeover/", {"color": "white"}, format="json"
    )
    assert (response.status_code, error_of(response)["code"]) == (400, "player_recently_left")
    response = client.post(f"/api/games/{room['game']['id']}/takeover/", {}, format="json")
    assert (response.status_code, error_of(response)["field"]) == (400, "color")


def test_schema_and_docs(guest: APIClient) -> None:
    schema = guest.get("/api/schema/")
    assert schema.status_code == 200
    assert b"/api/games/{public_id}/moves/" in schema.content
    assert guest.get("/api/docs/").status_code == 200


def test_the_schema_documents_the_answer_and_error_responses_of_a_move(guest: APIClient) -> None:
    schema = guest.get("/api/schema/?format=json").json()
    move = schema["paths"]["/api/games/{public_id}/moves/"]["post"]
    assert {"400", "403", "404", "409"} <= set(move["responses"])
    answer = move["responses"]["201"]["content"]["application/json"]["schema"]
    assert answer == {"$ref": "#/components/schemas/MoveAnswer"}
    shapes = schema["components"]["schemas"]["MoveAnswer"]["oneOf"]
    assert shapes == [
        {"$ref": "#/components/schemas/MoveEvent"},
        {"$ref": "#/components/schemas/GameEvent"},
    ]
    error = move["responses"]["409"]["content"]["application/json"]["schema"]
    assert error == {"$ref": "#/components/schemas/Error"}
    assert "legal_moves" in schema["components"]["schemas"]["MoveEvent"]["properties"]
    assert "board" not in schema["components"]["schemas"]["MoveEvent"]["properties"]


def test_a_guest_who_signs_up_keeps_their_games(guest: APIClient) -> None:
    game = create(guest, mode="local")
    response = guest.post(
        "/api/auth/signup/", {"username": "erin", "password": "pale blue hills"}, format="json"
    )
    account = APIClient()
    account.credentials(HTTP_AUTHORIZATION=f"Token {response.json()['token']}")
    assert [item["id"] for item in account.get("/api/games/").json()["games"]] == [game["id"]]
    assert move(account, game, "f5").status_code == 201


def test_a_guest_who_logs_in_keeps_their_games(guest: APIClient, alice) -> None:
    game = create(guest, mode="local")
    # django-axes checks every login against its request.
    assert guest.login(request=HttpRequest(), username="alice", password="a long passphrase")
    listed = guest.get("/api/games/?status=active").json()["games"]
    assert [(item["id"], item["you"]) for item in listed] == [(game["id"], ["black", "white"])]
    assert guest.get("/api/me/").json()["username"] == "alice"


@pytest.mark.parametrize(
    ("method", "path"),
    [
        ("get", "/api/rooms/%00/"),
        ("post", "/api/rooms/%00/join/"),
        ("post", "/api/rooms/a%00b/rematch/"),
    ],
)
def test_a_room_code_with_a_nul_byte_is_a_404_not_a_server_error(
    alice, method: str, path: str
) -> None:
    client, _ = alice
    client.raise_request_exception = False
    response = getattr(client, method)(path, {}, format="json")
    assert response.status_code == 404
    assert error_of(response)["code"] == "not_found"


def test_a_player_who_just_moved_over_http_is_not_taken_over(alice, bob) -> None:
    creator, _ = alice
    joiner, _ = bob
    room = creator.post("/api/rooms/", {}, format="json").json()
    game_id = room["game"]["id"]
    joiner.post(f"/api/rooms/{room['code']}/join/", {}, format="json")
    creator.post(f"/api/games/{game_id}/moves/", {"move": "f5", "ply": 0}, format="json")
    # White has played only over HTTP (no websocket) for more than two minutes ...
    Seat.objects.filter(game__public_id=game_id, color=1).update(
        absent_since=timezone.now() - timedelta(minutes=3)
    )
    moved = joiner.post(f"/api/games/{game_id}/moves/", {"move": "d6", "ply": 1}, format="json")
    assert moved.status_code == 201
    # ... and has just moved: they are not away.
    response = creator.post(
        f"/api/games/{game_id}/takeover/", {"color": "white", "level": "easy"}, format="json"
    )
    assert response.status_code == 400
    assert Seat.objects.get(game__public_id=game_id, color=1).kind == "human"


def test_a_guest_who_signs_up_keeps_playing_in_the_same_browser(guest: APIClient) -> None:
    game = guest.post("/api/games/", {"mode": "local"}, format="json").json()
    signup = guest.post(
        "/api/auth/signup/", {"username": "newbie", "password": "a long passphrase"}, format="json"
    )
    assert signup.status_code == 201
    moved = guest.post(f"/api/games/{game['id']}/moves/", {"move": "f5", "ply": 0}, format="json")
    assert moved.status_code == 201
    assert guest.get("/api/me/").json()["username"] == "newbie"


def test_a_guest_signup_needs_the_csrf_token() -> None:
    browser = APIClient(enforce_csrf_checks=True)
    browser.cookies["csrftoken"] = "a" * 32
    game = browser.post("/api/games/", {"mode": "local"}, format="json", HTTP_X_CSRFTOKEN="a" * 32)
    assert game.status_code == 201
    body = {"username": "newbie", "password": "a long passphrase"}
    forged = browser.post("/api/auth/signup/", body, format="json")
    assert (forged.status_code, error_of(forged)["code"]) == (403, "csrf_failed")
    signup = browser.post("/api/auth/signup/", body, format="json", HTTP_X_CSRFTOKEN="a" * 32)
    assert signup.status_code == 201


def test_a_form_encoded_room_request_does_not_silently_drop_its_seats(alice) -> None:
    client, _ = alice
    response = client.post(
        "/api/rooms/",
        {"seats": '[{"kind": "human"}, {"kind": "cpu", "level": "easy"}]'},
        format="multipart",
    )
    assert (response.status_code, error_of(response)["code"]) == (415, "unsupported_media_type")
    assert not Room.objects.exists()


def test_an_anonymous_moderation_request_is_told_how_to_authenticate(guest: APIClient) -> None:
    response = guest.get("/api/moderation/log/")
    assert (response.status_code, response["WWW-Authenticate"]) == (401, "Token")
    assert error_of(response)["code"] == "not_authenticated"


def test_the_schema_has_no_warnings(tmp_path) -> None:
    schema = tmp_path / "schema.yaml"
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(schema))


@pytest.mark.parametrize(
    ("path", "raw_body"),
    [
        ("/api/games/", b'{"mode": "\\ud800"}'),
        ("/api/games/", b'{"\\ud800": 1}'),
        ("/api/rooms/", b'{"seats": [{"kind": "\\ud800"}, {"kind": "human"}]}'),
        ("/api/games/", b'{"variant": {"\\udfff": 1}}'),
        ("/api/ratings/", b'{"value": "good\\ud800"}'),
        ("/api/comments/", b'{"text": "hi", "\\udfff": 1}'),
    ],
)
def test_a_lone_surrogate_echoed_in_an_error_gets_a_json_400(
    alice, path: str, raw_body: bytes
) -> None:
    client, _ = alice
    client.raise_request_exception = False
    response = client.generic("POST", path, raw_body, content_type="application/json")
    assert response.status_code == 400
    assert error_of(response)["field"]


def test_listing_games_runs_the_same_queries_for_any_number_of_games(alice) -> None:
    client, _ = alice
    counts = []
    for _ in range(3):
        create(client, mode="cpu")
        create(client, mode="local")
        client.post("/api/rooms/", {}, format="json")
        with CaptureQueriesContext(connection) as queries:
            response = client.get("/api/games/")
        assert response.status_code == 200
        counts.append((len(response.json()["games"]), len(queries)))
    assert [listed for listed, _ in counts] == [3, 6, 9]
    assert len({queries for _, queries in counts}) == 1, counts


# The queries of one move over the API, its answer and its event included: the token, the
# transaction (BEGIN, the game locked by its public id, its seats, the move, the mover's seats
# marked present in one update, the game, the record for the event, COMMIT); versus the CPU
# also the count of the player's queued searches. The flag is read from the locked row, the
# game's key is not looked up before the lock, and the answer is the event's text (no record,
# bot accounts or ratings read again for a full state).
QUERIES_PER_MOVE = {"local": 9, "cpu": 10}


@pytest.mark.parametrize("mode", ["local", "cpu"])
def test_a_move_runs_a_fixed_number_of_queries(alice, mode: str) -> None:
    client, _ = alice
    game = create(client, mode=mode)
    for notation in ["d3", "c3", "c4"] if mode == "local" else ["d3"]:
        with CaptureQueriesContext(connection) as queries:
            response = move(client, game, notation)
        assert response.status_code == 201, response.json()
        game = {**game, "ply": response.json()["ply"]}
        sql = [query["sql"] for query in queries.captured_queries]
        assert len(sql) <= QUERIES_PER_MOVE[mode], sql
