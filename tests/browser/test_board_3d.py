"""The 3D board (U2) in Chromium: playing by clicking cells in perspective, the switch
remembered after a reload, dragging turns the view without playing, the view buttons, zoom."""

import os
import re
from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .helpers import discs, expect_disc, expect_turn, play_cell, start_game, wait_ready

pytestmark = pytest.mark.browser

THREE_D = re.compile(r"\bthree-d\b")
WOULD_FLIP = re.compile(r"\bwould-flip\b")
BOARD_TRANSFORM = "getComputedStyle(document.getElementById('board')).transform"


def board_view(page: Page) -> tuple[float, float, float]:
    """The board's (tilt, spin, zoom) as the page set them."""
    tilt, spin, zoom = page.get_attribute("#board", "data-view").split(",")
    return float(tilt), float(spin), float(zoom)


def wait_view_settled(page: Page) -> None:
    """Wait until the board's transform stops changing (the view transition is over)."""
    page.wait_for_function(
        f"""() => new Promise(done => {{
            const first = {BOARD_TRANSFORM};
            const same = () => done(first === {BOARD_TRANSFORM});
            requestAnimationFrame(() => requestAnimationFrame(same));
        }})"""
    )


def drag_board(page: Page, dx: float, dy: float) -> None:
    """Press the mouse on the board's centre, move by (dx, dy) in steps and release."""
    box = page.locator("#board").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + dx, y + dy, steps=8)
    page.mouse.up()


def test_play_in_3d_and_the_switch_survives_a_reload(page: Page) -> None:
    start_game(page, opponent="local")
    page.get_by_label("3D board").check()
    expect(page.locator("#board")).to_have_class(THREE_D)
    expect(page.get_by_role("button", name="Top-down")).to_be_visible()
    wait_view_settled(page)
    assert page.evaluate(BOARD_TRANSFORM).startswith("matrix3d(")
    page.hover('#board [data-square="f5"]')
    expect(page.locator('#board [data-square="e5"]')).to_have_class(WOULD_FLIP)
    play_cell(page, "f5")
    expect_turn(page, "White to move")
    expect_disc(page, "e5", "black")
    play_cell(page, "f6")
    expect_disc(page, "e5", "white")
    if folder := os.environ.get("SCREENSHOTS_DIR"):
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.wait_for_function("() => !document.querySelector('#board[data-animating]')")
        page.locator("#board-stage").screenshot(path=str(Path(folder) / "3d.png"))
    page.reload()
    wait_ready(page)
    expect(page.get_by_label("3D board")).to_be_checked()
    expect(page.locator("#board")).to_have_class(THREE_D)
    page.get_by_label("3D board").uncheck()
    expect(page.locator("#board")).not_to_have_class(THREE_D)
    assert page.evaluate(BOARD_TRANSFORM) == "none"
    expect(page.get_by_role("button", name="Top-down")).to_be_hidden()


def test_drag_turns_the_view_without_playing_and_top_down_flattens_it(page: Page) -> None:
    start_game(page, opponent="local")
    page.get_by_label("3D board").check()
    wait_view_settled(page)
    before_discs = discs(page)
    before = page.evaluate(BOARD_TRANSFORM)
    tilt, spin, zoom = board_view(page)
    drag_board(page, 120, 60)
    new_tilt, new_spin, new_zoom = board_view(page)
    assert new_spin != spin
    assert new_tilt < tilt
    assert new_zoom == zoom
    wait_view_settled(page)
    assert page.evaluate(BOARD_TRANSFORM) != before
    drag_board(page, 0, -1000)  # tilt is clamped
    assert board_view(page)[0] == 65
    assert page.get_attribute("#game-app", "data-ply") == "0"
    assert discs(page) == before_discs
    # A small wobble under the threshold is still a click: the first tap plays.
    cell = page.locator('#board [data-square="f5"]').bounding_box()
    page.mouse.move(cell["x"] + cell["width"] / 2, cell["y"] + cell["height"] / 2)
    page.mouse.down()
    page.mouse.move(cell["x"] + cell["width"] / 2 + 3, cell["y"] + cell["height"] / 2 + 2)
    page.mouse.up()
    expect_disc(page, "e5", "black")
    page.get_by_role("button", name="Top-down").click()
    assert board_view(page) == (0, 0, 1)
    page.wait_for_function(f"() => {BOARD_TRANSFORM} === 'matrix(1, 0, 0, 1, 0, 0)'")
    page.get_by_role("button", name="Oblique").click()
    assert board_view(page) == (45, 0, 0.8)


def test_wheel_zoom_is_clamped(page: Page) -> None:
    start_game(page, opponent="local")
    page.get_by_label("3D board").check()
    page.locator("#board").hover()
    zoom = board_view(page)[2]
    page.mouse.wheel(0, -200)
    expect(page.locator("#board")).not_to_have_attribute("data-view", f"45,0,{zoom:.2f}")
    assert 1.6 > board_view(page)[2] > zoom
    for _ in range(10):
        page.mouse.wheel(0, -400)
    expect(page.locator("#board")).to_have_attribute("data-view", "45,0,1.60")
    for _ in range(10):
        page.mouse.wheel(0, 400)
    expect(page.locator("#board")).to_have_attribute("data-view", "45,0,0.60")


def test_3d_board_fits_a_phone_and_keeps_working_there(new_page) -> None:
    page = new_page(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    start_game(page, opponent="local")
    page.get_by_label("3D board").check()
    wait_view_settled(page)
    assert page.evaluate("document.documentElement.scrollWidth") <= 375
    page.tap('#board [data-square="d3"]')  # first tap previews
    expect(page.locator('#board [data-square="d4"]')).to_have_class(WOULD_FLIP)
    page.tap('#board [data-square="d3"]')
    expect_disc(page, "d4", "black")
    if folder := os.environ.get("SCREENSHOTS_DIR"):
        page.screenshot(path=str(Path(folder) / "3d-phone.png"))


def test_white_sees_the_same_view_and_reduced_motion_jumps_at_once(new_page) -> None:
    page = new_page(reduced_motion="reduce")
    start_game(page, opponent="cpu", level="easy", color="white")
    page.get_by_label("3D board").check()
    assert page.evaluate(BOARD_TRANSFORM).startswith("matrix3d(")
    corners = {
        square: page.locator(f'#board [data-square="{square}"]').bounding_box()
        for square in ("a1", "h1", "a8")
    }
    assert corners["a1"]["x"] < corners["h1"]["x"]
    assert corners["a1"]["y"] < corners["a8"]["y"]
    page.get_by_role("button", name="Top-down").click()
    assert page.evaluate(BOARD_TRANSFORM) == "matrix(1, 0, 0, 1, 0, 0)"
    a1 = page.locator('#board [data-square="a1"]').bounding_box()
    h8 = page.locator('#board [data-square="h8"]').bounding_box()
    assert a1["x"] < h8["x"]
    assert a1["y"] < h8["y"]


def test_pinch_zooms_the_3d_board(new_page) -> None:
    page = new_page(viewport={"width": 375, "height": 740}, has_touch=True, is_mobile=True)
    start_game(page, opponent="local")
    page.get_by_label("3D board").check()
    page.locator("#board").scroll_into_view_if_needed()  # the switch is in the settings below
    box = page.locator("#board").bounding_box()
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    cdp = page.context.new_cdp_session(page)

    def touch(kind: str, spread: float) -> None:
        points = [{"x": x - spread, "y": y, "id": 1}, {"x": x + spread, "y": y, "id": 2}]
        cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    touch("touchStart", 20)
    touch("touchMove", 25)
    touch("touchMove", 30)  # fingers 1.5 times as far apart: 1.5 times the zoom
    expect(page.locator("#board")).to_have_attribute("data-view", "45,0,1.20")
    touch("touchMove", 80)
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    expect(page.locator("#board")).to_have_attribute("data-view", "45,0,1.60")  # clamped
    assert page.get_attribute("#game-app", "data-ply") == "0"


def test_edge_labels_are_readable_and_a_turned_board_is_not_clipped(new_page) -> None:
    page = new_page(viewport={"width": 375, "height": 740})
    start_game(page, opponent="local")
    page.get_by_label("3D board").check()
    wait_view_settled(page)
    far_letter = page.locator("#board .label.col").first.evaluate(
        "label => { const r = document.createRange(); r.selectNodeContents(label);"
        " return r.getBoundingClientRect().height; }"
    )
    assert far_letter >= 16, far_letter  # the far edge's letters of the oblique view
    page.locator("#board").scroll_into_view_if_needed()  # the switch is in the settings below
    drag_board(page, 112, 0)  # about 45 degrees
    wait_view_settled(page)
    assert 35 <= abs(board_view(page)[1]) <= 55
    stage = page.locator("#board-stage").bounding_box()
    for square in ("a1", "h1", "a8", "h8"):
        corner = page.locator(f'#board [data-square="{square}"]').bounding_box()
        assert corner["x"] >= stage["x"] - 1, square
        assert corner["x"] + corner["width"] <= stage["x"] + stage["width"] + 1, square
