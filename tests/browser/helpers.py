"""Steps shared by the browser tests: start games from the setup page, read the board."""

import os
from pathlib import Path

from playwright.sync_api import Page, expect

CPU_REPLY_MS = 30_000


def choose(page: Page, **choices: str) -> None:
    """Pick radio buttons, selects and checkboxes of the setup form by name."""
    for name, value in choices.items():
        field = page.locator(f'#setup-form [name="{name}"]')
        kind = field.first.get_attribute("type") or field.first.evaluate("e => e.tagName")
        if kind == "radio":
            page.check(f'#setup-form [name="{name}"][value="{value}"]')
        elif kind == "checkbox":
            field.set_checked(value == "on")
        else:
            field.select_option(value)


def start_game(page: Page, **choices: str) -> None:
    """Open the setup page, choose, press Start and wait for the game page to be drawn."""
    page.goto("/")
    choose(page, **choices)
    page.locator("#setup-form [type=submit]").click()  # in any language
    wait_ready(page)


def wait_ready(page: Page) -> None:
    page.wait_for_selector('#game-app[data-ready="true"]')
    page.wait_for_selector("#board .cell")


def wait_ply(page: Page, ply: int, timeout: int = CPU_REPLY_MS) -> None:
    page.wait_for_selector(f'#game-app[data-ply="{ply}"]', timeout=timeout)


def wait_my_turn_or_end(page: Page) -> bool:
    """Wait until the viewer may move (True) or the game has ended (False)."""
    page.wait_for_function(
        "() => document.querySelector('#board.interactive') !== null"
        " || document.getElementById('game-app').dataset.status === 'finished'",
        timeout=CPU_REPLY_MS,
    )
    return page.get_attribute("#game-app", "data-status") != "finished"


def disc(page: Page, square: str) -> str:
    """The colour shown on a square ("" when empty)."""
    return page.get_attribute(f'#board [data-square="{square}"] .disc', "data-color") or ""


def discs(page: Page) -> dict[str, str]:
    """Every square's shown colour."""
    return page.eval_on_selector_all(
        "#board [data-square]",
        "cs => Object.fromEntries(cs.map(c => [c.dataset.square, c.firstChild.dataset.color]))",
    )


def legal_squares(page: Page) -> list[str]:
    return page.eval_on_selector_all(
        "#board .cell.legal", "cells => cells.map(c => c.dataset.square)"
    )


def play_cell(page: Page, square: str) -> None:
    """Wait until ``square`` is a legal move the page offers (the opponent's last move may still
    be on its way over the socket: a click before it would be out of turn and play nothing),
    click it, and wait until the server's answer is drawn and the page is idle."""
    page.wait_for_selector(
        f'#board.interactive [data-square="{square}"].legal', timeout=CPU_REPLY_MS
    )
    ply = int(page.get_attribute("#game-app", "data-ply"))
    page.click(f'#board [data-square="{square}"]')
    page.wait_for_function(
        f"() => {{ const app = document.getElementById('game-app');"
        f" return Number(app.dataset.ply) > {ply} && !app.dataset.busy; }}"
    )


def play_until_the_end(players: dict[str, Page]) -> int:
    """Each side plays its first legal move until the game ends; returns the plies played."""
    first = next(iter(players.values()))
    while first.get_attribute("#game-app", "data-status") != "finished":
        mover = players[first.get_attribute("#game-app", "data-to-move")]
        if not wait_my_turn_or_end(mover):
            break
        play_cell(mover, legal_squares(mover)[0])
        ply = mover.get_attribute("#game-app", "data-ply")
        for page in players.values():
            wait_ply(page, int(ply))
    return int(first.get_attribute("#game-app", "data-ply"))


def screenshot(page: Page, name: str) -> None:
    """Save a screenshot when SCREENSHOTS_DIR is set (they are never committed)."""
    folder = os.environ.get("SCREENSHOTS_DIR")
    if folder:
        page.wait_for_function("() => !document.querySelector('#board[data-animating]')")
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def expect_turn(page: Page, text: str) -> None:
    expect(page.locator("#turn")).to_have_text(text)


def start_room(page: Page, **choices: str) -> None:
    """Create a room from the setup page and wait for the room page."""
    page.goto("/")
    choose(page, **choices)
    page.locator("#setup-form [type=submit]").click()  # in any language
    page.wait_for_url(lambda url: "/room/" in url)
    wait_ready(page)


def friend_room(new_page, **choices: str) -> tuple[Page, Page]:
    """A started 2-player friend room (8x8 unless ``choices`` say otherwise): the host's page,
    black, and a second browser's that joined as white."""
    host = new_page()
    start_room(host, opponent="friend", **{"board": "8x8", **choices})
    guest = new_page()
    guest.goto(host.input_value("#room-url"))
    wait_ready(guest)
    guest.get_by_role("button", name="Join").click()
    expect(guest.locator("#counts")).to_contain_text("White (you)")
    return host, guest


def expect_disc(page: Page, square: str, color: str) -> None:
    """Wait until ``square`` shows a disc of ``color``."""
    cell = page.locator(f'#board [data-square="{square}"] .disc')
    expect(cell).to_have_attribute("data-color", color)


def sign_up(page: Page, username: str) -> None:
    """Create an account from the sign-up page (the page is then signed in)."""
    page.goto("/accounts/signup/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password", exact=True).fill("a long passphrase")
    page.get_by_label("Password confirmation").fill("a long passphrase")
    page.locator("form.account-form").get_by_role("button", name="Sign up").click()
    expect(page.locator("h1")).to_have_text(username)
