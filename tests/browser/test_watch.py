"""Watching in Chromium (issue 14 §1): a third browser finds a lobby game on the watch page,
follows its moves live as a spectator (no seat, no join link) and is counted by the players."""

import pytest
from playwright.sync_api import expect

from .helpers import play_cell, screenshot, wait_ply, wait_ready

pytestmark = pytest.mark.browser


def test_a_spectator_finds_a_game_on_the_watch_page_and_follows_it(new_page) -> None:
    black, white = new_page(), new_page()
    for page in (black, white):
        page.goto("/lobby/")
        page.wait_for_selector('#lobby-app[data-ready="true"]')
    black.select_option('#seek-form [name="color"]', "black")
    black.select_option('#seek-form [name="time_control"]', "10+0")
    black.get_by_role("button", name="Offer in the lobby").click()
    offered = white.locator("#seeks tr")
    expect(offered).to_have_count(1)
    offered.get_by_role("button", name="Accept").click()
    for page in (black, white):
        page.wait_for_url(lambda url: "/room/" in url)
        wait_ready(page)
    expect(white.locator("#counts")).to_contain_text("White (you)")

    game_id = black.evaluate(
        "async () => (await (await fetch(location.pathname.replace('/room/', '/api/rooms/')))"
        ".json()).game.id"
    )
    spectator = new_page()
    spectator.goto("/watch/")
    listed = spectator.locator(f'#live-games tr[data-game="{game_id}"]')  # other tests' games too
    expect(listed).to_have_count(1)
    expect(listed).to_contain_text("10 min + 0 s")
    screenshot(spectator, "watch")
    listed.get_by_role("link").click()
    wait_ready(spectator)
    assert "/play/" in spectator.url
    expect(spectator.locator("#room-panel")).to_be_hidden()
    expect(black.locator("#spectators")).to_have_text("1 watching")
    play_cell(black, "f5")
    wait_ply(spectator, 1)
    expect(spectator.locator('#board [data-square="f5"] .disc')).to_have_attribute(
        "data-color", "black"
    )
    spectator.close()
    expect(black.locator("#spectators")).to_be_hidden()
