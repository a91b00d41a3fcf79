"""Accounts in the browser: a guest's finished game shows on the profile after signing up; an
address given at sign-up is verified by the mailed link, and a forgotten password is reset
through the mailed link (the mail read from a real SMTP server)."""

from urllib.parse import urlparse

import pytest
from playwright.sync_api import Page, expect

from tests.mail import Inbox, link_in

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


def test_signing_up_with_an_address_verifying_it_and_resetting_the_password(
    page: Page, mail_inbox: Inbox
) -> None:
    address = "browser_erin@example.com"
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill("browser_erin")
    page.get_by_label("Email address").fill(address)
    page.get_by_label("Password", exact=True).fill("a long passphrase")
    page.get_by_label("Password confirmation").fill("a long passphrase")
    page.locator("form.account-form").get_by_role("button", name="Sign up").click()

    expect(page.locator(".site-message")).to_contain_text(f"We sent a link to {address}")
    expect(page.locator("#profile-email")).to_contain_text("not verified")
    page.goto(link_in(mail_inbox.wait_for(address)))
    expect(page.locator("#email-verified")).to_have_text("Your e-mail address is verified.")
    page.get_by_role("link", name="Back to your profile").click()
    expect(page.locator("#profile-email .email-state")).to_have_text("verified")

    page.locator(".account-links").get_by_role("button", name="Log out").click()
    page.locator(".account-links").get_by_role("link", name="Log in").click()
    page.get_by_role("link", name="Forgot your password?").click()
    page.get_by_label("Email").fill(address)
    page.get_by_role("button", name="Send the link").click()
    expect(page.locator("h1")).to_have_text("Check your mail")

    page.goto(link_in(mail_inbox.wait_for(address, count=2)))
    page.get_by_label("New password", exact=True).fill("another long passphrase")
    page.get_by_label("New password confirmation").fill("another long passphrase")
    page.get_by_role("button", name="Change password").click()
    expect(page.locator("h1")).to_have_text("Password changed")
    page.locator("main").get_by_role("link", name="Log in").click()
    page.get_by_label("Username").fill("browser_erin")
    page.get_by_label("Password").fill("another long passphrase")
    page.locator("form.account-form").get_by_role("button", name="Log in").click()
    expect(page.locator("h1")).to_have_text("browser_erin")
    screenshot(page, "profile-verified")
