"""Issue 14 §2, clocks kept by the server: time controls chosen when a room is created, the
clock times stored with every move, the flag decided by the server (a task due at the flag, a
sweep as safety net), a move after the flag refused, the player out of time losing."""

import time
import uuid
from datetime import datetime, timedelta

import pytest
from celery import current_app
from django.conf import settings as django_settings
from django.db import connection
from django.utils import timezone
from rest_framework.test import APIClient

from games import presenters, tasks
from games.accounts.models import RatingChange
from games.models import Game, Move
from games.services import cpu, games, rooms
from games.shared.time_controls import TimeControl, TimeControlError
from tests.games.conftest import BLACK_WIPES_OUT
from tests.servers import celery_worker

pytestmark = pytest.mark.django_db


def timed_room(black: APIClient, white: APIClient, control: str = "1+0", **extra) -> dict:
    """A 2-player room with ``control`` clocks, both seats taken: the game's state."""
    created = black.post("/api/rooms/", {"time_control": control, **extra}, format="json")
    assert created.status_code == 201, created.json()
    joined = white.post(f"/api/rooms/{created.json()['code']}/join/", {}, format="json")
    assert joined.status_code == 200, joined.json()
    return joined.json()["game"]


def game_of(state: dict) -> Game:
    return Game.objects.get(public_id=state["id"])


def turn_began(game: Game, seconds_ago: float) -> None:
    """Stage the current turn as begun ``seconds_ago`` (its flag moved back with it)."""
    game.refresh_from_db()
    shift = timezone.now() - timedelta(seconds=seconds_ago) - game.turn_started_at
    Game.objects.filter(pk=game.pk).update(
        turn_started_at=game.turn_started_at + shift, flag_at=game.flag_at + shift
    )


def move(client: APIClient, state: dict, notation: str, ply: int):
    return client.post(
        f"/api/games/{state['id']}/moves/", {"move": notation, "ply": ply}, format="json"
    )


def close_to(value: int, expected: int, slack_ms: int = 3000) -> bool:
    return expected - slack_ms <= value <= expected + slack_ms


def test_time_controls_parse_and_fall_in_speed_classes() -> None:
    assert TimeControl.parse("3+2") == TimeControl("3+2", 180_000, 2000)
    assert TimeControl.parse("3d") == TimeControl("3d", 3 * 86_400_000, 0, days_per_move=3)
    speeds = {text: TimeControl.parse(text).speed for text in ("1+0", "3+2", "5+3", "10+0", "3d")}
    assert speeds == {
        "1+0": "bullet",
        "3+2": "blitz",
        "5+3": "blitz",
        "10+0": "rapid",
        "3d": "correspondence",
    }
    for junk in ("", "3", "0+0", "3+", "+2", "0d", "3 + 2", "ten+0"):
        with pytest.raises(TimeControlError):
            TimeControl.parse(junk)


def test_a_timed_room_shows_both_clocks_and_runs_blacks_from_the_start(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "3+2")
    clock = state["clock"]
    assert (clock["time_control"], clock["speed"], clock["running"]) == ("3+2", "blitz", "black")
    assert clock["remaining_ms"]["white"] == 180_000
    assert close_to(clock["remaining_ms"]["black"], 180_000)
    flag_at = datetime.fromisoformat(clock["flag_at"])
    assert close_to(
        int((flag_at - datetime.fromisoformat(state["server_time"])).total_seconds() * 1000),
        180_000,
    )
    assert state["rated"] is False
    assert state["abort_allowed"] is True


def test_an_untimed_room_has_no_clock(alice) -> None:
    black, _ = alice
    created = black.post("/api/rooms/", {}, format="json").json()
    assert created["game"]["clock"] is None
    assert game_of(created["game"]).flag_at is None


def test_each_move_stores_the_clock_times_with_the_increment(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "3+2")
    game = game_of(state)
    turn_began(game, 10)
    answer = move(black, state, "f5", 0).json()
    stored = Move.objects.get(game=game, ply=0).clock_ms
    assert close_to(stored[0], 180_000 - 10_000 + 2000)
    assert stored[1] == 180_000
    assert answer["clock"]["running"] == "white"
    assert answer["clock"]["remaining_ms"]["black"] == stored[0]
    turn_began(game, 20)
    answer = move(white, state, next(iter(answer["legal_moves"])), 1).json()  # the move's event
    stored = Move.objects.get(game=game, ply=1).clock_ms
    assert close_to(stored[1], 180_000 - 20_000 + 2000)
    assert answer["clock"]["remaining_ms"]["white"] == stored[1]


def test_correspondence_gives_the_full_days_again_after_each_move(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "3d")
    game = game_of(state)
    turn_began(game, 86_400)  # a day spent on the first move
    move(black, state, "f5", 0)
    assert Move.objects.get(game=game, ply=0).clock_ms == [3 * 86_400_000] * 2
    game.refresh_from_db()
    assert close_to(int((game.flag_at - timezone.now()).total_seconds() * 1000), 3 * 86_400_000)


def test_the_server_flags_a_player_with_no_client_connected(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "1+0")
    game = game_of(state)
    turn_began(game, 61)
    assert tasks.flag(game.pk, 0) is True  # the task due at the flag
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    result = game.result
    assert (result["reason"], result["flagged"], result["winner"]) == ("time", "black", "white")
    assert game.clock_ms == [0, 60_000]
    assert game.flag_at is None
    assert tasks.flag(game.pk, 0) is False  # a repeated check changes nothing


def test_a_move_after_the_flag_is_refused_and_the_game_ends_on_time(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "1+0")
    turn_began(game_of(state), 61)  # no flag check has run yet
    answer = move(black, state, "f5", 0)
    assert answer.status_code == 409
    error = answer.json()["error"]
    assert (error["code"], error["field"]) == ("out_of_time", "move")
    assert error["message"] == "Too late: Black ran out of time and the game is over."
    game = game_of(state)
    assert game.status == Game.Status.FINISHED
    assert game.result["flagged"] == "black"
    assert not Move.objects.filter(game=game).exists()
    assert move(black, state, "f5", 0).json()["error"]["code"] == "out_of_time"


def test_the_player_out_of_time_loses_the_rated_game_even_with_more_discs(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "1+0", rated=True)
    for ply, notation in enumerate(["d3", "e3", "f3", "c3"]):  # black then leads 5 to 3
        assert move((black, white)[ply % 2], state, notation, ply).status_code == 201
    game = game_of(state)
    turn_began(game, 61)
    assert tasks.flag(game.pk, 4) is True
    game.refresh_from_db()
    assert (game.result["flagged"], game.result["winner"]) == ("black", "white")
    scores = dict(RatingChange.objects.values_list("user__username", "score"))
    assert scores == {"alice": 0.0, "bob": 1.0}  # a loss, not a win (nor a draw) on the discs


def test_reading_an_overdue_game_ends_it_on_time(alice, bob, guest) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "1+0")
    turn_began(game_of(state), 61)
    seen = guest.get(f"/api/games/{state['id']}/").json()
    assert seen["status"] == "finished"
    assert seen["result"]["reason"] == "time"
    assert seen["clock"]["remaining_ms"] == {"black": 0, "white": 60_000}


def test_a_flag_check_of_a_turn_since_played_does_nothing(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "1+0")
    game = game_of(state)
    move(black, state, "f5", 0)
    turn_began(game, 61)  # white is out of time now, at ply 1
    assert tasks.flag(game.pk, 0) is False  # black's check, stale
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    assert tasks.flag(game.pk, 1) is True
    game.refresh_from_db()
    assert (game.result["flagged"], game.result["winner"]) == ("white", "black")


def test_a_flag_check_before_the_flag_schedules_itself_again(
    alice, bob, settings, django_capture_on_commit_callbacks
) -> None:
    settings.CELERY_CPU_QUEUE = f"cpu-test-{uuid.uuid4().hex}"  # no worker takes these tasks
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "1+0")
    game = game_of(state)
    with django_capture_on_commit_callbacks(execute=True):
        assert tasks.flag(game.pk, 0) is False  # a timer firing early
    game.refresh_from_db()
    assert game.status == Game.Status.ACTIVE
    with current_app.connection_for_read() as broker:
        queue = broker.SimpleQueue(settings.CELERY_CPU_QUEUE)
        try:
            message = queue.get(timeout=5)
            args, _kwargs, _embed = message.decode()
            assert (message.headers["task"], args) == ("games.tasks.flag", [game.pk, 0])
            assert datetime.fromisoformat(message.headers["eta"]) == game.flag_at
            message.ack()
        finally:
            queue.close()


def test_the_sweep_ends_every_overdue_game_and_no_other(alice, bob, make_account) -> None:
    (black, _), (white, _) = alice, bob
    overdue = timed_room(black, white, "1+0")
    carol, _ = make_account("carol")
    dave, _ = make_account("dave")
    running = timed_room(carol, dave, "1+0")
    turn_began(game_of(overdue), 61)
    assert tasks.flag_overdue_games() == 1
    assert game_of(overdue).status == Game.Status.FINISHED
    assert game_of(running).status == Game.Status.ACTIVE
    assert tasks.flag_overdue_games() == 0


def test_the_beat_schedule_runs_the_sweep() -> None:
    entry = django_settings.CELERY_BEAT_SCHEDULE["flag-overdue-games"]
    assert entry["task"] == tasks.flag_overdue_games.name
    assert entry["schedule"].total_seconds() <= 60


def test_the_clocks_stop_when_a_game_ends(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "1+0")
    game = game_of(state)
    turn_began(game, 5)
    ended = black.post(f"/api/games/{state['id']}/resign/").json()
    assert ended["clock"]["running"] is None
    assert ended["clock"]["flag_at"] is None
    assert close_to(ended["clock"]["remaining_ms"]["black"], 55_000)
    game.refresh_from_db()
    assert game.flag_at is None
    assert tasks.flag(game.pk, 0) is False


def test_a_game_ending_on_the_board_stops_the_clocks(alice, bob) -> None:
    (_, black), (_, white) = alice, bob
    room = rooms.create_room(player=black, variant={}, seats=None, time_control="10+0")
    rooms.join_room(player=white, code=room.code)
    for ply, notation in enumerate(BLACK_WIPES_OUT):
        games.play_move(
            player=black if ply % 2 == 0 else white,
            public_id=room.game.public_id,
            notation=notation,
            ply=ply,
        )
    game = Game.objects.get(pk=room.game_id)
    assert game.status == Game.Status.FINISHED
    assert game.result["reason"] == "end"
    assert game.flag_at is None
    assert game.turn_started_at is None
    assert presenters.game_state(game)["clock"]["running"] is None


def test_a_rematch_keeps_the_time_control_and_rating(alice, bob) -> None:
    (black, _), (white, _) = alice, bob
    state = timed_room(black, white, "5+3", rated=True)
    black.post(f"/api/games/{state['id']}/resign/")
    code = game_of(state).room.code
    rematch = white.post(f"/api/rooms/{code}/rematch/").json()["game"]
    assert rematch["clock"]["time_control"] == "5+3"
    assert rematch["rated"] is True
    assert rematch["clock"]["running"] == "black"


@pytest.mark.parametrize("control", ["2+1", "3 + 2", "0+0", "", "x" * 17, 5])
def test_a_time_control_that_is_not_offered_is_refused(alice, control: object) -> None:
    client, _ = alice
    answer = client.post("/api/rooms/", {"time_control": control}, format="json")
    assert answer.status_code == 400
    error = answer.json()["error"]
    assert error["field"] == "time_control"
    assert not Game.objects.exists()


def test_the_refusal_lists_the_offered_time_controls(alice) -> None:
    client, _ = alice
    error = client.post("/api/rooms/", {"time_control": "2+1"}, format="json").json()["error"]
    assert error["code"] == "bad_time_control"
    assert error["message"] == (
        "Choose one of these time controls: 1+0, 3+2, 5+3, 10+0, 1d, 3d, 7d."
    )
    japanese = client.post(
        "/api/rooms/", {"time_control": "2+1"}, format="json", HTTP_ACCEPT_LANGUAGE="ja"
    ).json()["error"]["message"]
    assert "1+0" in japanese
    assert "Choose" not in japanese


def test_rated_rooms_are_for_accounts_and_people_only(alice, guest) -> None:
    client, _ = alice
    refused = guest.post("/api/rooms/", {"rated": True, "time_control": "3+2"}, format="json")
    assert (refused.status_code, refused.json()["error"]["code"]) == (403, "rated_needs_account")
    with_cpu = client.post(
        "/api/rooms/",
        {"rated": True, "seats": [{"kind": "human"}, {"kind": "cpu"}]},
        format="json",
    )
    assert with_cpu.json()["error"]["code"] == "rated_needs_people"
    room = client.post("/api/rooms/", {"rated": True, "time_control": "3+2"}, format="json").json()
    joined = guest.post(f"/api/rooms/{room['code']}/join/", {}, format="json")
    assert (joined.status_code, joined.json()["error"]["code"]) == (403, "rated_needs_account")


@pytest.mark.django_db(transaction=True)
def test_a_real_worker_flags_a_short_game_nobody_watches(settings, alice, bob) -> None:
    """A 3-second game (a time control offered for this test) with no client connected: the
    flag check that the start of the game scheduled runs on a real Celery worker at the flag."""
    queue = f"cpu-test-{uuid.uuid4().hex}"
    settings.CELERY_CPU_QUEUE = queue
    settings.TIME_CONTROLS = [*django_settings.TIME_CONTROLS, "0.05+0"]
    (_, black), (_, white) = alice, bob
    with celery_worker(queue, {"POSTGRES_DB": connection.settings_dict["NAME"]}):
        room = rooms.create_room(player=black, variant={}, seats=None, time_control="0.05+0")
        rooms.join_room(player=white, code=room.code)
        started = Game.objects.get(pk=room.game_id)
        assert started.status == Game.Status.ACTIVE
        assert started.flag_at is not None
        deadline = time.monotonic() + 90
        game = started
        while game.status != Game.Status.FINISHED and time.monotonic() < deadline:
            time.sleep(0.5)
            game = Game.objects.get(pk=room.game_id)
    assert game.status == Game.Status.FINISHED, "the worker did not flag the game"
    assert (game.result["reason"], game.result["flagged"]) == ("time", "black")
    assert game.updated_at >= started.flag_at


def test_a_cpu_out_of_time_loses_on_time_instead_of_moving(alice) -> None:
    """The CPU's search came back after its flag: the game ends on time (the flag read from the
    locked row), and the move is not played."""
    client, _ = alice
    seats = [{"kind": "human"}, {"kind": "cpu", "level": "easy"}]
    created = client.post("/api/rooms/", {"time_control": "1+0", "seats": seats}, format="json")
    assert created.status_code == 201, created.json()
    state = created.json()["game"]
    assert move(client, state, "d3", 0).status_code == 201
    game = game_of(state)
    turn_began(game, 61)
    position = Game.objects.get(pk=game.pk).position
    assert cpu.apply_cpu_move(game_id=game.pk, ply=1, position=position, notation="c3") is False
    game.refresh_from_db()
    assert (game.status, game.ply) == (Game.Status.FINISHED, 1)
    assert (game.result["reason"], game.result["flagged"]) == ("time", "white")
