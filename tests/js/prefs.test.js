// getPref / setPref (switches) and getChoice / setChoice (one of a few values): preferences kept
// in localStorage under "reversi.".
import assert from "node:assert/strict";
import { beforeEach, test } from "node:test";

import { getChoice, getPref, setChoice, setPref } from "../../games/static/games/js/prefs.js";

/** The part of the browser's Storage that prefs.js uses, kept in a Map. */
class MemoryStorage {
  constructor() {
    this.items = new Map();
  }

  getItem(key) {
    return this.items.has(key) ? this.items.get(key) : null;
  }

  setItem(key, value) {
    this.items.set(key, String(value));
  }
}

/** Storage as in a private window that refuses it: every call throws. */
const refusingStorage = {
  getItem() {
    throw new Error("SecurityError");
  },
  setItem() {
    throw new Error("QuotaExceededError");
  },
};

beforeEach(() => {
  globalThis.localStorage = new MemoryStorage();
});

test("a preference never set reads as its fallback", () => {
  assert.equal(getPref("dots", true), true);
  assert.equal(getPref("sound", false), false);
});

test("a preference set is read back, stored as 1 or 0 under the reversi. prefix", () => {
  setPref("sound", true);
  setPref("dots", false);
  assert.equal(getPref("sound", false), true);
  assert.equal(getPref("dots", true), false);
  assert.deepEqual([...localStorage.items], [["reversi.sound", "1"], ["reversi.dots", "0"]]);
});

test("storage that refuses gives the fallback and setting does not throw", () => {
  globalThis.localStorage = refusingStorage;
  assert.doesNotThrow(() => setPref("sound", true));
  assert.equal(getPref("sound", false), false);
});

test("a choice is read back only while it is one of the choices offered", () => {
  const themes = ["green", "wood", "contrast"];
  assert.equal(getChoice("boardTheme", themes, "green"), "green");
  setChoice("boardTheme", "wood");
  assert.equal(getChoice("boardTheme", themes, "green"), "wood");
  assert.deepEqual([...localStorage.items], [["reversi.boardTheme", "wood"]]);
  setChoice("boardTheme", "purple"); // e.g. a theme an older version offered
  assert.equal(getChoice("boardTheme", themes, "green"), "green");
  globalThis.localStorage = refusingStorage;
  assert.doesNotThrow(() => setChoice("boardTheme", "wood"));
  assert.equal(getChoice("boardTheme", themes, "contrast"), "contrast");
});
