// api(): JSON in and out, the CSRF header on writes, and ApiError for every failure, against a
// real HTTP server on 127.0.0.1.
import assert from "node:assert/strict";
import { createServer } from "node:http";
import { after, before, test } from "node:test";

import { api, ApiError } from "../../games/static/games/js/api.js";

const requests = [];
const answers = {
  "/ok": [200, "application/json", JSON.stringify({ id: 7 })],
  "/created": [201, "application/json", JSON.stringify({ ply: 1 })],
  "/empty": [204, "application/json", ""],
  "/illegal": [
    400,
    "application/json",
    JSON.stringify({ error: { code: "illegal_move", message: "No disc would flip.", field: "move" } }),
  ],
  "/detail": [403, "application/json", JSON.stringify({ detail: "Forbidden." })],
  "/crash": [500, "text/html", "<h1>Server Error</h1>"],
};

const server = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk) => (body += chunk));
  request.on("end", () => {
    requests.push({ method: request.method, url: request.url, headers: request.headers, body });
    const [status, type, text] = answers[request.url];
    response.writeHead(status, { "Content-Type": type });
    response.end(text);
  });
});
let base;

before(async () => {
  globalThis.document = { cookie: "sessionid=abc; csrftoken=token%2F1" };
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => server.close());

function lastRequest() {
  return requests.at(-1);
}

test("GET sends no body and no CSRF token, and resolves to the JSON answer", async () => {
  assert.deepEqual(await api("GET", `${base}/ok`), { id: 7 });
  const request = lastRequest();
  assert.equal(request.method, "GET");
  assert.equal(request.headers.accept, "application/json");
  assert.equal(request.headers["x-csrftoken"], undefined);
  assert.equal(request.body, "");
});

test("a write sends JSON with the CSRF token from the cookie", async () => {
  assert.deepEqual(await api("POST", `${base}/created`, { move: "f5", ply: 0 }), { ply: 1 });
  const request = lastRequest();
  assert.equal(request.headers["content-type"], "application/json");
  assert.equal(request.headers["x-csrftoken"], "token/1");
  assert.deepEqual(JSON.parse(request.body), { move: "f5", ply: 0 });
});

test("a write without a body sends an empty object; an empty answer resolves to null", async () => {
  assert.equal(await api("POST", `${base}/empty`), null);
  assert.equal(lastRequest().body, "{}");
});

test("the error envelope becomes an ApiError with its status, code, message and field", async () => {
  const error = await api("POST", `${base}/illegal`, { move: "a1" }).catch((caught) => caught);
  assert.ok(error instanceof ApiError);
  assert.deepEqual([error.status, error.code, error.message, error.field], [400, "illegal_move", "No disc would flip.", "move"]);
});

test("an answer outside the envelope still becomes an ApiError", async () => {
  await assert.rejects(api("GET", `${base}/detail`), { status: 403, code: "http", message: "Forbidden.", field: null });
  await assert.rejects(api("GET", `${base}/crash`), { status: 500, code: "http", message: "HTTP 500" });
});

test("no answer at all is a network ApiError with status 0", async () => {
  const closed = createServer();
  await new Promise((resolve) => closed.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${closed.address().port}/gone`;
  await new Promise((resolve) => closed.close(resolve));
  await assert.rejects(api("GET", url), { status: 0, code: "network" });
});
