"""Accounts API: public player profiles and the rating in ``/api/me/``."""

import pytest
from drf_spectacular.generators import SchemaGenerator
from rest_framework.test import APIClient

from games.accounts.models import PlayerRating
from games.services import games
from tests.games.accounts.conftest import play_out, room_game
from tests.games.conftest import BLACK_WIPES_OUT

pytestmark = pytest.mark.django_db


def test_a_players_public_profile(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})

    response = APIClient().get("/api/players/bob/")

    assert response.status_code == 200
    body = response.json()
    assert body["username"] == "bob"
    assert body["rating"] == 1338  # Glicko-2 from 1500 ± 350
    assert body["provisional"] is True
    [untimed] = body["ratings"]
    assert (untimed["rating_class"], untimed["rating"], untimed["deviation"]) == (
        "untimed",
        1338,
        290,
    )
    assert body["games"] == {"played": 1, "won": 0, "lost": 1, "drawn": 0}
    [entry] = body["recent_games"]
    assert entry["id"] == game.public_id
    assert entry["url"] == f"/play/{game.public_id}/"  # anyone may read it: not the room's link
    assert (entry["mode"], entry["colors"], entry["opponents"]) == ("room", ["white"], ["alice"])
    assert (entry["outcome"], entry["rating_change"]) == ("loss", -162)


def test_a_hot_seat_game_is_listed_without_a_win_or_loss(make_player) -> None:
    alice = make_player("alice")
    game = games.create_local_game(player=alice, variant={}, undo_allowed=False)
    play_out(game, BLACK_WIPES_OUT, {0: alice, 1: alice})

    [entry] = APIClient().get("/api/players/alice/").json()["recent_games"]

    assert (entry["mode"], entry["colors"], entry["opponents"]) == ("local", ["black", "white"], [])
    assert (entry["outcome"], entry["rating_change"]) == (None, None)


def test_an_unknown_player_is_a_404_in_the_error_shape() -> None:
    response = APIClient().get("/api/players/nobody/")
    assert response.status_code == 404
    assert APIClient().get("/api/players/a%00b/").status_code == 404
    assert APIClient().get("/players/a%00b/").status_code == 404
    assert response.json() == {
        "error": {
            "code": "player_not_found",
            "message": "There is no player nobody.",
            "field": "username",
        }
    }


def test_me_carries_the_rating(alice, guest) -> None:
    client, _ = alice
    assert client.get("/api/me/").json()["rating"] == 1500
    assert guest.get("/api/me/").json()["rating"] is None


def test_the_player_profile_is_in_the_schema() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert "get" in schema["paths"]["/api/players/{username}/"]


def error_of(response) -> dict:
    return response.json()["error"]


def test_signup_token_and_me(guest: APIClient) -> None:
    response = guest.post(
        "/api/auth/signup/", {"username": "carol", "password": "pale blue hills"}, format="json"
    )
    assert response.status_code == 201
    token = response.json()["token"]
    # Only a hash of each secret is kept: the password gives a new token, the first one stays.
    again = guest.post("/api/auth/token/", {"username": "carol", "password": "pale blue hills"})
    assert again.status_code == 200
    assert again.json()["token"] != token
    assert again.json()["scopes"] == ["challenge", "play", "read"]
    client = APIClient()
    assert client.get("/api/me/").json()["guest"] is True
    for secret in (token, again.json()["token"]):
        client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
        assert client.get("/api/me/").json()["username"] == "carol"


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"username": "alice", "password": "pale blue hills"}, "username_taken", "username"),
        # as the sign-up page (Django's form) refuses it: "ALICE" would pass for alice
        ({"username": "ALICE", "password": "pale blue hills"}, "username_taken", "username"),
        ({"username": "dave", "password": "123"}, "weak_password", "password"),
        ({"username": "dave"}, "required", "password"),
        (
            {"username": "dave", "password": "pale blue hills", "mail": "x@example.com"},
            "unknown_field",
            "mail",
        ),
        ({"username": "dave", "password": "pale blue hills", "email": "x"}, "invalid", "email"),
    ],
)
def test_signup_errors_name_the_field(alice, guest: APIClient, body, code, field) -> None:
    response = guest.post("/api/auth/signup/", body, format="json")
    assert response.status_code == 400
    assert (error_of(response)["code"], error_of(response)["field"]) == (code, field)


def test_signup_refuses_a_username_the_site_itself_would_reject(guest: APIClient) -> None:
    response = guest.post(
        "/api/auth/signup/",
        {"username": "a b/c <x>", "password": "a long passphrase"},
        format="json",
    )
    assert response.status_code == 400
    assert error_of(response)["field"] == "username"


def test_wrong_password_gets_no_token(alice, guest: APIClient) -> None:
    response = guest.post("/api/auth/token/", {"username": "alice", "password": "nope"})
    assert (response.status_code, error_of(response)["code"]) == (400, "invalid_credentials")


def test_the_leaderboard_lists_a_class_best_first_with_the_provisional_marker(make_player) -> None:
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})
    PlayerRating.objects.create(user_id=carol.user_id, rating=1400, deviation=60, played=30)

    body = APIClient().get("/api/leaderboard/").json()

    assert body["rating_class"] == "untimed"
    assert "blitz" in body["classes"]
    assert "tables" in body["classes"]
    ranked = [(p["rank"], p["username"], p["provisional"]) for p in body["players"]]
    assert ranked == [(1, "carol", False), (2, "alice", True), (3, "bob", True)]
    assert body["players"][1]["url"] == "/players/alice/"
    assert APIClient().get("/api/leaderboard/?rating_class=blitz").json()["players"] == []
    page = APIClient().get("/leaderboard/")
    assert page.status_code == 200
    assert 'data-player="carol"' in page.content.decode()


def test_an_unknown_rating_class_is_a_clear_400() -> None:
    response = APIClient().get("/api/leaderboard/?rating_class=lightning")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "rating_class"
    assert APIClient().get("/leaderboard/?rating_class=lightning").status_code == 404
