"""The web processes' HTTP handler (reversi_site/handlers.py): each request's synchronous code
on one thread, kept from request to request, with its database connection handed back."""

import asyncio
import inspect
import threading

import pytest
from asgiref.sync import async_to_sync
from django.core.signals import request_finished, request_started
from django.db import connections

from reversi_site.handlers import IDLE_THREADS, ASGIHandler
from tests.servers import http_scope

pytestmark = pytest.mark.django_db(transaction=True)


async def get(handler: ASGIHandler, path: str) -> int:
    """``GET path`` through ``handler``; the answer's status."""
    answer: dict = {}
    sent = False

    async def receive() -> dict:
        nonlocal sent
        if not sent:
            sent = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Event().wait()
        return {"type": "http.disconnect"}

    async def send(message: dict) -> None:
        if message["type"] == "http.response.start":
            answer["status"] = message["status"]

    await handler(http_scope(path), receive, send)
    return int(answer["status"])


@pytest.fixture
def threads_seen():
    """The threads the ``request_started`` and ``request_finished`` signals ran on."""
    seen: dict[str, list[int]] = {"started": [], "finished": []}

    def started(**kwargs: object) -> None:
        seen["started"].append(threading.get_ident())

    def finished(**kwargs: object) -> None:
        seen["finished"].append(threading.get_ident())

    request_started.connect(started)
    request_finished.connect(finished)
    yield seen
    request_started.disconnect(started)
    request_finished.disconnect(finished)


def test_requests_one_after_another_run_on_one_kept_thread(threads_seen) -> None:
    handler = ASGIHandler()

    async def three() -> list[int]:
        return [await get(handler, "/healthz") for _ in range(3)]

    assert async_to_sync(three)() == [200, 200, 200]

    assert len(set(threads_seen["started"])) == 1
    assert threads_seen["finished"] == threads_seen["started"]
    assert threads_seen["started"][0] != threading.get_ident()
    assert len(handler.idle) == 1


def test_the_kept_thread_has_handed_its_database_connection_back() -> None:
    """``request_finished`` closed it on the request's own thread (with the pool: returned it),
    so a kept thread holds no connection between requests."""
    handler = ASGIHandler()
    assert async_to_sync(get)(handler, "/healthz") == 200
    (thread,) = handler.idle
    assert thread.submit(lambda: connections["default"].connection).result() is None


def test_requests_at_once_get_a_thread_each_and_at_most_the_idle_ones_are_kept(
    threads_seen,
) -> None:
    handler = ASGIHandler()
    at_once = IDLE_THREADS + 4

    async def together() -> list[int]:
        return list(await asyncio.gather(*(get(handler, "/healthz") for _ in range(at_once))))

    assert async_to_sync(together)() == [200] * at_once
    assert len(handler.idle) == IDLE_THREADS
    assert len(set(threads_seen["started"])) > 1
    assert sorted(threads_seen["finished"]) == sorted(threads_seen["started"])


def test_the_middleware_and_the_view_run_as_one_synchronous_chain() -> None:
    handler = ASGIHandler()
    assert not inspect.iscoroutinefunction(handler._middleware_chain)
    assert async_to_sync(get)(handler, "/no-such-page/") == 404
