"""Personal access tokens (issue 14 §6): scopes enforced on every endpoint, several per account,
named, revocable, listed without their secrets, kept only as hashes; and bot accounts."""

import hashlib

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from rest_framework.test import APIClient

from games.accounts.models import AccessToken
from games.accounts.tokens import TOKENS_PER_ACCOUNT, issue_token
from games.identity import Player
from games.services import rooms

pytestmark = pytest.mark.django_db
PASSWORD = "a long passphrase"


def account(username: str) -> tuple[APIClient, object]:
    """A browser signed in to a new account (a session, no token)."""
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    client = APIClient()
    client.force_login(user)
    return client, user


def with_token(user: object, *scopes: str) -> APIClient:
    client = APIClient()
    _, secret = issue_token(user=user, name="test", scopes=scopes)
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return client


def error_of(response) -> tuple[int, str, str | None]:
    error = response.json()["error"]
    return response.status_code, error["code"], error["field"]


def test_a_read_token_reads_but_cannot_move_or_challenge() -> None:
    _, user = account("alice")
    account("bob")
    reader = with_token(user, "read")
    assert reader.get("/api/games/").status_code == 200
    assert reader.get("/api/challenges/").status_code == 200

    created = reader.post("/api/games/", {"mode": "local"}, format="json")
    assert error_of(created)[:2] == (403, "token_scope")
    assert "play" in created.json()["error"]["message"]
    challenge = reader.post("/api/challenges/", {"username": "bob"}, format="json")
    assert error_of(challenge)[:2] == (403, "token_scope")


def test_each_write_needs_its_own_scope() -> None:
    _, user = account("alice")
    account("bob")
    player = with_token(user, "play")
    challenger = with_token(user, "challenge")
    assert player.get("/api/games/").status_code == 403  # no "read"
    game = player.post("/api/games/", {"mode": "local"}, format="json")
    assert game.status_code == 201
    assert (
        player.post(
            f"/api/games/{game.json()['id']}/moves/", {"move": "d3", "ply": 0}, format="json"
        ).status_code
        == 201
    )
    assert error_of(player.post("/api/challenges/", {"username": "bob"}, format="json"))[:2] == (
        403,
        "token_scope",
    )
    sent = challenger.post("/api/challenges/", {"username": "bob"}, format="json")
    assert sent.status_code == 201
    assert challenger.post(f"/api/challenges/{sent.json()['id']}/cancel/").status_code == 200
    assert challenger.post("/api/games/", {"mode": "local"}, format="json").status_code == 403


def test_tokens_are_listed_without_secrets_and_kept_as_hashes() -> None:
    browser, _ = account("alice")
    made = browser.post(
        "/api/tokens/", {"name": "my bot", "scopes": ["read", "play"]}, format="json"
    )
    assert made.status_code == 201
    secret = made.json()["token"]
    second = browser.post("/api/tokens/", {"name": "script"}, format="json").json()
    assert second["scopes"] == ["challenge", "play", "read"]  # every scope unless told

    listed = browser.get("/api/tokens/").json()
    assert [entry["name"] for entry in listed] == ["script", "my bot"]
    assert listed[1]["prefix"] == secret[:8]
    assert listed[1]["scopes"] == ["play", "read"]
    assert secret not in str(listed)
    stored = AccessToken.objects.get(pk=made.json()["id"])
    assert stored.key_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in str(list(AccessToken.objects.values_list()))


def test_a_revoked_token_is_refused_at_once() -> None:
    browser, user = account("alice")
    made = browser.post("/api/tokens/", {"name": "old"}, format="json").json()
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {made['token']}")
    assert client.get("/api/me/").json()["username"] == "alice"
    kept = with_token(user, "read")

    assert browser.delete(f"/api/tokens/{made['id']}/").status_code == 204

    answer = client.get("/api/me/")
    assert (answer.status_code, answer["WWW-Authenticate"]) == (401, "Token")
    assert kept.get("/api/me/").status_code == 200  # the others stay
    assert error_of(browser.delete(f"/api/tokens/{made['id']}/"))[:2] == (404, "token_not_found")


def test_no_token_makes_or_revokes_tokens_and_nobody_revokes_anothers() -> None:
    _, user = account("alice")
    other, _ = account("bob")
    full = with_token(user, "read", "play", "challenge")
    token = AccessToken.objects.get(user=user)
    assert error_of(full.post("/api/tokens/", {"name": "x"}, format="json"))[:2] == (
        403,
        "token_not_allowed",
    )
    assert full.delete(f"/api/tokens/{token.pk}/").status_code == 403
    assert error_of(other.delete(f"/api/tokens/{token.pk}/"))[:2] == (404, "token_not_found")
    assert error_of(APIClient().get("/api/tokens/"))[:2] == (401, "not_signed_in")


@pytest.mark.parametrize("scopes", [["admin"], [], "read"], ids=["unknown", "none", "not-a-list"])
def test_bad_scopes_are_a_400_naming_the_field(scopes) -> None:
    browser, _ = account("alice")
    answer = browser.post("/api/tokens/", {"name": "x", "scopes": scopes}, format="json")
    assert error_of(answer)[0::2] == (400, "scopes")


def test_an_account_holds_a_bounded_number_of_tokens() -> None:
    browser, user = account("alice")
    for _ in range(TOKENS_PER_ACCOUNT):
        issue_token(user=user, name="many")
    assert error_of(browser.post("/api/tokens/", {"name": "one more"}, format="json"))[:2] == (
        409,
        "too_many_tokens",
    )


def test_the_password_endpoint_gives_a_token_with_the_scopes_asked_for() -> None:
    account("alice")
    answer = APIClient().post(
        "/api/auth/token/",
        {"username": "alice", "password": PASSWORD, "name": "reader", "scopes": ["read"]},
        format="json",
    )
    assert answer.status_code == 200
    reader = APIClient()
    reader.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert reader.get("/api/me/").status_code == 200
    assert reader.post("/api/games/", {"mode": "local"}, format="json").status_code == 403


def test_a_bot_signs_up_and_is_shown_as_one() -> None:
    answer = APIClient().post(
        "/api/auth/signup/", {"username": "robo", "password": PASSWORD, "bot": True}, format="json"
    )
    assert answer.status_code == 201
    assert answer.json()["user"]["bot"] is True
    bot = APIClient()
    bot.credentials(HTTP_AUTHORIZATION=f"Token {answer.json()['token']}")
    assert bot.get("/api/me/").json()["bot"] is True
    assert APIClient().get("/api/players/robo/").json()["bot"] is True
    page = APIClient().get("/players/robo/")
    assert b'id="profile-bot"' in page.content

    person, user = account("alice")
    assert person.get("/api/me/").json()["bot"] is False
    room = rooms.create_room(player=Player(user_id=user.pk), variant={}, seats=None)
    robo = get_user_model().objects.get(username="robo")
    rooms.join_room(player=Player(user_id=robo.pk), code=room.code)
    seats = person.get(f"/api/games/{room.game.public_id}/").json()["seats"]
    assert [(seat["account"], seat["bot"]) for seat in seats] == [("alice", False), ("robo", True)]


def test_an_account_becomes_a_bot_only_before_it_has_played() -> None:
    _, fresh = account("fresh")
    _, played = account("played")
    upgrader = with_token(fresh, "play")
    assert upgrader.post("/api/bot/account/upgrade/").json() == {"username": "fresh", "bot": True}
    assert upgrader.post("/api/bot/account/upgrade/").status_code == 200  # stays a bot
    veteran = with_token(played, "play", "read")
    assert veteran.post("/api/games/", {"mode": "local"}, format="json").status_code == 201
    assert error_of(veteran.post("/api/bot/account/upgrade/"))[:2] == (409, "bot_has_played")
    assert error_of(with_token(fresh, "read").post("/api/bot/account/upgrade/"))[:2] == (
        403,
        "token_scope",
    )


def test_bots_stay_out_of_the_lobby_but_take_challenges() -> None:
    _, robo = account("robo")
    account("alice")
    bot = with_token(robo, "read", "play", "challenge")
    assert bot.post("/api/bot/account/upgrade/").status_code == 200
    seek = bot.post("/api/lobby/seeks/", {}, format="json")
    assert error_of(seek)[:2] == (403, "bot_uses_challenges")
    assert error_of(bot.post("/api/lobby/quick/", {}, format="json"))[:2] == (
        403,
        "bot_uses_challenges",
    )
    sent = bot.post("/api/challenges/", {"username": "alice", "rated": True}, format="json")
    assert sent.status_code == 201


def test_the_profile_page_lists_creates_and_revokes_tokens() -> None:
    _, user = account("alice")
    browser = Client()  # form posts, as a browser sends them
    browser.force_login(user)
    issue_token(user=user, name="old script", scopes=["read"])
    page = browser.get("/accounts/profile/")
    assert b"old script" in page.content

    made = browser.post("/accounts/tokens/", {"name": "new bot", "scopes": ["read", "play"]})
    assert made.status_code == 200
    token = AccessToken.objects.get(name="new bot")
    secret = made.content.decode().split('id="new-token-secret">')[1].split("<")[0]
    assert token.key_hash == hashlib.sha256(secret.encode()).hexdigest()
    assert secret not in browser.get("/accounts/profile/").content.decode()  # shown once
    assert browser.post("/accounts/tokens/", {"name": "", "scopes": []}).status_code == 400

    revoked = browser.post(f"/accounts/tokens/{token.pk}/revoke/")
    assert revoked.status_code == 302
    assert not AccessToken.objects.filter(pk=token.pk).exists()
    _, other = account("bob")
    theirs, _ = issue_token(user=other, name="bob's")
    assert browser.post(f"/accounts/tokens/{theirs.pk}/revoke/").status_code == 404
    assert b"access-tokens" not in APIClient().get("/players/alice/").content


def test_the_account_endpoints_keep_the_token_scopes() -> None:
    _, user = account("alice")
    reader = with_token(user, "read")
    assert reader.get("/api/me/data/").status_code == 200
    for path, body in (
        ("/api/me/password/", {"old_password": PASSWORD, "new_password": "another passphrase"}),
        ("/api/me/delete/", {"password": PASSWORD}),
    ):
        assert error_of(reader.post(path, body, format="json"))[:2] == (403, "token_scope"), path
    assert get_user_model().objects.get(pk=user.pk).check_password(PASSWORD)
    assert with_token(user, "play").get("/api/me/data/").status_code == 403  # no "read"


def test_no_token_changes_the_address_that_password_resets_go_to() -> None:
    """A leaked "play" token (a bot's) must not take the account over: a new address of the
    attacker's, verified, would get the password reset link. Only a signed-in browser (the
    password's holder) changes it, as with tokens."""
    browser, user = account("alice")
    for scopes in (("read",), ("play",), ("read", "play", "challenge")):
        answer = with_token(user, *scopes).post(
            "/api/me/email/", {"email": "mallory@example.com"}, format="json"
        )
        assert error_of(answer)[:2] == (403, "token_not_allowed"), scopes
    assert get_user_model().objects.get(pk=user.pk).email == ""
    assert browser.post("/api/me/email/", {"email": ""}, format="json").status_code == 200
