"""Fixtures of the game-service tests: players as API clients (guests and accounts)."""

from collections.abc import Iterator

import pytest
import redis
from channels.layers import channel_layers
from django.conf import settings as django_settings
from django.contrib.auth import get_user_model
from django.db import connection
from django.utils import translation
from rest_framework.test import APIClient

from games.accounts.tokens import issue_token
from games.identity import Player

# Short games found with the engine: after these moves black has no move and must pass
# (white to move next), and a 9-move game where black wipes white out.
BLACK_MUST_PASS = ["d3", "c3", "b3", "b2", "e6", "a3", "a1", "c1"]
BLACK_WIPES_OUT = ["d3", "e3", "f6", "c4", "b3", "c3", "f3", "d6", "d7"]


@pytest.fixture(autouse=True)
def default_language() -> Iterator[None]:
    """Every test starts in the site's language: a request in Japanese leaves it active."""
    with translation.override(django_settings.LANGUAGE_CODE):
        yield


@pytest.fixture(autouse=True)
def fresh_channel_layer() -> Iterator[None]:
    """Each test gets its own channel layer: channels_redis binds its locks to the event loop
    that first used them, and every ``async_to_sync`` runs a new loop (a receive cut off in one
    test left a lock held that the next test's loop could not take)."""
    channel_layers.backends.clear()
    yield
    channel_layers.backends.clear()


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    """Every test starts with no throttle counts or login failures (they live in the shared
    Redis cache, under its key prefix; the queues and channels beside them stay)."""
    store = redis.Redis.from_url(django_settings.CACHES["default"]["LOCATION"])
    prefix = django_settings.CACHES["default"]["KEY_PREFIX"]
    for key in store.scan_iter(match=f"{prefix}:*"):
        store.delete(key)


@pytest.fixture(autouse=True)
def fresh_presence() -> None:
    """Every test starts with nobody online and no one at a board: a connection counts for
    ``presence.TTL`` seconds after its last renewal, so a previous test's would still count."""
    store = redis.Redis.from_url(django_settings.REDIS_URL)
    database = connection.settings_dict["NAME"]
    for pattern in ("online*", "presence*", "spectators*"):
        for key in store.scan_iter(match=f"{pattern}:{database}*"):
            store.delete(key)


@pytest.fixture(autouse=True)
def fast_password_hasher(settings: object) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]  # type: ignore[attr-defined]


@pytest.fixture
def make_account(db: None):
    """An API client signed in with a token, and its player identity."""

    def make(username: str) -> tuple[APIClient, Player]:
        user = get_user_model().objects.create_user(username, password="a long passphrase")
        client = APIClient()
        _, secret = issue_token(user=user, name="tests")
        client.credentials(HTTP_AUTHORIZATION=f"Token {secret}")
        return client, Player(user_id=user.pk)

    return make


@pytest.fixture
def alice(make_account) -> tuple[APIClient, Player]:
    return make_account("alice")


@pytest.fixture
def bob(make_account) -> tuple[APIClient, Player]:
    return make_account("bob")


@pytest.fixture
def guest() -> APIClient:
    """A browser without an account (its identity lives in the session cookie)."""
    return APIClient()
