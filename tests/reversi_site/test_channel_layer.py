"""The configured channel layer (real Redis pub/sub) keeps a busy server's pushes instead of
dropping them, shards over the Redis servers that CHANNEL_REDIS_URLS lists, and takes a group
send from synchronous code (reversi_site/channel_layer.py) with no event loop.

The list-based channels_redis layer kept the messages of every consumer of one server process in
one Redis list and dropped a message once that list held ``capacity`` entries; a server with
dozens of open games lags behind that many pushes during a burst, which must lose none.
"""

import ast
import asyncio
import uuid

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

from reversi_site.channel_layer import PubSubChannelLayer
from tests.reversi_site.test_production_settings import settings_values
from tests.servers import redis_server

BURST = 500  # pushes to one server process before it reads any of them


@pytest.mark.django_db
def test_a_burst_of_pushes_to_one_server_process_all_arrive() -> None:
    async def burst() -> int:
        layer = get_channel_layer()
        channels = [await layer.new_channel() for _ in range(BURST)]  # viewers in one process
        try:
            for index, channel in enumerate(channels):
                await layer.group_add(f"burst-{index}", channel)
            for index in range(BURST):
                await layer.group_send(f"burst-{index}", {"type": "game.event", "n": index})
            arrived = 0
            for index, channel in enumerate(channels):
                try:
                    message = await asyncio.wait_for(layer.receive(channel), timeout=5)
                except TimeoutError:
                    break  # dropped: nothing more will come
                arrived += message["n"] == index
            return arrived
        finally:
            for index, channel in enumerate(channels):
                await layer.group_discard(f"burst-{index}", channel)

    assert async_to_sync(burst)() == BURST


GAMES = 20  # groups spread over the shards


def test_the_channel_layer_shards_over_the_listed_redis_servers() -> None:
    """Two processes' layers from CHANNEL_REDIS_URLS: every game's push arrives, and the games'
    groups are subscribed on both servers (channels_redis hashes each name onto one of them)."""
    with redis_server() as first, redis_server() as second:
        urls = f"{first.url},{second.url}"
        (layers,) = settings_values("CHANNEL_LAYERS", CHANNEL_REDIS_URLS=urls, DJANGO_DEBUG="1")
        config = ast.literal_eval(layers)["default"]["CONFIG"]
        assert [host["address"] for host in config["hosts"]] == [first.url, second.url]

        async def push() -> tuple[set[str], list[list[bytes]]]:
            web, worker = PubSubChannelLayer(**config), PubSubChannelLayer(**config)
            channel = await web.new_channel()
            groups = [f"game-{number}" for number in range(GAMES)]
            for group in groups:
                await web.group_add(group, channel)
            for number, group in enumerate(groups):  # from coroutines, and synchronous code
                message = {"type": "game.event", "group": group}
                if number % 2:
                    await worker.group_send(group, message)
                else:
                    worker.group_send_now(group, message)
            received = [await asyncio.wait_for(web.receive(channel), 5) for _ in groups]
            subscribed = [
                redis.Redis.from_url(server.url).pubsub_channels("*group*")
                for server in (first, second)
            ]
            await web.flush()
            await worker.flush()
            return {message["group"] for message in received}, subscribed

        received, subscribed = asyncio.run(push())
        assert received == {f"game-{number}" for number in range(GAMES)}
        assert all(subscribed), subscribed


@pytest.mark.django_db
def test_a_group_send_from_synchronous_code_arrives_in_order_without_an_event_loop() -> None:
    """As a move's request thread or a Celery task sends: each publish done when the call
    returns (the next one, or the CPU's task queued after it, cannot overtake it), no loop run
    for it (channels_redis keeps a layer, with its Redis connection, per loop)."""
    layer = get_channel_layer()
    assert isinstance(layer, PubSubChannelLayer)
    group = f"sync-{uuid.uuid4().hex}"

    async def listen(subscribed: asyncio.Event) -> list[int]:
        channel = await layer.new_channel()
        await layer.group_add(group, channel)
        subscribed.set()
        received = [(await asyncio.wait_for(layer.receive(channel), 5))["n"] for _ in range(5)]
        await layer.group_discard(group, channel)
        return received

    async def send_from_a_thread() -> list[int]:
        subscribed = asyncio.Event()
        listening = asyncio.create_task(listen(subscribed))
        await subscribed.wait()
        loops = set(layer._layers)

        def send() -> None:
            for n in range(5):
                layer.group_send_now(group, {"type": "game.event", "n": n})

        await asyncio.to_thread(send)
        assert set(layer._layers) == loops  # no loop's layer made for the sends
        return await listening

    assert async_to_sync(send_from_a_thread)() == [0, 1, 2, 3, 4]
