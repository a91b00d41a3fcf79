"""Bad input and outages under /api/: every answer is the error envelope, never a 500 or HTML."""

import json

import httpx
import pytest
import redis
from rest_framework.test import APIClient

from games.shared.api import api_exception_handler, server_error
from games.shared.parsers import MAX_JSON_DEPTH
from tests.servers import PRODUCTION, daphne, free_port

pytestmark = pytest.mark.django_db


def error_of(response) -> dict:
    assert response["Content-Type"] == "application/json"
    body = response.json()
    assert set(body) == {"error"}
    assert set(body["error"]) == {"code", "message", "field"}
    return body["error"]


@pytest.mark.parametrize("depth", [1000, 100_000, MAX_JSON_DEPTH + 1])
def test_deeply_nested_json_is_a_400_naming_the_problem(guest, depth: int) -> None:
    body = "[" * depth + "]" * depth
    response = guest.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 400
    error = error_of(response)
    assert error["code"] == "nested_too_deep"
    assert str(MAX_JSON_DEPTH) in error["message"]


def test_json_within_the_nesting_limit_is_read(guest) -> None:
    body = '{"variant": {"blocked": []}, "mode": "local"}'
    assert guest.post("/api/games/", body, content_type="application/json").status_code == 201


def test_a_body_over_the_size_limit_is_a_413(guest, settings) -> None:
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = '{"mode": "local", "variant": {"blocked": [' + ", ".join(['"a1"'] * 400) + "]}}"
    response = guest.post("/api/games/", body, content_type="application/json")
    assert response.status_code == 413
    error = error_of(response)
    assert error["code"] == "body_too_large"
    assert "1000" in error["message"]


@pytest.mark.parametrize("address", ["/api/no-such-thing/", "/api"])
def test_a_post_to_an_unknown_api_address_is_a_json_404_not_the_csrf_page(
    settings, address: str
) -> None:
    """``/api`` without its slash too: under DEBUG (``make run``) Django's slash redirect
    refuses a POST with a RuntimeError, a 500 page."""
    settings.DEBUG = True
    browser = APIClient(enforce_csrf_checks=True)
    for method in (browser.post, browser.put, browser.delete, browser.get):
        response = method(address, {}, format="json")
        assert response.status_code == 404
        assert error_of(response)["code"] == "not_found"


BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"


@pytest.mark.parametrize("address", ["/api/comments/", "/api/me/", "/api/no-such-thing/"])
def test_a_browser_reading_the_api_gets_json_not_a_500_page(address: str) -> None:
    """A browser's Accept header once chose DRF's HTML page, which answered GET of a write
    endpoint (the comments) with a 500: the API answers JSON whatever the client accepts."""
    browser = APIClient(enforce_csrf_checks=True)
    response = browser.get(address, HTTP_ACCEPT=BROWSER_ACCEPT)
    assert response.status_code < 500
    assert response["Content-Type"] == "application/json"


def test_a_redis_outage_is_a_503_with_retry_after() -> None:
    with pytest.raises(redis.ConnectionError) as outage:
        redis.Redis(port=free_port(), socket_connect_timeout=1).ping()
    response = api_exception_handler(outage.value, {})
    assert response.status_code == 503
    assert response.data["error"]["code"] == "service_unavailable"
    assert int(response["Retry-After"]) > 0


@pytest.mark.django_db(transaction=True)
def test_a_database_outage_is_a_503_envelope_with_retry_after() -> None:
    env = {"POSTGRES_PORT": str(free_port()), "POSTGRES_POOL_TIMEOUT": "1"} | PRODUCTION
    with daphne(env) as url:
        health = httpx.get(f"{url}/healthz", timeout=30)
        reads = httpx.get(f"{url}/api/games/AAAAAAAAAAAA/", timeout=30)
        writes = httpx.post(
            f"{url}/api/games/",
            json={"mode": "local"},
            headers={"Authorization": "Token " + "0" * 40},
            timeout=30,
        )
    for response in (reads, writes):
        assert response.status_code == 503, response.text
        assert response.headers["Content-Type"] == "application/json"
        assert response.json()["error"]["code"] == "service_unavailable"
        assert int(response.headers["Retry-After"]) > 0
    assert health.status_code == 503  # the health check says so too, not a 500 page
    assert "Retry-After" in health.headers


@pytest.mark.parametrize(
    ("error", "status", "code"),
    [
        (RuntimeError("a bug"), 500, "server_error"),
        (redis.ConnectionError("Redis is down"), 503, "service_unavailable"),
    ],
)
def test_a_server_error_outside_a_view_under_api_is_the_envelope(
    rf, error: Exception, status: int, code: str
) -> None:
    try:
        raise error
    except Exception:  # the handler500 runs while Django handles the exception
        response = server_error(rf.get("/api/games/"))
    assert response.status_code == status
    assert json.loads(response.content)["error"]["code"] == code
    assert ("Retry-After" in response) == (status == 503)


def test_a_server_error_of_a_page_stays_the_page(rf) -> None:
    try:
        raise RuntimeError("a bug")
    except RuntimeError:
        response = server_error(rf.get("/"))
    assert response.status_code == 500
    assert response["Content-Type"].startswith("text/html")
