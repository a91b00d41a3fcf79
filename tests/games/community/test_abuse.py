"""Community writes hold against abuse (issue 10 §2-3): an anonymous write needs the CSRF
token, guests are limited by session and by client address (the address the trusted proxies
saw), accounts by account whatever their cookies, and one guest's flood does not block the
accounts that share its address."""

import pytest
from django.contrib.auth.models import User
from django.test import Client
from rest_framework.test import APIClient

from games.community.models import BugReport, Comment

pytestmark = pytest.mark.django_db


def post_comment(client: APIClient, text: str, **extra: str):
    return client.post("/api/comments/", {"text": text, "parent": None}, format="json", **extra)


def browser_with_csrf_cookie(address: str = "198.51.100.20") -> tuple[APIClient, str]:
    """A browser that enforces CSRF as a real one does, with the token from the page."""
    browser = APIClient(enforce_csrf_checks=True, REMOTE_ADDR=address)
    assert browser.get("/").status_code == 200
    return browser, browser.cookies["csrftoken"].value


@pytest.mark.parametrize(
    ("url", "body"),
    [("/api/comments/", {"text": "hello", "parent": None}), ("/api/bug-reports/", {"text": "x"})],
)
def test_anonymous_community_write_without_the_csrf_token_is_refused(url: str, body) -> None:
    browser, token = browser_with_csrf_cookie()
    refused = browser.post(url, body, format="json")
    assert refused.status_code == 403
    error = refused.json()["error"]
    assert error["code"] == "csrf_failed"
    assert "X-CSRFToken" in error["message"]
    assert browser.post(url, body, format="json", HTTP_X_CSRFTOKEN=token).status_code == 201
    assert Comment.objects.count() + BugReport.objects.count() == 1


def test_the_page_forms_still_post_with_their_token() -> None:
    browser = Client(enforce_csrf_checks=True)
    page = browser.get("/community/")
    token = page.context["csrf_token"]
    sent = browser.post("/community/comments/", {"text": "nice game", "csrfmiddlewaretoken": token})
    assert sent.status_code == 302
    assert Comment.objects.get().text == "nice game"
    assert browser.post("/community/comments/", {"text": "no token"}).status_code == 403


def test_a_guest_dropping_its_cookies_is_still_limited_by_its_address(settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        "comment": {"per_visitor": 100, "per_ip": 2, "window_seconds": 60}
    }
    for text in ("one", "two"):
        assert post_comment(APIClient(REMOTE_ADDR="198.51.100.30"), text).status_code == 201
    fresh = post_comment(APIClient(REMOTE_ADDR="198.51.100.30"), "three")
    assert (fresh.status_code, fresh.json()["error"]["code"]) == (429, "rate_limited")
    # An account on the same address is not held back by that guest.
    neighbour = APIClient(REMOTE_ADDR="198.51.100.30")
    neighbour.force_authenticate(User.objects.create_user("neighbour"))
    assert post_comment(neighbour, "hello").status_code == 201


def test_an_account_is_limited_by_account_whatever_its_cookies_and_address(settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        "comment": {"per_visitor": 2, "per_ip": 100, "window_seconds": 60}
    }
    user = User.objects.create_user("poster")
    for number, address in enumerate(["198.51.100.40", "198.51.100.41", "198.51.100.42"]):
        client = APIClient(REMOTE_ADDR=address)  # a new client: no cookies, another address
        client.force_authenticate(user)
        expected = 201 if number < 2 else 429
        assert post_comment(client, f"post {number}").status_code == expected
    assert Comment.objects.filter(user=user).count() == 2


def test_behind_a_trusted_proxy_the_limit_is_per_client_not_per_proxy(settings) -> None:
    settings.TRUSTED_PROXY_COUNT = 1
    settings.COMMUNITY_RATE_LIMITS = {
        "comment": {"per_visitor": 100, "per_ip": 1, "window_seconds": 60}
    }

    def via_proxy(client_address: str, forwarded_for: str):
        client = APIClient(REMOTE_ADDR="10.0.0.2")  # the proxy
        return post_comment(client, client_address, HTTP_X_FORWARDED_FOR=forwarded_for)

    assert via_proxy("first", "203.0.113.50").status_code == 201
    assert via_proxy("second", "203.0.113.51").status_code == 201  # another client
    # A client cannot pose as another by writing its own X-Forwarded-For entry.
    spoofed = via_proxy("third", "192.0.2.99, 203.0.113.50")
    assert spoofed.status_code == 429
    assert sorted(Comment.objects.values_list("ip_address", flat=True)) == [
        "203.0.113.50",
        "203.0.113.51",
    ]


def test_without_trusted_proxies_a_forwarded_for_header_is_ignored(settings) -> None:
    settings.COMMUNITY_RATE_LIMITS = {
        "comment": {"per_visitor": 100, "per_ip": 1, "window_seconds": 60}
    }
    client = APIClient(REMOTE_ADDR="198.51.100.60")
    assert post_comment(client, "one", HTTP_X_FORWARDED_FOR="192.0.2.1").status_code == 201
    again = APIClient(REMOTE_ADDR="198.51.100.60")
    assert post_comment(again, "two", HTTP_X_FORWARDED_FOR="192.0.2.2").status_code == 429
    assert Comment.objects.get().ip_address == "198.51.100.60"
