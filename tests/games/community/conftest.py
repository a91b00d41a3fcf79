"""Fixtures of the community tests: users, a moderator, and API clients."""

import pytest
from django.contrib.auth.models import Group, User
from rest_framework.test import APIClient

from games.community.moderators import MODERATORS_GROUP


@pytest.fixture
def user(db) -> User:
    return User.objects.create_user("player")


@pytest.fixture
def moderator(db) -> User:
    moderator = User.objects.create_user("mod")
    # The group comes from the community migration's data step.
    moderator.groups.add(Group.objects.get(name=MODERATORS_GROUP))
    return moderator


@pytest.fixture
def api() -> APIClient:
    """An anonymous API client (a browser session is created on its first post)."""
    return APIClient(REMOTE_ADDR="203.0.113.7", HTTP_USER_AGENT="TestBrowser/1.0")


@pytest.fixture
def user_api(user) -> APIClient:
    client = APIClient(REMOTE_ADDR="203.0.113.8")
    client.force_authenticate(user)
    return client


@pytest.fixture
def moderator_api(moderator) -> APIClient:
    client = APIClient(REMOTE_ADDR="203.0.113.9")
    client.force_authenticate(moderator)
    return client


@pytest.fixture
def footer_settings(settings):
    """Add the community context processor, as the lead adds it to settings."""
    options = settings.TEMPLATES[0]["OPTIONS"]
    processors = options["context_processors"]
    settings.TEMPLATES = [
        {
            **settings.TEMPLATES[0],
            "OPTIONS": {
                **options,
                "context_processors": [
                    *processors,
                    "games.community.context_processors.site_info",
                ],
            },
        }
    ]
    return settings


@pytest.fixture(autouse=True)
def generous_rate_limits(settings):
    """Tests post many comments quickly; rate-limit tests set their own limits."""
    generous = {"per_visitor": 1000, "per_ip": 1000, "window_seconds": 60}
    settings.COMMUNITY_RATE_LIMITS = dict.fromkeys(("comment", "report", "bug_report"), generous)
