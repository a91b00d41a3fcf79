"""The configured channel layer (real Redis) keeps a busy server's pushes instead of dropping them.

channels_redis keeps the messages of every consumer of one server process in one Redis list, and
``group_send`` silently drops a message once that list holds ``capacity`` entries; a server with
dozens of open games can lag behind that many pushes during a burst.
"""

import asyncio

import pytest
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer

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
