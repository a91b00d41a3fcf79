"""QA findings in files owned by the service helper, kept as strict expected failures.

Each test states the behaviour the spec or README asks for; the reason names the suspected fix.
"""

import pytest
from asgiref.sync import async_to_sync
from channels.testing import WebsocketCommunicator
from rest_framework.test import APIClient

from games.models import Room
from reversi_site.asgi import application

ORIGIN = (b"origin", b"http://testserver")


@pytest.mark.django_db(transaction=True)
@pytest.mark.xfail(
    strict=True,
    reason="reversi_site/asgi.py: URLRouter raises ValueError for an unknown websocket path "
    "(HTTP 500); wrap it with a catch-all route that closes the socket",
)
def test_an_unknown_websocket_path_is_refused_not_a_server_error() -> None:
    async def connect() -> tuple[bool, object]:
        socket = WebsocketCommunicator(application, "/ws/games/abc/", headers=[ORIGIN])
        return await socket.connect()

    connected, _ = async_to_sync(connect)()
    assert not connected


@pytest.mark.django_db
@pytest.mark.xfail(
    strict=True,
    reason="games/api/views.py SignupView: create_user skips the username field's validators; "
    "call user_model.username_validator (or full_clean) before creating the account",
)
def test_signup_refuses_a_username_the_site_itself_would_reject() -> None:
    response = APIClient().post(
        "/api/auth/signup/",
        {"username": "a b/c <x>", "password": "a long passphrase"},
        format="json",
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "username"


@pytest.mark.django_db
@pytest.mark.xfail(
    strict=True,
    reason="reversi_site/settings.py REST_FRAMEWORK: form and multipart parsers are on, and "
    "they drop nested fields (seats) silently; set DEFAULT_PARSER_CLASSES to JSONParser only",
)
def test_a_form_encoded_room_request_does_not_silently_drop_its_seats(alice) -> None:
    client, _ = alice
    response = client.post(
        "/api/rooms/",
        {"seats": '[{"kind": "human"}, {"kind": "cpu", "level": "easy"}]'},
        format="multipart",
    )
    assert response.status_code in (400, 415)
    assert not Room.objects.exists()


@pytest.mark.django_db
@pytest.mark.xfail(
    strict=True,
    reason="games/api/views.py extend_schema: only the success status is documented and the "
    "game state is a bare object; add the error responses (ErrorSerializer) and a state schema",
)
def test_the_schema_documents_the_error_responses_of_a_move() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    move = schema["paths"]["/api/games/{game_id}/moves/"]["post"]
    assert {"400", "403", "404", "409"} <= set(move["responses"])
    state = move["responses"]["201"]["content"]["application/json"]["schema"]
    assert "properties" in state or "$ref" in state
