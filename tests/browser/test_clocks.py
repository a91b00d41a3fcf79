"""Clocks, abort and draw offers in Chromium (issue 14 §2): two browsers in a timed room see
both clocks tick down from the server's times; the server flags a player who does not move;
a draw offered in one browser is accepted in the other; a game is aborted before both moved."""

import re

import pytest
from playwright.sync_api import Page, expect

from .conftest import SHORT_TIME_CONTROL
from .helpers import friend_room, play_cell, screenshot, wait_ply

RUNNING = re.compile(r"\brunning\b")

pytestmark = pytest.mark.browser


def timed_room(new_page, control: str) -> tuple[Page, Page]:
    """A friend room with the ``control`` clock, black's page and white's, both seated."""
    return friend_room(new_page, time_control=control)


def clock_ms(page: Page, color: str) -> int:
    return int(page.get_attribute(f'#counts .clock[data-color="{color}"]', "data-ms") or "-1")


def test_both_clocks_tick_and_a_move_hands_the_running_clock_over(new_page) -> None:
    black, white = timed_room(new_page, "1+0")
    for page in (black, white):
        expect(page.locator("#counts .clock")).to_have_count(2)
        expect(page.locator('#counts .clock[data-color="black"]')).to_have_class(RUNNING)
    first = clock_ms(black, "black")
    assert 50_000 < first <= 60_000
    expect(black.locator('#counts .clock[data-color="black"] .clock-time')).not_to_have_text("1:00")
    running = "document.querySelector('#counts .clock[data-color=black]').dataset.ms"
    black.wait_for_function(f"() => Number({running}) < {first - 1000}")
    play_cell(black, "f5")
    wait_ply(white, 1)
    for page in (black, white):
        expect(page.locator('#counts .clock[data-color="white"]')).to_have_class(RUNNING)
        expect(page.locator('#counts .clock[data-color="black"]')).not_to_have_class(RUNNING)
    screenshot(white, "clocks")
    stopped = clock_ms(white, "black")
    white.wait_for_timeout(1500)
    assert clock_ms(white, "black") == stopped  # black's clock stands while white thinks
    assert clock_ms(white, "white") < 59_000


def test_the_server_flags_a_player_who_does_not_move(new_page) -> None:
    black, white = timed_room(new_page, SHORT_TIME_CONTROL)  # 6 seconds each
    for page in (black, white):
        expect(page.locator("#result")).to_be_visible(timeout=30_000)
        expect(page.locator("#result-note")).to_have_text("Black ran out of time.")
    expect(white.locator("#result-title")).to_have_text("You won")
    expect(black.locator('#counts .clock[data-color="black"] .clock-time')).to_have_text("0:00.0")


def test_a_draw_offered_in_one_browser_is_accepted_in_the_other(new_page) -> None:
    black, white = timed_room(new_page, "10+0")
    black.get_by_role("button", name="Offer a draw").click()
    expect(black.locator("#draw-offer-text")).to_have_text("You offered a draw.")
    expect(white.locator("#draw-offer-text")).to_have_text("Black offers a draw.")
    white.get_by_role("button", name="Accept the draw").click()
    for page in (black, white):
        expect(page.locator("#result-title")).to_have_text("Draw")
        expect(page.locator("#result-note")).to_have_text("Draw agreed.")
        expect(page.locator("#counts .clock.running")).to_have_count(0)


def test_a_game_is_aborted_before_both_have_moved(new_page) -> None:
    black, white = timed_room(new_page, "3+2")
    play_cell(black, "f5")
    wait_ply(white, 1)
    white.get_by_role("button", name="Abort game").click()
    for page in (black, white):
        expect(page.locator("#result-note")).to_have_text("Game aborted: it counts for nobody.")
        expect(page.get_by_role("button", name="Abort game")).to_be_hidden()
