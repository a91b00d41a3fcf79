"""The PostgreSQL connection pool (psycopg_pool through Django's ``OPTIONS["pool"]``): a burst of
requests queues for a connection instead of failing, and a request that waits too long for one
is a 503 envelope, not a 500."""

import asyncio
import threading
import time
from collections.abc import Iterator

import httpx
import psycopg
import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection
from psycopg_pool import ConnectionPool

from games.accounts.tokens import issue_token
from games.identity import Player
from games.services import games
from tests.servers import daphne

pytestmark = pytest.mark.django_db(transaction=True)

BURST = 150
CONNECTIONS_ALLOWED = 4  # the server's connection limit for the burst's database role


def test_each_process_has_a_pool_sized_from_the_environment() -> None:
    assert settings.DATABASES["default"]["OPTIONS"]["pool"]["max_size"] == (
        settings.POSTGRES_POOL_SIZE
    )
    assert settings.POSTGRES_POOL_SIZE > 0
    assert isinstance(connection.pool, ConnectionPool)


def sql(statement: str) -> None:
    with psycopg.connect(**server_params(), autocommit=True) as admin:
        admin.execute(statement)


def server_params() -> dict:
    database = connection.settings_dict
    return {
        "host": database["HOST"],
        "port": database["PORT"],
        "user": database["USER"],
        "dbname": database["NAME"],
    }


@pytest.fixture
def limited_role() -> Iterator[str]:
    """A database role that PostgreSQL lets open only ``CONNECTIONS_ALLOWED`` connections (a
    small stand-in for ``max_connections``, which the other databases of this server share)."""
    role = f"{connection.settings_dict['NAME']}_limited"
    sql(f"DROP ROLE IF EXISTS {role}")
    sql(f"CREATE ROLE {role} LOGIN CONNECTION LIMIT {CONNECTIONS_ALLOWED}")
    sql(f"GRANT ALL ON ALL TABLES IN SCHEMA public TO {role}")
    sql(f"GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO {role}")
    try:
        yield role
    finally:
        sql(f"DROP OWNED BY {role}")
        sql(f"DROP ROLE {role}")


def a_game() -> tuple[str, str]:
    """A hot-seat game of a new account: its public id and the account's token header."""
    user = get_user_model().objects.create_user("burst", password="a long passphrase")
    game = games.create_local_game(player=Player(user_id=user.pk), variant={}, undo_allowed=False)
    return game.public_id, f"Token {issue_token(user=user, name='tests')[1]}"


def burst_statuses(url: str, game_id: str) -> list[int]:
    """The statuses of ``BURST`` reads of the game sent at once (a failed connection is 0)."""

    async def read(client: httpx.AsyncClient) -> int:
        try:
            return (await client.get(f"/api/games/{game_id}/")).status_code
        except httpx.TransportError:
            return 0

    async def burst() -> list[int]:
        limits = httpx.Limits(max_connections=BURST)
        async with httpx.AsyncClient(base_url=url, timeout=60, limits=limits) as client:
            return list(await asyncio.gather(*(read(client) for _ in range(BURST))))

    return asyncio.run(burst())


def test_a_burst_queues_for_the_pool_instead_of_failing(limited_role: str) -> None:
    game_id, _ = a_game()
    env = {"POSTGRES_USER": limited_role, "POSTGRES_DB": connection.settings_dict["NAME"]}
    with daphne(env | {"POSTGRES_POOL_SIZE": str(CONNECTIONS_ALLOWED - 1)}) as url:
        pooled = burst_statuses(url, game_id)
    with daphne(env | {"POSTGRES_POOL_SIZE": "0"}) as url:
        unpooled = burst_statuses(url, game_id)
    assert pooled == [200] * BURST
    assert sum(status >= 500 for status in unpooled) > 0  # what the pool prevents


def test_a_request_that_waits_too_long_for_a_connection_is_a_503() -> None:
    game_id, token = a_game()
    env = {
        "POSTGRES_DB": connection.settings_dict["NAME"],
        "POSTGRES_POOL_SIZE": "1",
        "POSTGRES_POOL_TIMEOUT": "1",
    }
    with daphne(env) as url, psycopg.connect(**server_params()) as holder:
        # The move's request takes the pool's one connection and waits for this row lock.
        holder.execute("SELECT 1 FROM games_game WHERE public_id = %s FOR UPDATE", (game_id,))
        moves: list[httpx.Response] = []
        move = threading.Thread(
            target=lambda: moves.append(
                httpx.post(
                    f"{url}/api/games/{game_id}/moves/",
                    json={"move": "f5", "ply": 0},
                    headers={"Authorization": token},
                    timeout=60,
                )
            )
        )
        move.start()
        while not holder.execute(
            "SELECT 1 FROM pg_stat_activity WHERE wait_event_type = 'Lock' AND datname = %s",
            (connection.settings_dict["NAME"],),
        ).fetchone():
            time.sleep(0.05)
        waiting = httpx.get(f"{url}/api/games/{game_id}/", timeout=30)
        holder.rollback()
        move.join()
    assert waiting.status_code == 503
    assert waiting.json()["error"]["code"] == "service_unavailable"
    assert int(waiting.headers["Retry-After"]) > 0
    assert moves[0].status_code == 201
