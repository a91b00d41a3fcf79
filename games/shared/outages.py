"""The exceptions that mean a backing service is out of reach, for the API's 503 and the
websocket's "try again later"; a module of its own so that authentication (loaded by DRF's
settings) can name them without importing DRF's views."""

import kombu.exceptions
import redis.exceptions
from django.db import InterfaceError, OperationalError

# The database or Redis cannot be reached (or the connection pool has no connection free in
# time: psycopg_pool's PoolTimeout arrives as Django's OperationalError): a 503, retry soon.
OUTAGES: tuple[type[Exception], ...] = (
    OperationalError,
    InterfaceError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    kombu.exceptions.OperationalError,
)
