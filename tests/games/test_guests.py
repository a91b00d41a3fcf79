"""Guests: one guest id per browser, however many first writes it sends at once."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from games.models import Seat
from tests.games.test_concurrency import CLIENTS, race

pytestmark = pytest.mark.django_db(transaction=True)


def new_browser() -> dict[str, str]:
    """A browser's first page: its cookies (CSRF, and a session without a guest id)."""
    browser = Client()
    assert browser.get("/").status_code == 200
    return {name: morsel.value for name, morsel in browser.cookies.items()}


@pytest.mark.parametrize("cookies", ["csrftoken sessionid", "csrftoken"])
def test_concurrent_first_writes_of_one_browser_make_one_guest(cookies: str) -> None:
    jar = {name: value for name, value in new_browser().items() if name in cookies.split()}
    csrf = jar["csrftoken"]
    tabs = [APIClient(enforce_csrf_checks=True) for _ in range(CLIENTS)]
    for tab in tabs:  # one cookie jar: every request carries the same cookies
        for name, value in jar.items():
            tab.cookies[name] = value

    def first_write(tab: APIClient):
        return lambda: (
            tab.post(
                "/api/games/", {"mode": "local"}, format="json", HTTP_X_CSRFTOKEN=csrf
            ).status_code
        )

    assert race([first_write(tab) for tab in tabs]) == [201] * CLIENTS
    assert Seat.objects.values("guest_id").distinct().count() == 1
    last_session = tabs[-1]  # whichever session cookie the browser keeps sees every game
    assert len(last_session.get("/api/games/").json()["games"]) == CLIENTS


def test_two_browsers_are_two_guests() -> None:
    for jar in (new_browser(), new_browser()):
        tab = APIClient(enforce_csrf_checks=True)
        for name, value in jar.items():
            tab.cookies[name] = value
        csrf = jar["csrftoken"]
        assert (
            tab.post(
                "/api/games/", {"mode": "local"}, format="json", HTTP_X_CSRFTOKEN=csrf
            ).status_code
            == 201
        )
    assert Seat.objects.values("guest_id").distinct().count() == 2
