"""Fair play in Chromium: a rated game set up on the setup page shows neither the hint nor the
undo button (the page follows the server's ``hints.allowed`` and ``undo.allowed``); a casual
one shows both."""

import pytest
from playwright.sync_api import Page, expect

from .helpers import start_game

pytestmark = pytest.mark.browser


def test_a_rated_game_offers_neither_hint_nor_undo(page: Page) -> None:
    start_game(page, opponent="cpu", level="easy", color="black", rated="on")
    expect(page.locator("#hint-button")).to_be_hidden()
    expect(page.locator("#undo-button")).to_be_hidden()
    expect(page.locator("#resign-button")).to_be_visible()


def test_a_casual_game_offers_both(page: Page) -> None:
    page.goto("/")
    expect(page.locator("#rated-field")).to_be_visible()
    page.check('#setup-form [name="rated"]')
    expect(page.locator("#undo-field")).to_be_hidden()  # a rated game has no undo to choose
    page.uncheck('#setup-form [name="rated"]')
    expect(page.locator("#undo-field")).to_be_visible()
    start_game(page, opponent="cpu", level="easy", color="black", undo="on")
    expect(page.locator("#hint-button")).to_be_visible()
    expect(page.locator("#undo-button")).to_be_visible()
