"""The Redis cache's connections: one pool per server for the whole process.

Django's ``RedisCache`` keeps a connection pool per cache object, and its cache objects are
per asynchronous context: under ASGI each request is a context of its own, so each request made
a new pool and opened a new connection to Redis (a TCP connect and redis-py's handshake) for its
throttle's count, then dropped it. ``SharedConnectionPool`` (the cache's ``pool_class``) hands
every cache object of the process the same pool for the same server and options; redis-py's
pools are thread-safe and start afresh in a forked child (the Celery workers).
"""

import threading
from typing import Any, ClassVar, Self

import redis


class SharedConnectionPool(redis.ConnectionPool):
    """A ``redis.ConnectionPool`` whose ``from_url`` returns the process's pool for that URL
    and those options, made on first use."""

    _pools: ClassVar[dict[str, Any]] = {}
    _made_lock: ClassVar[threading.Lock] = threading.Lock()

    @classmethod
    def from_url(cls, url: str, **kwargs: Any) -> Self:
        key = repr((url, sorted(kwargs.items())))
        with cls._made_lock:
            if key not in cls._pools:
                cls._pools[key] = super().from_url(url, **kwargs)
            pool: Self = cls._pools[key]
            return pool
