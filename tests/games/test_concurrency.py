"""Racing requests: the game row lock lets exactly one of them through, and a per-requester
lock keeps a cap."""

from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games import policy, selectors
from games.models import Game, GameReview

CLIENTS = 8

pytestmark = pytest.mark.django_db(transaction=True)


def race(requests: list[Callable[[], int]]) -> list[int]:
    """Run the requests in threads released at the same moment; their status codes."""
    start = Barrier(len(requests))

    def run(request: Callable[[], int]) -> int:
        try:
            start.wait()
            return request()
        finally:
            connection.close()

    with ThreadPoolExecutor(len(requests)) as pool:
        return list(pool.map(run, requests))


def test_one_move_per_ply_under_concurrent_posts(alice) -> None:
    client, _ = alice
    game = client.post("/api/games/", {"mode": "local"}, format="json").json()
    token = client._credentials["HTTP_AUTHORIZATION"]

    def poster(notation: str) -> Callable[[], int]:
        def post() -> int:
            racer = APIClient()
            racer.credentials(HTTP_AUTHORIZATION=token)
            body = {"move": notation, "ply": 0}
            return racer.post(f"/api/games/{game['id']}/moves/", body, format="json").status_code

        return post

    notations = ["f5", "e6", "d3", "c4"] * (CLIENTS // 4)
    statuses = race([poster(notation) for notation in notations])
    stored = Game.objects.get(public_id=game["id"])
    assert stored.ply == 1
    assert stored.moves.count() == 1
    played = stored.moves.get().notation  # its repeats are answered as done, the others 409
    assert statuses == [201 if notation == played else 409 for notation in notations]
    assert selectors.replays_to_position(stored)


def test_one_player_gets_the_last_room_seat(alice, make_account) -> None:
    client, _ = alice
    room = client.post("/api/rooms/", {}, format="json").json()
    joiners = [make_account(f"joiner{index}")[0] for index in range(CLIENTS)]

    def joiner(racer: APIClient) -> Callable[[], int]:
        return lambda: racer.post(f"/api/rooms/{room['code']}/join/", {}, format="json").status_code

    statuses = race([joiner(racer) for racer in joiners])
    assert sorted(statuses) == [200] + [409] * (CLIENTS - 1)
    game = Game.objects.get(public_id=room["game"]["id"])
    assert game.status == "active"
    assert game.seats.filter(user__username__startswith="joiner").count() == 1


def test_concurrent_review_requests_cannot_pass_the_requesters_cap(alice) -> None:
    """Each request counts the requester's reviews under way before adding one: without the
    per-requester lock, requests sent together all counted the same few."""
    client, _ = alice
    token = client._credentials["HTTP_AUTHORIZATION"]
    imported = [
        client.post("/api/games/import/", {"format": "txt", "text": "f5d6"}, format="json").json()
        for _ in range(CLIENTS)
    ]

    def asker(game_id: str) -> Callable[[], int]:
        def post() -> int:
            racer = APIClient()
            racer.credentials(HTTP_AUTHORIZATION=token)
            return racer.post(f"/api/games/{game_id}/review/").status_code

        return post

    statuses = race([asker(game["id"]) for game in imported])
    allowed = policy.REVIEWS_PER_REQUESTER
    assert sorted(statuses) == [202] * allowed + [429] * (CLIENTS - allowed)
    assert GameReview.objects.count() == allowed
