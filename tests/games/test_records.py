"""Exports of finished games (issue 14 §4): a plain transcript, GGF (a round trip through the
engine's reader keeps the players, ratings, moves and result), JSON, and a player's games in
bulk as streamed NDJSON."""

import asyncio
import json
from collections.abc import Awaitable, Callable
from datetime import timedelta

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from django.utils import timezone
from rest_framework.test import APIClient

from ai_worker.engine.records import read_ggf, read_transcript, record_from_json
from games import records
from games.accounts.models import RatingChange
from games.models import Game
from games.services import games, offers, rooms
from reversi_site.asgi import application
from tests.games.accounts.conftest import play_out, room_game
from tests.games.conftest import BLACK_WIPES_OUT
from tests.servers import http_scope

pytestmark = pytest.mark.django_db


def export(game_id: str, export_format: str):
    return APIClient().get(f"/api/games/{game_id}/export/?format={export_format}")


@pytest.fixture
def make_player(make_account):
    return lambda username: make_account(username)[1]


@pytest.fixture
def finished(make_player):
    alice, bob = make_player("alice"), make_player("bob")
    return play_out(room_game(alice, bob), BLACK_WIPES_OUT, {0: alice, 1: bob})


def test_a_finished_game_exports_as_ggf_and_reads_back(finished) -> None:
    response = export(finished.public_id, "ggf")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/x-ggf")
    assert response["Content-Disposition"] == (
        f'attachment; filename="reversi-{finished.public_id}.ggf"'
    )
    [record] = read_ggf(response.content.decode())
    assert [str(recorded.move) for recorded in record.moves] == BLACK_WIPES_OUT
    assert [player.name for player in record.players] == ["alice", "bob"]
    assert [player.rating for player in record.players] == [1500.0, 1500.0]  # before the game
    assert record.result is not None
    assert (record.result.reason, record.result.winner, record.result.score) == ("end", 0, 64.0)
    assert record.date is not None
    assert record.site == "testserver"
    assert RatingChange.objects.filter(game=finished).count() == 2


def test_the_transcript_and_the_json_form(finished) -> None:
    text = export(finished.public_id, "txt")
    assert text["Content-Type"] == "text/plain; charset=utf-8"
    assert text.content.decode() == "".join(BLACK_WIPES_OUT) + "\n"
    assert [str(m.move) for m in read_transcript(text.content.decode().strip()).moves] == (
        BLACK_WIPES_OUT
    )

    body = export(finished.public_id, "json").json()
    assert (body["id"], body["rated"], body["transcript"]) == (
        finished.public_id,
        True,
        "".join(BLACK_WIPES_OUT),
    )
    assert body["result"]["winner"] == "black"
    record = record_from_json(
        {key: value for key, value in body.items() if key not in ("id", "rated")}
    )
    assert len(record.moves) == len(BLACK_WIPES_OUT)


def test_a_resigned_game_exports_its_loser(make_player) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob)
    games.play_move(player=alice, public_id=game.public_id, notation="f5", ply=0)
    games.resign(player=bob, game_id=game.pk)
    [record] = read_ggf(export(game.public_id, "ggf").content.decode())
    assert record.result is not None
    assert (record.result.reason, record.result.winner, record.result.loser) == ("resign", 0, 1)


def test_clear_errors_for_unfinished_games_bad_formats_and_ggf_with_three_players(
    make_player,
) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    active = room_game(alice, bob)
    unfinished = export(active.public_id, "ggf")
    assert (unfinished.status_code, unfinished.json()["error"]["code"]) == (
        409,
        "export_not_finished",
    )
    bad = export(active.public_id, "pgn")
    assert (bad.status_code, bad.json()["error"]["field"]) == (400, "format")
    assert export("nosuchgame00", "ggf").status_code == 404

    table = rooms.create_room(
        player=alice,
        variant={"players": 3},
        seats=[
            rooms.SeatSpec("human"),
            rooms.SeatSpec("cpu", "easy"),
            rooms.SeatSpec("cpu", "easy"),
        ],
    )
    games.resign(player=alice, game_id=table.game_id)
    three = export(table.game.public_id, "ggf")
    assert (three.status_code, three.json()["error"]["code"]) == (400, "export_unsupported")
    assert export(table.game.public_id, "json").json()["variant"]["players"] == 3


async def asgi_get(path: str, while_paused: Callable[[], Awaitable[object]]) -> dict:
    """``GET path`` through the site's ASGI application, as a client that takes the first
    chunk of the body and reads no more until ``while_paused`` has run (the server cannot send
    on meanwhile: each ``send`` waits for the client)."""
    answer: dict = {"chunks": []}
    requested = asyncio.Event()

    async def receive() -> dict:
        if not requested.is_set():
            requested.set()
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()  # the client stays until the answer ends
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]
            answer["headers"] = {
                name.decode().lower(): value.decode() for name, value in message["headers"]
            }
        elif message.get("body"):
            answer["chunks"].append(message["body"])
            if len(answer["chunks"]) == 1:
                await while_paused()

    await application(http_scope(path), receive, send)
    return answer


@pytest.mark.django_db(transaction=True)
def test_a_players_games_stream_as_ndjson_a_chunk_at_a_time(
    make_player, monkeypatch, recwarn
) -> None:
    """The bulk export is sent as it is read (a few games at a time, an async iterator under
    ASGI): a game that ends after the first chunk has left is in the export."""
    monkeypatch.setattr(records, "EXPORT_CHUNK_GAMES", 2)
    alice, bob = make_player("alice"), make_player("bob")
    played = [
        play_out(room_game(*pair), BLACK_WIPES_OUT, {0: pair[0], 1: pair[1]})
        for pair in ((alice, bob), (bob, alice), (alice, bob))
    ]
    room_game(alice, bob)  # still being played: not exported

    def one_more_game() -> None:
        played.append(play_out(room_game(bob, alice), BLACK_WIPES_OUT, {0: bob, 1: alice}))

    answer = async_to_sync(asgi_get)(
        "/api/players/alice/games/", database_sync_to_async(one_more_game)
    )

    assert answer["status"] == 200
    assert answer["headers"]["content-type"] == "application/x-ndjson"
    assert answer["headers"]["content-disposition"] == 'attachment; filename="reversi-alice.ndjson"'
    first = answer["chunks"][0].decode().splitlines()
    assert [json.loads(line)["id"] for line in first] == [game.public_id for game in played[:2]]
    lines = b"".join(answer["chunks"]).decode().splitlines()
    assert [json.loads(line)["id"] for line in lines] == [game.public_id for game in played]
    assert json.loads(lines[0])["players"][0]["name"] == "alice"
    assert not [w for w in recwarn if "StreamingHttpResponse" in str(w.message)]
    missing = APIClient().get("/api/players/nobody/games/")
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "player_not_found")


def _ended_on_time(game):
    Game.objects.filter(pk=game.pk).update(flag_at=timezone.now() - timedelta(seconds=1))
    games.end_if_out_of_time(game_id=game.pk)


@pytest.mark.parametrize(
    ("ending", "expected"),
    [
        (
            lambda game, alice, bob: offers.draw(player=bob, game_id=game.pk, action="accept"),
            ("agreement", None, None),
        ),
        (lambda game, alice, bob: _ended_on_time(game), ("timeout", 0, 1)),
        (lambda game, alice, bob: offers.abort(player=alice, game_id=game.pk), None),
    ],
    ids=["draw agreed", "on time", "aborted"],
)
def test_games_ended_by_agreement_on_time_or_aborted_export(make_player, ending, expected) -> None:
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob, time_control="3+2")
    games.play_move(player=alice, public_id=game.public_id, notation="f5", ply=0)
    offers.draw(player=alice, game_id=game.pk, action="offer")
    ending(game, alice, bob)

    for export_format in ("txt", "ggf", "json"):
        assert export(game.public_id, export_format).status_code == 200
    [record] = read_ggf(export(game.public_id, "ggf").content.decode())
    result = record.result
    assert (result and (result.reason, result.winner, result.loser)) == expected
    lines, more = records.ndjson_chunk(alice.user_id, after=None, site=None)  # the bulk export's
    assert (json.loads(lines)["id"], more) == (game.public_id, None)


def test_a_timed_games_exports_carry_its_clock(make_player) -> None:
    """Issue 14 §4: GGF with the clocks. The exports dropped the time control (GGF ``TI``, the
    JSON ``time_control``) and the clock times every move stores."""
    alice, bob = make_player("alice"), make_player("bob")
    game = room_game(alice, bob, time_control="3+2")
    games.play_move(player=alice, public_id=game.public_id, notation="f5", ply=0)
    games.play_move(player=bob, public_id=game.public_id, notation="d6", ply=1)
    games.resign(player=alice, game_id=game.pk)
    [record] = read_ggf(export(game.public_id, "ggf").content.decode())
    assert record.time_control is not None
    assert (record.time_control.initial, record.time_control.increment) == (180.0, 2.0)
    exported = json.loads(export(game.public_id, "json").content)
    form = record_from_json({k: v for k, v in exported.items() if k not in ("id", "rated")})
    assert form.time_control == record.time_control
    remaining = [move.remaining for move in form.moves]
    assert all(left is not None and 170 <= left <= 182 for left in remaining), remaining
    untimed = room_game(alice, bob)
    games.resign(player=alice, game_id=untimed.pk)
    assert read_ggf(export(untimed.public_id, "ggf").content.decode())[0].time_control is None
