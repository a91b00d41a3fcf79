"""The same ply posted many times at once: the row lock lets exactly one move through."""

from concurrent.futures import ThreadPoolExecutor
from threading import Barrier

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games import selectors
from games.models import Game

CLIENTS = 8


@pytest.mark.django_db(transaction=True)
def test_one_move_per_ply_under_concurrent_posts(alice) -> None:
    client, _ = alice
    game = client.post("/api/games/", {"mode": "local"}, format="json").json()
    token = client._credentials["HTTP_AUTHORIZATION"]
    start = Barrier(CLIENTS)

    def post(notation: str) -> int:
        try:
            racer = APIClient()
            racer.credentials(HTTP_AUTHORIZATION=token)
            body = {"move": notation, "ply": 0}
            start.wait()
            return racer.post(f"/api/games/{game['id']}/moves/", body, format="json").status_code
        finally:
            connection.close()

    notations = ["f5", "e6", "d3", "c4"] * (CLIENTS // 4)
    with ThreadPoolExecutor(CLIENTS) as pool:
        statuses = list(pool.map(post, notations))
    assert sorted(statuses) == [201] + [409] * (CLIENTS - 1)
    stored = Game.objects.get(pk=game["id"])
    assert stored.ply == 1
    assert stored.moves.count() == 1
    assert selectors.replays_to_position(stored)
