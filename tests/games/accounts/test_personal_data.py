"""An account's data download and its deletion (issue 14 §7): the file holds the profile,
ratings, games with their records and comments; a deleted account's games stay, anonymised."""

import json

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from games.accounts.bots import upgrade_to_bot
from games.accounts.models import AccessToken, EmailVerification, PlayerRating, RatingChange
from games.accounts.tokens import issue_token, token_of
from games.community.models import Comment, SiteRating
from games.identity import Player
from games.models import Game, Room, Seat
from games.public import DELETED_PLAYER
from games.services import games, rooms
from tests.games.accounts.conftest import play_out, room_game
from tests.games.conftest import BLACK_WIPES_OUT

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase"


def signed_in(player: Player) -> APIClient:
    client = APIClient()
    client.force_login(get_user_model().objects.get(pk=player.user_id))
    return client


def finished_rated_game(alice: Player, bob: Player) -> Game:
    game = room_game(alice, bob)
    return play_out(game, BLACK_WIPES_OUT, {0: alice, 1: bob})


def comment_by(client: APIClient, text: str) -> int:
    response = client.post("/api/comments/", {"text": text, "parent": None}, format="json")
    assert response.status_code == 201, response.content
    return response.json()["id"]


def test_the_data_file_holds_the_profile_ratings_games_and_comments(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = finished_rated_game(alice, bob)
    client = signed_in(alice)
    comment_by(client, "Good game, bob")

    response = client.get("/accounts/data/")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"] == 'attachment; filename="reversi-account-alice.json"'
    data = json.loads(response.content)
    assert data["account"]["username"] == "alice"
    assert data["profile"]["games"] == {"played": 1, "won": 1, "lost": 0, "drawn": 0}
    assert [row["rating_class"] for row in data["ratings"]] == ["untimed"]
    assert data["ratings"][0]["rating"] == PlayerRating.objects.get(user_id=alice.user_id).rating
    assert [change["score"] for change in data["rating_changes"]] == [1.0]
    (record,) = data["games"]
    assert record["id"] == game.public_id
    assert record["colors"] == ["black"]
    assert [move["move"] for move in record["moves"]] == BLACK_WIPES_OUT
    assert [player["name"] for player in record["players"]] == ["alice", "bob"]
    assert [comment["text"] for comment in data["comments"]] == ["Good game, bob"]
    assert client.get("/api/me/data/").json() == data


def test_the_data_file_lists_the_tokens_without_secrets_and_the_bot_flag(make_player) -> None:
    robo = get_user_model().objects.get(pk=make_player("robo").user_id)
    upgrade_to_bot(user=robo)
    token, secret = issue_token(user=robo, name="engine", scopes=["play", "read"])
    client = signed_in(Player(user_id=robo.pk))
    token_of(secret)  # used once: it has a last use
    token.refresh_from_db()
    assert token.last_used_at is not None

    response = client.get("/api/me/data/")

    data = response.json()
    assert data["account"]["bot"] is True
    assert data["access_tokens"] == [
        {
            "id": token.pk,
            "name": "engine",
            "prefix": secret[:8],
            "scopes": ["play", "read"],
            "created_at": token.created_at.isoformat(),
            "last_used_at": token.last_used_at.isoformat(),
        }
    ]
    assert secret not in response.content.decode()
    assert token.key_hash not in response.content.decode()


def test_the_data_file_needs_an_account() -> None:
    response = Client().get("/accounts/data/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_deleting_keeps_the_games_for_the_others_and_anonymises_comments(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = finished_rated_game(alice, bob)
    bob_change = RatingChange.objects.get(user_id=bob.user_id)
    client = signed_in(alice)
    comment_id = comment_by(client, "Good game, bob")
    assert client.post("/api/ratings/", {"value": "good"}, format="json").status_code in (200, 201)
    issue_token(user=get_user_model().objects.get(pk=alice.user_id), name="script")
    browser = Client()
    browser.force_login(get_user_model().objects.get(pk=alice.user_id))

    response = browser.post("/accounts/delete/", {"password": PASSWORD}, follow=True)

    assert response.redirect_chain[0] == ("/", 302)
    assert "Your account has been deleted." in response.content.decode()
    assert not get_user_model().objects.filter(username="alice").exists()
    assert browser.get("/api/me/").json()["guest"] is True
    seat = Seat.objects.get(game=game, color=0)
    assert (seat.user_id, seat.name) == (None, DELETED_PLAYER)
    state = APIClient().get(f"/api/games/{game.public_id}/").json()
    assert DELETED_PLAYER in json.dumps(state)
    assert not PlayerRating.objects.filter(user_id=alice.user_id).exists()
    assert not RatingChange.objects.filter(user_id=alice.user_id).exists()
    assert RatingChange.objects.get(user_id=bob.user_id) == bob_change
    assert Room.objects.get(game=game).owner_user_id is None
    comment = Comment.objects.get(pk=comment_id)
    assert (comment.text, comment.user_id, comment.ip_address) == ("Good game, bob", None, None)
    assert comment.visitor_key.startswith("deleted:")
    assert SiteRating.objects.get().visitor_key == comment.visitor_key
    assert not AccessToken.objects.filter(user_id=alice.user_id).exists()
    bob_profile = APIClient().get("/api/players/bob/").json()
    assert bob_profile["recent_games"][0]["opponents"] == [DELETED_PLAYER]
    exported = APIClient().get(f"/api/games/{game.public_id}/export/?format=txt")
    assert exported.status_code == 200


def test_deleting_needs_the_password(make_player) -> None:
    alice = make_player("alice")
    browser = Client()
    browser.force_login(get_user_model().objects.get(pk=alice.user_id))

    response = browser.post("/accounts/delete/", {"password": "not it"})

    assert response.status_code == 200
    assert response.context["form"].errors == {"password": ["Wrong password."]}
    assert get_user_model().objects.filter(username="alice").exists()
    api = signed_in(alice).post("/api/me/delete/", {"password": "not it"})
    assert api.status_code == 400
    assert api.json()["error"] == {
        "code": "wrong_password",
        "message": "Wrong password.",
        "field": "password",
    }
    missing = signed_in(alice).post("/api/me/delete/", {})
    assert missing.json()["error"]["field"] == "password"


def test_an_account_with_games_in_progress_is_not_deleted(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob)

    response = signed_in(alice).post("/api/me/delete/", {"password": PASSWORD})

    assert response.status_code == 409
    assert response.json()["error"]["code"] == "games_in_progress"
    assert "Games in progress: 1." in response.json()["error"]["message"]
    assert get_user_model().objects.filter(username="alice").exists()
    games.resign(player=alice, game_id=game.pk)
    assert signed_in(alice).post("/api/me/delete/", {"password": PASSWORD}).status_code == 204
    assert not get_user_model().objects.filter(username="alice").exists()


def test_deleting_gives_back_the_seats_of_waiting_games(make_player) -> None:
    alice, bob, carol = make_player("alice"), make_player("bob"), make_player("carol")
    alone = rooms.create_room(player=alice, variant={}, seats=None, time_control=None, rated=False)
    table = rooms.create_room(
        player=bob, variant={"players": 3}, seats=None, time_control=None, rated=False
    )
    rooms.join_room(player=alice, code=table.code)
    EmailVerification.objects.create(user_id=alice.user_id, email="alice@example.com")

    assert signed_in(alice).post("/api/me/delete/", {"password": PASSWORD}).status_code == 204

    assert not Game.objects.filter(pk=alone.game_id).exists()
    seats = Seat.objects.filter(game_id=table.game_id)
    assert [seat.user_id for seat in seats] == [bob.user_id, None, None]
    assert {seat.name for seat in seats} == {""}
    rooms.join_room(player=carol, code=table.code)
    joined = rooms.join_room(player=make_player("dave"), code=table.code)
    assert Game.objects.get(pk=joined.game_id).status == Game.Status.ACTIVE
    assert not EmailVerification.objects.exists()


def test_the_profile_links_the_account_pages_to_its_owner_only(make_player) -> None:
    make_player("alice")
    owner = Client()
    owner.force_login(get_user_model().objects.get(username="alice"))
    own = owner.get("/accounts/profile/").content.decode()
    for path in (
        "/accounts/data/",
        "/accounts/delete/",
        "/accounts/password/change/",
        "/accounts/email/",
    ):
        assert f'href="{path}"' in own
    public = Client().get("/players/alice/").content.decode()
    assert "/accounts/delete/" not in public
    assert "/accounts/data/" not in public
