// state.js: the API's game state (games/presenters.py game_state) as the page reads it, and
// the board rows' notation.
import assert from "node:assert/strict";
import { test } from "node:test";

import {
  boardShape,
  cellAt,
  clockLeft,
  followMove,
  formatClock,
  normalizeState,
  parseSquare,
  serverNow,
  squareName,
} from "../../games/static/games/js/state.js";

const START = ["--------", "--------", "--------", "---OX---", "---XO---", "--------", "--------", "--------"];

function seat(color, changes = {}) {
  return { color, kind: "human", level: null, name: color, taken: true, connected: true, takeover_at: null, ...changes };
}

/** A game state as the API sends it (the 8x8 start, black to move), with `changes` laid over it. */
function apiState(changes = {}) {
  return {
    id: 7,
    url: "/play/7/",
    mode: "cpu",
    variant: { players: 2, board: "8x8", opening: "cross" },
    status: "active",
    ply: 0,
    version: 3,
    to_move: "black",
    legal_moves: { d3: ["d4"], c4: ["d4"], f5: ["e5"], e6: ["e5"] },
    board: START,
    discs: { black: 2, white: 2 },
    empties: 60,
    last_move: null,
    pass_notice: null,
    moves: [],
    result: null,
    undo: { allowed: true, used: 0 },
    hints: { allowed: true, used: 0, current: null },
    rated: false,
    seats: [seat("black"), seat("white", { kind: "cpu", level: "normal", name: "CPU" })],
    you: ["black"],
    room: null,
    clock: null,
    draw: { allowed: false, offered_by: null },
    abort_allowed: false,
    spectators: 0,
    server_time: new Date().toISOString(),
    ...changes,
  };
}

test("a rated game offers no hint: the page follows the server's hints.allowed", () => {
  const state = normalizeState(apiState({ rated: true, undo: { allowed: false, used: 0 }, hints: { allowed: false, used: 0, current: null } }));
  assert.equal(state.rated, true);
  assert.equal(state.hintsAllowed, false);
  assert.equal(state.undoAllowed, false);
});

test("renames the API's fields and keeps each legal move's flips", () => {
  const state = normalizeState(apiState());
  assert.equal(state.id, 7);
  assert.equal(state.version, 3);
  assert.equal(state.toMove, "black");
  assert.equal(state.active, true);
  assert.deepEqual(state.legal, ["d3", "c4", "f5", "e6"]);
  assert.deepEqual(state.flips.get("f5"), ["e5"]);
  assert.equal(state.flips.get("a1"), undefined);
  assert.equal(state.rows, START);
  assert.equal(state.undoAllowed, true);
  assert.equal(state.hintsAllowed, true);
  assert.equal(state.rated, false);
  assert.equal(state.lastMove, null);
  assert.equal(state.pass, null);
  assert.equal(state.result, null);
});

test("the last move carries its flips and their count", () => {
  const state = normalizeState(
    apiState({ ply: 1, last_move: { ply: 1, color: "black", move: "f5", flipped: ["e5"], text: "Black f5" } }),
  );
  assert.deepEqual(state.lastMove, { square: "f5", color: "black", flips: ["e5"], flipCount: 1 });
});

test("the colours are the seats', in play order, with a count each", () => {
  const two = normalizeState(apiState());
  assert.deepEqual([...two.counts], [["black", 2], ["white", 2]]);

  const three = normalizeState(
    apiState({
      variant: { players: 3, board: "10x10" },
      seats: [seat("black"), seat("white"), seat("red")],
      discs: { black: 3, white: 3, red: 3 },
    }),
  );
  assert.deepEqual(three.colors, ["black", "white", "red"]);
  assert.deepEqual([...three.counts], [["black", 3], ["white", 3], ["red", 3]]);
});

test("a finished game has a result per colour and is not active", () => {
  const state = normalizeState(
    apiState({
      status: "finished",
      to_move: null,
      legal_moves: {},
      result: {
        discs: { black: 40, white: 24 },
        tournament: { black: 40, white: 24 },
        empties: 0,
        winner: "black",
        draw: false,
        resigned: null,
      },
    }),
  );
  assert.equal(state.active, false);
  assert.deepEqual(state.legal, []);
  assert.equal(state.result.winner, "black");
  assert.equal(state.result.discs.get("white"), 24);
  assert.equal(state.result.tournament.get("black"), 40);
});

test("a hint counts only for the current ply, and is pending until its move arrives", () => {
  const answered = normalizeState(apiState({ hints: { used: 1, current: { ply: 0, move: "f5" } } }));
  assert.equal(answered.hint, "f5");
  assert.equal(answered.hintPending, false);

  const pending = normalizeState(apiState({ hints: { used: 1, current: { ply: 0, move: null } } }));
  assert.equal(pending.hint, null);
  assert.equal(pending.hintPending, true);

  const stale = normalizeState(apiState({ ply: 2, hints: { used: 1, current: { ply: 0, move: "f5" } } }));
  assert.equal(stale.hint, null);
  assert.equal(stale.hintPending, false);
});

test("seats say which are this browser's and when the server allows a takeover", () => {
  const seats = [seat("black"), seat("white", { connected: false, takeover_at: "2026-11-29T12:02:00+00:00" })];
  const state = normalizeState(apiState({ seats, pass_notice: { color: "white" } }));
  assert.deepEqual(
    state.seats.map((each) => [each.color, each.mine, each.takeoverAt]),
    [
      ["black", true, null],
      ["white", false, Date.UTC(2026, 10, 29, 12, 2)],
    ],
  );
  assert.deepEqual(state.pass, { color: "white" });
});

test("a watcher holds no seat", () => {
  const state = normalizeState(apiState({ you: undefined }));
  assert.deepEqual(
    state.seats.map((each) => each.mine),
    [false, false],
  );
});

test("serverNow follows the server's clock, wherever this browser's is", () => {
  const ahead = 90_000;
  const state = normalizeState(apiState({ server_time: new Date(Date.now() + ahead).toISOString() }));
  assert.ok(Math.abs(serverNow(state) - (Date.now() + ahead)) < 1000);
});

test("square names and cells of the board rows", () => {
  assert.equal(squareName(5, 4), "f5");
  assert.deepEqual(parseSquare("f5"), [5, 4]);
  assert.deepEqual(parseSquare(squareName(9, 9)), [9, 9]);
  const rows = [" XO#", "RGN-"];
  assert.deepEqual(
    [0, 1, 2, 3].map((col) => cellAt(rows, col, 0)),
    ["off", "black", "white", "wall"],
  );
  assert.deepEqual(
    [0, 1, 2, 3].map((col) => cellAt(rows, col, 1)),
    ["red", "green", "neutral", "empty"],
  );
  assert.equal(cellAt(rows, 4, 0), "off");
  assert.equal(cellAt(rows, 0, 2), "off");
});

test("the board's shape changes with its cut corners, not with its discs", () => {
  const octagonCorner = [" --", "-X-", "---"];
  assert.equal(boardShape(octagonCorner), " ..|...|...");
  assert.equal(boardShape([" --", "-O-", "-#-"]), boardShape(octagonCorner));
  assert.notEqual(boardShape(START), boardShape(octagonCorner));
});

test("a move event that follows the state plays its move and flips on the board", () => {
  const event = {
    type: "move",
    version: 4,
    ply: 2,
    status: "active",
    move: { ply: 0, color: "black", move: "f5", flipped: ["e5"], text: "Black f5, 1 disc flipped" },
    record: ["f5", "pass"],
    pass_notice: { ply: 1, color: "white", text: "White passes: no legal move" },
    to_move: "black",
    legal_moves: { f6: ["e5"] },
    discs: { black: 4, white: 1 },
    empties: 59,
    undo: { allowed: true, used: 0, colors: ["black"] },
    result: null,
    clock: { time_control: "3+2", speed: "blitz", remaining_ms: { black: 181_000, white: 180_000 }, running: "black", flag_at: null },
    draw: { allowed: true, offered_by: null },
    abort_allowed: false,
    server_time: new Date().toISOString(),
    updated_at: new Date().toISOString(),
  };
  const next = followMove(apiState(), event);
  assert.deepEqual(next.clock, event.clock);
  assert.equal(next.abort_allowed, false);
  assert.equal(normalizeState(next).clock.running, "black");
  assert.equal(next.board[4], "---XXX--");
  assert.deepEqual(next.moves, ["f5", "pass"]);
  assert.equal(next.version, 4);
  assert.deepEqual(next.legal_moves, { f6: ["e5"] });
  assert.equal(next.last_move, event.move);
  assert.deepEqual(next.seats, apiState().seats);
  assert.equal(normalizeState(next).pass.color, "white");
});

test("a move event after a gap in versions does not follow (the page resyncs)", () => {
  assert.equal(followMove(apiState(), { version: 5 }), null);
  assert.equal(followMove(apiState(), { version: 3 }), null);
});

test("the running clock counts down from the server's figure at the server's time", () => {
  const built = Date.parse("2026-12-01T12:00:00Z");
  const state = normalizeState(
    apiState({
      server_time: new Date(built).toISOString(),
      clock: { time_control: "1+0", speed: "bullet", remaining_ms: { black: 30_000, white: 60_000 }, running: "black", flag_at: null },
    }),
  );
  assert.equal(state.clock.control, "1+0");
  assert.equal(clockLeft(state, "black", built + 12_500), 17_500);
  assert.equal(clockLeft(state, "white", built + 12_500), 60_000);
  assert.equal(clockLeft(state, "black", built + 99_000), 0);
  assert.equal(normalizeState(apiState()).clock, null);
});

test("clock texts from tenths of a second to days", () => {
  assert.equal(formatClock(299_000), "4:59");
  assert.equal(formatClock(60_000), "1:00");
  assert.equal(formatClock(9_449), "0:09.4");
  assert.equal(formatClock(0), "0:00.0");
  assert.equal(formatClock(3_723_000), "1:02:03");
  assert.equal(formatClock(2 * 86_400_000 + 3 * 3_600_000), "2d 03h");
});
