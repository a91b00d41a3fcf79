import assert from "node:assert/strict";
import test from "node:test";

import { blackScore, graphPoints, plyFromQuery } from "../../games/static/games/js/reviewgraph.js";

test("a score is shown from black's side", () => {
  assert.equal(blackScore({ color: "black", score: 6 }), 6);
  assert.equal(blackScore({ color: "white", score: 6 }), -6);
});

test("?ply=n is read within the game's moves, anything else is ignored", () => {
  assert.equal(plyFromQuery("?ply=12", 40), 12);
  assert.equal(plyFromQuery("?ply=99", 40), 40);
  assert.equal(plyFromQuery("?ply=-3", 40), null);
  assert.equal(plyFromQuery("?ply=abc", 40), null);
  assert.equal(plyFromQuery("", 40), null);
});

test("the graph puts 0 discs in the middle and keeps the mistakes", () => {
  const moves = [
    { ply: 0, color: "black", score: 0, mistake: false },
    { ply: 1, color: "white", score: 16, mistake: true },
  ];
  const [first, second] = graphPoints(moves, 2, 300, 100);
  assert.deepEqual([first.x, first.y, first.mistake], [150, 50, false]);
  assert.equal(second.x, 300);
  assert.ok(second.y > 50); // white ahead: below the middle
  assert.equal(second.mistake, true);
});
