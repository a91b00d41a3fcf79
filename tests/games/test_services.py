"""Services: every write path keeps the move record replayable to the stored position."""

import random
import time
import uuid
from datetime import datetime, timedelta

import pytest
from celery import current_app
from django.utils import timezone

from ai_worker.engine import Board
from games import policy, presenters, selectors, tasks
from games.identity import Player
from games.models import Game, Room, Seat
from games.services import cpu, games, guests, presence, rooms
from games.shared import presence as presence_store
from games.shared.errors import Conflict, Forbidden, ServiceError
from tests.games.conftest import BLACK_MUST_PASS, BLACK_WIPES_OUT

pytestmark = pytest.mark.django_db

ALICE = Player(guest_id="alice-browser")
BOB = Player(guest_id="bob-browser")
CAROL = Player(guest_id="carol-browser")


def assert_replays(game: Game) -> None:
    game.refresh_from_db()
    assert selectors.replays_to_position(game)


def state(game: Game) -> dict:
    game.refresh_from_db()
    return presenters.game_state(game, viewer=ALICE)


def local_game(moves: list[str] = (), *, undo: bool = True) -> Game:
    game = games.create_local_game(player=ALICE, variant={}, undo_allowed=undo)
    for notation in moves:
        game = games.play_move(
            player=ALICE, public_id=game.public_id, notation=notation, ply=game.ply
        ).game
    return game


def play_for_cpu(game: Game, notation: str) -> bool:
    """Store ``notation`` as the CPU's move in the game's current position."""
    game.refresh_from_db()
    return cpu.apply_cpu_move(
        game_id=game.pk, ply=game.ply, position=game.position, notation=notation
    )


def test_cpu_game_seats_the_player_and_queues_the_cpu_when_it_starts() -> None:
    game = games.create_cpu_game(
        player=ALICE, variant={}, level="easy", color="white", undo_allowed=True
    )
    seats = list(game.seats.all())
    assert [(seat.kind, seat.level) for seat in seats] == [("cpu", "easy"), ("human", "")]
    assert seats[1].guest_id == ALICE.guest_id
    assert game.cpu_queued_at is not None
    assert state(game)["to_move"] == "black"
    assert_replays(game)


def test_cpu_task_plays_until_the_person_is_to_move_and_ignores_repeats() -> None:
    game = games.create_cpu_game(
        player=ALICE, variant={"players": 4}, level="easy", color="red", undo_allowed=False
    )
    for ply in (0, 1):
        assert tasks.cpu_move(game.pk, ply) is True
        assert tasks.cpu_move(game.pk, ply) is False  # repeated: already played
    current = state(game)
    assert current["ply"] == 2
    assert current["to_move"] == "red"
    assert game.seats.get(color=2).guest_id == ALICE.guest_id
    assert tasks.cpu_move(game.pk, 2) is False  # the person's turn: nothing to do
    assert_replays(game)


def test_random_blocked_count_is_resolved_to_squares_that_replay() -> None:
    game = games.create_local_game(player=ALICE, variant={"blocked": 3}, undo_allowed=False)
    assert len(game.variant["blocked"]) == 3
    move = next(iter(state(game)["legal_moves"]))
    games.play_move(player=ALICE, public_id=game.public_id, notation=move, ply=0)
    assert_replays(game)


@pytest.mark.parametrize(
    ("variant", "field"),
    [
        ({"board": "9x9"}, "variant.board"),
        ({"colour": "red"}, "variant.colour"),
        ({"players": 3, "board": "6x6"}, "variant.board"),
        ({"blocked": 99}, "variant.blocked"),
        ({"blocked": 2, "bogus": 1}, "variant.bogus"),
    ],
)
def test_bad_variant_names_the_field(variant: dict, field: str) -> None:
    with pytest.raises(ServiceError) as caught:
        games.create_local_game(player=ALICE, variant=variant, undo_allowed=False)
    assert (caught.value.code, caught.value.field) == ("bad_variant", field)
    assert not Game.objects.exists()


def test_a_forced_pass_is_recorded_and_announced_until_that_player_moves() -> None:
    game = local_game(BLACK_MUST_PASS)
    current = state(game)
    assert current["moves"][-1] == "pass"
    assert current["ply"] == len(BLACK_MUST_PASS) + 1
    assert current["to_move"] == "white"
    assert current["pass_notice"]["color"] == "black"
    assert current["last_move"]["move"] == "c1"
    game = games.play_move(player=ALICE, public_id=game.public_id, notation="e3", ply=game.ply).game
    assert state(game)["pass_notice"]["color"] == "black"
    black_move = next(iter(state(game)["legal_moves"]))
    game = games.play_move(
        player=ALICE, public_id=game.public_id, notation=black_move, ply=game.ply
    ).game
    assert state(game)["pass_notice"] is None
    assert_replays(game)


def test_undo_lists_only_the_colours_that_placed_a_disc() -> None:
    game = local_game([])
    assert state(game)["undo"]["colors"] == []
    game = games.play_move(player=ALICE, public_id=game.public_id, notation="f5", ply=0).game
    assert state(game)["undo"]["colors"] == ["black"]
    game = games.play_move(player=ALICE, public_id=game.public_id, notation="f6", ply=1).game
    assert state(game)["undo"]["colors"] == ["black", "white"]


def test_hot_seat_undo_takes_back_one_move_with_the_pass_it_caused() -> None:
    game = local_game(BLACK_MUST_PASS)
    game = games.undo_move(player=ALICE, game_id=game.pk)
    current = state(game)
    assert current["moves"] == BLACK_MUST_PASS[:-1]
    assert current["to_move"] == "white"
    assert current["undo"] == {"allowed": True, "used": 1, "colors": ["black", "white"]}
    game = games.undo_move(player=ALICE, game_id=game.pk)
    assert state(game)["moves"] == BLACK_MUST_PASS[:-2]
    assert_replays(game)


def test_cpu_undo_removes_the_cpu_replies_and_the_pass_in_between() -> None:
    game = games.create_cpu_game(
        player=ALICE, variant={}, level="easy", color="black", undo_allowed=True
    )
    for ply, notation in enumerate(BLACK_MUST_PASS):
        if ply % 2 == 0:
            games.play_move(player=ALICE, public_id=game.public_id, notation=notation, ply=ply)
        else:
            assert play_for_cpu(game, notation)
    game.refresh_from_db()
    assert game.ply == len(BLACK_MUST_PASS) + 1  # black's pass followed at once
    assert play_for_cpu(game, "e3")
    assert state(game)["to_move"] == "black"
    game = games.undo_move(player=ALICE, game_id=game.pk)
    current = state(game)
    assert current["moves"] == BLACK_MUST_PASS[:6]  # back to before black's a1
    assert current["to_move"] == "black"
    assert_replays(game)


def test_a_cpu_move_searched_before_an_undo_is_dropped() -> None:
    game = games.create_cpu_game(
        player=ALICE, variant={}, level="easy", color="black", undo_allowed=True
    )
    games.play_move(player=ALICE, public_id=game.public_id, notation="f5", ply=0)
    job = selectors.cpu_job(game.pk, 1)
    games.undo_move(player=ALICE, game_id=game.pk)
    games.play_move(player=ALICE, public_id=game.public_id, notation="c4", ply=0)
    reply = str(Board.from_text(job.position).legal_moves[0])
    assert not cpu.apply_cpu_move(game_id=game.pk, ply=1, position=job.position, notation=reply)
    assert tasks.cpu_move(game.pk, 1) is True  # the task queued for the new position
    assert_replays(game)


def test_undo_refusals() -> None:
    with pytest.raises(ServiceError, match="no move") as caught:
        games.undo_move(player=ALICE, game_id=local_game().pk)
    assert caught.value.code == "nothing_to_undo"
    with pytest.raises(ServiceError) as caught:
        games.undo_move(player=ALICE, game_id=local_game(["f5"], undo=False).pk)
    assert caught.value.code == "undo_disabled"
    room = rooms.create_room(player=ALICE, variant={}, seats=None)
    with pytest.raises(ServiceError) as caught:
        games.undo_move(player=ALICE, game_id=room.game_id)
    assert caught.value.code == "undo_not_available"
    with pytest.raises(Forbidden):
        games.undo_move(player=BOB, game_id=local_game(["f5"]).pk)


def test_a_finished_game_has_its_result_and_rejects_moves() -> None:
    game = local_game(BLACK_WIPES_OUT)
    current = state(game)
    assert current["status"] == "finished"
    assert current["to_move"] is None
    assert current["result"]["winner"] == "black"
    assert current["result"]["tournament"] == {"black": 64, "white": 0}
    assert current["result"]["undos"] == 0
    with pytest.raises(ServiceError) as caught:
        games.play_move(player=ALICE, public_id=game.public_id, notation="a1", ply=game.ply)
    assert caught.value.code == "game_over"
    assert_replays(game)


def test_illegal_moves_name_the_reason_and_change_nothing() -> None:
    game = local_game()
    for notation, code in [("d4", "occupied"), ("a1", "no_flips"), ("z9", "bad_square")]:
        with pytest.raises(ServiceError) as caught:
            games.play_move(player=ALICE, public_id=game.public_id, notation=notation, ply=0)
        assert caught.value.code == code
    with pytest.raises(Conflict):
        games.play_move(player=ALICE, public_id=game.public_id, notation="f5", ply=3)
    assert state(game)["ply"] == 0
    assert not game.moves.exists()


def test_resign_ends_the_game_for_the_player_to_move() -> None:
    game = local_game(["f5"])
    game = games.resign(player=ALICE, game_id=game.pk)
    result = state(game)["result"]
    assert (result["resigned"], result["winner"], result["reason"]) == ("white", "black", "resign")
    assert_replays(game)


@pytest.mark.parametrize(("anti", "winner"), [(False, "black"), (True, "red")])
def test_a_resignation_with_three_players_ranks_the_others_by_the_variants_rule(
    anti: bool, winner: str
) -> None:
    game = games.create_local_game(
        player=ALICE, variant={"players": 3, "anti": anti}, undo_allowed=False
    )
    games.play_move(player=ALICE, public_id=game.public_id, notation="d6", ply=0)
    game = games.resign(player=ALICE, game_id=game.pk)  # white, to move, resigns
    result = state(game)["result"]
    assert result["discs"] == {"black": 3, "white": 1, "red": 1}
    assert (result["resigned"], result["winner"], result["draw"]) == ("white", winner, False)
    assert_replays(game)


def test_room_fills_up_starts_and_refuses_a_taken_seat() -> None:
    room = rooms.create_room(
        player=ALICE,
        variant={"players": 3},
        seats=[rooms.SeatSpec("human"), rooms.SeatSpec("human"), rooms.SeatSpec("cpu", "easy")],
    )
    assert room.state == "open"
    with pytest.raises(ServiceError) as caught:
        games.play_move(player=ALICE, public_id=room.game.public_id, notation="c4", ply=0)
    assert caught.value.code == "waiting_for_players"
    with pytest.raises(Conflict) as caught:
        rooms.join_room(player=BOB, code=room.code, color="black")
    assert caught.value.code == "seat_taken"
    rooms.join_room(player=BOB, code=room.code, color="white")
    with pytest.raises(Conflict) as caught:
        rooms.join_room(player=CAROL, code=room.code)
    assert caught.value.code == "room_full"
    rooms.join_room(player=BOB, code=room.code)  # joining again changes nothing
    room.refresh_from_db()
    assert room.state == "playing"
    assert_replays(room.game)


def test_rematch_rotates_the_seats_once() -> None:
    room = rooms.create_room(player=ALICE, variant={}, seats=None)
    rooms.join_room(player=BOB, code=room.code)
    with pytest.raises(ServiceError) as caught:
        rooms.rematch_room(player=BOB, code=room.code)
    assert caught.value.code == "game_not_finished"
    games.resign(player=BOB, game_id=room.game_id)
    with pytest.raises(Forbidden):
        rooms.rematch_room(player=CAROL, code=room.code)
    new_room, created = rooms.rematch_room(player=BOB, code=room.code)
    again, created_again = rooms.rematch_room(player=ALICE, code=room.code)
    assert (created, created_again, again.pk) == (True, False, new_room.pk)
    seats = list(new_room.game.seats.all())
    assert [seat.guest_id for seat in seats] == [BOB.guest_id, ALICE.guest_id]
    assert new_room.state == "playing"
    assert Room.objects.get(pk=room.pk).rematch_id == new_room.pk
    assert_replays(new_room.game)


def test_cpu_takes_over_a_seat_only_after_two_minutes_away() -> None:
    room = rooms.create_room(player=ALICE, variant={}, seats=None)
    rooms.join_room(player=BOB, code=room.code)
    game = games.play_move(player=ALICE, public_id=room.game.public_id, notation="f5", ply=0).game
    bob_socket = {"game_id": game.pk, "colors": [1], "connection": "bob-1"}
    presence.seat_connected(**bob_socket)
    with pytest.raises(ServiceError) as caught:
        presence.take_over_seat(player=ALICE, game_id=game.pk, color="white", level="easy")
    assert caught.value.code == "player_present"
    presence.seat_disconnected(**bob_socket)
    with pytest.raises(ServiceError) as caught:
        presence.take_over_seat(player=ALICE, game_id=game.pk, color="white", level="easy")
    assert caught.value.code == "player_recently_left"
    Seat.objects.filter(game=game, color=1).update(
        absent_since=timezone.now() - timedelta(minutes=2, seconds=1)
    )
    with pytest.raises(Forbidden):
        presence.take_over_seat(player=CAROL, game_id=game.pk, color="white", level="easy")
    game = presence.take_over_seat(player=ALICE, game_id=game.pk, color="white", level="easy")
    white = game.seats.get(color=1)
    assert (white.kind, white.level, white.guest_id) == ("cpu", "easy", "")
    game.refresh_from_db()
    assert game.cpu_queued_at is not None  # white was to move: the CPU is queued
    assert tasks.cpu_move(game.pk, 1) is True
    assert_replays(game)


def test_presence_counts_each_connection_once() -> None:
    game = local_game()
    version = state(game)["version"]
    first = {"game_id": game.pk, "colors": [0, 1], "connection": "first"}
    second = {**first, "connection": "second"}
    for _ in range(3):  # a heartbeat renews its connection, it does not add one
        presence.seat_connected(**first)
    presence.seat_connected(**second)
    presence.seat_disconnected(**second)
    assert all(seat["connected"] for seat in state(game)["seats"])
    presence.seat_disconnected(**first)
    seats = state(game)["seats"]
    assert not any(seat["connected"] for seat in seats)
    assert all(seat["absent_since"] for seat in seats)
    assert state(game)["version"] == version  # no change of the game, no event with its state
    assert_replays(game)


def test_presence_expires_when_its_server_dies(monkeypatch) -> None:
    """A connection that is never closed (its server was killed) stops counting by itself, and
    the seat's absence starts at its last heartbeat."""
    monkeypatch.setattr(presence_store, "TTL", 0.5)
    room = rooms.create_room(player=ALICE, variant={}, seats=None)
    rooms.join_room(player=BOB, code=room.code)
    Seat.objects.filter(game_id=room.game_id).update(absent_since=timezone.now() - timedelta(1))
    presence.seat_connected(game_id=room.game_id, colors=[1], connection="killed")
    last_heartbeat = timezone.now()
    assert state(room.game)["seats"][1]["connected"]
    time.sleep(0.7)
    white = state(room.game)["seats"][1]
    assert not white["connected"]
    away_since = datetime.fromisoformat(white["absent_since"])
    assert abs((away_since - last_heartbeat).total_seconds()) < 0.5
    assert datetime.fromisoformat(white["takeover_at"]) == away_since + timedelta(minutes=2)
    with pytest.raises(ServiceError) as caught:
        presence.take_over_seat(player=ALICE, game_id=room.game_id, color="white", level="easy")
    assert caught.value.code == "player_recently_left"


def test_a_move_over_http_renews_the_absence_clock_at_most_every_few_seconds() -> None:
    """One UPDATE of the seats per move was a round trip of every move: a clock renewed within
    ``policy.SEEN_RENEWED_AFTER`` stays."""
    room = rooms.create_room(player=ALICE, variant={}, seats=None)
    rooms.join_room(player=BOB, code=room.code)
    long_ago = timezone.now() - timedelta(minutes=1)
    Seat.objects.filter(game_id=room.game_id).update(absent_since=long_ago)
    games.play_move(player=ALICE, public_id=room.game.public_id, notation="f5", ply=0)
    black = Seat.objects.get(game_id=room.game_id, color=0).absent_since
    assert timezone.now() - black < timedelta(seconds=5)  # renewed by the move
    assert Seat.objects.get(game_id=room.game_id, color=1).absent_since == long_ago  # not BOB's
    just_now = timezone.now() - policy.SEEN_RENEWED_AFTER / 2
    Seat.objects.filter(game_id=room.game_id, color=1).update(absent_since=just_now)
    games.play_move(player=BOB, public_id=room.game.public_id, notation="d6", ply=1)
    assert Seat.objects.get(game_id=room.game_id, color=1).absent_since == just_now


def test_the_database_says_when_a_closed_seat_went_away() -> None:
    """A last-seen time left in Redis (a heartbeat that raced the close, or a key of an earlier
    game with the same id) never moves a recorded absence later: the database decides."""
    room = rooms.create_room(player=ALICE, variant={}, seats=None)
    rooms.join_room(player=BOB, code=room.code)
    socket = {"game_id": room.game_id, "colors": [1], "connection": "bob-1"}
    presence.seat_connected(**socket)
    presence.seat_disconnected(**socket)
    presence_store._redis().set(presence_store._seen_key(room.game_id, 1), time.time())
    Seat.objects.filter(game_id=room.game_id, color=1).update(
        absent_since=timezone.now() - timedelta(minutes=3)
    )
    game = presence.take_over_seat(player=ALICE, game_id=room.game_id, color="white", level="easy")
    assert game.seats.get(color=1).kind == "cpu"


def test_reconnects_during_a_cpu_turn_queue_no_search() -> None:
    """30 reconnects during the CPU's turn queued 24 searches when presence was a game change
    (each one a new version whose commit queued the CPU again)."""
    game = games.create_cpu_game(
        player=ALICE, variant={}, level="easy", color="white", undo_allowed=True
    )
    before = Game.objects.get(pk=game.pk)
    assert before.cpu_queued_at is not None  # the CPU (black) is to move
    for index in range(30):
        socket = {"game_id": game.pk, "colors": [1], "connection": f"tab-{index}"}
        presence.seat_connected(**socket)
        presence.seat_disconnected(**socket)
    after = Game.objects.get(pk=game.pk)
    assert (after.version, after.cpu_queued_at) == (before.version, before.cpu_queued_at)


def test_hint_is_computed_once_per_ply_and_dropped_when_stale() -> None:
    game = local_game(["f5"])
    cpu.request_hint(player=ALICE, game_id=game.pk)
    cpu.request_hint(player=ALICE, game_id=game.pk)
    pending = {"ply": 1, "move": None, "score": None, "exact": False}
    assert state(game)["hints"] == {"allowed": True, "used": 1, "current": pending}
    assert tasks.hint(game.pk, 1) is True
    assert tasks.hint(game.pk, 1) is False
    hint = state(game)["hints"]["current"]
    assert hint["move"] in state(game)["legal_moves"]
    # the expected disc difference of strong's move, for white after f5: about even
    assert isinstance(hint["score"], float)
    assert -20 < hint["score"] < 20
    assert hint["exact"] is False
    cpu.request_hint(player=ALICE, game_id=game.pk)  # already answered for this ply
    assert state(game)["hints"]["used"] == 1
    with pytest.raises(Forbidden):
        cpu.request_hint(player=BOB, game_id=game.pk)
    assert_replays(game)


def test_stalled_cpu_turn_is_queued_again() -> None:
    game = games.create_cpu_game(
        player=ALICE, variant={}, level="easy", color="white", undo_allowed=False
    )
    assert cpu.requeue_stalled_cpu_turn(game_id=game.pk) is False  # just queued
    Game.objects.filter(pk=game.pk).update(cpu_queued_at=timezone.now() - timedelta(minutes=5))
    assert cpu.requeue_stalled_cpu_turn(game_id=game.pk) is True
    game.refresh_from_db()
    assert timezone.now() - game.cpu_queued_at < timedelta(seconds=5)
    assert_replays(game)


def test_guest_games_move_to_the_new_account(django_user_model) -> None:
    game = local_game(["f5"])
    user = django_user_model.objects.create_user("alice", password="x")
    assert guests.claim_guest_games(guest_id=ALICE.guest_id, user_id=user.pk) == 2
    assert list(selectors.games_of(Player(user_id=user.pk), status="active")) == [game]
    assert not selectors.games_of(ALICE).exists()


@pytest.mark.parametrize(
    "variant",
    [
        {"board": "6x6"},
        {"board": "octagon", "opening": "free"},
        {"board": "10x10", "anti": True, "blocked": 4},
        {"handicap": 2, "handicap_color": "white", "opening": "parallel"},
        {"players": 3, "board": "octagon"},
        {"players": 4, "anti": True},
    ],
)
def test_every_variant_plays_to_the_end_and_replays(variant: dict) -> None:
    game = games.create_cpu_game(
        player=ALICE, variant=variant, level="easy", color="random", undo_allowed=False
    )
    rng = random.Random(game.seed)
    while (current := state(game))["status"] == "active":
        if current["to_move"] in current["you"]:
            notation = rng.choice(sorted(current["legal_moves"]))
            games.play_move(player=ALICE, public_id=game.public_id, notation=notation, ply=game.ply)
        else:
            assert tasks.cpu_move(game.pk, current["ply"]) is True
    assert current["result"]["reason"] == "end"
    assert sum(current["result"]["discs"].values()) + current["empties"] <= 100
    assert_replays(game)


def test_cpu_play_replays_for_the_same_game_seed() -> None:
    created = [
        games.create_cpu_game(
            player=ALICE, variant={}, level="normal", color="white", undo_allowed=False
        )
        for _ in range(2)
    ]
    Game.objects.filter(pk__in=[game.pk for game in created]).update(seed=12345)
    for game in created:
        for ply in range(0, 6, 2):
            assert tasks.cpu_move(game.pk, ply) is True
            reply = next(iter(state(game)["legal_moves"]))
            games.play_move(player=ALICE, public_id=game.public_id, notation=reply, ply=ply + 1)
    assert state(created[0])["moves"] == state(created[1])["moves"]
    assert_replays(created[0])


@pytest.mark.django_db
def test_quick_cpu_levels_are_served_in_order_and_strong_searches_apart(
    settings, django_capture_on_commit_callbacks
) -> None:
    """Easy and normal in the order sent on the quick queue (normal behind easy at a lower
    priority waited seconds whenever easy replies kept the queue full); strong searches on
    their own queue and worker."""
    settings.CELERY_CPU_QUEUE = f"cpu-test-{uuid.uuid4().hex}"  # no worker takes these tasks
    settings.CELERY_STRONG_QUEUE = f"{settings.CELERY_CPU_QUEUE}-strong"
    created = {}
    with django_capture_on_commit_callbacks(execute=True):
        # queued slowest first, by three players (each may have two searches queued); the CPU
        # plays black
        for level, player in (("strong", CAROL), ("normal", BOB), ("easy", ALICE)):
            created[level] = games.create_cpu_game(
                player=player, variant={}, level=level, color="white", undo_allowed=False
            )

    def served(queue_name: str, count: int) -> list[int]:
        games_served = []
        with current_app.connection_for_read() as connection:
            queue = connection.SimpleQueue(queue_name)
            try:
                for _ in range(count):
                    message = queue.get(timeout=5)  # in the order a worker takes them
                    args, _kwargs, _embed = message.decode()
                    games_served.append(args[0])
                    message.ack()
            finally:
                queue.close()
        return games_served

    assert served(settings.CELERY_CPU_QUEUE, 2) == [created["normal"].pk, created["easy"].pk]
    assert served(settings.CELERY_STRONG_QUEUE, 1) == [created["strong"].pk]


def test_a_variant_that_is_not_an_object_names_the_field() -> None:
    with pytest.raises(ServiceError) as caught:
        games.create_local_game(player=ALICE, variant=["8x8"], undo_allowed=False)
    assert (caught.value.code, caught.value.field) == ("invalid", "variant")
    assert caught.value.message == "The variant must be a JSON object."


def test_a_game_reads_with_redis_away(settings) -> None:
    """Presence lives in Redis; a game's state still reads without it (seats not connected)."""
    game = local_game()
    presence.seat_connected(game_id=game.pk, colors=[0], connection="tab")
    settings.REDIS_URL = "redis://127.0.0.1:1/0"  # nothing listens there
    presence_store._redis.cache_clear()
    try:
        seats = state(game)["seats"]
    finally:
        presence_store._redis.cache_clear()
    assert [seat["connected"] for seat in seats] == [False, False]
