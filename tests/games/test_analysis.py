"""Analysis of a game's positions (issue 12 §3): the service, the API and a real worker."""

import random
import time

import httpx
import pytest

from ai_worker.engine import Board
from ai_worker.search import Analysis, solve_endgame, warmup
from games import presenters, selectors, tasks
from games.identity import Player
from games.models import Game, PositionAnalysis
from games.services import analysis, games
from games.shared.errors import Forbidden, ServiceError
from tests.games.conftest import BLACK_WIPES_OUT
from tests.games.test_live import REPLY_TIMEOUT, live_server_url  # noqa: F401  (a fixture)

ALICE = Player(guest_id="alice-browser")
BOB = Player(guest_id="bob-browser")


def random_moves(empties: int, seed: int) -> list[str]:
    """Moves of a random 8x8 game (passes included) until ``empties`` empties are left."""
    rng = random.Random(seed)
    board = Board()
    moves = []
    while board.empties() > empties:
        move = rng.choice(board.legal_moves)
        board.push(move)
        moves.append(str(move))
    assert not board.is_game_over()
    return moves


def local_game(moves: list[str]) -> Game:
    game = games.create_local_game(player=ALICE, variant={}, undo_allowed=True)
    for notation in moves:
        if notation == "pass":
            continue  # the services play forced passes themselves
        game = games.play_move(
            player=ALICE, public_id=game.public_id, notation=notation, ply=game.ply
        ).game
    return game


@pytest.mark.django_db
def test_every_legal_move_of_a_past_ply_gets_its_exact_value() -> None:
    warmup()  # as a worker process does when it starts: no compiling within the time budget
    moves = random_moves(12, seed=3)
    game = local_game(moves)
    ply = game.ply - 2
    requested = analysis.request_analysis(player=ALICE, game_id=game.pk, ply=ply)
    assert presenters.analysis_state(requested)["status"] == "pending"
    assert game.hint_count == 0
    assert Game.objects.get(pk=game.pk).hint_count == 1
    assert tasks.analyse_position(requested.pk) is True
    assert tasks.analyse_position(requested.pk) is False  # done already
    shown = presenters.analysis_state(selectors.analysis(game.pk, ply))
    board = selectors.board_at(Game.objects.get(pk=game.pk), ply)
    assert shown["status"] == "done"
    assert shown["exact"]
    assert shown["depth"] == board.empties()
    assert sorted(m["move"] for m in shown["moves"]) == sorted(map(str, board.legal_moves))
    scores = [m["score"] for m in shown["moves"]]
    assert scores == sorted(scores, reverse=True)  # best first
    solved = solve_endgame(board, time_limit=60)
    assert solved is not None
    assert scores[0] == solved.score
    again = analysis.request_analysis(player=ALICE, game_id=game.pk, ply=ply)
    assert again.pk == requested.pk
    assert again.status == PositionAnalysis.Status.DONE


@pytest.mark.django_db
def test_an_undo_makes_the_analysis_of_its_ply_stale() -> None:
    game = local_game(["f5"])
    first = analysis.request_analysis(player=ALICE, game_id=game.pk, ply=None)
    assert first.ply == 1
    games.undo_move(player=ALICE, game_id=game.pk)
    games.play_move(player=ALICE, public_id=game.public_id, notation="d3", ply=0)
    renewed = analysis.request_analysis(player=ALICE, game_id=game.pk, ply=1)
    assert renewed.pk == first.pk
    assert renewed.position != first.position
    assert renewed.status == PositionAnalysis.Status.PENDING
    found = Analysis(moves=[], depth=1, exact=False, nodes=0, elapsed=0.0)
    assert not analysis.store_analysis(analysis_id=first.pk, position=first.position, found=found)
    assert analysis.store_analysis(analysis_id=first.pk, position=renewed.position, found=found)


@pytest.mark.django_db
def test_analysis_requests_are_refused_with_a_reason() -> None:
    game = local_game(BLACK_WIPES_OUT)
    assert game.status == Game.Status.FINISHED
    with pytest.raises(Forbidden):
        analysis.request_analysis(player=BOB, game_id=game.pk, ply=0)
    with pytest.raises(ServiceError) as beyond:
        analysis.request_analysis(player=ALICE, game_id=game.pk, ply=game.ply + 1)
    assert (beyond.value.code, beyond.value.field) == ("ply_out_of_range", "ply")
    with pytest.raises(ServiceError) as over:
        analysis.request_analysis(player=ALICE, game_id=game.pk, ply=game.ply)
    assert over.value.code == "nothing_to_analyse"
    done = analysis.request_analysis(player=ALICE, game_id=game.pk, ply=3)  # a finished game
    assert done.ply == 3
    assert Game.objects.get(pk=game.pk).hint_count == 0


@pytest.mark.django_db
def test_an_online_room_game_is_analysed_only_once_it_has_ended(alice, bob) -> None:
    client, _ = alice
    other, _ = bob
    room = client.post("/api/rooms/", {}, format="json").json()
    joined = other.post(f"/api/rooms/{room['code']}/join/", {}, format="json")
    assert joined.status_code in (200, 201)
    game_id = joined.json()["game"]["id"]
    refused = client.post(f"/api/games/{game_id}/analysis/", {"ply": 0}, format="json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (
        400,
        "analysis_not_available",
    )


@pytest.mark.django_db
def test_the_api_checks_its_input(alice, bob) -> None:
    client, _ = alice
    game = client.post("/api/games/", {"mode": "local"}).json()
    url = f"/api/games/{game['id']}/analysis/"
    unknown = client.post(url, {"ply": 0, "depth": 3})
    assert (unknown.status_code, unknown.json()["error"]["field"]) == (400, "depth")
    negative = client.post(url, {"ply": -1})
    assert (negative.status_code, negative.json()["error"]["field"]) == (400, "ply")
    beyond = client.post(url, {"ply": 5}, HTTP_ACCEPT_LANGUAGE="ja")
    assert (beyond.status_code, beyond.json()["error"]["field"]) == (400, "ply")
    assert "0" in beyond.json()["error"]["message"]
    assert "手" in beyond.json()["error"]["message"]
    missing = client.get(url, {"ply": 0})
    assert (missing.status_code, missing.json()["error"]["code"]) == (404, "not_found")
    other, _ = bob
    stranger = other.post(url, {})
    assert (stranger.status_code, stranger.json()["error"]["code"]) == (403, "not_your_seat")
    asked = client.post(url, {})
    assert asked.status_code == 202
    assert asked.json()["status"] == "pending"
    assert asked.json()["moves"] == []
    read = client.get(url, {"ply": 0})
    assert (read.status_code, read.json()["ply"], read.json()["to_move"]) == (200, 0, "black")


def test_a_worker_answers_an_analysis_request(live_server_url: str, alice) -> None:  # noqa: F811
    client, _ = alice
    headers = {"Authorization": client._credentials["HTTP_AUTHORIZATION"]}
    http = httpx.Client(base_url=live_server_url, headers=headers, timeout=10)
    game = http.post("/api/games/", json={"mode": "local"}).json()
    for ply, move in enumerate(["f5", "d6", "c3"]):
        assert http.post(f"/api/games/{game['id']}/moves/", json={"move": move, "ply": ply})
    url = f"/api/games/{game['id']}/analysis/"
    started = time.monotonic()
    asked = http.post(url, json={"ply": 1})
    assert asked.status_code == 202
    assert time.monotonic() - started < 5
    deadline = time.monotonic() + REPLY_TIMEOUT
    while (shown := http.get(url, params={"ply": 1}).json())["status"] != "done":
        assert time.monotonic() < deadline, shown
        time.sleep(0.5)
    assert shown["to_move"] == "white"
    assert shown["depth"] >= 1
    expected = Board.from_moves(None, ["f5"]).legal_moves
    assert sorted(m["move"] for m in shown["moves"]) == sorted(map(str, expected))
