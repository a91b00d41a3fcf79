// Premove: one queued move, played only if the server's legal moves hold it when the turn comes.
import assert from "node:assert/strict";
import { test } from "node:test";

import { Premove } from "../../games/static/games/js/premove.js";

test("nothing queued: nothing to take", () => {
  assert.equal(new Premove().take(["d3"]), null);
});

test("a queued move the server lists as legal is played, once", () => {
  const premove = new Premove();
  premove.toggle("c4");
  assert.deepEqual(premove.take(["c4", "d3"]), { play: "c4" });
  assert.equal(premove.take(["c4"]), null);
});

test("a queued move the server does not list is dropped", () => {
  const premove = new Premove();
  premove.toggle("a1");
  assert.deepEqual(premove.take(["c4", "d3"]), { dropped: "a1" });
  assert.equal(premove.square, null);
});

test("a second square replaces the queued one; the same square again cancels it", () => {
  const premove = new Premove();
  premove.toggle("c4");
  premove.toggle("e6");
  assert.equal(premove.square, "e6");
  premove.toggle("e6");
  assert.equal(premove.square, null);
});
