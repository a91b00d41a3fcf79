"""Every main page at phone and desktop width in three languages: nothing is wider than the
screen. With SCREENSHOTS_DIR set (``make screenshots``) each page is also saved as a PNG."""

import os
from pathlib import Path

import pytest
from playwright.sync_api import Page

from .helpers import play_cell, start_game, start_room

pytestmark = pytest.mark.browser

WIDTHS = {"phone": (375, 740), "desktop": (1440, 900)}
LANGUAGES = ["en", "ja", "ru"]
PAGES = [
    "/",
    "/how-to-play/",
    "/community/",
    "/changelog/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/room/NOPE/",
]


def check_and_save(page: Page, name: str, width: int) -> None:
    """Assert the page fits ``width`` and save its screenshot when asked to."""
    page.wait_for_function("() => !document.querySelector('#board[data-animating]')")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= width, name
    folder = os.environ.get("SCREENSHOTS_DIR")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("size", WIDTHS)
@pytest.mark.parametrize("language", LANGUAGES)
def test_pages_fit_the_screen_in_every_language(new_page, language: str, size: str) -> None:
    width, height = WIDTHS[size]
    page = new_page(viewport={"width": width, "height": height}, locale=language)
    for path in PAGES:
        page.goto(path)
        slug = path.strip("/").replace("/", "-") or "setup"
        check_and_save(page, f"{language}-{size}-{slug}", width)
    start_game(page, opponent="local")
    for square in ("f5", "f6", "e6", "f4"):
        play_cell(page, square)
    check_and_save(page, f"{language}-{size}-game", width)
    page.locator("#three-d-toggle").check()
    check_and_save(page, f"{language}-{size}-game-3d", width)
    page.locator("#three-d-toggle").uncheck()
    start_room(page, opponent="group", players="3")
    check_and_save(page, f"{language}-{size}-room-3p", width)
    page.goto("/")
    page.locator("#resume-list li").first.wait_for()
    check_and_save(page, f"{language}-{size}-setup-resume", width)
