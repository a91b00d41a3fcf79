"""Watching in Chromium (issue 14 §1): a third browser finds a room game on the watch page,
follows its moves live as a spectator (no seat, no join link) and is counted by the players."""

import pytest
from playwright.sync_api import expect

from .helpers import play_cell, screenshot, start_room, wait_ply, wait_ready

pytestmark = pytest.mark.browser


def test_a_spectator_finds_a_game_on_the_watch_page_and_follows_it(new_page) -> None:
    black = new_page()
    start_room(black, opponent="friend", board="8x8", time_control="10+0")
    white = new_page()
    white.goto(black.input_value("#room-url"))
    wait_ready(white)
    white.get_by_role("button", name="Join").click()
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
