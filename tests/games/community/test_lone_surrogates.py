"""Input that echoes a lone surrogate back in an error message is a 400, never a 500."""

import pytest
from rest_framework.test import APIClient

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("path", "raw_body", "code"),
    [
        ("/api/ratings/", b'{"value": "good\\ud800"}', "invalid_choice"),
        ("/api/comments/", b'{"text": "hi", "\\udfff": 1}', "unknown_field"),
    ],
)
def test_a_lone_surrogate_in_the_input_gets_a_json_400(
    api: APIClient, path: str, raw_body: bytes, code: str
) -> None:
    response = api.generic("POST", path, raw_body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == code
