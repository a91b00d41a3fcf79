"""The community, moderation and changelog pages."""

import re
from pathlib import Path

import pytest
from django.contrib.auth.models import Permission, User
from django.template.loader import render_to_string
from django.test import Client, RequestFactory

from games.community.changelog import CHANGELOG_PATH
from games.community.models import (
    BugReport,
    Comment,
    CommentStatus,
    ModerationAction,
    ModerationLogEntry,
    PageView,
    SiteRating,
)
from games.community.version import app_commit, app_version

pytestmark = pytest.mark.django_db

BUG_TEXT = "SECRET-BUG-TEXT the timer is wrong"


def page(client: Client, path: str = "/community/") -> str:
    response = client.get(path)
    assert response.status_code == 200
    return response.content.decode()


def test_page_shows_counters_and_counts_one_view_per_visitor_per_day(user: User) -> None:
    browser = Client()
    assert 'data-counter="views">1<' in page(browser)
    page(browser)
    assert PageView.objects.count() == 1
    assert 'data-counter="views">2<' in page(Client())
    signed_in = Client()
    signed_in.force_login(user)
    page(signed_in)
    page(signed_in)
    assert sorted(PageView.objects.values_list("visitor_key", flat=True))[-1] == f"user:{user.pk}"
    assert PageView.objects.count() == 3


def test_the_game_pages_count_as_views_and_show_the_counters() -> None:
    browser = Client()
    assert 'data-counter="views">1<' in page(browser, "/")  # the setup page
    page(browser, "/lobby/")
    page(browser, "/watch/")
    assert PageView.objects.count() == 1  # one visitor, one day
    assert 'data-counter="views">2<' in page(Client(), "/")


def test_api_reads_and_unmarked_pages_count_no_view() -> None:
    browser = Client()
    assert browser.get("/api/watch/").status_code == 200
    page(browser, "/changelog/")
    assert not PageView.objects.exists()


def test_rating_buttons_set_and_change_the_rating() -> None:
    browser = Client()
    page(browser)
    browser.post("/community/rate/", {"value": "good"})
    browser.post("/community/rate/", {"value": "so_so"})
    assert list(SiteRating.objects.values_list("value", flat=True)) == ["so_so"]
    html = page(browser)
    assert 'data-rating="so_so">1<' in html
    assert 'value="so_so" aria-pressed="true"' in html


def test_comment_is_rendered_escaped() -> None:
    browser = Client()
    response = browser.post("/community/comments/", {"text": "<script>alert('x')</script>"})
    assert response.status_code == 302
    html = page(browser)
    assert "<script>alert" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt;" in html


def test_reply_form_publishes_a_reply() -> None:
    browser = Client()
    browser.post("/community/comments/", {"text": "first"})
    parent = Comment.objects.get()
    browser.post("/community/comments/", {"text": "second", "parent": str(parent.pk)})
    assert Comment.objects.get(text="second").parent == parent


def test_broken_rule_shows_the_rule_and_keeps_the_text() -> None:
    response = Client().post("/community/comments/", {"text": "call 090-1234-5678 <b>"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "Phone numbers are not allowed" in html
    assert "call 090-1234-5678 &lt;b&gt;</textarea>" in html
    assert not Comment.objects.exists()


@pytest.mark.parametrize("parent", ["abc", "-1", "987654"])
def test_bad_parent_in_form_is_refused(parent: str) -> None:
    response = Client().post("/community/comments/", {"text": "hi", "parent": parent})
    assert response.status_code == 404
    assert "No such comment." in response.content.decode()
    assert not Comment.objects.exists()


def test_hidden_comments_vanish_from_the_page() -> None:
    browser = Client()
    browser.post("/community/comments/", {"text": "VISIBLE-ONE"})
    browser.post("/community/comments/", {"text": "HIDDEN-ONE"})
    Comment.objects.filter(text="HIDDEN-ONE").update(status=CommentStatus.HIDDEN)
    html = page(browser)
    assert "VISIBLE-ONE" in html
    assert "HIDDEN-ONE" not in html
    assert 'data-counter="comments">1<' in html


def test_report_form_files_a_report() -> None:
    browser = Client()
    browser.post("/community/comments/", {"text": "hmm"})
    comment = Comment.objects.get()
    browser.post(f"/community/comments/{comment.pk}/report/", {"reason": "spam"})
    assert comment.reports.get().reason == "spam"


def _bug_report() -> None:
    Client(HTTP_USER_AGENT="PageBrowser/2").post("/community/bug-reports/", {"text": BUG_TEXT})
    assert BugReport.objects.get().user_agent == "PageBrowser/2"


def test_non_moderators_never_see_bug_reports_on_pages(user: User) -> None:
    _bug_report()
    staff = User.objects.create_user("staff", is_staff=True)
    for who in (None, user, staff):
        browser = Client()
        if who is not None:
            browser.force_login(who)
        assert browser.get("/moderation/").status_code == 403
        for path in ("/community/", "/changelog/"):
            assert BUG_TEXT not in page(browser, path)
        admin = browser.get("/admin/community/bugreport/")
        assert admin.status_code in (302, 403)
        assert BUG_TEXT not in admin.content.decode()


def test_moderator_sees_and_handles_everything(moderator: User) -> None:
    _bug_report()
    visitor = Client()
    visitor.post("/community/comments/", {"text": "REPORTED-ONE"})
    comment = Comment.objects.get()
    visitor.post(f"/community/comments/{comment.pk}/report/", {"reason": "REASON-XYZ"})
    browser = Client()
    browser.force_login(moderator)
    html = page(browser, "/moderation/")
    assert "REPORTED-ONE" in html
    assert "REASON-XYZ" in html
    assert BUG_TEXT in html
    assert "PageBrowser/2" in html

    response = browser.post(
        f"/moderation/comments/{comment.pk}/hide/", {"reason": "rude", "queue": "hidden"}
    )
    assert response.status_code == 302
    assert response["Location"] == "/moderation/?queue=hidden"
    report = BugReport.objects.get()
    browser.post(f"/moderation/bug-reports/{report.pk}/note/", {"text": "looking"})
    browser.post(f"/moderation/bug-reports/{report.pk}/resolve/", {"reason": "fixed"})
    assert list(ModerationLogEntry.objects.order_by("id").values_list("action", "reason")) == [
        (ModerationAction.HIDE_COMMENT, "rude"),
        (ModerationAction.NOTE_BUG_REPORT, "looking"),
        (ModerationAction.RESOLVE_BUG_REPORT, "fixed"),
    ]
    assert "REPORTED-ONE" not in page(Client())
    assert "REPORTED-ONE" in page(browser, "/moderation/?queue=hidden")


def test_non_moderator_cannot_moderate_through_pages(user: User) -> None:
    Client().post("/community/comments/", {"text": "fine"})
    comment = Comment.objects.get()
    browser = Client()
    browser.force_login(user)
    assert (
        browser.post(f"/moderation/comments/{comment.pk}/hide/", {"reason": "x"}).status_code == 403
    )
    assert Comment.objects.get().status == CommentStatus.VISIBLE
    assert not ModerationLogEntry.objects.exists()


def test_moderator_action_without_reason_is_refused_and_not_logged(moderator: User) -> None:
    Client().post("/community/comments/", {"text": "fine"})
    comment = Comment.objects.get()
    browser = Client()
    browser.force_login(moderator)
    response = browser.post(
        f"/moderation/comments/{comment.pk}/delete/", {"reason": ""}, follow=True
    )
    assert "Please write something first." in response.content.decode()
    assert not ModerationLogEntry.objects.exists()


def test_changelog_page_renders_the_changelog() -> None:
    html = page(Client(), "/changelog/")
    assert "<h2>Changelog</h2>" in html
    assert f"version {app_version()} (commit {app_commit()})" in html


@pytest.mark.parametrize(("language", "title"), [("ja", "変更履歴"), ("ru", "История изменений")])
def test_changelog_page_follows_the_language(language: str, title: str) -> None:
    html = page(Client(HTTP_ACCEPT_LANGUAGE=language), "/changelog/")
    assert f"<h2>{title}</h2>" in html
    assert "<h2>Changelog</h2>" not in html


def test_every_version_of_the_changelog_is_in_its_translations() -> None:
    def versions(path: Path) -> list[str]:
        return re.findall(r"^## (\d+\.\d+\.\d+)", path.read_text(encoding="utf-8"), re.M)

    english = versions(CHANGELOG_PATH)
    for language in ("ja", "ru"):
        assert versions(CHANGELOG_PATH.with_suffix(f".{language}.md")) == english


def test_footer_shows_version_and_commit(footer_settings) -> None:
    request = RequestFactory().get("/")
    html = render_to_string("community/footer.html", request=request)
    assert f"Version {app_version()} · {app_commit()}" in html
    assert 'href="/changelog/"' in html


def test_moderation_page_escapes_comments_reports_and_bug_reports(moderator: User) -> None:
    visitor = Client(HTTP_USER_AGENT="<img src=x onerror=alert(3)>")
    visitor.post("/community/comments/", {"text": "<script>alert(1)</script>"})
    comment = Comment.objects.get()
    visitor.post(f"/community/comments/{comment.pk}/report/", {"reason": "<i>r</i>"})
    visitor.post("/community/bug-reports/", {"text": "<script>alert(2)</script>"})
    browser = Client()
    browser.force_login(moderator)
    html = page(browser, "/moderation/?queue=recent")
    assert "<script>alert" not in html
    assert "<i>r</i>" not in html
    assert "<img src=x" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "&lt;script&gt;alert(2)&lt;/script&gt;" in html
    assert "&lt;img src=x onerror=alert(3)&gt;" in html


def test_community_page_states_the_comment_rules_and_bug_report_privacy() -> None:
    html = page(Client())
    assert "No URLs or web addresses" in html
    assert "No real names, schools, classes or addresses." in html
    assert "Only the moderators read bug reports" in html


def test_stored_visitor_key_is_not_the_session_cookie() -> None:
    browser = Client()
    page(browser)
    session_key = browser.cookies["sessionid"].value
    (visitor_key,) = PageView.objects.values_list("visitor_key", flat=True)
    assert visitor_key.startswith("session:")
    assert session_key not in visitor_key


def test_bug_reports_in_the_admin_need_a_moderator(moderator: User) -> None:
    _bug_report()
    report = BugReport.objects.get()
    staff = User.objects.create_user("staff-all")
    for who, status in ((staff, 403), (moderator, 200)):
        who.is_staff = True
        who.save()
        who.user_permissions.set(Permission.objects.filter(codename__endswith="bugreport"))
        browser = Client()
        browser.force_login(who)
        response = browser.get(f"/admin/community/bugreport/{report.pk}/change/")
        assert response.status_code == status
        assert (BUG_TEXT in response.content.decode()) == (status == 200)
