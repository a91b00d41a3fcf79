"""The channel layer: channels_redis's Redis pub/sub layer, and a group send for synchronous code.

A game's event is sent from synchronous code: a request's thread (a move, on commit) or a
Celery task. Through the layer's coroutine that needs an event loop: from a web request's
thread ``async_to_sync`` hands the publish to the server's event loop and waits for it (under
the load test a third of the request threads' busy time was that wait, behind the loop's
sockets), and a worker process had to keep a loop of its own in a thread for it.
``PubSubChannelLayer.group_send_now`` sends the same message, a ``PUBLISH`` of the same bytes to
the same Redis channel on the same shard, from the calling thread on a plain Redis client.
"""

from collections.abc import Mapping
from typing import Any

import redis
from channels_redis.pubsub import RedisPubSubChannelLayer, RedisPubSubLoopLayer
from django.core.exceptions import ImproperlyConfigured

# Seconds a publish may take before it fails (Redis unreachable); its caller logs it and the
# viewers resync on their next event.
PUBLISH_TIMEOUT = 2.0


class PubSubChannelLayer(RedisPubSubChannelLayer):
    """channels_redis's pub/sub layer (every coroutine as there), plus ``group_send_now``."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The channel names and shards exactly as channels_redis's own per-loop layer makes
        # them (building it opens no connection).
        self._names = RedisPubSubLoopLayer(*self._args, **self._kwargs, channel_layer=self)
        self._clients = {shard: self._client(shard.host) for shard in self._names._shards}

    @staticmethod
    def _client(host: dict[str, Any]) -> redis.Redis:
        if set(host) != {"address"}:
            raise ImproperlyConfigured("the channel layer's hosts must be {'address': url}")
        # redis-py's pool is thread-safe and opens new connections after a fork (a Celery
        # worker process): one client per shard for the whole process.
        return redis.Redis.from_url(
            host["address"],
            socket_timeout=PUBLISH_TIMEOUT,
            socket_connect_timeout=PUBLISH_TIMEOUT,
        )

    def group_send_now(self, group: str, message: Mapping[str, object]) -> None:
        """Publish ``message`` to ``group`` from synchronous code, before returning; as
        ``group_send`` would, with no event loop."""
        channel = self._names._get_group_channel_name(group)
        self._clients[self._names._get_shard(channel)].publish(channel, self.serialize(message))
