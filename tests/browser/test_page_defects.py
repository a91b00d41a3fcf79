"""Issue 11 §1 in Chromium: every move animates for everyone, no layout shift from the pass
banner, Undo only for a seat that has moved, the rules in force, long words, the 404 page and
the favicon."""

import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from .helpers import play_cell, start_game, wait_ply, wait_ready

pytestmark = pytest.mark.browser

# Records, in order, every board cell that starts its flip animation.
FLIP_LOG = """() => {
  window.flipLog = [];
  new MutationObserver((changes) => {
    for (const change of changes) {
      const cell = change.target;
      if (cell.classList?.contains("flipping") && !(change.oldValue || "").includes("flipping")) {
        window.flipLog.push(cell.dataset.square);
      }
    }
  }).observe(document.getElementById("board"), {
    subtree: true, attributes: true, attributeFilter: ["class"], attributeOldValue: true,
  });
}"""


BOARD_TOP = "() => document.getElementById('board').getBoundingClientRect().top + window.scrollY"


def flips_of(page: Page, square: str) -> list[str]:
    """The discs ``square`` flips, nearest first, as the API says."""
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    return page.request.get(f"/api/games/{game_id}/").json()["legal_moves"][square]


def test_every_move_animates_for_the_mover_and_a_spectator(new_page) -> None:
    mover = new_page()
    start_game(mover, opponent="local")
    spectator = new_page()
    spectator.goto(mover.url)
    wait_ready(spectator)
    for page in (mover, spectator):
        page.evaluate(FLIP_LOG)
    for ply, square in enumerate(("f5", "f6", "e6", "f4", "e3"), start=1):
        expected = flips_of(mover, square)
        for page in (mover, spectator):
            page.evaluate("() => { window.flipLog = []; }")
        play_cell(mover, square)
        for page in (mover, spectator):
            wait_ply(page, ply)
            page.wait_for_function(
                "n => window.flipLog.length >= n"
                " && !document.querySelector('#board[data-animating]')",
                arg=len(expected),
            )
            assert page.evaluate("() => window.flipLog") == expected, (page is mover, square)


# Holds the answer of each move's POST until the socket's move event has started the flips (at
# most 10 s), and records whether it had: the answer's redraw then lands mid-animation.
HOLD_MOVE_ANSWERS = """() => {
  window.socketFirst = [];
  const send = window.fetch;
  window.fetch = async (...args) => {
    const response = await send(...args);
    if (String(args[0]).endsWith("/moves/")) {
      const began = Date.now();
      const started = () => document.querySelector("#board[data-animating]") !== null;
      while (!started() && Date.now() - began < 10000) await new Promise((go) => setTimeout(go, 5));
      window.socketFirst.push(started());
    }
    return response;
  };
}"""


def test_the_movers_move_animates_when_its_socket_event_comes_before_its_answer(page: Page) -> None:
    """The live protocol applies the mover's own move from the socket's small event; the POST's
    answer, a redraw of the same position, lets those flips run on, disc by disc."""
    start_game(page, opponent="local")
    page.evaluate(FLIP_LOG)
    page.evaluate(HOLD_MOVE_ANSWERS)
    for ply, square in enumerate(("f5", "f6", "e6", "f4", "e3"), start=1):
        expected = flips_of(page, square)
        page.evaluate("() => { window.flipLog = []; }")
        play_cell(page, square)
        wait_ply(page, ply)
        page.wait_for_function(
            "n => window.flipLog.length >= n && !document.querySelector('#board[data-animating]')",
            arg=len(expected),
        )
        assert page.evaluate("() => window.flipLog") == expected, square
    assert page.evaluate("() => window.socketFirst") == [True] * 5


def test_the_pass_banner_moves_nothing(page: Page) -> None:
    start_game(page, opponent="local", board="6x6")
    board_top = page.evaluate(BOARD_TOP)
    for square in ("e4", "e5", "c2", "b4", "e6", "f6", "a4", "d6"):  # black then has no move
        play_cell(page, square)
    expect(page.locator("#pass-banner")).to_have_text("Black passes: no legal move")
    assert page.evaluate(BOARD_TOP) == board_top


def test_undo_waits_for_the_players_own_move_and_is_not_offered_to_spectators(new_page) -> None:
    player = new_page()
    start_game(player, opponent="cpu", level="easy", color="white", undo="on")
    wait_ply(player, 1)  # the CPU (black) moved; white has not
    undo = player.get_by_role("button", name="Undo")
    expect(undo).to_be_visible()
    expect(undo).to_be_disabled()
    spectator = new_page()
    spectator.goto(player.url)
    wait_ready(spectator)
    expect(spectator.get_by_role("button", name="Undo")).to_have_count(0)
    square = player.eval_on_selector("#board .cell.legal", "cell => cell.dataset.square")
    play_cell(player, square)
    wait_ply(player, 3)
    expect(undo).to_be_enabled()
    expect(spectator.get_by_role("button", name="Undo")).to_have_count(0)


@pytest.mark.parametrize(
    ("choices", "badges"),
    [
        ({}, ["8×8", "Cross"]),
        ({"anti": "on"}, ["8×8", "Cross", "Anti-reversi (fewest discs wins)"]),
        (
            {"handicap": "2", "blocked": "4"},
            ["8×8", "Cross", "Corner handicap: 2 (Black)", "Blocked cells: 4"],
        ),
        ({"opening": "free"}, ["8×8", "Free placement"]),
    ],
)
def test_the_game_page_says_which_rules_are_in_force(page: Page, choices, badges) -> None:
    start_game(page, opponent="local", **choices)
    expect(page.locator("#rules .badge")).to_have_text(badges)


def test_an_unknown_room_is_the_sites_own_404_page(page: Page) -> None:
    response = page.goto("/room/NOPE/")
    assert response.status == 404
    expect(page.get_by_role("heading", level=1)).to_have_text("Page not found")
    expect(page.get_by_role("main").get_by_role("link", name="Play")).to_be_visible()
    page.get_by_role("button", name="日本語").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("ページが見つかりません")


def test_every_page_has_a_favicon(page: Page) -> None:
    missing: list[str] = []
    page.on("response", lambda r: r.status == 404 and missing.append(r.url))
    page.goto("/")
    href = page.get_attribute('link[rel="icon"]', "href")
    assert page.request.get(href).status == 200
    assert not [url for url in missing if "favicon" in url]
    assert href.endswith(".svg")


def test_a_no_connection_message_goes_once_the_page_has_resynced(page: Page) -> None:
    start_game(page, opponent="local")
    page.route("**/moves/", lambda route: route.abort())
    sockets: list[WebSocketRoute] = []

    def through_the_network(socket: WebSocketRoute) -> None:
        socket.connect_to_server()
        sockets.append(socket)

    page.route_web_socket(re.compile(r"/ws/games/"), through_the_network)
    page.reload()
    wait_ready(page)
    page.wait_for_selector('#game-app[data-online="true"]')
    page.click('#board [data-square="f5"]')
    message = page.locator("#message")
    expect(message).to_have_text("No connection to the server. Please try again.")
    page.unroute("**/moves/")
    for socket in sockets:
        socket.close()  # the page reconnects, and the server sends the state again
    expect(page.locator("#offline")).to_be_visible()
    expect(message).to_be_hidden()
    play_cell(page, "f5")


def test_the_menu_wraps_instead_of_scrolling_on_a_phone(new_page) -> None:
    page = new_page(viewport={"width": 375, "height": 740})
    page.goto("/how-to-play/")
    menu = page.locator(".site-menu")
    expect(menu.get_by_role("link").last).to_be_in_viewport()
    assert menu.evaluate("m => m.scrollWidth <= m.clientWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


@pytest.mark.parametrize("path", ["/accounts/signup/", "/accounts/login/", "/", "/community/"])
def test_russian_pages_fit_a_phone(new_page, path: str) -> None:
    page = new_page(viewport={"width": 375, "height": 740}, locale="ru")
    page.goto(path, referer=None)
    page.get_by_role("button", name="Русский").click()
    heading = page.locator("h1")
    assert heading.evaluate("h => h.scrollWidth <= h.clientWidth")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 375


def test_the_tab_title_says_when_it_is_your_move(page: Page) -> None:
    start_game(page, opponent="cpu", level="easy", color="white")
    expect(page).to_have_title("● Your move · Reversi: game", timeout=30_000)
    square = page.eval_on_selector("#board .cell.legal", "cell => cell.dataset.square")
    page.click(f'#board [data-square="{square}"]')
    expect(page).to_have_title("Reversi: game")


def test_an_8x8_board_has_four_star_points(page: Page) -> None:
    start_game(page, opponent="local")
    expect(page.locator("#board .cell.star")).to_have_count(16)
    start_game(page, opponent="local", board="6x6")
    expect(page.locator("#board .cell.star")).to_have_count(0)


def test_a_placement_without_capture_is_announced(page: Page) -> None:
    start_game(page, opponent="local", players="4")
    expect(page.locator(".rule-note").first).to_contain_text("No passes")
    game_id = page.url.rstrip("/").rsplit("/", 1)[1]
    for _ in range(60):
        legal = page.request.get(f"/api/games/{game_id}/").json()["legal_moves"]
        placements = [square for square, flips in legal.items() if not flips]
        if placements:
            play_cell(page, placements[0])
            expect(page.locator("#last-move")).to_contain_text(
                f"{placements[0]} · placed without capture (no flipping move)"
            )
            return
        play_cell(page, next(iter(legal)))
    pytest.fail("no placement without capture in 60 moves")


def test_the_game_page_does_not_shift_while_its_script_draws(page: Page) -> None:
    start_game(page, opponent="local")
    page.add_init_script(
        "window.shifts = 0; new PerformanceObserver((list) => { for (const entry of"
        " list.getEntries()) if (!entry.hadRecentInput) window.shifts += entry.value; })"
        ".observe({type: 'layout-shift', buffered: true});"
    )
    page.reload()
    wait_ready(page)
    page.wait_for_timeout(500)
    assert page.evaluate("() => window.shifts") < 0.02
