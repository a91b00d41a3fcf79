"""The lobby in Chromium (issue 14 §1): one browser offers a seek, another sees it appear live
and accepts it, and both land in the game; quick pairing pairs two browsers."""

import pytest
from playwright.sync_api import Page, expect

from .helpers import wait_ready

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
    offered.get_by_role("button", name="Accept").click()
    for page in (seeker, taker):
        page.wait_for_url(lambda url: "/room/" in url)
        wait_ready(page)
        expect(page.locator("#clocks li")).to_have_count(2)
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
    expect(first.locator("#clocks li")).to_have_count(2)
