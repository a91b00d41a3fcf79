"""The fault test's player (benchmarks/faults.py, `make fault-test`), against this package's live
servers: it plays a game against the CPU through the HTTP API, its moves answered and the CPU's
replies read from the database, as the fault test plays while its stack fails.

Its event loop runs on a thread of its own (away from Playwright's)."""

import asyncio
import secrets
from concurrent.futures import ThreadPoolExecutor

import httpx
import psycopg

from benchmarks import faults
from tests.servers import connect_to


class ServerDatabase:
    """The live servers' database, where the player reads the CPU's progress (the fault test's
    ``Postgres`` is a cluster of its own)."""

    def __init__(self, name: str) -> None:
        self.name = name

    def connect(self) -> psycopg.Connection:
        return connect_to(self.name)


async def one_game(url: str, database: ServerDatabase, plies: int) -> faults.Tally:
    tally = faults.Tally()
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        credentials = {"username": f"fault{secrets.token_hex(4)}", "password": secrets.token_hex(8)}
        signup = await http.post("/api/auth/signup/", json=credentials)
        assert signup.status_code == 201, signup.text
        http.headers["Authorization"] = f"Token {signup.json()['token']}"
        await faults.play(http, database, "easy", plies, tally)  # type: ignore[arg-type]
    return tally


def test_the_fault_tests_player_plays_a_game_against_the_cpu(
    live_url: str, server_database: str
) -> None:
    """Its moves' answers are the moves' events (no ``you`` in them): the player knows its
    colours from the game's creation (it stopped at its first move's answer before)."""
    with ThreadPoolExecutor(1) as thread:
        tally = thread.submit(asyncio.run, one_game(live_url, ServerDatabase(server_database), 8))
        played = tally.result(timeout=120)
    assert (played.stuck, played.unanswered, played.server_errors) == ([], [], 0)
    assert len(played.saved) == 4, played.saved
    assert played.cpu_moves == 4
