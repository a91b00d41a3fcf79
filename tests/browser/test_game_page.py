"""The game page in Chromium: versus the CPU to the result, hot-seat with undo, keyboard,
the buttons grid, the dots switch, reduced motion and resuming after a reload."""

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import (
    disc,
    discs,
    expect_disc,
    expect_turn,
    legal_squares,
    play_cell,
    screenshot,
    start_game,
    wait_my_turn_or_end,
    wait_ply,
    wait_ready,
)

pytestmark = pytest.mark.browser


def test_whole_game_against_the_easy_cpu_reaches_the_result(page: Page) -> None:
    start_game(page, opponent="cpu", level="easy", color="black", board="6x6")
    expect(page.locator("#counts")).to_contain_text("Black (you) 2")
    moves = 0
    while wait_my_turn_or_end(page):
        square = legal_squares(page)[0]
        page.hover(f'#board [data-square="{square}"]')
        expect(page.locator(f'#board [data-square="{square}"]')).to_have_class(re.compile("ghost"))
        play_cell(page, square)
        moves += 1
        if moves == 4:
            screenshot(page, "game-in-progress")
        expect(page.locator("#last-move")).to_contain_text(re.compile(r"\d+ flipped"))
    result = page.locator("#result")
    expect(result).to_be_visible()
    expect(page.locator("#result-title")).to_have_text(re.compile(r"You won|You lost|Draw"))
    counts = [int(n) for n in page.locator("#result-rows td").all_inner_texts()[::2]]
    empties = int(page.inner_text("#result-empties"))
    assert sum(counts) + empties == 36
    expect(page.locator("#result-undos")).to_have_text("0")
    expect(page.locator("#result-hints")).to_have_text("0")
    screenshot(page, "result")
    finished_url = page.url
    page.get_by_role("button", name="Play again").click()
    page.wait_for_url(lambda url: url != finished_url)
    wait_ready(page)
    expect(page.locator("#board [data-square]")).to_have_count(36)
    expect(page.locator("#counts")).to_contain_text("Black (you) 2")


def test_hot_seat_game_with_undo(page: Page) -> None:
    start_game(page, opponent="local")
    expect_turn(page, "Black to move")
    before = discs(page)
    play_cell(page, "f5")
    expect_turn(page, "White to move")
    expect(page.locator("#last-move")).to_have_text("Black f5 · 1 flipped")
    expect_disc(page, "e5", "black")
    play_cell(page, "f6")
    expect_turn(page, "Black to move")
    expect_disc(page, "e5", "white")
    page.get_by_role("button", name="Undo").click()
    wait_ply(page, 1)
    expect_turn(page, "White to move")
    assert disc(page, "f6") == ""
    page.get_by_role("button", name="Undo").click()
    wait_ply(page, 0)
    assert discs(page) == before
    expect(page.get_by_role("button", name="Undo")).to_be_disabled()


def test_playing_with_the_keyboard_only(page: Page) -> None:
    start_game(page, opponent="local")
    page.keyboard.press("Tab")
    while not page.evaluate("document.activeElement.id === 'board'"):
        page.keyboard.press("Tab")
    expect(page.locator("#board .cell.cursor")).to_have_attribute("data-square", "c4")
    page.keyboard.press("Enter")
    wait_ply(page, 1)
    expect_disc(page, "d4", "black")
    page.keyboard.press("ArrowUp")
    expect(page.locator("#board .cell.cursor")).to_have_attribute("data-square", "c3")
    expect(page.locator('#board [data-square="d4"]')).to_have_class(re.compile("would-flip"))
    page.keyboard.press("Enter")
    wait_ply(page, 2)
    expect_disc(page, "c3", "white")
    expect_disc(page, "d4", "white")
    page.keyboard.press("ArrowLeft")
    page.keyboard.press("Enter")  # b3 is not a legal move: nothing happens
    page.keyboard.press("ArrowRight")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#board .cell.cursor")).to_have_attribute("data-square", "d3")
    page.keyboard.press("Enter")
    wait_ply(page, 3)
    expect_disc(page, "d4", "black")


def test_playing_with_the_buttons_grid_only(page: Page) -> None:
    start_game(page, opponent="local")
    page.get_by_text("Play by buttons").click()
    grid = page.locator("#buttons-grid")
    expect(grid.locator("tr").first.locator("button").first).to_have_text("a1")
    expect(grid.get_by_role("button", name="f5, empty, legal, flips 1")).to_be_enabled()
    enabled = grid.locator("button:enabled")
    expect(enabled).to_have_count(4)
    assert sorted(enabled.all_inner_texts()) == ["c4", "d3", "e6", "f5"]
    expect(grid.get_by_role("button", name="a1, empty", exact=True)).to_be_disabled()
    grid.get_by_role("button", name="d3, empty, legal, flips 1", exact=True).click()
    wait_ply(page, 1)
    expect_disc(page, "d4", "black")
    assert sorted(enabled.all_inner_texts()) == ["c3", "c5", "e3"]
    assert page.evaluate("() => document.activeElement.id") == "board"  # focus stays on the board
    grid.get_by_role("button", name="c5, empty, legal, flips 1", exact=True).click()
    wait_ply(page, 2)
    expect_disc(page, "d5", "white")


def test_dots_switch_survives_a_reload(page: Page) -> None:
    start_game(page, opponent="local")
    dot = "getComputedStyle(document.querySelector('#board .cell.legal'), '::after').content"
    assert page.evaluate(dot) == '""'
    page.get_by_label("Show legal moves").uncheck()
    assert page.evaluate(dot) == "none"
    page.reload()
    wait_ready(page)
    expect(page.get_by_label("Show legal moves")).not_to_be_checked()
    assert page.evaluate(dot) == "none"
    page.get_by_label("Show legal moves").check()
    page.reload()
    wait_ready(page)
    assert page.evaluate(dot) == '""'


WATCH_FIRST_MOVE = """() => {
    const app = document.getElementById('game-app');
    window.firstMoveSeen = null;
    new MutationObserver((_, observer) => {
        if (app.dataset.ply !== '1') return;
        observer.disconnect();
        const board = document.getElementById('board');
        window.firstMoveSeen = {
            color: board.querySelector('[data-square="e5"] .disc').dataset.color,
            animating: board.dataset.animating === 'true',
        };
    }).observe(app, {attributes: true});
}"""


def first_move_as_drawn(page: Page) -> dict:
    """How e5 looks when the answer to black's f5 is first drawn, and whether flips animate."""
    start_game(page, opponent="local")
    page.evaluate(WATCH_FIRST_MOVE)
    page.click('#board [data-square="f5"]')
    # A function, not an expression: the page's CSP forbids evaluating a string.
    return page.wait_for_function("() => window.firstMoveSeen").json_value()


def test_flips_are_instant_under_reduced_motion(new_page) -> None:
    calm = new_page(reduced_motion="reduce")
    assert first_move_as_drawn(calm) == {"color": "black", "animating": False}
    lively = new_page(reduced_motion="no-preference")
    assert first_move_as_drawn(lively) == {"color": "white", "animating": True}
    lively.wait_for_selector("#board:not([data-animating])")
    assert disc(lively, "e5") == "black"


def test_reload_mid_game_resumes_the_same_position(page: Page) -> None:
    start_game(page, opponent="cpu", level="easy", color="white")
    wait_ply(page, 1)
    assert wait_my_turn_or_end(page)
    play_cell(page, legal_squares(page)[0])
    wait_ply(page, 3)
    wait_my_turn_or_end(page)
    page.wait_for_selector("#board:not([data-animating])")
    position = discs(page)
    last_move = page.inner_text("#last-move")
    page.reload()
    wait_ready(page)
    wait_ply(page, 3)
    assert discs(page) == position
    expect(page.locator("#last-move")).to_have_text(last_move)
    expect(page.locator("#counts")).to_contain_text("White (you)")


def test_pass_banner_stays_until_that_player_moves_again(page: Page) -> None:
    start_game(page, opponent="local", board="6x6")
    for square in ("e4", "e5", "c2", "b4", "e6", "f6", "a4", "d6"):  # black then has no move
        play_cell(page, square)
    banner = page.locator("#pass-banner")
    expect(banner).to_have_text("Black passes: no legal move")
    expect_turn(page, "White to move")
    while page.get_attribute("#game-app", "data-to-move") == "white":
        play_cell(page, legal_squares(page)[0])
        expect(banner).to_be_visible()
    play_cell(page, legal_squares(page)[0])
    expect(banner).to_be_hidden()


def test_touch_first_tap_previews_and_second_tap_plays(new_page) -> None:
    page = new_page(has_touch=True, is_mobile=True, viewport={"width": 375, "height": 740})
    start_game(page, opponent="local")
    cell = page.locator('#board [data-square="f5"]')
    cell.tap()
    expect(cell).to_have_class(re.compile("ghost"))
    expect(page.locator('#board [data-square="e5"]')).to_have_class(re.compile("would-flip"))
    assert page.get_attribute("#game-app", "data-ply") == "0"
    cell.tap()
    wait_ply(page, 1)
    expect_disc(page, "f5", "black")
    board_box = page.locator("#board").bounding_box()
    assert board_box["x"] >= 0
    assert board_box["x"] + board_box["width"] <= 375


def test_hint_rings_a_legal_square_and_resign_ends_the_game(page: Page) -> None:
    start_game(page, opponent="cpu", level="easy", color="black")
    legal = legal_squares(page)
    page.get_by_role("button", name="Hint").click()
    hinted = page.locator("#board .cell.hint")
    expect(hinted).to_have_count(1, timeout=30_000)
    assert hinted.get_attribute("data-square") in legal
    page.get_by_role("button", name="Sound: off").click()
    expect(page.get_by_role("button", name="Sound: on")).to_have_attribute("aria-pressed", "true")
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#result-title")).to_have_text("You lost")
    expect(page.locator("#result-note")).to_have_text("Black resigned.")
    expect(page.locator("#result-hints")).to_have_text("1")
    expect(page.locator("#turn")).to_have_text("Game over")
