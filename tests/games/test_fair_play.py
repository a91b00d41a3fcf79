"""Fair play (issue 10 §2, issue 14 §3): rated games offer neither hints nor undo (the API
refuses them by code, in the client's language), casual games offer both and are never rated."""

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from games.accounts.models import RatingChange
from games.models import Game, PositionAnalysis
from games.services import cpu, games
from tests.games.accounts.conftest import room_game
from tests.games.conftest import BLACK_WIPES_OUT

pytestmark = pytest.mark.django_db


def create(client: APIClient, **body: object) -> dict:
    response = client.post("/api/games/", body, format="json")
    assert response.status_code == 201, response.json()
    return response.json()


def test_a_rated_cpu_game_offers_neither_hints_nor_undo(alice) -> None:
    client, _ = alice
    game = create(client, mode="cpu", rated=True)
    assert game["rated"] is True
    assert game["undo"]["allowed"] is False  # undo defaults to off in a rated game
    assert game["hints"]["allowed"] is False

    hint = client.post(f"/api/games/{game['id']}/hint/")
    undo = client.post(f"/api/games/{game['id']}/undo/")

    assert (hint.status_code, hint.json()["error"]["code"]) == (400, "rated_no_hint")
    assert (undo.status_code, undo.json()["error"]["code"]) == (400, "rated_no_undo")
    assert Game.objects.filter(hint_count=0, undo_count=0, hint__isnull=True).count() == 1


def test_a_position_analysis_counts_as_a_hint_so_a_rated_game_refuses_it(alice) -> None:
    client, _ = alice
    rated = create(client, mode="cpu", rated=True)
    casual = create(client, mode="cpu", rated=False)

    refused = client.post(f"/api/games/{rated['id']}/analysis/", {}, format="json")
    asked = client.post(f"/api/games/{casual['id']}/analysis/", {}, format="json")

    assert (refused.status_code, refused.json()["error"]["code"]) == (400, "rated_no_hint")
    assert asked.status_code == 202
    assert list(PositionAnalysis.objects.values_list("game__public_id", flat=True)) == [
        casual["id"]
    ]
    assert Game.objects.get(public_id=rated["id"]).hint_count == 0


def test_a_rated_game_cannot_be_created_with_undo_nor_a_hot_seat_game_rated(alice) -> None:
    client, _ = alice
    with_undo = client.post(
        "/api/games/", {"mode": "cpu", "rated": True, "undo": True}, format="json"
    )
    hot_seat = client.post("/api/games/", {"mode": "local", "rated": True}, format="json")

    assert with_undo.status_code == 400
    assert with_undo.json()["error"] | {"message": ""} == {
        "code": "rated_no_undo",
        "field": "undo",
        "message": "",
    }
    assert (hot_seat.status_code, hot_seat.json()["error"]["code"]) == (400, "rated_not_available")
    assert not Game.objects.exists()


def test_casual_is_the_default_versus_the_cpu_and_offers_both(alice) -> None:
    client, _ = alice
    game = create(client, mode="cpu")
    assert (game["rated"], game["undo"]["allowed"], game["hints"]["allowed"]) == (False, True, True)
    assert client.post(f"/api/games/{game['id']}/hint/").status_code == 202


def test_rooms_are_casual_by_default_and_may_be_rated(alice) -> None:
    client, _ = alice
    rated = client.post("/api/rooms/", {"rated": True}, format="json").json()["game"]
    casual = client.post("/api/rooms/", {}, format="json").json()["game"]
    assert (rated["rated"], rated["hints"]["allowed"]) == (True, False)
    assert (casual["rated"], casual["hints"]["allowed"]) == (False, False)


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("ja", "レーティング対局ではヒントは使えません。"),
        ("ru", "В рейтинговой партии подсказки недоступны."),
    ],
)
def test_the_refusal_comes_in_the_clients_language(alice, language: str, message: str) -> None:
    client, _ = alice
    game = create(client, mode="cpu", rated=True)
    hint = client.post(f"/api/games/{game['id']}/hint/", HTTP_ACCEPT_LANGUAGE=language)
    assert hint.json()["error"]["message"] == message


def test_two_games_won_on_hints_gain_nothing(alice) -> None:
    """The issue's report: two casual games won with hints changed the rating; now neither is
    rated, and a rated game won without help is."""
    client, player = alice
    for rated in (False, False, True):
        game = create(client, mode="cpu", level="easy", rated=rated, undo=False)
        if not rated:
            assert client.post(f"/api/games/{game['id']}/hint/").status_code == 202
        _play_black_wipe_out(client, game)
    assert Game.objects.filter(status=Game.Status.FINISHED).count() == 3
    [change] = RatingChange.objects.all()
    assert change.game.rated
    assert change.user_id == player.user_id


def _play_black_wipe_out(client: APIClient, game: dict) -> None:
    """Black's moves through the API, white's (the CPU's) through the CPU service."""
    pk = Game.objects.get(public_id=game["id"]).pk
    for notation in BLACK_WIPES_OUT:
        current = Game.objects.get(pk=pk)
        if current.status == Game.Status.FINISHED or notation == "pass":
            continue
        state = client.get(f"/api/games/{game['id']}/").json()
        if state["to_move"] == "black":
            body = {"move": notation, "ply": state["ply"]}
            assert (
                client.post(f"/api/games/{game['id']}/moves/", body, format="json").status_code
                == 201
            )
        else:
            assert cpu.apply_cpu_move(
                game_id=pk, ply=current.ply, position=current.position, notation=notation
            )


def test_a_game_between_people_ended_before_each_has_moved_is_not_rated(make_account) -> None:
    """Rating farming with a second account: it resigned (or let its clock run out) before
    its first move, and the first account gained 162 and 58 points a game. Such a game could
    have been aborted and counts for nobody either; once each has moved, it is rated."""
    (_, alice), (_, bob) = make_account("alice"), make_account("bob")
    resigned = room_game(alice, bob, time_control="3+2")
    games.play_move(player=alice, public_id=resigned.public_id, notation="f5", ply=0)
    games.resign(player=bob, game_id=resigned.pk)
    flagged = room_game(alice, bob, time_control="1+0")
    games.play_move(player=alice, public_id=flagged.public_id, notation="f5", ply=0)
    Game.objects.filter(pk=flagged.pk).update(flag_at=timezone.now() - timedelta(seconds=1))
    games.end_if_out_of_time(game_id=flagged.pk)
    assert Game.objects.get(pk=flagged.pk).result["reason"] == "time"
    assert not RatingChange.objects.exists()

    counted = room_game(alice, bob, time_control="3+2")
    games.play_move(player=alice, public_id=counted.public_id, notation="f5", ply=0)
    games.play_move(player=bob, public_id=counted.public_id, notation="d6", ply=1)
    games.resign(player=bob, game_id=counted.pk)
    assert RatingChange.objects.filter(game=counted).count() == 2


def test_a_handicap_game_is_never_rated(alice, bob) -> None:
    """Corners given before play are an advantage the ratings do not know of: four of them
    against the CPU (a fixed rating) or a friend were rated as an even game."""
    (client, _), (other, _) = alice, bob
    handicap = {"handicap": 4, "handicap_color": "black"}
    for path, body in (
        ("/api/games/", {"mode": "cpu", "level": "strong", "rated": True, "variant": handicap}),
        ("/api/rooms/", {"rated": True, "variant": handicap}),
        ("/api/lobby/seeks/", {"rated": True, "variant": handicap}),
        ("/api/challenges/", {"username": "bob", "rated": True, "variant": handicap}),
    ):
        response = client.post(path, body, format="json")
        assert response.status_code == 400, path
        assert response.json()["error"] == {
            "code": "rated_handicap",
            "message": "A game with a handicap cannot be rated.",
            "field": "variant.handicap",
        }, path
    assert create(client, mode="cpu", variant=handicap)["rated"] is False
    assert other.post("/api/challenges/", {"username": "alice"}, format="json").status_code == 201
