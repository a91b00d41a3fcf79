"""How many streams an account has open (``games.api.streams``), across every server process:
one Redis sorted set per account, a member per open stream whose score is when it lapses. A
stream renews its member at every keep-alive; a server that dies leaves members that lapse
within ``SLOT_LIFETIME``."""

import time
import uuid

import redis
import redis.asyncio
from django.conf import settings

from games.shared.errors import TooManyStreams

SLOT_LIFETIME = 30.0  # seconds: several keep-alives


def _key(user_id: int) -> str:
    return f"{settings.CACHES['default']['KEY_PREFIX']}:streams:{user_id}"


def open_slot(*, user_id: int, limit: int) -> str:
    """Count a new stream of the account and return its slot; 429 ``too_many_streams`` when
    ``limit`` are open already."""
    slot = uuid.uuid4().hex
    now = time.time()
    key = _key(user_id)
    client = redis.Redis.from_url(settings.REDIS_URL)
    try:
        with client.pipeline(transaction=True) as pipe:
            pipe.zremrangebyscore(key, "-inf", now)
            pipe.zadd(key, {slot: now + SLOT_LIFETIME})
            pipe.expire(key, int(SLOT_LIFETIME) + 1)
            pipe.zcard(key)
            count = pipe.execute()[-1]
        if count > limit:
            client.zrem(key, slot)
            raise TooManyStreams(limit=limit)
    finally:
        client.close()
    return slot


async def renew_slot(client: redis.asyncio.Redis, *, user_id: int, slot: str) -> None:
    """Keep the stream's slot for another ``SLOT_LIFETIME``."""
    key = _key(user_id)
    await client.zadd(key, {slot: time.time() + SLOT_LIFETIME})
    await client.expire(key, int(SLOT_LIFETIME) + 1)


async def close_slot(client: redis.asyncio.Redis, *, user_id: int, slot: str) -> None:
    """The stream has ended: its slot is free again."""
    await client.zrem(_key(user_id), slot)
