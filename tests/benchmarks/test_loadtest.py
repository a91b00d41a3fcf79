"""The load test's client (benchmarks/loadtest.py): a request that meets a transient connection
error is sent again and counted as a retry, not as an error; one that keeps failing is raised."""

import asyncio

import httpx
import pytest

from benchmarks import loadtest


def flaky(failures: int) -> tuple[httpx.MockTransport, list[str]]:
    """A transport whose first ``failures`` requests end in a read error (a kept-alive
    connection closed by the server as it was reused), then answer 200."""
    seen: list[str] = []

    def handle(request: httpx.Request) -> httpx.Response:
        seen.append(request.url.path)
        if len(seen) <= failures:
            raise httpx.ReadError("connection closed", request=request)
        return httpx.Response(200, json={"status": "ok"})

    return httpx.MockTransport(handle), seen


def send(transport: httpx.MockTransport, figures: loadtest.Figures) -> httpx.Response:
    async def request() -> httpx.Response:
        async with httpx.AsyncClient(base_url="http://load.test", transport=transport) as http:
            return await loadtest.send(http, figures, "GET", "/healthz")

    return asyncio.run(request())


def test_a_request_cut_by_a_transient_error_is_sent_again_and_counted(monkeypatch) -> None:
    monkeypatch.setattr(loadtest, "RETRY_PAUSE", 0)
    transport, seen = flaky(2)
    figures = loadtest.Figures()
    assert send(transport, figures).status_code == 200
    assert (len(seen), figures.retries, figures.errors) == (3, 2, [])
    assert "retries (transient connection errors): 2" in loadtest.report(figures, 1, 1.0, [])


def test_a_request_that_keeps_failing_is_raised_after_the_last_retry(monkeypatch) -> None:
    monkeypatch.setattr(loadtest, "RETRY_PAUSE", 0)
    transport, seen = flaky(loadtest.RETRIES + 1)
    figures = loadtest.Figures()
    with pytest.raises(httpx.ReadError):
        send(transport, figures)
    assert (len(seen), figures.retries) == (loadtest.RETRIES + 1, loadtest.RETRIES)
