"""Post-game review (issue 14 §5): a finished game (an imported one when asked) is analysed
move by move by tasks on the strong queue below its searches (never on the quick queue); each
move gets the engine's best move and score, the played move's score and the loss, exact from 20
empties down; the API returns it with the mistakes marked and the opening's name. Reviews asked
for are capped per requester (an account, else a client address)."""

import uuid
from collections.abc import Iterator
from datetime import timedelta

import pytest
import redis
from celery import current_app
from django.conf import settings as django_settings
from django.utils import timezone
from rest_framework.test import APIClient

from ai_worker.engine import Board, Move
from ai_worker.engine.records import read_transcript
from ai_worker.levels import LEVELS
from ai_worker.review import review_move
from games import policy, tasks
from games.identity import Player
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
        games.play_move(player=alice, public_id=game.public_id, notation=notation, ply=ply)
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


def finish_short_game(player) -> Game:
    game = games.create_local_game(player=player, variant={}, undo_allowed=False)
    for ply, notation in enumerate(SHORT_GAME):
        games.play_move(player=player, public_id=game.public_id, notation=notation, ply=ply)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    return game


def test_a_flood_of_quick_games_gets_at_most_three_automatic_reviews_at_once(
    make_account,
) -> None:
    _client, alice = make_account("alice")
    finished = [finish_short_game(alice) for _ in range(policy.REVIEWS_PER_REQUESTER + 2)]

    reviewed = [GameReview.objects.filter(game=game).exists() for game in finished]
    assert reviewed == [True] * policy.REVIEWS_PER_REQUESTER + [False, False]
    assert set(GameReview.objects.values_list("requested_by", flat=True)) == {
        f"user:{alice.user_id}"
    }
    analyse_all(finished[0])  # one done: the next game gets its review again
    assert GameReview.objects.filter(game=finish_short_game(alice)).exists()


def test_a_guest_s_games_count_for_the_guest() -> None:
    guest = Player(guest_id=uuid.uuid4().hex)
    first = finish_short_game(guest)
    assert GameReview.objects.get(game=first).requested_by == f"guest:{guest.guest_id}"


def test_no_automatic_review_while_the_site_has_its_backlog(make_account, monkeypatch) -> None:
    _client, alice = make_account("alice")
    bob_client, bob = make_account("bob")
    backlog = [finish_short_game(alice) for _ in range(2)]
    monkeypatch.setattr(policy, "AUTOMATIC_REVIEW_BACKLOG", len(backlog))

    unreviewed = finish_short_game(bob)  # bob has none under way, the site has 2

    assert not GameReview.objects.filter(game=unreviewed).exists()
    assert bob_client.post(f"/api/games/{unreviewed.public_id}/review/").status_code == 202


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


def import_game(client: APIClient, text: str = "f5d6c3d3c4") -> str:
    """Import a transcript through the API; the game's public id."""
    response = client.post("/api/games/import/", {"format": "txt", "text": text}, format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def test_an_imported_game_is_analysed_when_asked_and_a_game_in_play_is_not(guest) -> None:
    imported = import_game(guest)
    game = Game.objects.get(public_id=imported)
    assert guest.get(f"/api/games/{imported}/review/").json()["status"] == "none"
    assert not GameReview.objects.filter(game=game).exists()  # an import costs no search

    asked = guest.post(f"/api/games/{imported}/review/")

    assert (asked.status_code, asked.json()["status"]) == (202, "queued")
    analyse_all(game)
    body = guest.get(f"/api/games/{imported}/review/", HTTP_ACCEPT_LANGUAGE="ja").json()
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
        games.play_move(player=alice, public_id=game.public_id, notation=notation, ply=ply)
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


@pytest.fixture
def private_queues(settings) -> Iterator[tuple[str, str]]:
    """The CPU and strong queues renamed for this test (no worker takes their tasks), emptied
    afterwards: ``(quick, strong)``."""
    settings.CELERY_CPU_QUEUE = f"cpu-test-{uuid.uuid4().hex}"
    settings.CELERY_STRONG_QUEUE = f"{settings.CELERY_CPU_QUEUE}-strong"
    yield settings.CELERY_CPU_QUEUE, settings.CELERY_STRONG_QUEUE
    store = redis.Redis.from_url(django_settings.REDIS_URL)
    store.delete(settings.CELERY_CPU_QUEUE, settings.CELERY_STRONG_QUEUE)


def test_a_review_runs_on_the_strong_queue_never_before_a_quick_reply(
    make_account, private_queues, django_capture_on_commit_callbacks
) -> None:
    """A review move runs for up to seconds and a running task is never put aside: on the
    quick queue, easy and normal replies waited behind the reviews of finished games."""
    quick, strong = private_queues
    _, alice = make_account("alice")
    game = games.create_local_game(player=alice, variant={}, undo_allowed=False)
    with django_capture_on_commit_callbacks(execute=True):
        for ply, notation in enumerate(SHORT_GAME):
            games.play_move(player=alice, public_id=game.public_id, notation=notation, ply=ply)
    assert queued_tasks(quick) == []
    assert queued_tasks(strong) == [(events.REVIEW_TASK, (game.pk, 0))]


def test_asking_again_answers_the_same_review_and_queues_no_second_task(
    guest, private_queues, django_capture_on_commit_callbacks
) -> None:
    """An import queued a whole game's review on the strong workers, unasked: 30 imports a
    minute kept them busy. Now nothing runs until someone asks, once, whoever asks again."""
    _, strong = private_queues
    with django_capture_on_commit_callbacks(execute=True):
        imported = import_game(guest)
    assert queued_tasks(strong) == []

    with django_capture_on_commit_callbacks(execute=True):
        first = guest.post(f"/api/games/{imported}/review/")
        again = guest.post(f"/api/games/{imported}/review/")
        other = APIClient(REMOTE_ADDR="198.51.100.7").post(f"/api/games/{imported}/review/")

    assert [answer.status_code for answer in (first, again, other)] == [202, 202, 202]
    assert first.json() == again.json() == other.json()
    game = Game.objects.get(public_id=imported)
    assert queued_tasks(strong) == [(events.REVIEW_TASK, (game.pk, 0))]
    assert GameReview.objects.get(game=game).requested_by == "ip:127.0.0.1"


def ask_for_reviews(client: APIClient, count: int) -> tuple[list[str], list[int]]:
    """Import ``count`` games and ask for each one's review: their ids and the answers'
    statuses."""
    imported = [import_game(client, "f5d6c3") for _ in range(count)]
    return imported, [client.post(f"/api/games/{id_}/review/").status_code for id_ in imported]


def test_an_account_has_at_most_three_reviews_under_way(make_account) -> None:
    alice_client, alice = make_account("alice")
    bob_client, _ = make_account("bob")
    imported, statuses = ask_for_reviews(alice_client, policy.REVIEWS_PER_REQUESTER + 1)

    assert statuses == [202] * policy.REVIEWS_PER_REQUESTER + [429]
    refused = alice_client.post(f"/api/games/{imported[-1]}/review/")
    assert refused.status_code == 429
    assert refused["Retry-After"] == str(policy.REVIEW_RETRY_AFTER)
    assert refused.json()["error"] == {
        "code": "too_many_reviews",
        "message": "You have 3 game analyses under way, the most at once: ask again in 60 s, "
        "once one is done.",
        "field": None,
    }
    assert not GameReview.objects.filter(game__public_id=imported[-1]).exists()
    assert set(GameReview.objects.values_list("requested_by", flat=True)) == {
        f"user:{alice.user_id}"
    }
    again = alice_client.post(f"/api/games/{imported[0]}/review/")
    assert again.status_code == 202  # its own review, as it is: no new one
    assert bob_client.post(f"/api/games/{imported[-1]}/review/").status_code == 202


def test_a_finished_review_makes_room_for_the_next(make_account) -> None:
    client, _ = make_account("alice")
    imported, _ = ask_for_reviews(client, policy.REVIEWS_PER_REQUESTER + 1)
    analyse_all(Game.objects.get(public_id=imported[0]))

    assert client.post(f"/api/games/{imported[-1]}/review/").status_code == 202


def test_a_stalled_review_stops_counting_against_its_requester(make_account) -> None:
    """A review whose task was lost (a worker killed, the queue flushed) never finishes: it
    must not hold its requester's place for ever."""
    client, _ = make_account("alice")
    imported, statuses = ask_for_reviews(client, policy.REVIEWS_PER_REQUESTER + 1)
    assert statuses[-1] == 429
    long_ago = timezone.now() - policy.REVIEW_STALLED_AFTER - timedelta(minutes=1)
    GameReview.objects.filter(game__public_id=imported[0]).update(updated_at=long_ago)

    assert client.post(f"/api/games/{imported[-1]}/review/").status_code == 202


def test_guests_are_capped_by_their_address() -> None:
    """A guest clears its session cookie at will: its address counts, not its session."""
    first = APIClient(REMOTE_ADDR="203.0.113.5")
    _, statuses = ask_for_reviews(first, policy.REVIEWS_PER_REQUESTER)
    assert statuses == [202] * policy.REVIEWS_PER_REQUESTER
    assert set(GameReview.objects.values_list("requested_by", flat=True)) == {"ip:203.0.113.5"}

    same_address = APIClient(REMOTE_ADDR="203.0.113.5")
    _, refused = ask_for_reviews(same_address, 1)
    _, elsewhere = ask_for_reviews(APIClient(REMOTE_ADDR="203.0.113.6"), 1)
    assert (refused, elsewhere) == ([429], [202])


@pytest.mark.parametrize(
    ("language", "message"),
    [
        (
            "ja",
            "解析中の対局が上限の 3 件に達しています。60 秒後、どれかが終わってから"
            "もう一度お試しください。",
        ),
        (
            "ru",
            "Анализов партий в работе: 3, больше нельзя. Попросите снова через 60 с, когда "
            "один из них закончится.",
        ),
    ],
)
def test_too_many_reviews_is_explained_in_the_clients_language(
    make_account, language: str, message: str
) -> None:
    client, _ = make_account("alice")
    imported, _ = ask_for_reviews(client, policy.REVIEWS_PER_REQUESTER + 1)
    refused = client.post(f"/api/games/{imported[-1]}/review/", HTTP_ACCEPT_LANGUAGE=language)
    assert refused.json()["error"]["message"] == message
