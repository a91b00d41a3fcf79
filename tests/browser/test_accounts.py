"""Accounts in the browser: a guest's finished game shows on the profile after signing up."""

from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from .helpers import screenshot, start_game

pytestmark = pytest.mark.browser


def test_signing_up_keeps_the_guests_game_and_logging_out_returns_to_guest(page: Page) -> None:
    start_game(page, opponent="local", board="6x6")
    game_path = urlparse(page.url).path
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#result-note")).to_have_text("Black resigned.")

    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill("browser_alice")
    page.get_by_label("Password", exact=True).fill("a long passphrase")
    page.get_by_label("Password confirmation").fill("a long passphrase")
    page.locator("form.account-form").get_by_role("button", name="Sign up").click()

    expect(page.locator("h1")).to_have_text("browser_alice")
    expect(page.locator("#profile-rating")).to_have_text("1500")
    row = page.locator(".history-game")
    expect(row).to_have_count(1)
    expect(row.get_by_role("link")).to_have_attribute("href", game_path)
    expect(row).to_contain_text("not rated")
    expect(row).to_contain_text("two players on this device")
    screenshot(page, "profile")

    page.locator(".account-links").get_by_role("button", name="Log out").click()
    expect(page.locator(".account-links").get_by_role("link", name="Log in")).to_be_visible()
