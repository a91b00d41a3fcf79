"""Issue 11 §2: axe-core (WCAG 2.2 A and AA rules and best practices) finds no violation of any
impact on any page, in each language and colour scheme; the board speaks its cells."""

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from .helpers import play_cell, start_game, start_room, wait_ready

pytestmark = pytest.mark.browser

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"
RULES = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa", "best-practice"]
PAGES = [
    "/",
    "/how-to-play/",
    "/tips/",
    "/faq/",
    "/history/",
    "/multiplayer/",
    "/comment-rules/",
    "/community/",
    "/changelog/",
    "/accounts/login/",
    "/accounts/signup/",
    "/accounts/password/reset/",
    "/room/NOPE/",
]


def violations(page: Page) -> list[str]:
    """axe-core's violations on the page as it is now: rule, impact and the first elements
    (the page's context must bypass the site's CSP, which refuses the injected script)."""
    page.add_script_tag(path=str(AXE))
    found = page.evaluate(
        "tags => axe.run(document, {runOnly: {type: 'tag', values: tags}})"
        ".then(r => r.violations.map(v => `${v.id} (${v.impact}): `"
        " + v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', ')))",
        RULES,
    )
    return found


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("path", PAGES)
def test_no_axe_violation_on_the_plain_pages(new_page, path: str, scheme: str) -> None:
    page = new_page(color_scheme=scheme, bypass_csp=True)
    page.goto(path)
    assert violations(page) == []


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_on_the_account_pages(new_page, scheme: str) -> None:
    page = new_page(color_scheme=scheme, bypass_csp=True)
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(f"axe_{scheme}")
    page.get_by_label("Email address").fill(f"axe_{scheme}@example.com")
    page.get_by_label("Password", exact=True).fill("a long passphrase")
    page.get_by_label("Password confirmation").fill("a long passphrase")
    page.locator("form.account-form").get_by_role("button", name="Sign up").click()
    expect(page.locator("#profile-email")).to_contain_text("not verified")
    assert violations(page) == []  # the own profile, with its message and settings
    for path in ("/accounts/email/", "/accounts/password/change/", "/accounts/delete/"):
        page.goto(path)
        assert violations(page) == [], path


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_no_axe_violation_on_a_game_during_play_and_at_the_end(new_page, scheme: str) -> None:
    page = new_page(color_scheme=scheme, bypass_csp=True)
    start_game(page, opponent="local", board="6x6")
    play_cell(page, "e4")
    page.locator("#buttons-panel summary").click()
    assert violations(page) == []
    page.get_by_role("button", name="Resign").click()
    page.get_by_role("button", name="Yes, resign").click()
    expect(page.locator("#result")).to_be_visible()
    assert violations(page) == []


@pytest.mark.parametrize("theme", ["wood", "contrast"])
def test_no_axe_violation_with_a_board_theme_marks_and_no_coordinates(new_page, theme) -> None:
    page = new_page(bypass_csp=True)
    start_game(page, opponent="local")
    page.get_by_label("Board style").select_option(theme)
    page.get_by_label("Disc style").select_option("marks")
    page.get_by_label("Coordinates").uncheck()
    play_cell(page, "d3")
    assert violations(page) == []


def test_no_axe_violation_in_a_four_player_room(new_page) -> None:
    page = new_page(bypass_csp=True)
    start_room(page, opponent="group", players="4")
    assert violations(page) == []


def test_no_axe_violation_in_the_3d_view(new_page) -> None:
    page = new_page(bypass_csp=True)
    start_game(page, opponent="local")
    page.get_by_label("3D board").check()
    assert violations(page) == []


def test_board_cells_speak_their_content_and_focus_stays_in_the_grid(page: Page) -> None:
    start_game(page, opponent="local")
    board = page.get_by_role("grid", name="Board")
    expect(board.get_by_role("gridcell", name="d4, white", exact=True)).to_have_count(1)
    expect(board.get_by_role("gridcell", name="f5, empty, legal, flips 1")).to_have_count(1)
    expect(board.get_by_role("gridcell", name="a1, empty", exact=True)).to_have_count(1)
    page.keyboard.press("Tab")
    while not page.evaluate("document.activeElement.id === 'board'"):
        page.keyboard.press("Tab")
    expect(board).to_have_attribute("aria-activedescendant", "cell-c4")
    page.keyboard.press("Enter")
    expect(page.locator("#game-app")).to_have_attribute("data-ply", "1")
    expect(board.get_by_role("gridcell", name="c4, black, last move")).to_have_count(1)
    assert page.evaluate("() => document.activeElement.id") == "board"
    expect(page.locator("#announcer")).to_have_text("Black c4 · 1 flipped")


def test_a_skip_link_leads_to_the_main_content_and_each_page_has_one_h1(page: Page) -> None:
    for path in ("/", "/community/", "/how-to-play/"):
        page.goto(path)
        expect(page.locator("h1")).to_have_count(1)
    start_game(page, opponent="local")
    expect(page.locator("h1")).to_have_count(1)
    page.keyboard.press("Tab")
    skip = page.get_by_role("link", name="Skip to the main content")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    page.keyboard.press("Enter")
    assert page.evaluate("() => location.hash") == "#main"
    wait_ready(page)


# The WCAG contrast ratio of two computed "rgb(r, g, b)" colours.
CONTRAST = """([a, b]) => {
  const luminance = (css) => {
    const [r, g, b] = css.match(/\\d+(\\.\\d+)?/g).slice(0, 3).map(Number).map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
  };
  const [x, y] = [luminance(a), luminance(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}"""

# Paint one disc of each colour (as the board draws them) and read the colours that matter.
DISC_COLOURS = """() => {
  const cell = document.querySelector('#board .cell[data-content="empty"]');
  const disc = cell.firstChild;
  const board = getComputedStyle(cell).backgroundColor;
  return ["black", "white", "red", "green", "neutral"].map((color) => {
    disc.dataset.color = color;
    const style = getComputedStyle(disc);
    const mark = getComputedStyle(disc.firstChild, "::before");
    return {color, board, edge: style.borderTopColor, fill: style.backgroundColor,
            mark: mark.content, ink: mark.color};
  });
}"""


@pytest.mark.parametrize("theme", ["green", "wood", "contrast"])
@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_disc_colour_stands_out_and_marks_tell_them_apart(new_page, scheme, theme) -> None:
    page = new_page(color_scheme=scheme, bypass_csp=True)
    start_game(page, opponent="local")
    page.get_by_label("Board style").select_option(theme)
    page.get_by_label("Disc style").select_option("marks")
    colours = page.evaluate(DISC_COLOURS)
    for disc in colours:
        assert page.evaluate(CONTRAST, [disc["edge"], disc["board"]]) >= 3, disc
        assert page.evaluate(CONTRAST, [disc["ink"], disc["fill"]]) >= 3, disc
    assert len({disc["mark"] for disc in colours}) == 5
    page.reload()
    wait_ready(page)
    expect(page.get_by_label("Disc style")).to_have_value("marks")
