"""Game events: in order, small for moves, serialized once (on the real Redis channel layer)."""

import asyncio
import json
import uuid

import pytest
import redis
from asgiref.sync import async_to_sync
from celery.signals import before_task_publish
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.conf import settings as django_settings

from ai_worker.engine import Board
from games import presenters, selectors, tasks
from games.models import Game
from games.services import cpu, events, games, offers, rooms
from tests.games.sockets import Socket

pytestmark = pytest.mark.django_db(transaction=True)


def group_messages(game: Game, action, count: int) -> list[events.GroupMessage]:
    """The first ``count`` messages the game's group gets while ``action()`` runs."""
    layer = get_channel_layer()

    async def listen() -> list[events.GroupMessage]:
        channel = await layer.new_channel()
        await layer.group_add(events.game_group(game.pk), channel)
        await database_sync_to_async(action)()
        received = [await asyncio.wait_for(layer.receive(channel), 10) for _ in range(count)]
        await layer.group_discard(events.game_group(game.pk), channel)
        return received

    return async_to_sync(listen)()


@pytest.fixture
def private_cpu_queue(settings) -> str:
    """A queue no worker takes: the searches these tests send stay unanswered (and go after)."""
    settings.CELERY_CPU_QUEUE = f"cpu-test-{uuid.uuid4().hex}"
    settings.CELERY_STRONG_QUEUE = f"{settings.CELERY_CPU_QUEUE}-strong"
    yield settings.CELERY_CPU_QUEUE
    store = redis.Redis.from_url(django_settings.REDIS_URL)
    store.delete(settings.CELERY_CPU_QUEUE, settings.CELERY_STRONG_QUEUE)


def test_a_moves_event_leaves_before_the_cpu_reply_it_triggers(alice, private_cpu_queue) -> None:
    """A worker that answers the instant its task is sent publishes after the move's event."""
    _, player = alice
    game = games.create_cpu_game(
        player=player, variant={}, level="easy", color="black", undo_allowed=True
    )

    def answer_at_once(sender: str, body: tuple, **kwargs: object) -> None:
        if sender == events.CPU_MOVE_TASK:
            tasks.cpu_move(*body[0])

    before_task_publish.connect(answer_at_once)
    try:
        received = group_messages(
            game,
            lambda: games.play_move(player=player, public_id=game.public_id, notation="f5", ply=0),
            count=2,
        )
    finally:
        before_task_publish.disconnect(answer_at_once)
    versions = [message["version"] for message in received]
    assert versions == [game.version + 1, game.version + 2]
    moves = [json.loads(message["texts"][events.SPECTATOR])["move"] for message in received]
    assert [(move["ply"], move["color"]) for move in moves] == [(0, "black"), (1, "white")]


def test_the_consumer_never_sends_an_older_version(alice) -> None:
    _, player = alice
    game = games.create_local_game(player=player, variant={}, undo_allowed=True)

    def event(version: int) -> events.GroupMessage:
        text = json.dumps({"type": "move", "version": version})
        return {"type": "game.event", "kind": "move", "version": version, "texts": {"": text}}

    async def watch() -> list[int]:
        socket = Socket(f"/ws/games/{game.public_id}/")
        assert (await socket.connect())[0]
        first = await socket.receive_json_from()
        layer, group = get_channel_layer(), events.game_group(game.pk)
        for step in (2, 1, 2, 3):  # late and repeated deliveries between new ones
            await layer.group_send(group, event(first["version"] + step))
        seen = [(await socket.receive_json_from())["version"] - first["version"] for _ in "ab"]
        assert await socket.receive_nothing(timeout=0.5)
        await socket.disconnect()
        return seen

    assert async_to_sync(watch)() == [2, 3]


def test_a_move_event_carries_what_changed_not_the_state(alice) -> None:
    _, player = alice
    game = games.create_local_game(player=player, variant={}, undo_allowed=True)
    (message,) = group_messages(
        game,
        lambda: games.play_move(player=player, public_id=game.public_id, notation="f5", ply=0),
        1,
    )
    assert list(message["texts"]) == [events.SPECTATOR]  # one text for every viewer
    event = json.loads(message["texts"][events.SPECTATOR])
    state = presenters.game_state(selectors.game(game.pk))
    assert not {"state", "board", "seats"} & set(event)
    assert (
        event["move"]
        == state["last_move"]
        == {
            "ply": 0,
            "color": "black",
            "move": "f5",
            "flipped": ["e5"],
            "text": "Black f5, 1 disc flipped",
        }
    )
    for key in ("ply", "version", "status", "to_move", "legal_moves", "discs", "empties"):
        assert event[key] == state[key], key
    assert event["legal_moves"]["f6"] == ["e5"]  # each legal move with its flips
    assert event["record"] == ["f5"]
    assert len(json.dumps(event)) < len(json.dumps(state)) / 2


def test_a_timed_move_event_carries_the_clocks_and_the_offers_after_it(alice, bob) -> None:
    """Issue 14: the clocks are in every move event (pressed by the move), with the draw offer
    the move declined and whether an abort is still allowed, as the state after it has them."""
    (black, black_player), (white, white_player) = alice, bob
    code = black.post("/api/rooms/", {"time_control": "3+2"}, format="json").json()["code"]
    public_id = white.post(f"/api/rooms/{code}/join/", {}, format="json").json()["game"]["id"]
    game = Game.objects.get(public_id=public_id)
    offers.draw(player=white_player, game_id=game.pk, action="offer")
    (message,) = group_messages(
        game,
        lambda: games.play_move(
            player=black_player, public_id=game.public_id, notation="f5", ply=0
        ),
        1,
    )
    event = json.loads(message["texts"][events.SPECTATOR])
    state = presenters.game_state(selectors.game(game.pk))
    assert event["clock"]["running"] == state["clock"]["running"] == "white"
    assert event["clock"]["remaining_ms"]["black"] > 180_000  # the increment, added by the move
    assert event["clock"]["flag_at"] == state["clock"]["flag_at"]
    assert event["draw"] == state["draw"] == {"allowed": True, "offered_by": None}
    assert event["abort_allowed"] is state["abort_allowed"] is True  # white has not placed one


def test_a_state_event_is_serialized_once_per_view(alice, bob) -> None:
    """A room's event: one text for the spectators and one per seat holder, not per viewer."""
    _, black = alice
    _, white = bob
    room = rooms.create_room(player=black, variant={}, seats=None)
    rooms.join_room(player=white, code=room.code)
    game = selectors.game(room.game_id)
    message = events.group_message(game, kind="resign", board=Board.from_text(game.position))
    texts = {key: json.loads(text) for key, text in message["texts"].items()}
    black_key, white_key = presenters.viewer_key(black), presenters.viewer_key(white)
    assert sorted(texts) == sorted([events.SPECTATOR, black_key, white_key])
    assert texts[black_key]["state"]["you"] == ["black"]
    assert texts[white_key]["state"]["room"]["code"] == room.code
    assert texts[events.SPECTATOR]["state"]["room"]["code"] is None
    assert room.code not in message["texts"][events.SPECTATOR]


def test_strong_searches_and_hints_have_their_own_queue(make_account, private_cpu_queue) -> None:
    """Quick levels never wait behind strong searches: those go to the strong queue's worker."""
    routed: list[tuple[str, str]] = []

    def note(sender: str, routing_key: str, **kwargs: object) -> None:
        routed.append((sender, routing_key))

    before_task_publish.connect(note)
    try:
        for level in ("easy", "normal", "strong"):  # the CPU plays black: it moves first
            _, player = make_account(f"player-{level}")
            games.create_cpu_game(
                player=player, variant={}, level=level, color="white", undo_allowed=True
            )
        local = games.create_local_game(player=player, variant={}, undo_allowed=True)
        cpu.request_hint(player=player, game_id=local.pk)
    finally:
        before_task_publish.disconnect(note)
    strong = f"{private_cpu_queue}-strong"
    assert routed == [
        (events.CPU_MOVE_TASK, private_cpu_queue),
        (events.CPU_MOVE_TASK, private_cpu_queue),
        (events.CPU_MOVE_TASK, strong),
        (events.HINT_TASK, strong),
    ]


def test_a_player_has_two_searches_queued_at_most_and_waits_in_turn(
    alice, bob, private_cpu_queue
) -> None:
    """One client's flood of CPU games never slows another's: its third and later CPU turns wait
    (the oldest first) until one of its searches is answered; other players queue at once."""
    _, flooder = alice
    _, other = bob
    queued: list[int] = []

    def note(sender: str, body: tuple, **kwargs: object) -> None:
        queued.append(body[0][0])

    def cpu_game(player) -> Game:  # the CPU plays black: its turn comes first
        return games.create_cpu_game(
            player=player, variant={}, level="easy", color="white", undo_allowed=True
        )

    before_task_publish.connect(note)
    try:
        flood = [cpu_game(flooder) for _ in range(4)]
        others = cpu_game(other)
        assert queued == [flood[0].pk, flood[1].pk, others.pk]
        waiting = [Game.objects.get(pk=game.pk).cpu_queued_at for game in flood[2:]]
        assert waiting == [None, None]
        assert cpu.watched_game(game_id=flood[3].pk)  # reading a waiting game jumps no queue
        assert queued == [flood[0].pk, flood[1].pk, others.pk]
        assert tasks.cpu_move(flood[0].pk, 0)  # a worker answers the first
    finally:
        before_task_publish.disconnect(note)
    assert queued == [flood[0].pk, flood[1].pk, others.pk, flood[2].pk]
    assert Game.objects.get(pk=flood[3].pk).cpu_queued_at is None
