"""The public community API: site counters, rating, comments, reports and bug reports."""

import pytest
from django.contrib.auth.models import User
from rest_framework.test import APIClient

from games.community.models import BugReport, Comment, CommentReport, CommentStatus, PageView
from games.community.version import app_commit, app_version

pytestmark = pytest.mark.django_db


def post_comment(client: APIClient, text: str, parent: int | None = None):
    return client.post("/api/comments/", {"text": text, "parent": parent}, format="json")


def test_site_shows_version_commit_and_counters(api: APIClient) -> None:
    PageView.objects.create(visitor_key="session:x", day="2026-11-28")
    Comment.objects.create(text="hello", visitor_key="session:x")
    body = api.get("/api/site/").json()
    assert body["version"] == app_version() != "unknown"
    assert body["commit"] == app_commit()
    assert body["counters"] == {"views": 1, "ratings": 0, "comments": 1}
    assert body["ratings"] == {"good": 0, "so_so": 0, "bad": 0}
    assert body["my_rating"] is None


def test_rating_is_one_per_visitor_and_changeable(api: APIClient, user_api: APIClient) -> None:
    first = api.post("/api/ratings/", {"value": "good"}, format="json")
    assert first.status_code == 200
    assert first.json()["my_rating"] == "good"
    changed = api.post("/api/ratings/", {"value": "bad"}, format="json").json()
    assert changed["ratings"] == {"good": 0, "so_so": 0, "bad": 1}
    assert changed["counters"]["ratings"] == 1
    other = user_api.post("/api/ratings/", {"value": "so_so"}, format="json").json()
    assert other["ratings"] == {"good": 0, "so_so": 1, "bad": 1}
    assert other["my_rating"] == "so_so"
    assert api.get("/api/site/").json()["my_rating"] == "bad"


def test_bad_rating_value_is_a_400_naming_the_field(api: APIClient) -> None:
    response = api.post("/api/ratings/", {"value": "great"}, format="json")
    assert response.status_code == 400
    error = response.json()["error"]
    assert error["field"] == "value"
    assert error["code"] == "invalid_choice"


def test_comment_and_reply_are_published_at_once(api: APIClient, user_api: APIClient) -> None:
    created = post_comment(api, "Nice game!")
    assert created.status_code == 201
    comment = created.json()
    assert comment["text"] == "Nice game!"
    assert comment["author"] is None
    reply = post_comment(user_api, "Thanks", parent=comment["id"]).json()
    assert reply["author"] == "player"
    # A reply to a reply joins the thread of the top-level comment.
    nested = post_comment(api, "You are welcome", parent=reply["id"]).json()
    assert nested["parent"] == comment["id"]

    listing = api.get("/api/comments/").json()
    assert listing["count"] == 1
    (thread,) = listing["results"]
    assert [r["text"] for r in thread["replies"]] == ["Thanks", "You are welcome"]
    assert api.get("/api/site/").json()["counters"]["comments"] == 3


def test_rejected_comment_names_the_rule_and_stores_nothing(api: APIClient) -> None:
    response = post_comment(api, "visit example dot com")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "url_not_allowed"
    assert response.json()["error"]["field"] == "text"
    assert "URL" in response.json()["error"]["message"]
    assert not Comment.objects.exists()


@pytest.mark.parametrize(
    ("payload", "field"),
    [
        ({}, "text"),
        ({"text": ["a"]}, "text"),
        ({"text": "   "}, "text"),
        ({"text": "hi", "parent": "x"}, "parent"),
        ({"text": "hi", "parent": 999999}, "parent"),
    ],
)
def test_bad_comment_input_is_a_4xx_naming_the_field(api: APIClient, payload, field) -> None:
    response = api.post("/api/comments/", payload, format="json")
    assert 400 <= response.status_code < 500
    assert response.json()["error"]["field"] == field


def test_malformed_json_is_a_400(api: APIClient) -> None:
    response = api.post("/api/comments/", "{not json", content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "malformed_json"


def test_comment_text_comes_back_as_plain_text(api: APIClient) -> None:
    text = "<script>alert(1)</script> & <b>bold</b>"
    post_comment(api, text)
    (thread,) = api.get("/api/comments/").json()["results"]
    assert thread["text"] == text


def test_comments_are_rate_limited_per_visitor(api: APIClient, settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        "comment": {"per_visitor": 2, "per_ip": 100, "window_seconds": 60}
    }
    assert post_comment(api, "one").status_code == 201
    assert post_comment(api, "two").status_code == 201
    response = post_comment(api, "three")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "rate_limited"
    assert response["Retry-After"] == "60"
    # Another visitor (new browser) from another address is not affected.
    other = APIClient(REMOTE_ADDR="198.51.100.1")
    assert post_comment(other, "four").status_code == 201


def test_comments_are_rate_limited_per_ip(settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        "comment": {"per_visitor": 100, "per_ip": 2, "window_seconds": 60}
    }
    browsers = [APIClient(REMOTE_ADDR="198.51.100.2") for _ in range(3)]
    assert post_comment(browsers[0], "one").status_code == 201
    assert post_comment(browsers[1], "two").status_code == 201
    assert post_comment(browsers[2], "three").status_code == 429
    assert Comment.objects.count() == 2


def test_old_posts_do_not_count_towards_the_limit(api: APIClient, settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        "comment": {"per_visitor": 1, "per_ip": 1, "window_seconds": 60}
    }
    post_comment(api, "one")
    Comment.objects.update(created_at="2020-01-01T00:00:00Z")
    assert post_comment(api, "two").status_code == 201


def test_anyone_can_report_a_comment_with_a_reason(api: APIClient, user_api: APIClient) -> None:
    comment = post_comment(api, "hello").json()
    url = f"/api/comments/{comment['id']}/report/"
    response = user_api.post(url, {"reason": "spam"}, format="json")
    assert response.status_code == 201
    assert api.post(url, {"reason": "rude"}, format="json").status_code == 201
    # Reporting again updates the reason instead of adding a report.
    api.post(url, {"reason": "very rude"}, format="json")
    reasons = sorted(CommentReport.objects.values_list("reason", flat=True))
    assert reasons == ["spam", "very rude"]


def test_report_needs_a_reason_and_an_existing_comment(api: APIClient) -> None:
    comment = post_comment(api, "hello").json()
    missing = api.post(f"/api/comments/{comment['id']}/report/", {"reason": ""}, format="json")
    assert missing.status_code == 400
    assert missing.json()["error"]["field"] == "reason"
    unknown = api.post("/api/comments/424242/report/", {"reason": "spam"}, format="json")
    assert unknown.status_code == 404
    assert unknown.json()["error"]["code"] == "comment_not_found"


def test_bug_report_gets_version_and_browser_and_echoes_nothing(api: APIClient) -> None:
    response = api.post("/api/bug-reports/", {"text": "The board froze"}, format="json")
    assert response.status_code == 201
    assert response.json() == {"status": "received"}
    report = BugReport.objects.get()
    assert report.text == "The board froze"
    assert report.user_agent == "TestBrowser/1.0"
    assert (report.app_version, report.app_commit) == (app_version(), app_commit())


def test_bug_report_text_is_required(api: APIClient) -> None:
    response = api.post("/api/bug-reports/", {"text": ""}, format="json")
    assert response.status_code == 400
    assert response.json()["error"] == {
        "code": "empty",
        "message": "Please write something first.",
        "field": "text",
    }


def test_hidden_comments_vanish_from_listing_and_counter(api: APIClient) -> None:
    kept = post_comment(api, "kept").json()
    hidden = post_comment(api, "hidden").json()
    post_comment(api, "reply to hidden", parent=hidden["id"])
    post_comment(api, "reply to kept", parent=kept["id"])
    Comment.objects.filter(pk=hidden["id"]).update(status=CommentStatus.HIDDEN)
    listing = api.get("/api/comments/").json()
    texts = [t["text"] for t in listing["results"]]
    assert texts == ["kept"]
    assert [r["text"] for r in listing["results"][0]["replies"]] == ["reply to kept"]
    assert api.get("/api/site/").json()["counters"]["comments"] == 2
    # Nobody can reply to or report a hidden comment.
    assert post_comment(api, "x", parent=hidden["id"]).status_code == 404
    report = api.post(f"/api/comments/{hidden['id']}/report/", {"reason": "r"}, format="json")
    assert report.status_code == 404


def test_signed_in_user_is_one_visitor_across_clients(user: User) -> None:
    clients = [APIClient(), APIClient()]
    for client in clients:
        client.force_authenticate(user)
    clients[0].post("/api/ratings/", {"value": "good"}, format="json")
    assert clients[1].get("/api/site/").json()["my_rating"] == "good"


def test_default_limit_allows_three_comments_a_minute(api: APIClient, settings) -> None:
    del settings.COMMUNITY_RATE_LIMITS
    statuses = [post_comment(api, f"comment {n}").status_code for n in range(4)]
    assert statuses == [201, 201, 201, 429]


def test_bug_reports_are_rate_limited(api: APIClient, settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        "bug_report": {"per_visitor": 1, "per_ip": 10, "window_seconds": 600}
    }
    assert api.post("/api/bug-reports/", {"text": "a"}, format="json").status_code == 201
    assert api.post("/api/bug-reports/", {"text": "b"}, format="json").status_code == 429
