// normalizeState: the API's game state (games/selectors.py game_state) as the page reads it.
import assert from "node:assert/strict";
import { test } from "node:test";

import { normalizeState } from "../../games/static/games/js/state.js";

/** A game state as the API sends it, with `changes` laid over it. */
function apiState(changes = {}) {
  return {
    id: 7,
    url: "/play/7/",
    mode: "cpu",
    variant: { players: 2, board: "8x8", opening: "cross" },
    status: "active",
    ply: 1,
    version: 3,
    to_move: "white",
    legal_moves: ["c3", "e3", "c5"],
    board: ["--------", "--------", "--------", "---XXX--", "---XO---", "--------", "--------", "--------"],
    discs: { black: 4, white: 1 },
    empties: 59,
    last_move: { ply: 1, color: "black", move: "f4", flipped: ["e4"], text: "Black f4, 1 disc flipped" },
    pass_notice: null,
    moves: ["f4"],
    result: null,
    undo: { allowed: true, used: 0 },
    hints: { used: 0, current: null },
    seats: [
      { color: "black", kind: "human", level: null, name: "guest", taken: true, connected: true, absent_since: null },
      { color: "white", kind: "cpu", level: "normal", name: "CPU", taken: true, connected: true, absent_since: null },
    ],
    you: ["black"],
    room: null,
    ...changes,
  };
}

test("renames the API's fields for the page", () => {
  const state = normalizeState(apiState());
  assert.equal(state.id, 7);
  assert.equal(state.version, 3);
  assert.equal(state.toMove, "white");
  assert.deepEqual(state.legal, ["c3", "e3", "c5"]);
  assert.equal(state.rows[3], "---XXX--");
  assert.equal(state.active, true);
  assert.equal(state.undoAllowed, true);
  assert.deepEqual(state.lastMove, { square: "f4", color: "black", flips: ["e4"], flipCount: 1 });
  assert.equal(state.pass, null);
  assert.equal(state.result, null);
});

test("counts one entry per colour of the variant, in play order", () => {
  const two = normalizeState(apiState());
  assert.deepEqual([...two.counts], [["black", 4], ["white", 1]]);

  const three = normalizeState(
    apiState({ variant: { players: 3, board: "10x10" }, discs: { black: 3, white: 3, red: 3 } }),
  );
  assert.deepEqual(three.colors, ["black", "white", "red"]);
  assert.deepEqual([...three.counts], [["black", 3], ["white", 3], ["red", 3]]);
});

test("a finished game has a result per colour and is not active", () => {
  const state = normalizeState(
    apiState({
      status: "finished",
      to_move: null,
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
  assert.equal(state.result.winner, "black");
  assert.equal(state.result.discs.get("white"), 24);
  assert.equal(state.result.tournament.get("black"), 40);
});

test("a hint counts only for the current ply, and is pending until its move arrives", () => {
  const answered = normalizeState(apiState({ hints: { used: 1, current: { ply: 1, move: "e3" } } }));
  assert.equal(answered.hint, "e3");
  assert.equal(answered.hintPending, false);

  const pending = normalizeState(apiState({ hints: { used: 1, current: { ply: 1, move: null } } }));
  assert.equal(pending.hint, null);
  assert.equal(pending.hintPending, true);

  const stale = normalizeState(apiState({ ply: 2, hints: { used: 1, current: { ply: 1, move: "e3" } } }));
  assert.equal(stale.hint, null);
  assert.equal(stale.hintPending, false);
});

test("seats say which are this browser's and since when a player is away", () => {
  const seats = apiState().seats;
  seats[1] = { ...seats[1], kind: "human", level: null, connected: false, absent_since: "2026-11-29T12:00:00+00:00" };
  const state = normalizeState(apiState({ seats, pass_notice: { color: "white" } }));
  assert.deepEqual(
    state.seats.map((seat) => [seat.color, seat.mine, seat.absentSince]),
    [
      ["black", true, null],
      ["white", false, Date.UTC(2026, 10, 29, 12)],
    ],
  );
  assert.deepEqual(state.pass, { color: "white" });
});

test("a watcher holds no seat", () => {
  const state = normalizeState(apiState({ you: undefined }));
  assert.deepEqual(
    state.seats.map((seat) => seat.mine),
    [false, false],
  );
});
