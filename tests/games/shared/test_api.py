"""The API's shared parts: one exception handler answers every error in the error shape."""

from typing import TypedDict

import pytest
from django.core.exceptions import PermissionDenied as DjangoPermissionDenied
from django.http import Http404
from django.utils import translation
from rest_framework import exceptions, serializers

from games.shared.api import ShapeSerializer, api_exception_handler
from games.shared.errors import MESSAGES, Conflict, RateLimited


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


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "stale_ply", "unknown_game"),
    [
        (
            "en",
            "The game is at move 0, not 5: reload the game.",
            "This game or room does not exist.",
        ),
        (
            "ja",
            "対局は 5 手目ではなく 0 手目です。読み込み直してください。",
            "この対局またはルームはありません。",
        ),
        ("ru", "Партия на ходу 0, а не 5: обновите страницу.", "Такой партии или комнаты нет."),
    ],
)
def test_errors_come_in_the_language_the_client_asks_for(
    guest, language: str, stale_ply: str, unknown_game: str
) -> None:
    game = guest.post("/api/games/", {"mode": "local"}, format="json").json()
    headers = {"HTTP_ACCEPT_LANGUAGE": language}
    stale = guest.post(
        f"/api/games/{game['id']}/moves/", {"move": "f5", "ply": 5}, format="json", **headers
    )
    missing = guest.get("/api/games/999999/", **headers)
    assert stale.json()["error"]["message"] == stale_ply
    assert missing.json()["error"]["message"] == unknown_game


@pytest.mark.django_db
def test_a_colour_in_an_error_is_named_in_the_clients_language(guest) -> None:
    game = guest.post("/api/games/", {"mode": "cpu", "color": "white"}, format="json").json()
    body = {"move": "f5", "ply": game["ply"]}
    answer = guest.post(
        f"/api/games/{game['id']}/moves/", body, format="json", HTTP_ACCEPT_LANGUAGE="ja"
    ).json()
    assert game["to_move"] == "black"  # the CPU's move is queued, not played, in this test
    assert answer["error"]["message"] == "あなたの番ではありません。黒の番です。"


def test_every_error_code_has_a_message_in_japanese_and_russian() -> None:
    with translation.override("en"):
        english = {code: str(message) for code, message in MESSAGES.items()}
    for language in ("ja", "ru"):
        with translation.override(language):
            same = [code for code, message in MESSAGES.items() if str(message) == english[code]]
        assert same == [], language


def test_an_output_serializer_must_match_its_shape() -> None:
    class Shape(TypedDict):
        code: str
        url: str

    with pytest.raises(TypeError, match=r"missing \['url'\], extra \['link'\]"):

        class Mismatched(ShapeSerializer):
            shape = Shape
            code = serializers.CharField()
            link = serializers.CharField()
