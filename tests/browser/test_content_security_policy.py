"""Every page is served with a Content Security Policy (django-csp) that it passes: no inline
script or style, nothing from another site; the API docs (Swagger UI from
drf-spectacular-sidecar) load with no request to another host (issue 10 §2)."""

from urllib.parse import urlparse

import pytest
from playwright.sync_api import ConsoleMessage, Page

from .helpers import legal_squares, play_cell, start_game

pytestmark = pytest.mark.browser

PAGES = [
    "/",
    "/community/",
    "/accounts/login/",
    "/accounts/signup/",
    "/how-to-play/",
    "/changelog/",
]


def watch_violations(page: Page) -> list[str]:
    """The CSP violations the page reports, from the console and from the DOM event."""
    violations: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if "Content Security Policy" in message.text:
            violations.append(message.text)

    page.on("console", on_console)
    page.add_init_script(
        "document.addEventListener('securitypolicyviolation', event => "
        "console.error('Content Security Policy violation: ' + event.violatedDirective + "
        "' ' + event.blockedURI))"
    )
    return violations


@pytest.mark.parametrize("path", PAGES)
def test_page_has_the_policy_and_breaks_none_of_it(page: Page, path: str) -> None:
    violations = watch_violations(page)
    response = page.goto(path)
    assert response is not None
    assert response.status == 200
    policy = response.headers["content-security-policy"]
    assert "script-src 'self'" in policy
    assert "style-src 'self'" in policy
    assert "unsafe-inline" not in policy
    page.wait_for_load_state("networkidle")
    assert violations == []


def test_game_page_plays_under_the_policy(page: Page) -> None:
    violations = watch_violations(page)
    start_game(page, opponent="local", board="6x6")
    play_cell(page, legal_squares(page)[0])
    assert violations == []


def test_api_docs_load_from_this_server_only(page: Page, live_url: str) -> None:
    violations = watch_violations(page)
    hosts: set[str] = set()
    page.on("request", lambda request: hosts.add(urlparse(request.url).netloc))
    response = page.goto("/api/docs/")
    assert response is not None
    assert "content-security-policy" in response.headers
    page.wait_for_selector(".swagger-ui .opblock", timeout=30_000)
    assert hosts == {urlparse(live_url).netloc}
    assert violations == []
