"""Every write of the API is throttled (DRF throttles, counted in Redis for every process)
and the schema documents it (issue 10 §2); CPU games in progress are limited per player
(issue 10 §3)."""

import threading

import pytest
import redis
from django.conf import settings as django_settings
from django.db import connection
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db

CPU_GAME = {"mode": "cpu", "level": "easy", "color": "black"}


@pytest.fixture
def rates(settings):
    def set_rates(**scopes: str) -> None:
        current = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
        settings.REST_FRAMEWORK = settings.REST_FRAMEWORK | {
            "DEFAULT_THROTTLE_RATES": current | scopes
        }

    return set_rates


def created_at_once(client: APIClient, body: dict, *, count: int) -> list[int]:
    """The statuses of ``count`` game creations with the client's token, sent at once from as
    many threads."""
    token = client._credentials["HTTP_AUTHORIZATION"]
    statuses: list[int] = []
    start = threading.Barrier(count)

    def create() -> None:
        own = APIClient(HTTP_AUTHORIZATION=token)
        start.wait()
        try:
            statuses.append(own.post("/api/games/", body, format="json").status_code)
        finally:
            connection.close()

    threads = [threading.Thread(target=create) for _ in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return statuses


def test_game_creation_is_throttled_per_account_with_retry_after(alice, bob, rates) -> None:
    rates(game_create="2/min")
    client, _ = alice
    for _ in range(2):
        assert client.post("/api/games/", {"mode": "local"}, format="json").status_code == 201
    refused = client.post("/api/games/", {"mode": "local"}, format="json")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "throttled"
    assert 0 < int(refused["Retry-After"]) <= 60
    assert client.get("/api/games/").status_code == 200  # reads are never throttled
    other, _ = bob
    assert other.post("/api/games/", {"mode": "local"}, format="json").status_code == 201


def test_throttle_counts_live_in_the_shared_redis_cache(alice, rates, settings) -> None:
    """Another server process sees the same counts: they are in Redis, not in memory."""
    rates(move="1/min")
    client, player = alice
    game = client.post("/api/games/", {"mode": "local"}, format="json").json()
    moves = f"/api/games/{game['id']}/moves/"
    assert client.post(moves, {"move": "d3", "ply": 0}, format="json").status_code == 201
    store = redis.Redis.from_url(settings.REDIS_URL)
    prefix = settings.CACHES["default"]["KEY_PREFIX"]
    assert list(store.scan_iter(match=f"{prefix}:throttle:*/move/user:{player.user_id}/*"))
    assert client.post(moves, {"move": "c3", "ply": 1}, format="json").status_code == 429


@pytest.mark.django_db(transaction=True)
def test_writes_sent_at_once_cannot_pass_the_rate(make_account, rates) -> None:
    """The count reads and adds in one call: of writes sent together, exactly the rate pass."""
    rates(game_create="3/min")
    client, _ = make_account("burster")
    statuses = created_at_once(client, {"mode": "local"}, count=12)
    assert (statuses.count(201), statuses.count(429)) == (3, 9), statuses


def test_analysis_requests_have_their_own_lower_rate(alice, rates) -> None:
    """An analysis costs a worker seconds of CPU: it is counted apart from moves, at its rate."""
    rates(analysis="1/min")
    client, _ = alice
    game = client.post("/api/games/", {"mode": "local"}, format="json").json()
    analysis = f"/api/games/{game['id']}/analysis/"
    assert client.post(analysis, {"ply": 0}, format="json").status_code == 202
    refused = client.post(analysis, {"ply": 0}, format="json")
    assert refused.status_code == 429
    assert refused.json()["error"]["code"] == "throttled"
    moves = f"/api/games/{game['id']}/moves/"
    assert client.post(moves, {"move": "d3", "ply": 0}, format="json").status_code == 201


def test_every_write_of_the_schema_documents_its_throttle() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    writes = [
        (path, method, operation)
        for path, item in schema["paths"].items()
        for method, operation in item.items()
        if method in {"post", "put", "patch", "delete"}
    ]
    assert len(writes) > 10
    for path, method, operation in writes:
        answer = operation["responses"].get("429")
        assert answer, f"{method} {path} documents no 429"
        assert "Retry-After" in answer.get("headers", {}), f"{method} {path}"
        assert answer["content"]["application/json"]["schema"]["$ref"].endswith("/Error")


def test_a_player_has_at_most_the_limit_of_cpu_games_in_progress(alice) -> None:
    client, _ = alice
    games = [
        client.post("/api/games/", CPU_GAME, format="json")
        for _ in range(django_settings.CPU_GAMES_IN_PROGRESS_LIMIT)
    ]
    assert all(game.status_code == 201 for game in games)
    refused = client.post("/api/games/", CPU_GAME, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    assert refused.status_code == 409
    error = refused.json()["error"]
    assert error["code"] == "too_many_cpu_games"
    assert str(django_settings.CPU_GAMES_IN_PROGRESS_LIMIT) in error["message"]
    assert "компьютера" in error["message"]
    # Hot-seat games are not limited; resigning a CPU game frees a place.
    assert client.post("/api/games/", {"mode": "local"}, format="json").status_code == 201
    resigned = client.post(f"/api/games/{games[0].json()['id']}/resign/", {}, format="json")
    assert resigned.status_code == 200, resigned.json()
    assert client.post("/api/games/", CPU_GAME, format="json").status_code == 201


@pytest.mark.django_db(transaction=True)
def test_concurrent_cpu_game_creations_cannot_pass_the_limit(make_account) -> None:
    client, _ = make_account("racer")
    statuses = created_at_once(
        client, CPU_GAME, count=django_settings.CPU_GAMES_IN_PROGRESS_LIMIT * 2
    )
    assert sorted(statuses).count(201) == django_settings.CPU_GAMES_IN_PROGRESS_LIMIT
    assert statuses.count(409) == django_settings.CPU_GAMES_IN_PROGRESS_LIMIT
