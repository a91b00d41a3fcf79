"""The moderators' API (C5): queues, actions, the log, and who may see bug reports (C4)."""

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.accounts.tokens import issue_token
from games.community.models import (
    BugReport,
    Comment,
    CommentStatus,
    ModerationAction,
    ModerationLogEntry,
)

pytestmark = pytest.mark.django_db

BUG_TEXT = "SECRET-BUG-TEXT crash on f5"


@pytest.fixture
def comment(api: APIClient) -> Comment:
    api.post("/api/comments/", {"text": "questionable"}, format="json")
    return Comment.objects.get()


@pytest.fixture
def bug_report(api: APIClient) -> BugReport:
    api.post("/api/bug-reports/", {"text": BUG_TEXT}, format="json")
    return BugReport.objects.get()


def act(client: APIClient, comment: Comment, action: str, reason: str = "rule 3"):
    return client.post(
        f"/api/moderation/comments/{comment.pk}/{action}/", {"reason": reason}, format="json"
    )


def test_reported_queue_lists_open_reports(api, moderator_api, comment) -> None:
    assert moderator_api.get("/api/moderation/comments/").json()["count"] == 0
    api.post(f"/api/comments/{comment.pk}/report/", {"reason": "rude"}, format="json")
    listing = moderator_api.get("/api/moderation/comments/?queue=reported").json()
    (item,) = listing["results"]
    assert item["id"] == comment.pk
    assert item["open_reports"] == 1
    assert item["reports"][0]["reason"] == "rude"
    recent = moderator_api.get("/api/moderation/comments/?queue=recent").json()
    assert recent["count"] == 1


def test_unknown_queue_is_a_400(moderator_api) -> None:
    response = moderator_api.get("/api/moderation/comments/?queue=all-of-them")
    assert response.status_code == 400
    assert response.json()["error"]["field"] == "queue"


def test_hide_delete_restore_dismiss_are_all_logged(api, moderator_api, moderator, comment):
    api.post(f"/api/comments/{comment.pk}/report/", {"reason": "rude"}, format="json")
    steps = [
        ("hide", "hidden", ModerationAction.HIDE_COMMENT),
        ("restore", "visible", ModerationAction.RESTORE_COMMENT),
        ("delete", "deleted", ModerationAction.DELETE_COMMENT),
        ("restore", "visible", ModerationAction.RESTORE_COMMENT),
    ]
    for number, (action, status, logged) in enumerate(steps):
        response = act(moderator_api, comment, action, reason=f"why {number}")
        assert response.status_code == 200, response.json()
        assert response.json()["status"] == status
        entry = ModerationLogEntry.objects.order_by("-id").first()
        assert (entry.moderator, entry.action, entry.comment_id, entry.reason) == (
            moderator,
            logged,
            comment.pk,
            f"why {number}",
        )
    # The first action reviewed the report, so the comment left the reported queue.
    assert moderator_api.get("/api/moderation/comments/").json()["count"] == 0
    api.post(f"/api/comments/{comment.pk}/report/", {"reason": "still rude"}, format="json")
    assert act(moderator_api, comment, "dismiss", reason="it is fine").status_code == 200
    assert ModerationLogEntry.objects.count() == 5
    log = moderator_api.get("/api/moderation/log/").json()["results"]
    assert log[0] == {
        "moderator": "mod",
        "action": "dismiss_reports",
        "comment": comment.pk,
        "bug_report": None,
        "reason": "it is fine",
        "created_at": log[0]["created_at"],
    }


def test_action_needs_a_reason_and_a_fitting_state(moderator_api, comment) -> None:
    no_reason = act(moderator_api, comment, "hide", reason=" ")
    assert no_reason.status_code == 400
    assert no_reason.json()["error"]["field"] == "reason"
    assert act(moderator_api, comment, "restore").status_code == 409
    assert act(moderator_api, comment, "dismiss").json()["error"]["code"] == "no_open_reports"
    missing = moderator_api.post(
        "/api/moderation/comments/999999/hide/", {"reason": "x"}, format="json"
    )
    assert missing.status_code == 404
    assert not ModerationLogEntry.objects.exists()
    assert Comment.objects.get().status == CommentStatus.VISIBLE


def test_bug_report_resolve_and_note_are_logged(moderator_api, moderator, bug_report) -> None:
    base = f"/api/moderation/bug-reports/{bug_report.pk}"
    listing = moderator_api.get("/api/moderation/bug-reports/").json()
    assert listing["results"][0]["text"] == BUG_TEXT
    assert listing["results"][0]["user_agent"] == "TestBrowser/1.0"
    noted = moderator_api.post(f"{base}/note/", {"text": "cannot reproduce"}, format="json")
    assert noted.status_code == 201
    assert noted.json()["notes"][0]["text"] == "cannot reproduce"
    resolved = moderator_api.post(f"{base}/resolve/", {"reason": "fixed in 0.1.1"}, format="json")
    assert resolved.json()["status"] == "resolved"
    assert resolved.json()["resolved_by"] == "mod"
    again = moderator_api.post(f"{base}/resolve/", {"reason": "again"}, format="json")
    assert again.status_code == 409
    log = list(ModerationLogEntry.objects.order_by("id").values_list("action", "reason"))
    assert log == [
        (ModerationAction.NOTE_BUG_REPORT, "cannot reproduce"),
        (ModerationAction.RESOLVE_BUG_REPORT, "fixed in 0.1.1"),
    ]
    assert moderator_api.get("/api/moderation/bug-reports/?status=open").json()["count"] == 0
    assert moderator_api.get("/api/moderation/bug-reports/?status=resolved").json()["count"] == 1


MODERATION_READS = [
    "/api/moderation/comments/",
    "/api/moderation/bug-reports/",
    "/api/moderation/bug-reports/?status=all",
    "/api/moderation/log/",
]


@pytest.mark.parametrize("path", MODERATION_READS)
def test_non_moderators_never_read_bug_reports_through_the_api(
    path, api, user_api, bug_report
) -> None:
    token_client = APIClient()
    token_user = User.objects.create_user("tokenuser")
    token_client.credentials(HTTP_AUTHORIZATION=f"Token {_token(token_user)}")
    staff = User.objects.create_user("staff", is_staff=True)
    staff_client = APIClient()
    staff_client.force_login(staff)
    for client, status in [(api, 401), (user_api, 403), (token_client, 403), (staff_client, 403)]:
        response = client.get(path)
        assert response.status_code == status
        assert BUG_TEXT not in response.content.decode()
        assert set(response.json()) == {"error"}


def test_non_moderators_cannot_act(api, user_api, comment, bug_report) -> None:
    for client in (api, user_api):
        assert act(client, comment, "hide").status_code in (401, 403)
        response = client.post(
            f"/api/moderation/bug-reports/{bug_report.pk}/resolve/", {"reason": "x"}, format="json"
        )
        assert response.status_code in (401, 403)
    assert not ModerationLogEntry.objects.exists()


def test_public_api_never_contains_bug_reports(api, user_api, bug_report) -> None:
    for client in (api, user_api):
        for path in ("/api/site/", "/api/comments/"):
            assert BUG_TEXT not in client.get(path).content.decode()


def _token(user: User) -> str:
    return issue_token(user=user, name="tests")[1]
