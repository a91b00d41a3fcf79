"""The setup page: consistent choices, the language switch, resuming an unfinished game."""

import pytest
from playwright.sync_api import Page, expect

from .helpers import choose, screenshot, start_game, start_room, wait_ready

pytestmark = pytest.mark.browser


def test_invalid_combinations_cannot_be_chosen(page: Page) -> None:
    page.goto("/")
    screenshot(page, "setup")
    choose(page, board="6x6", opening="free")
    choose(page, players="3")
    expect(page.locator('input[name="board"][value="6x6"]')).to_be_disabled()
    expect(page.locator('input[name="board"][value="8x8"]')).to_be_checked()
    expect(page.locator('input[name="opening"][value="free"]')).to_be_disabled()
    expect(page.locator('input[name="opening"][value="cross"]')).to_be_checked()
    expect(page.locator('select[name="handicap"]')).to_be_disabled()
    choose(page, players="2")
    expect(page.locator('select[name="handicap"]')).to_be_enabled()
    choose(page, handicap="2", board="octagon")
    expect(page.locator('select[name="handicap"]')).to_be_disabled()
    expect(page.locator('select[name="handicap"]')).to_have_value("0")
    choose(page, opponent="friend")
    expect(page.locator("#players-field")).to_be_hidden()
    expect(page.locator("#undo-field")).to_be_hidden()
    choose(page, opponent="group")
    expect(page.locator('input[name="players"][value="2"]')).to_be_disabled()
    expect(page.locator("#seats-field")).to_be_visible()


def test_language_switch_to_japanese_and_back(page: Page) -> None:
    page.goto("/")
    page.get_by_role("button", name="日本語").click()
    expect(page.locator("html")).to_have_attribute("lang", "ja")
    expect(page.get_by_role("button", name="はじめる")).to_be_visible()
    expect(page.locator("#setup-form legend").first).to_have_text("相手")
    choose(page, opponent="local", board="6x6")
    page.get_by_role("button", name="はじめる").click()
    wait_ready(page)
    expect(page.locator("#turn")).to_have_text("黒の番です")
    expect(page.get_by_role("button", name="投了")).to_be_visible()
    page.get_by_role("button", name="English").click()
    expect(page.locator("#turn")).to_have_text("Black to move")
    page.goto("/")
    expect(page.get_by_role("button", name="Start")).to_be_visible()


def test_setup_offers_to_continue_an_unfinished_game(page: Page) -> None:
    start_game(page, opponent="local", board="6x6")
    game_url = page.url
    page.goto("/")
    resume = page.locator("#resume a").first
    expect(resume).to_have_text("Continue: two players on this device, 6×6, move 0")
    resume.click()
    wait_ready(page)
    assert page.url == game_url


def test_unfinished_games_list_waiting_rooms_and_cpu_levels_with_dates(page: Page) -> None:
    start_room(page, opponent="friend", board="6x6")
    start_game(page, opponent="cpu", level="easy", color="black")
    page.goto("/")
    items = page.locator("#resume-list li")
    expect(items).to_have_count(2)
    expect(items.nth(0)).to_contain_text("versus the CPU, 8×8, move 0 · easy")
    expect(items.nth(1)).to_contain_text("room, 6×6, move 0 · Waiting for players to join")
    expect(items.locator("time")).to_have_count(2)


def test_play_now_is_above_the_fold_on_a_phone_and_starts_a_cpu_game(new_page) -> None:
    page = new_page(viewport={"width": 375, "height": 667})
    page.goto("/")
    button = page.get_by_role("button", name="Play now")
    expect(button).to_be_in_viewport()
    button.click()
    wait_ready(page)
    expect(page.locator("#rules .badge")).to_have_text(["8×8", "Cross"])
    expect(page.locator("#counts")).to_contain_text("Black (you) 2")
