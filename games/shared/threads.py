"""Database work of async code (websockets, event streams) in the server's shared thread pool."""

import functools
from collections.abc import Callable

from asgiref.sync import SyncToAsync
from django.db import close_old_connections


def in_pool(function: Callable) -> Callable:
    """``function`` run off the event loop in the server's shared thread pool: a bounded number
    of threads for every socket, instead of one thread per socket (4000 sockets were 4000
    threads). Its database connection goes back to the pool when it returns: the connection is
    closed inside the call, in the context it was opened in (channels' ``DatabaseSyncToAsync``
    closes outside that context, missed it, and the idle threads kept the pool's connections)."""

    @functools.wraps(function)
    def returning_its_connection(*args: object, **kwargs: object) -> object:
        close_old_connections()
        try:
            return function(*args, **kwargs)
        finally:
            close_old_connections()

    return SyncToAsync(returning_its_connection, thread_sensitive=False)
