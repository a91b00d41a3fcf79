"""Issue 11 §3 on the game page in Chromium: player cards (name, rating with its provisional
marker, who is to move, the rated badge) and the result's rating change; premove; the move
confirmation on touch; coordinates, star points, board and disc themes kept in this browser;
the tab's title and icon on the viewer's turn; the move list beside the board during play."""

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import (
    expect_disc,
    friend_room,
    play_cell,
    play_until_the_end,
    screenshot,
    sign_up,
    start_game,
    start_room,
    wait_ply,
    wait_ready,
)

pytestmark = pytest.mark.browser

PREMOVE = "Premove: choose your next move while the opponent thinks"
CONFIRM = "Confirm moves on touch screens (tap to preview, tap again to play)"
FAVICON = "document.querySelector('link[rel=icon]').getAttribute('href')"


def test_player_cards_and_the_result_say_ratings_and_their_change(page: Page) -> None:
    sign_up(page, "card_player")
    start_game(page, opponent="cpu", level="easy", color="black", rated="on")
    black = page.locator('#counts li[data-color="black"]')
    white = page.locator('#counts li[data-color="white"]')
    expect(black.locator(".who")).to_have_text("card_player")
    expect(black.locator(".rating")).to_have_text("1500? (provisional rating)")
    expect(black.locator(".to-move-mark")).to_have_text("to move")
    expect(white.locator(".who")).to_have_text("CPU (easy)")
    expect(white.locator(".rating")).to_have_count(0)
    expect(page.locator("#rated-badge")).to_have_text("Rated")

    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#result-title")).to_have_text("You lost")
    change = page.locator("#result-ratings li")
    expect(change).to_have_text(re.compile(r"^Your rating: \d{3,4} \(−\d+\)$"))
    after = re.search(r"Your rating: (\d+)", change.inner_text())[1]
    expect(black.locator(".rating")).to_contain_text(after)  # the card shows the new rating
    expect(black.locator(".to-move-mark")).to_have_count(0)
    screenshot(page, "rated-result")


def test_both_players_of_a_rated_room_see_their_rating_change(new_page) -> None:
    host = new_page()
    sign_up(host, "rated_host")
    start_room(host, opponent="friend", board="6x6", rated="on")
    guest = new_page()
    sign_up(guest, "rated_guest")
    guest.goto(host.input_value("#room-url"))
    wait_ready(guest)
    guest.get_by_role("button", name="Join").click()
    expect(guest.locator('#counts li[data-color="black"] .rating')).to_contain_text("1500?")
    expect(host.locator("#rated-badge")).to_be_visible()
    expect(host.locator("#turn")).to_have_text("Your turn (Black)")
    play_until_the_end({"black": host, "white": guest})
    # The last mover reads its POST's answer, the other the move event (then the whole state).
    for page in (host, guest):
        expect(page.locator("#result-title")).to_have_text(re.compile(r"^(You won|You lost|Draw)$"))
        expect(page.locator("#result-ratings li")).to_have_count(2)
        expect(page.locator("#result-ratings li").first).to_contain_text("rating: ")


def test_a_casual_game_has_no_rated_badge_and_no_rating_change(page: Page) -> None:
    start_game(page, opponent="cpu", level="easy", color="black")
    expect(page.locator("#rated-badge")).to_be_hidden()
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#result-title")).to_have_text("You lost")
    expect(page.locator("#result-ratings li")).to_have_count(0)


def test_premove_is_played_when_legal_and_dropped_when_not(new_page) -> None:
    host, guest = friend_room(new_page)
    expect(guest.locator('#counts li[data-color="black"] .who')).to_have_text("guest")
    host.get_by_label(PREMOVE).check()
    play_cell(host, "d3")
    host.click('#board [data-square="f6"]')  # white to move: queued
    expect(host.locator('#board [data-square="f6"]')).to_have_class(re.compile(r"\bpremove\b"))
    expect(host.locator("#premove-note")).to_contain_text("Premove f6")
    screenshot(host, "premove")
    play_cell(guest, "e3")  # black's turn comes: f6 is legal and played at once
    wait_ply(guest, 3)
    expect_disc(guest, "f6", "black")
    expect(host.locator("#board .cell.premove")).to_have_count(0)

    host.click('#board [data-square="a1"]')
    host.click('#board [data-square="a8"]')  # a second square replaces the first
    expect(host.locator("#board .cell.premove")).to_have_count(1)
    play_cell(guest, "c4")
    expect(host.locator("#premove-note")).to_have_text(
        "Premove a8 cancelled: it is not a legal move now."
    )
    expect(host.locator("#board.interactive")).to_have_count(1)  # black moves by hand now
    expect(host.locator("#game-app")).to_have_attribute("data-ply", "4")

    host.reload()
    wait_ready(host)
    expect(host.get_by_label(PREMOVE)).to_be_checked()


def test_without_premove_a_click_out_of_turn_queues_nothing(new_page) -> None:
    host, guest = friend_room(new_page)
    play_cell(host, "d3")
    host.click('#board [data-square="f6"]')
    expect(host.locator("#board .cell.premove")).to_have_count(0)
    play_cell(guest, "e3")
    expect(host.locator("#board.interactive")).to_have_count(1)
    expect(host.locator("#game-app")).to_have_attribute("data-ply", "2")


def test_the_title_and_icon_show_the_viewers_turn(new_page) -> None:
    host, guest = friend_room(new_page)
    expect(host).to_have_title(re.compile(r"^● Your move · "))
    assert "favicon-turn.svg" in host.evaluate(FAVICON)
    assert "favicon-turn.svg" not in guest.evaluate(FAVICON)
    play_cell(host, "d3")
    expect(guest).to_have_title(re.compile(r"^● Your move · "))
    expect(host).not_to_have_title(re.compile("Your move"))
    assert "favicon-turn.svg" not in host.evaluate(FAVICON)
    assert "favicon-turn.svg" in guest.evaluate(FAVICON)


def test_touch_confirmation_is_a_setting(new_page) -> None:
    page = new_page(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    start_game(page, opponent="local")
    page.tap('#board [data-square="d3"]')  # the first tap only shows the move
    expect(page.locator('#board [data-square="d3"]')).to_have_class(re.compile(r"\bghost\b"))
    expect(page.locator("#game-app")).to_have_attribute("data-ply", "0")
    page.tap('#board [data-square="d3"]')
    wait_ply(page, 1)
    page.get_by_label(CONFIRM).uncheck()
    page.tap('#board [data-square="c5"]')  # one tap plays
    wait_ply(page, 2)
    page.reload()
    wait_ready(page)
    expect(page.get_by_label(CONFIRM)).not_to_be_checked()


def test_coordinates_star_points_and_themes_are_kept(page: Page) -> None:
    start_game(page, opponent="local")
    expect(page.locator("#board .cell.star")).to_have_count(16)  # 4 points, a quarter per cell
    expect(page.locator("#board .label.col").first).to_be_visible()
    page.get_by_label("Coordinates").uncheck()
    expect(page.locator("#board .label").first).to_be_hidden()
    board = page.locator("#board").bounding_box()
    a1 = page.locator('#board [data-square="a1"]').bounding_box()
    assert a1["x"] - board["x"] < 12  # the cells take the labels' column
    page.get_by_label("Board style").select_option("wood")
    background = "getComputedStyle(document.getElementById('cell-a1')).backgroundColor"
    assert page.evaluate(background) == "rgb(201, 160, 99)"
    page.get_by_label("Disc style").select_option("marks")
    page.reload()
    wait_ready(page)
    expect(page.get_by_label("Coordinates")).not_to_be_checked()
    expect(page.get_by_label("Board style")).to_have_value("wood")
    expect(page.locator("#board")).to_have_class(re.compile(r"\bmarks\b"))
    assert page.evaluate(background) == "rgb(201, 160, 99)"
    page.get_by_label("Board style").select_option("green")
    assert page.evaluate(background) != "rgb(201, 160, 99)"
    start_game(page, opponent="local", board="6x6")
    expect(page.locator("#board .cell.star")).to_have_count(0)


def test_the_move_list_beside_the_board_shows_any_earlier_position(page: Page) -> None:
    start_game(page, opponent="local")
    expect(page.locator("#live-moves")).to_be_hidden()
    play_cell(page, "d3")
    play_cell(page, "c3")
    moves = page.locator("#live-move-list button")
    expect(moves).to_have_text(["Starting position", "1. d3", "2. c3"])
    expect(page.locator('#live-move-list button[aria-current="step"]')).to_have_text("2. c3")

    moves.nth(1).click()
    expect(page.locator("#game-app")).to_have_attribute("data-view-ply", "1")
    expect_disc(page, "d3", "black")
    expect_disc(page, "c3", "")
    expect(page.locator("#board.interactive")).to_have_count(0)
    expect(page.locator("#live-viewing")).to_contain_text("Position after move 1 of 2")
    page.get_by_label("Board style").select_option("wood")
    screenshot(page, "move-list-wood")
    page.keyboard.press("Home")
    expect(page.locator("#game-app")).to_have_attribute("data-view-ply", "0")
    expect_disc(page, "d3", "")
    page.keyboard.press("ArrowRight")
    expect(page.locator("#game-app")).to_have_attribute("data-view-ply", "1")
    page.keyboard.press("End")  # the game's own position: play goes on
    expect(page.locator("#game-app")).to_have_attribute("data-view-ply", "")
    expect_disc(page, "c3", "white")
    expect(page.locator("#board.interactive")).to_have_count(1)

    moves.nth(0).click()
    page.get_by_role("button", name="Back to the game").click()
    expect(page.locator("#game-app")).to_have_attribute("data-view-ply", "")
    play_cell(page, "c4")
    expect(moves).to_have_count(4)
