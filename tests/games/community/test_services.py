"""Community services and helpers: visitors, page views, version, changelog rendering."""

import datetime
import subprocess
import threading
import tomllib
from pathlib import Path

import pytest
from django.apps import apps
from django.contrib import admin
from django.contrib.auth.models import User
from django.db import connection
from drf_spectacular.generators import SchemaGenerator

from games.community import services, version
from games.community.changelog import CHANGELOG_PATH, read_changelog, render_markdown
from games.community.models import Comment, PageView
from games.community.selectors import site_counters
from games.community.version import app_commit, app_version
from games.community.visitors import Visitor
from games.shared.errors import Forbidden, RateLimited

ALICE = Visitor(key="session:alice", user_id=None, ip_address="192.0.2.1")
BOB = Visitor(key="session:bob", user_id=None, ip_address="192.0.2.2")


@pytest.mark.django_db
def test_one_page_view_per_visitor_per_day() -> None:
    today = datetime.date(2026, 11, 29)
    assert services.record_page_view(visitor=ALICE, day=today)
    assert not services.record_page_view(visitor=ALICE, day=today)
    assert services.record_page_view(visitor=ALICE, day=today + datetime.timedelta(days=1))
    assert services.record_page_view(visitor=BOB, day=today)
    assert site_counters().views == PageView.objects.count() == 3


@pytest.mark.django_db
def test_counters_exclude_hidden_and_deleted_comments_and_their_replies(moderator) -> None:
    shown = services.post_comment(visitor=ALICE, text="shown")
    hidden = services.post_comment(visitor=ALICE, text="hidden")
    services.post_comment(visitor=BOB, text="reply to hidden", parent_id=hidden.pk)
    deleted = services.post_comment(visitor=BOB, text="deleted", parent_id=shown.pk)
    assert site_counters().comments == 4
    services.moderate_comment(
        moderator=moderator, comment_id=hidden.pk, action="hide_comment", reason="r"
    )
    services.moderate_comment(
        moderator=moderator, comment_id=deleted.pk, action="delete_comment", reason="r"
    )
    assert site_counters().comments == 1
    services.moderate_comment(
        moderator=moderator, comment_id=hidden.pk, action="restore_comment", reason="ok"
    )
    assert site_counters().comments == 3


@pytest.mark.django_db
def test_services_refuse_moderation_by_non_moderators(user: User) -> None:
    comment = services.post_comment(visitor=ALICE, text="hello")
    with pytest.raises(Forbidden):
        services.moderate_comment(
            moderator=user, comment_id=comment.pk, action="hide_comment", reason="r"
        )
    assert Comment.objects.get().status == "visible"


@pytest.mark.django_db
def test_superuser_is_a_moderator() -> None:
    admin = User.objects.create_superuser("root-admin")
    comment = services.post_comment(visitor=ALICE, text="hello")
    hidden = services.moderate_comment(
        moderator=admin, comment_id=comment.pk, action="hide_comment", reason="r"
    )
    assert hidden.status == "hidden"


def test_version_is_the_package_version_and_commit_is_git_head() -> None:
    pyproject = tomllib.loads((Path(__file__).parents[3] / "pyproject.toml").read_text())
    assert app_version() == pyproject["project"]["version"]
    head = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert app_commit() == head


def test_version_is_unknown_where_no_package_metadata_exists(monkeypatch) -> None:
    monkeypatch.setattr(version, "PACKAGE_NAME", "reversi-service-never-installed")
    assert app_version.__wrapped__() == "unknown"


def test_the_api_schema_carries_the_package_version() -> None:
    schema = SchemaGenerator().get_schema(request=None, public=True)
    assert schema["info"]["version"] == app_version()


def test_commit_falls_back_to_app_commit_env_without_git(settings, tmp_path, monkeypatch) -> None:
    settings.BASE_DIR = tmp_path  # not a git checkout
    monkeypatch.setenv("GIT_CEILING_DIRECTORIES", str(tmp_path.parent))
    monkeypatch.setenv("APP_COMMIT", "abc1234")
    assert app_commit.__wrapped__() == "abc1234"
    monkeypatch.delenv("APP_COMMIT")
    assert app_commit.__wrapped__() == "unknown"


def test_markdown_rendering_escapes_everything() -> None:
    html = render_markdown(
        "# Title <script>\n\nSome *text* & `<b>`\n\n- item <i>one</i>\n  continued\n- two"
    )
    assert html == (
        "<h2>Title &lt;script&gt;</h2>\n"
        "<p>Some <em>text</em> &amp; <code>&lt;b&gt;</code></p>\n"
        "<ul>\n<li>item &lt;i&gt;one&lt;/i&gt;\ncontinued</li>\n<li>two</li>\n</ul>\n"
    )


def test_markdown_rendering_links_no_script() -> None:
    html = render_markdown(
        "[safe](https://example.org/) [bad](javascript:alert(1)) <img src=x onerror=alert(1)>"
    )
    assert '<a href="https://example.org/">safe</a>' in html
    assert '<a href="javascript' not in html
    assert "<img" not in html


def test_changelog_is_read_from_the_package_not_the_checkout(settings, tmp_path) -> None:
    settings.BASE_DIR = tmp_path  # an installed wheel: no checkout around the code
    assert CHANGELOG_PATH.parent == Path(services.__file__).resolve().parent
    repository_changelog = Path(__file__).parents[3] / "CHANGELOG.md"
    assert CHANGELOG_PATH.read_text() == repository_changelog.read_text()
    assert read_changelog() == render_markdown(repository_changelog.read_text())
    assert "<h3>0.1.0 (unreleased)</h3>" in read_changelog()


@pytest.mark.django_db(transaction=True)
def test_concurrent_posts_cannot_both_slip_under_the_limit(settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        "comment": {"per_visitor": 1, "per_ip": 100, "window_seconds": 60}
    }
    barrier = threading.Barrier(4)
    outcomes: list[str] = []

    def post(number: int) -> None:
        try:
            barrier.wait()
            services.post_comment(visitor=ALICE, text=f"race {number}")
            outcomes.append("posted")
        except RateLimited:
            outcomes.append("limited")
        finally:
            connection.close()

    threads = [threading.Thread(target=post, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(outcomes) == ["limited", "limited", "limited", "posted"]
    assert Comment.objects.count() == 1


def test_every_community_model_is_in_the_admin() -> None:
    community_models = list(apps.get_app_config("community").get_models())
    assert community_models
    for model in community_models:
        assert admin.site.is_registered(model), model
