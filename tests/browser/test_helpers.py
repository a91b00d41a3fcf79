"""The browser tests' own helpers (``tests/browser/helpers.py``), where a race in them would
make other tests fail at random."""

import pytest
from playwright.sync_api import expect

from .helpers import friend_room, play_cell

pytestmark = pytest.mark.browser

# Every websocket message reaches the page's listeners this much later: an opponent's move
# arrives after the test has already turned to this page.
LATE_SOCKET = """
const addEventListener = WebSocket.prototype.addEventListener;
WebSocket.prototype.addEventListener = function (type, listener, options) {
  const late = type === "message" ? (event) => setTimeout(() => listener(event), 1500) : listener;
  return addEventListener.call(this, type, late, options);
};
"""


def test_play_cell_waits_for_the_opponents_move_before_it_plays(new_page) -> None:
    made = []

    def page_with_late_socket_for_the_guest(**options):
        page = new_page(**options)
        if made:  # the second page: the guest's
            page.add_init_script(LATE_SOCKET)
        made.append(page)
        return page

    host, guest = friend_room(page_with_late_socket_for_the_guest)
    play_cell(host, "d3")
    play_cell(guest, "e3")  # d3 reaches the guest 1.5 s later: a click before it plays nothing
    expect(guest.locator("#game-app")).to_have_attribute("data-ply", "2")
    expect(guest.locator('#board [data-square="e3"] .disc')).to_have_attribute(
        "data-color", "white"
    )
