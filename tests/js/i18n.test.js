// t, colorName, errorText: the strings Django renders into the page as JSON ("client-strings").
import assert from "node:assert/strict";
import { before, test } from "node:test";

const MODULE = "../../games/static/games/js/i18n.js";
const CATALOG = {
  "turn.yours": "あなたの番です（{color}）",
  "color.black": "黒",
  "error.network": "サーバーにつながりません",
};

/** A fresh copy of i18n.js that reads `catalog` (or finds no catalog element when null). */
async function loadI18n(catalog, copy) {
  globalThis.document = {
    getElementById: (id) => (id === "client-strings" && catalog ? { textContent: JSON.stringify(catalog) } : null),
  };
  return import(`${MODULE}?${copy}`);
}

let i18n;
before(async () => {
  i18n = await loadI18n(CATALOG, "japanese");
});

test("t translates and fills the placeholders it is given", () => {
  assert.equal(i18n.t("turn.yours", { color: "黒" }), "あなたの番です（黒）");
  assert.equal(i18n.t("turn.yours"), "あなたの番です（{color}）");
});

test("a key missing from the catalog is shown as the key", () => {
  assert.equal(i18n.t("turn.unknown"), "turn.unknown");
});

test("colorName translates a colour", () => {
  assert.equal(i18n.colorName("black"), "黒");
});

test("errorText shows the server's message, and its own for a request that never got there", () => {
  assert.equal(i18n.errorText({ code: "not_your_turn", message: "あなたの番ではありません" }), "あなたの番ではありません");
  assert.equal(i18n.errorText({ code: "network", message: "fetch failed" }), "サーバーにつながりません");
});

test("a page without the catalog element shows keys and server messages", async () => {
  const bare = await loadI18n(null, "no-catalog");
  assert.equal(bare.t("turn.yours", { color: "black" }), "turn.yours");
  assert.equal(bare.errorText({ code: "network", message: "fetch failed" }), "error.network");
});
