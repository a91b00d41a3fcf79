"""The review of a finished game in Chromium: an imported record, once its analysis is asked
for on the page, is analysed by the real worker; the page lists the moves, steps through them
with the keyboard, keeps the ply in its address (?ply=n), draws the score graph with the
mistakes marked and names the opening."""

import re

import pytest
from playwright.sync_api import Page, expect

from .helpers import screenshot, wait_ready

pytestmark = pytest.mark.browser

# The tiger (f5 d6 c3) and 17 more moves of an ordinary game.
RECORD = "f5d6c3d3c4f4f6f3e6e7d7g6f8f7g5h6h4g4h3c5"
ANALYSIS_MS = 120_000


def import_record(page: Page, text: str) -> str:
    """Import ``text`` through the API from the page (with its CSRF cookie); the game's id."""
    page.goto("/")
    return page.evaluate(
        """async (text) => {
          const token = document.cookie.match(/csrftoken=([^;]+)/)[1];
          const response = await fetch("/api/games/import/", {
            method: "POST",
            headers: {"Content-Type": "application/json", "X-CSRFToken": token},
            body: JSON.stringify({format: "txt", text}),
          });
          return (await response.json()).id;
        }""",
        text,
    )


def test_an_imported_game_is_reviewed_move_by_move(page: Page) -> None:
    game_id = import_record(page, RECORD)
    page.goto(f"/play/{game_id}/?ply=3")
    wait_ready(page)

    review = page.locator("#review")
    expect(review).to_be_visible()
    expect(page.locator("#review-status")).to_have_text("No analysis")
    page.locator("#review-request").click()
    expect(page.locator("#review-request")).to_be_hidden()
    expect(page.locator("#review-status")).to_have_text(
        re.compile("Analysis: mistakes are marked"), timeout=ANALYSIS_MS
    )
    expect(page.locator("#review-opening")).to_have_text(re.compile("Opening: .+"))
    expect(page.locator("#game-app")).to_have_attribute("data-review-ply", "3")
    expect(page.locator("#review-ply")).to_have_text("3 / 20")
    expect(page.locator('#board [data-square="c3"]')).to_have_class(re.compile("last"))
    expect(page.locator("#move-list li")).to_have_count(21)
    expect(page.locator("#score-graph polyline")).to_have_count(1)
    mistakes = page.locator("#move-list li.mistake").count()
    expect(page.locator("#score-graph .mistake-mark")).to_have_count(mistakes)

    screenshot(page, "review")
    page.locator("#review-next").focus()
    page.keyboard.press("ArrowRight")
    expect(page.locator("#review-ply")).to_have_text("4 / 20")
    assert page.url.endswith("?ply=4")
    page.keyboard.press("Home")
    expect(page.locator("#review-ply")).to_have_text("0 / 20")
    expect(page.locator('#board [data-content="disc"]')).to_have_count(4)
    page.keyboard.press("End")
    expect(page.locator("#game-app")).to_have_attribute("data-review-ply", "20")
    href = page.locator("#export-ggf").get_attribute("href")
    assert href == f"/api/games/{game_id}/export/?format=ggf"
