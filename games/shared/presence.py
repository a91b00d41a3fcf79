"""Which seats have a websocket open, kept in Redis so that it expires by itself.

Each open connection of a seat is a member of the sorted set
``presence:<database>:<game>:<colour>``, scored by when it expires; the consumer renews it every
``HEARTBEAT`` seconds and removes it when it closes. A server that dies leaves members that
simply expire ``TTL`` seconds after its last heartbeat, and a connection is one member however
often it is renewed: a socket is never counted twice, nor forever.
``presence-seen:<database>:<game>:<colour>`` keeps when the seat was last seen connected: the
start of its absence, for the 2-minute takeover, when its server died. The database decides
otherwise: a seat that connects has its ``absent_since`` cleared, and a connection that closes
(or a move over HTTP) records it there.
A connection that holds no seat of the game is a spectator. A spectator is a person, not a tab:
``spectators:<database>:<game>`` has one member per viewer (``viewer`` of ``watch``), kept while
any of their sockets on the game, members of ``spectator-sockets:<database>:<game>:<viewer>``,
lives; both are renewed and expire alike.
Every socket is also a member of ``sockets:<database>:<owner>`` for each of its owners (its
viewer, its client address): ``claim_socket`` refuses one more than an owner's limit.
Who is online (issue 14 §1) counts people alike: ``online:<database>`` has one member per viewer
with anything open (a lobby or game socket, an API stream), kept while one of its connections,
members of ``online-connections:<database>:<viewer>``, lives.
"""

import time
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import cache
from typing import cast

import redis
from django.conf import settings
from django.db import connection

HEARTBEAT = 10.0  # seconds between a connection's renewals
TTL = 30.0  # seconds a connection counts without a renewal
SEEN_KEPT = 7 * 24 * 3600  # seconds the last-seen time outlives the seat's connections


@dataclass(frozen=True)
class SeatPresence:
    connected: bool
    last_seen: datetime | None  # when a connection of the seat was last alive


@cache
def _redis() -> redis.Redis:
    return redis.Redis.from_url(settings.REDIS_URL)


def _key(game_id: int, color: int) -> str:
    return f"presence:{_database()}:{game_id}:{color}"


def _seen_key(game_id: int, color: int) -> str:
    return f"presence-seen:{_database()}:{game_id}:{color}"


def _spectators_key(game_id: int) -> str:
    return f"spectators:{_database()}:{game_id}"


def _viewer_sockets_key(game_id: int, viewer: str) -> str:
    return f"spectator-sockets:{_database()}:{game_id}:{viewer}"


def _online_key() -> str:
    return f"online:{_database()}"


def _online_connections_key(viewer: str) -> str:
    return f"online-connections:{_database()}:{viewer}"


def _announced_key() -> str:
    return f"online-announced:{_database()}"


def _sockets_key(owner: str) -> str:
    return f"sockets:{_database()}:{owner}"


@cache
def _script(source: str) -> redis.commands.core.Script:
    """A Lua script run atomically in Redis (sent once, then called by its hash)."""
    return _redis().register_script(source)


def _database() -> str:
    """The database's name: stacks sharing one Redis database number their games alike."""
    return str(connection.settings_dict["NAME"])


def renew(*, game_id: int, colors: Iterable[int], connection: str) -> set[int]:
    """Count ``connection`` for the seats ``colors`` for ``TTL`` more seconds; returns the
    colours that had no live connection before (they just came back)."""
    colors = list(colors)
    now = time.time()
    before = _live_counts(game_id, colors, now)
    pipe = _redis().pipeline()
    for color in colors:
        pipe.zremrangebyscore(_key(game_id, color), "-inf", now)
        pipe.zadd(_key(game_id, color), {connection: now + TTL})
        pipe.expire(_key(game_id, color), int(TTL) + 1)
        pipe.set(_seen_key(game_id, color), now, ex=SEEN_KEPT)
    pipe.execute()
    return {color for color, count in zip(colors, before, strict=True) if not count}


def remove(*, game_id: int, colors: Iterable[int], connection: str) -> set[int]:
    """``connection`` closed; returns the colours left with no live connection, whose absence
    the caller records (their last-seen time goes: it only stands in for a server that died)."""
    colors = list(colors)
    now = time.time()
    pipe = _redis().pipeline()
    for color in colors:
        pipe.zrem(_key(game_id, color), connection)
    pipe.execute()
    after = _live_counts(game_id, colors, now)
    left = {color for color, count in zip(colors, after, strict=True) if not count}
    if left:
        _redis().delete(*(_seen_key(game_id, color) for color in left))
    return left


def read(*, game_id: int, colors: Iterable[int]) -> dict[int, SeatPresence]:
    """The presence of the seats ``colors`` of a game (one round trip); with Redis away every
    seat reads as not connected, so that reading a game still works."""
    colors = list(colors)
    now = time.time()
    pipe = _redis().pipeline()
    for color in colors:
        pipe.zcount(_key(game_id, color), f"({now}", "+inf")
        pipe.get(_seen_key(game_id, color))
    try:
        answers = pipe.execute()
    except redis.RedisError:
        return {color: SeatPresence(connected=False, last_seen=None) for color in colors}
    return {
        color: SeatPresence(
            connected=bool(count),
            last_seen=datetime.fromtimestamp(float(seen), UTC) if seen else None,
        )
        for color, count, seen in zip(colors, answers[::2], answers[1::2], strict=True)
    }


_WATCH = """
local now, expiry, ttl = ARGV[1], ARGV[2], ARGV[5]
local before = redis.call('ZCOUNT', KEYS[1], '(' .. now, '+inf')
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', now)
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', now)
redis.call('ZADD', KEYS[2], expiry, ARGV[4])
redis.call('EXPIRE', KEYS[2], ttl)
redis.call('ZADD', KEYS[1], expiry, ARGV[3])
redis.call('EXPIRE', KEYS[1], ttl)
return before ~= redis.call('ZCARD', KEYS[1]) and 1 or 0
"""
_UNWATCH = """
redis.call('ZREM', KEYS[2], ARGV[3])
if redis.call('ZCOUNT', KEYS[2], '(' .. ARGV[1], '+inf') > 0 then return 0 end
return redis.call('ZREM', KEYS[1], ARGV[2])
"""
_CLAIM = """
local now, expiry, connection, ttl = ARGV[1], ARGV[2], ARGV[3], ARGV[4]
for i, key in ipairs(KEYS) do
  redis.call('ZREMRANGEBYSCORE', key, '-inf', now)
  if not redis.call('ZSCORE', key, connection)
      and redis.call('ZCARD', key) >= tonumber(ARGV[4 + i]) then
    return 0
  end
end
for _, key in ipairs(KEYS) do
  redis.call('ZADD', key, expiry, connection)
  redis.call('EXPIRE', key, ttl)
end
return 1
"""


def watch(*, game_id: int, viewer: str, connection: str) -> bool:
    """Count ``viewer`` (a person: their other sockets on the game make no second spectator) as a
    spectator while ``connection`` lives, ``TTL`` more seconds; returns whether the number of
    spectators changed (they came, or others expired)."""
    now = time.time()
    keys = [_spectators_key(game_id), _viewer_sockets_key(game_id, viewer)]
    changed = _script(_WATCH)(keys, [now, now + TTL, viewer, connection, int(TTL) + 1])
    return bool(changed)


def unwatch(*, game_id: int, viewer: str, connection: str) -> bool:
    """The spectator socket ``connection`` of ``viewer`` closed; returns whether that made one
    spectator fewer (it was their last socket on the game)."""
    keys = [_spectators_key(game_id), _viewer_sockets_key(game_id, viewer)]
    return bool(_script(_UNWATCH)(keys, [time.time(), viewer, connection]))


def come_online(*, viewer: str, connection: str) -> bool:
    """Count ``viewer`` (a person, as ``watch`` counts spectators) online while ``connection``
    (a socket or a stream) lives, ``TTL`` more seconds; returns whether who is online changed."""
    now = time.time()
    keys = [_online_key(), _online_connections_key(viewer)]
    return bool(_script(_WATCH)(keys, [now, now + TTL, viewer, connection, int(TTL) + 1]))


def go_offline(*, viewer: str, connection: str) -> bool:
    """``connection`` of ``viewer`` closed; returns whether that was their last one."""
    keys = [_online_key(), _online_connections_key(viewer)]
    return bool(_script(_UNWATCH)(keys, [time.time(), viewer, connection]))


def online_viewers() -> list[str]:
    """The viewers online now (``games.identity.presence_key`` form: ``user:<id>``,
    ``guest:<id>``, ...); none with Redis away."""
    try:
        members = _redis().zrangebyscore(_online_key(), f"({time.time()}", "+inf")
    except redis.RedisError:
        return []
    return [member.decode() for member in cast(list[bytes], members)]


def announced_changed(text: str) -> bool:
    """Keep ``text`` as the last announcement of who is online; whether it differs from the one
    kept before (an announcement with Redis away is none)."""
    try:
        before = _redis().set(_announced_key(), text, ex=int(TTL), get=True)
    except redis.RedisError:
        return False
    return before is None or cast(bytes, before).decode() != text


def claim_socket(*, limits: dict[str, int], connection: str) -> bool:
    """Count ``connection`` for ``TTL`` more seconds for each of its owners (``limits``: owner →
    how many live sockets it may have), atomically: False, and counted nowhere, when one owner
    already has its limit (a socket already counted is always renewed)."""
    now = time.time()
    keys = [_sockets_key(owner) for owner in limits]
    arguments: list[float | str] = [now, now + TTL, connection, int(TTL) + 1, *limits.values()]
    return bool(_script(_CLAIM)(keys, arguments))


def release_socket(*, owners: Iterable[str], connection: str) -> None:
    """``connection`` closed: it no longer counts for ``owners``."""
    pipe = _redis().pipeline()
    for owner in owners:
        pipe.zrem(_sockets_key(owner), connection)
    pipe.execute()


def spectators(*, game_ids: Iterable[int]) -> dict[int, int]:
    """How many spectators each game has (one round trip; none with Redis away)."""
    game_ids = list(game_ids)
    now = time.time()
    pipe = _redis().pipeline()
    for game_id in game_ids:
        pipe.zcount(_spectators_key(game_id), f"({now}", "+inf")
    try:
        counts = pipe.execute()
    except redis.RedisError:
        return dict.fromkeys(game_ids, 0)
    return dict(zip(game_ids, counts, strict=True))


def absence_start(recorded: datetime | None, seen: SeatPresence) -> datetime | None:
    """When a seat's absence began: None while it is connected, else ``recorded`` (its
    ``absent_since`` in the database, the source of truth: set when it was taken, moved over
    HTTP or closed its last connection, cleared when it connects), and only when the database
    has none (its server died) its last connection here."""
    if seen.connected:
        return None
    return recorded if recorded is not None else seen.last_seen


def _live_counts(game_id: int, colors: list[int], now: float) -> list[int]:
    pipe = _redis().pipeline()
    for color in colors:
        pipe.zcount(_key(game_id, color), f"({now}", "+inf")
    return pipe.execute()
