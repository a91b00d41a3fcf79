"""The web processes' Django handler for HTTP under ASGI.

Django's own ``ASGIHandler`` gives every request a ``ThreadSensitiveContext`` of its own, so
asgiref starts a thread for each request's synchronous code and joins it at the end; both
happen on the event loop, which meanwhile serves no socket (under the load test a third of a
web process's event loop time went to starting and joining these threads). And it runs the
middleware in async mode: each of the synchronous middleware's hooks is a hop from the loop to
that thread and back, about twenty per request.

``ASGIHandler`` below keeps Django's request handling as it is (one thread runs all of a
request's synchronous code: the ``request_started`` and ``request_finished`` signals, which
hand the database connection back, the middleware and the view) with two changes: the thread
comes from a set kept for the process's life, and the middleware chain with the view runs in
one call on it, as under WSGI.
"""

from concurrent.futures import ThreadPoolExecutor
from typing import Any

from asgiref.sync import ThreadSensitiveContext, sync_to_async
from django.core.handlers.asgi import ASGIHandler as DjangoASGIHandler
from django.http import HttpRequest, HttpResponseBase

# Threads kept between requests; a request that finds none idle gets a new one, which ends with
# it. More requests at once than this mostly wait for a database connection anyway
# (POSTGRES_POOL_SIZE, 10).
IDLE_THREADS = 16


class ASGIHandler(DjangoASGIHandler):
    """Django's ASGI handler, each request's synchronous code on a kept thread in one call."""

    def __init__(self) -> None:
        self.idle: list[ThreadPoolExecutor] = []
        super().__init__()

    def load_middleware(self, is_async: bool = False) -> None:
        """The middleware chain in synchronous mode, as under WSGI, whatever is asked."""
        super().load_middleware(is_async=False)

    async def get_response_async(self, request: HttpRequest) -> HttpResponseBase:
        """The synchronous chain (middleware and view) in one hop to the request's thread."""
        response: HttpResponseBase = await sync_to_async(self.get_response)(request)
        return response

    async def __call__(self, scope: dict[str, Any], receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        # Only the event loop's thread takes and gives back threads: no lock needed.
        thread = self.idle.pop() if self.idle else ThreadPoolExecutor(1, "django-request")
        try:
            async with ThreadSensitiveContext(executor=thread):
                await self.handle(scope, receive, send)
        finally:
            if len(self.idle) < IDLE_THREADS:
                self.idle.append(thread)
            else:
                thread.shutdown(wait=False)
