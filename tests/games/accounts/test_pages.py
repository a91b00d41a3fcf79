"""Account pages: sign up, log in, log out, profiles; a guest's games follow them to the account."""

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from games.models import Seat
from tests.games.accounts.conftest import play_out, room_game
from tests.games.conftest import BLACK_WIPES_OUT

pytestmark = pytest.mark.django_db

PASSWORD = "a long passphrase"


def guest_cpu_game(client: Client) -> str:
    response = client.post(
        "/api/games/", {"mode": "cpu", "level": "easy", "color": "black"}, "application/json"
    )
    assert response.status_code == 201
    return response.json()["id"]


def test_guest_header_links_to_log_in_and_sign_up() -> None:
    page = Client().get("/").content.decode()
    assert 'href="/accounts/login/"' in page
    assert 'href="/accounts/signup/"' in page
    assert "/accounts/logout/" not in page


def test_signing_up_logs_in_and_keeps_the_guests_games() -> None:
    client = Client()
    game_id = guest_cpu_game(client)

    response = client.post(
        "/accounts/signup/",
        {"username": "alice", "password1": PASSWORD, "password2": PASSWORD},
    )

    assert response.status_code == 302
    assert response["Location"] == "/accounts/profile/"
    alice = get_user_model().objects.get(username="alice")
    assert Seat.objects.get(game__public_id=game_id, kind="human").user == alice
    page = client.get("/").content.decode()
    assert 'href="/accounts/profile/" class="account-name">alice</a>' in page
    assert 'action="/accounts/logout/"' in page


def test_signup_names_the_field_at_fault() -> None:
    get_user_model().objects.create_user("alice", password=PASSWORD)
    response = Client().post(
        "/accounts/signup/", {"username": "alice", "password1": PASSWORD, "password2": "other"}
    )
    assert response.status_code == 200
    assert response.context["form"].errors.keys() == {"username", "password2"}
    assert get_user_model().objects.count() == 1


def test_logging_in_claims_the_guests_games_and_logging_out_needs_post() -> None:
    get_user_model().objects.create_user("alice", password=PASSWORD)
    client = Client()
    game_id = guest_cpu_game(client)

    response = client.post("/accounts/login/", {"username": "alice", "password": "wrong"})
    assert response.status_code == 200
    assert response.context["form"].non_field_errors()

    response = client.post("/accounts/login/", {"username": "alice", "password": PASSWORD})
    assert response["Location"] == "/accounts/profile/"
    assert Seat.objects.get(game__public_id=game_id, kind="human").user.username == "alice"
    assert client.get("/accounts/profile/").status_code == 200

    assert client.get("/accounts/logout/").status_code == 405
    assert client.post("/accounts/logout/")["Location"] == "/"
    assert client.get("/accounts/profile/")["Location"].startswith("/accounts/login/")


def test_profiles_show_the_rating_and_the_finished_games(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})
    client = Client()
    client.force_login(get_user_model().objects.get(username="bob"))

    own = client.get("/accounts/profile/")
    public = client.get("/players/alice/")

    assert own.context["profile"]["rating"] == 1338
    assert own.context["own"] is True
    page = public.content.decode()
    assert public.context["own"] is False
    assert '<dd><span id="profile-rating">1662</span><abbr class="provisional"' in page
    assert '<dd id="profile-won">1</dd>' in page
    assert f'href="/play/{game.public_id}/"' in page  # the game's page, not its room's link
    assert game.room.code not in page
    assert "+162" in page
    assert "friend room" in page
    assert Client().get("/players/nobody/").status_code == 404


def test_profile_pages_are_translated(make_player) -> None:
    make_player("alice")
    client = Client(headers={"accept-language": "ja"})
    assert "レーティング" in client.get("/players/alice/").content.decode()
    assert "ログイン" in client.get("/accounts/login/").content.decode()


@pytest.mark.parametrize(
    ("language", "blitz", "untimed"),
    [("en", "Blitz", "Untimed"), ("ja", "ブリッツ", "持ち時間なし"), ("ru", "Блиц", "Без часов")],
)
def test_the_rating_classes_are_named_in_the_pages_language(language, blitz, untimed) -> None:
    """The leaderboard's and the profile's class names are translated (they were the API's
    codes, "blitz", "untimed", on Japanese and Russian pages too); the links keep the codes."""
    get_user_model().objects.create_user("alice", password="a long passphrase")
    browser = Client(HTTP_ACCEPT_LANGUAGE=language)
    board = browser.get("/leaderboard/").content.decode()
    assert f'<a href="?rating_class=blitz">{blitz}</a>' in board
    assert f">{untimed}</a>" in board
    profile = browser.get("/players/alice/").content.decode()
    assert f'?rating_class=untimed">{untimed}</a>' in profile
