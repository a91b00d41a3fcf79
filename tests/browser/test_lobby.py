"""The lobby in Chromium (issue 14 §1): one browser offers a seek, another sees it appear live
and accepts it, and both land in the game; quick pairing pairs two browsers."""

import pytest
from playwright.sync_api import Page, expect

from .helpers import screenshot, wait_ready

pytestmark = pytest.mark.browser


def open_lobby(page: Page) -> None:
    page.goto("/lobby/")
    page.wait_for_selector('#lobby-app[data-ready="true"]')


def test_one_browser_seeks_another_accepts_and_both_play(new_page) -> None:
    seeker, taker = new_page(), new_page()
    open_lobby(seeker)
    open_lobby(taker)
    expect(taker.locator("#seeks-empty")).to_have_text(
        "No open seeks: offer one, or try quick pairing."
    )
    seeker.select_option('#seek-form [name="color"]', "white")
    seeker.select_option('#seek-form [name="time_control"]', "5+3")
    seeker.get_by_role("button", name="Offer in the lobby").click()
    expect(seeker.locator("#seeks tr")).to_contain_text("Waiting for an opponent…")
    offered = taker.locator("#seeks tr")  # arrives over the lobby's websocket, no reload
    expect(offered).to_have_count(1)
    expect(offered).to_contain_text("White")
    expect(offered).to_contain_text("5 min + 3 s")
    expect(offered).to_contain_text("casual")
    screenshot(taker, "lobby")
    offered.get_by_role("button", name="Accept").click()
    for page in (seeker, taker):
        page.wait_for_url(lambda url: "/room/" in url)
        wait_ready(page)
        expect(page.locator("#counts .clock")).to_have_count(2)
    assert seeker.url == taker.url
    expect(taker.locator("#turn")).to_have_text("Your turn (Black)")
    expect(seeker.locator("#counts")).to_contain_text("White (you)")


def test_quick_pairing_pairs_two_browsers(new_page) -> None:
    first, second = new_page(), new_page()
    open_lobby(first)
    open_lobby(second)
    first.get_by_role("button", name="Quick pairing (8×8, this clock)").click()
    expect(second.locator("#seeks tr")).to_have_count(1)
    second.get_by_role("button", name="Quick pairing (8×8, this clock)").click()
    for page in (first, second):
        page.wait_for_url(lambda url: "/room/" in url)
        wait_ready(page)
    assert first.url == second.url
    expect(first.locator("#counts .clock")).to_have_count(2)


def sign_up(page: Page, username: str) -> None:
    page.goto("/")
    page.get_by_role("link", name="Sign up").click()
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill("a long passphrase")
    page.get_by_label("Password confirmation").fill("a long passphrase")
    page.locator("form.account-form").get_by_role("button", name="Sign up").click()
    expect(page.locator("h1")).to_have_text(username)


def test_a_challenge_declined_then_one_accepted_by_name(new_page) -> None:
    challenger, challenged = new_page(), new_page()
    sign_up(challenger, "lobby_carol")
    sign_up(challenged, "lobby_dave")
    for page in (challenger, challenged):
        open_lobby(page)
    challenger.select_option('#seek-form [name="time_control"]', "1+0")
    challenger.fill('#seek-form [name="username"]', "lobby_dave")
    challenger.get_by_role("button", name="Challenge", exact=True).click()
    incoming = challenged.locator("#challenges li")  # live, over the lobby socket
    expect(incoming).to_contain_text("lobby_carol challenges you: 8×8, 1 min + 0 s, casual")
    incoming.get_by_label("Reason").select_option("too_fast")
    incoming.get_by_role("button", name="Decline").click()
    expect(challenger.locator("#challenges li")).to_contain_text(
        "lobby_dave declined: Too fast for me"
    )

    challenger.select_option('#seek-form [name="time_control"]', "10+0")
    challenger.get_by_role("button", name="Challenge", exact=True).click()
    pending = challenged.locator('#challenges li[data-status="pending"]')
    expect(pending).to_contain_text("10 min + 0 s")
    pending.get_by_role("button", name="Accept").click()
    for page in (challenger, challenged):
        page.wait_for_url(lambda url: "/room/" in url)
        wait_ready(page)
        expect(page.locator("#counts .clock")).to_have_count(2)
    assert challenger.url == challenged.url


def test_the_lobby_says_who_is_online(new_page) -> None:
    """Everyone connected counts (issue 14 §1): an account with only the lobby open is named to
    a visitor who opens it after."""
    player = new_page()
    sign_up(player, "lobbysitter")
    open_lobby(player)
    visitor = new_page()
    open_lobby(visitor)
    expect(visitor.locator("#lobby-online")).to_contain_text("Online now:")
    expect(visitor.locator("#lobby-online")).to_contain_text("lobbysitter")
