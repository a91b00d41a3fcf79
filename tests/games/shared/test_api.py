"""The API's shared parts: one exception handler answers every error in the error shape."""

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from rest_framework import exceptions

from games.shared.api import api_exception_handler
from games.shared.errors import Conflict, RateLimited


@pytest.mark.parametrize(
    ("exc", "status", "code", "headers"),
    [
        (Http404(), 404, "not_found", {}),
        (DjangoPermissionDenied(), 403, "permission_denied", {}),
        (exceptions.Throttled(wait=12), 429, "throttled", {"Retry-After": "12"}),
        (
            RateLimited(retry_after=30, count=3, seconds=60),
            429,
            "rate_limited",
            {"Retry-After": "30"},
        ),
        (Conflict("stale_ply", field="ply", ply=3, sent=2), 409, "stale_ply", {}),
    ],
)
def test_one_handler_answers_every_known_error_in_the_error_shape(
    exc: Exception, status: int, code: str, headers: dict
) -> None:
    response = api_exception_handler(exc, {})
    assert (response.status_code, set(response.data), response.data["error"]["code"]) == (
        status,
        {"error"},
        code,
    )
    assert {name: response[name] for name in headers} == headers


def test_an_unknown_exception_is_left_to_be_a_server_error() -> None:
    assert api_exception_handler(RuntimeError("bug"), {}) is None
