"""A misspelt key in a community API request is refused, never silently ignored."""

import pytest
from rest_framework.test import APIClient

from games.community.models import BugReport, Comment, CommentReport, SiteRating

pytestmark = pytest.mark.django_db


def test_a_misspelt_parent_is_refused_instead_of_posting_a_top_level_comment(
    api: APIClient,
) -> None:
    thread = api.post("/api/comments/", {"text": "Nice game!"}, format="json").json()
    response = api.post(
        "/api/comments/", {"text": "Thanks", "parrent": thread["id"]}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "unknown_field",
        "message": "Unknown field.",
        "field": "parrent",
    }
    assert Comment.objects.count() == 1


@pytest.mark.parametrize(
    ("path", "body", "model"),
    [
        ("/api/ratings/", {"value": "good", "comment": "great"}, SiteRating),
        ("/api/bug-reports/", {"text": "It froze", "browser": "Firefox"}, BugReport),
    ],
)
def test_unknown_keys_are_refused_everywhere(
    api: APIClient, path: str, body: dict, model: type
) -> None:
    response = api.post(path, body, format="json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "unknown_field"
    assert not model.objects.exists()


def test_a_report_with_an_unknown_key_is_refused(api: APIClient) -> None:
    comment = api.post("/api/comments/", {"text": "Nice game!"}, format="json").json()
    response = api.post(
        f"/api/comments/{comment['id']}/report/", {"reason": "rude", "why": "x"}, format="json"
    )
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "why"
    assert not CommentReport.objects.exists()
