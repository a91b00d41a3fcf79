"""QA findings in files owned by the service helper, kept as strict expected failures.

Each test states the behaviour the spec or README asks for; the reason names the suspected fix.
"""

import pytest
from rest_framework.test import APIClient

from games.models import Room


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


@pytest.mark.django_db
@pytest.mark.xfail(
    strict=True,
    reason="games/api/views.py SignupView: the guest's seats move to the new account but the "
    "browser session stays a guest (no django.contrib.auth.login), so the browser is locked "
    "out of its own game; log the session in after claiming",
)
def test_a_guest_who_signs_up_keeps_playing_in_the_same_browser(guest: APIClient) -> None:
    game = guest.post("/api/games/", {"mode": "local"}, format="json").json()
    signup = guest.post(
        "/api/auth/signup/", {"username": "newbie", "password": "a long passphrase"}, format="json"
    )
    assert signup.status_code == 201
    moved = guest.post(f"/api/games/{game['id']}/moves/", {"move": "f5", "ply": 0}, format="json")
    assert moved.status_code == 201
