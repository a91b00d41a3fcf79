"""The Redis cache's connections are the process's, not each request's (reversi_site.cache)."""

import contextvars

from django.core.cache import caches


def pool_seen_by_a_request() -> object:
    """The cache's connection pool as a request sees it: each ASGI request runs in a context of
    its own, where Django makes a new cache object."""

    def read() -> object:
        cache = caches["default"]
        cache.get("reversi-cache-test")  # a throttle's read
        return cache._cache._get_connection_pool(write=False)

    return contextvars.Context().run(read)


def test_requests_share_one_pool_of_connections() -> None:
    pools = {id(pool_seen_by_a_request()) for _ in range(20)}
    assert len(pools) == 1  # before: 20 pools, a new connection to Redis for each request
