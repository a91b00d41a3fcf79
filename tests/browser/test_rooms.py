"""Rooms in Chromium: two browsers play a friend room to the end and a rematch with colours
swapped; a 3-player room with a CPU seat."""

import re

import pytest
from playwright.sync_api import Page, WebSocketRoute, expect

from .helpers import (
    expect_disc,
    legal_squares,
    play_cell,
    play_until_the_end,
    sign_up,
    start_room,
    wait_my_turn_or_end,
    wait_ply,
    wait_ready,
)

pytestmark = pytest.mark.browser


def join(page: Page, url: str) -> None:
    page.goto(url)
    wait_ready(page)
    page.get_by_role("button", name="Join").click()


def test_friend_room_to_the_end_then_rematch_with_colours_swapped(new_page) -> None:
    host = new_page()
    start_room(host, opponent="friend", board="6x6")
    expect(host.locator("#turn")).to_have_text("Waiting for players to join")
    room_url = host.input_value("#room-url")
    assert re.search(r"/room/[\w-]+/$", room_url)
    host.get_by_role("button", name="Copy link").click()
    expect(host.locator("#copy-status")).to_have_text("Copied")

    guest = new_page()
    join(guest, room_url)
    expect(guest.locator("#counts")).to_contain_text("White (you)")
    expect(host.locator("#turn")).to_have_text("Your turn (Black)")
    expect(guest.locator("#turn")).to_have_text("Waiting for Black")

    assert play_until_the_end({"black": host, "white": guest}) > 20
    for page in (host, guest):
        expect(page.locator("#result")).to_be_visible()

    host.get_by_role("button", name="Rematch with colours swapped").click()
    host.wait_for_url(lambda url: "/room/" in url and url != room_url)
    wait_ready(host)
    guest.get_by_role("link", name="Go to the rematch").click()
    wait_ready(guest)
    assert guest.url == host.url
    expect(host.locator("#counts")).to_contain_text("White (you)")
    expect(guest.locator("#counts")).to_contain_text("Black (you)")
    expect(guest.locator("#turn")).to_have_text("Your turn (Black)")
    play_cell(guest, legal_squares(guest)[0])
    wait_ply(host, 1)


def test_three_player_room_with_a_cpu_seat(new_page) -> None:
    host = new_page()
    start_room(
        host, opponent="group", players="3", seat_white="human", seat_red="cpu", level="easy"
    )
    expect(host.locator("#room-seats")).to_contain_text("Red: CPU (easy)")
    guest = new_page()
    join(guest, host.input_value("#room-url"))
    for page in (host, guest):
        expect(page.locator("#counts li")).to_have_count(3)
        expect_disc(page, "e5", "red")
        expect_disc(page, "d5", "neutral")
    for round_start in (0, 3):
        assert wait_my_turn_or_end(host)
        play_cell(host, legal_squares(host)[0])
        wait_ply(guest, round_start + 1)
        assert wait_my_turn_or_end(guest)
        play_cell(guest, legal_squares(guest)[0])
        wait_ply(host, round_start + 3)  # the CPU (red) has answered
        expect(host.locator("#last-move")).to_contain_text("Red")


def test_a_dropped_connection_reconnects_and_resynchronises(new_page) -> None:
    host = new_page()
    start_room(host, opponent="friend", board="6x6")
    guest = new_page()
    sockets: list[WebSocketRoute] = []
    network = {"up": True}

    def through_the_network(socket: WebSocketRoute) -> None:
        if network["up"]:
            socket.connect_to_server()
            sockets.append(socket)
        else:
            socket.close()

    guest.route_web_socket(re.compile(r"/ws/games/"), through_the_network)
    join(guest, host.input_value("#room-url"))
    expect(host.locator("#turn")).to_have_text("Your turn (Black)")
    network["up"] = False
    for socket in sockets:
        socket.close()
    expect(guest.locator("#offline")).to_be_visible()
    play_cell(host, legal_squares(host)[0])
    assert guest.get_attribute("#game-app", "data-ply") == "0"
    network["up"] = True
    wait_ply(guest, 1)
    expect(guest.locator("#offline")).to_be_hidden()
    expect(guest.locator("#turn")).to_have_text("Your turn (White)")


def test_continue_against_the_cpu_when_the_opponent_is_away(new_page, server_sql) -> None:
    host = new_page()
    start_room(host, opponent="friend", board="6x6")
    guest = new_page()
    join(guest, host.input_value("#room-url"))
    assert wait_my_turn_or_end(host)
    play_cell(host, legal_squares(host)[0])
    guest.context.close()
    expect(host.locator("#room-seats")).to_contain_text("White: away")
    expect(host.locator("#takeover-countdown")).to_have_text(
        re.compile(r"White is away: the CPU may take the seat in [12]:\d\d")
    )
    expect(host.get_by_role("button", name="Continue against the CPU")).to_be_disabled()
    code = host.url.rstrip("/").rsplit("/", 1)[1]
    server_sql(  # the 2 minutes pass at once
        "UPDATE games_seat SET absent_since = now() - interval '3 minutes'"
        " WHERE color = 1 AND game_id = (SELECT game_id FROM games_room WHERE code = %s)",
        (code,),
    )
    host.reload()
    wait_ready(host)
    expect(host.locator("#takeover-countdown")).to_have_text(
        "White is away: the CPU may take the seat now"
    )
    host.get_by_label("CPU level").select_option("easy")
    host.get_by_role("button", name="Continue against the CPU").click()
    expect(host.locator("#room-seats")).to_contain_text("White: CPU (easy)")
    wait_ply(host, 2)
    expect(host.locator("#turn")).to_have_text("Your turn (Black)")


def test_a_room_shows_the_names_of_signed_in_players(new_page) -> None:
    host = new_page()
    sign_up(host, "browser_host")
    start_room(host, opponent="friend", board="6x6")
    guest = new_page()
    sign_up(guest, "browser_guest")
    join(guest, host.input_value("#room-url"))
    expect(host.locator("#room-seats")).to_contain_text("Black: browser_host (you)")
    expect(host.locator("#room-seats")).to_contain_text("White: browser_guest")
    expect(guest.locator("#room-seats")).to_contain_text("Black: browser_host")
    expect(guest.locator("#room-seats")).to_contain_text("White: browser_guest (you)")
    expect(guest.locator('#counts li[data-color="black"] .who')).to_have_text("browser_host")


def test_on_a_phone_the_room_link_is_above_the_board(new_page) -> None:
    host = new_page(viewport={"width": 375, "height": 740})
    start_room(host, opponent="friend", board="6x6")
    link = host.locator("#room-url").bounding_box()
    board = host.locator("#board").bounding_box()
    assert link["y"] + link["height"] <= board["y"]
    expect(host.locator("#room-url")).to_be_in_viewport()
