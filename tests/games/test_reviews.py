"""Post-game review (issue 14 §5): a finished (or imported) game is analysed move by move by
tasks on the strong queue below its searches (never on the quick queue); each move gets the
engine's best move and score, the played move's score and the loss, exact from 20 empties down;
the API returns it with the mistakes marked and the opening's name."""

import uuid

import pytest
import redis
from celery import current_app
from django.conf import settings as django_settings
from rest_framework.test import APIClient

from ai_worker.engine import Board, Move
from ai_worker.engine.records import read_transcript
from ai_worker.levels import LEVELS
from ai_worker.review import review_move
from games import policy, tasks
from games.models import Game, GameReview
from games.services import events, games

pytestmark = pytest.mark.django_db

BUDGET = {
    "ply": 42,
    "time_limit": policy.REVIEW_SECONDS_PER_MOVE,
    "exact_empties": policy.REVIEW_EXACT_EMPTIES,
    "exact_time_limit": policy.REVIEW_EXACT_SECONDS,
}

# An easy CPU's game, 18 empties left: its next moves are solved exactly.
EIGHTEEN_EMPTIES = (
    "c4c3f5b4a4c5b3g5e6f6h5d6e7c6d3g6c7c2f4c8f7h6b8e3f3f2f1a3c1g4h7f8g3h4d2h3b5a5g2e1e2g1"
)
SHORT_GAME = ["d3", "e3", "f6", "c4", "b3", "c3", "f3", "d6", "d7"]  # black wipes white out


def analyse_all(game: Game) -> GameReview:
    """Run the tasks the queue would run, in order, until the analysis is done."""
    analysis = GameReview.objects.get(game=game)
    while analysis.status != GameReview.Status.DONE:
        assert tasks.review_move(game.pk, analysis.next_ply) is True
        analysis.refresh_from_db()
    return analysis


def test_a_finished_game_is_analysed_move_by_move(make_account) -> None:
    _client, alice = make_account("alice")
    game = games.create_local_game(player=alice, variant={}, undo_allowed=False)
    for ply, notation in enumerate(SHORT_GAME):
        games.play_move(player=alice, game_id=game.pk, notation=notation, ply=ply)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    assert GameReview.objects.get(game=game).status == GameReview.Status.QUEUED

    analysis = analyse_all(game)

    assert [entry["move"] for entry in analysis.moves] == SHORT_GAME
    for entry in analysis.moves:
        assert entry["best_score"] >= entry["score"]
        assert entry["loss"] == pytest.approx(entry["best_score"] - entry["score"])
    assert not any(entry["exact"] for entry in analysis.moves)  # 51 empties and more
    assert tasks.review_move(game.pk, 3) is False  # a repeated task changes nothing
    assert len(GameReview.objects.get(game=game).moves) == len(SHORT_GAME)

    body = APIClient().get(f"/api/games/{game.public_id}/review/").json()
    assert (body["status"], body["analysed"], body["total"]) == ("done", 9, 9)
    assert body["opening"] == {"name": "Parallel", "moves": 2}
    assert [entry["mistake"] for entry in body["moves"]] == [
        entry["loss"] >= policy.MISTAKE_LOSS for entry in analysis.moves
    ]


def test_from_twenty_empties_down_the_scores_are_exact_and_a_blunder_is_a_mistake() -> None:
    board = read_transcript(EIGHTEEN_EMPTIES).board()
    assert board.empties() == 18
    best = review_move(board, Board.from_text(board.to_text()).legal_moves[0], **BUDGET)
    blunder = review_move(board, Move.from_notation("h2"), **BUDGET)

    assert best.exact
    assert blunder.exact
    assert best.depth == 18
    assert (best.best, best.best_score) == (blunder.best, blunder.best_score)
    assert float(blunder.score).is_integer()
    assert float(best.best_score).is_integer()
    assert blunder.loss >= policy.MISTAKE_LOSS  # h2 gives a corner away


def test_an_imported_game_is_analysed_and_a_game_in_play_is_not(guest) -> None:
    imported = guest.post(
        "/api/games/import/", {"format": "txt", "text": "f5d6c3d3c4"}, format="json"
    ).json()
    game = Game.objects.get(public_id=imported["id"])
    analyse_all(game)
    body = guest.get(f"/api/games/{imported['id']}/review/", HTTP_ACCEPT_LANGUAGE="ja").json()
    assert [entry["move"] for entry in body["moves"]] == ["f5", "d6", "c3", "d3", "c4"]
    assert body["opening"] == {"name": "虎", "moves": 3}  # the tiger: f5 d6 c3

    playing = guest.post("/api/games/", {"mode": "local"}, format="json").json()
    assert guest.get(f"/api/games/{playing['id']}/review/").json()["status"] == "none"
    refused = guest.post(f"/api/games/{playing['id']}/review/")
    assert (refused.status_code, refused.json()["error"]["code"]) == (409, "review_not_finished")


def test_a_game_finished_before_analyses_existed_can_be_queued(make_account) -> None:
    client, alice = make_account("alice")
    game = games.create_local_game(player=alice, variant={}, undo_allowed=False)
    for ply, notation in enumerate(SHORT_GAME):
        games.play_move(player=alice, game_id=game.pk, notation=notation, ply=ply)
    GameReview.objects.filter(game=game).delete()

    first = client.post(f"/api/games/{game.public_id}/review/")
    again = client.post(f"/api/games/{game.public_id}/review/")

    assert (first.status_code, first.json()["status"]) == (202, "queued")
    assert again.status_code == 202
    assert GameReview.objects.filter(game=game).count() == 1


def test_reviews_wait_behind_every_live_search() -> None:
    """Redis serves priority 0 first: the review tasks come after every CPU level's."""
    assert all(
        policy.TASK_PRIORITY_BY_LEVEL[level] < policy.ANALYSIS_TASK_PRIORITY for level in LEVELS
    )


def queued_tasks(queue_name: str) -> list[tuple[str, tuple]]:
    """The tasks waiting in ``queue_name`` (name and arguments), taken off it."""
    found = []
    with current_app.connection_for_read() as connection:
        queue = connection.SimpleQueue(queue_name)
        try:
            while True:
                try:
                    message = queue.get(timeout=1)
                except queue.Empty:
                    return found
                args, _kwargs, _embed = message.decode()
                found.append((message.headers["task"], tuple(args)))
                message.ack()
        finally:
            queue.close()


def test_a_review_runs_on_the_strong_queue_never_before_a_quick_reply(
    make_account, settings, django_capture_on_commit_callbacks
) -> None:
    """A review move runs for up to seconds and a running task is never put aside: on the
    quick queue, easy and normal replies waited behind the reviews of finished games."""
    settings.CELERY_CPU_QUEUE = f"cpu-test-{uuid.uuid4().hex}"  # no worker takes these tasks
    settings.CELERY_STRONG_QUEUE = f"{settings.CELERY_CPU_QUEUE}-strong"
    _, alice = make_account("alice")
    try:
        game = games.create_local_game(player=alice, variant={}, undo_allowed=False)
        with django_capture_on_commit_callbacks(execute=True):
            for ply, notation in enumerate(SHORT_GAME):
                games.play_move(player=alice, game_id=game.pk, notation=notation, ply=ply)
        assert queued_tasks(settings.CELERY_CPU_QUEUE) == []
        assert queued_tasks(settings.CELERY_STRONG_QUEUE) == [(events.REVIEW_TASK, (game.pk, 0))]
    finally:
        store = redis.Redis.from_url(django_settings.REDIS_URL)
        store.delete(settings.CELERY_CPU_QUEUE, settings.CELERY_STRONG_QUEUE)
