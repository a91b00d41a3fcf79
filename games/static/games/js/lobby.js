// The lobby page: the open seeks from the lobby's websocket (the server's list after every
// change), accept one, offer one and wait for it to be accepted, quick pairing; a signed-in
// player's challenges (sent and received, live over the same socket); who is online (pushed
// over it when that changes).
import { api } from "./api.js";
import { colorName, errorText, t } from "./i18n.js";
import { LiveGame } from "./live.js";
import { onlineText } from "./online.js";

const $ = (id) => document.getElementById(id);
const form = $("seek-form");
const app = $("lobby-app");
const seated = new Map(); // the seeks this browser holds a seat in: id -> their room's page
const offered = new Set(); // the seeks this browser offered (and may take back)
let busy = false;
let shown = []; // the seeks last drawn

function say(text) {
  $("lobby-message").textContent = text ?? "";
  $("lobby-message").hidden = !text;
}

function clockText(seek) {
  return seek.time_control ? t(`time.${seek.time_control}`) : t("lobby.untimed");
}

function gameText(seek) {
  const board = t(`board.${seek.variant.board}`);
  return seek.players > 2 ? `${board}, ${t("lobby.players", { count: seek.players })}` : board;
}

function row(seek) {
  const tr = document.createElement("tr");
  tr.dataset.seek = seek.id;
  const cells = [
    seek.rating === null ? seek.by : `${seek.by} (${seek.rating})`,
    gameText(seek),
    colorName(seek.color),
    clockText(seek),
    seek.rated ? t("lobby.rated") : t("lobby.casual"),
  ].map((text) => {
    const td = document.createElement("td");
    td.textContent = text;
    return td;
  });
  const action = document.createElement("td");
  if (seated.has(seek.id)) {
    const open = seek.players > 2 ? `${t("lobby.open_seats", { count: seek.open_seats })} · ` : "";
    action.append(`${open}${t("lobby.waiting")} `);
    if (offered.has(seek.id)) action.append(button(t("lobby.cancel"), () => cancel(seek.id)));
  } else {
    action.append(button(t("lobby.accept"), () => accept(seek.id)));
  }
  tr.append(...cells, action);
  return tr;
}

function button(text, onClick) {
  const element = document.createElement("button");
  element.type = "button";
  element.className = "button";
  element.textContent = text;
  element.addEventListener("click", onClick);
  return element;
}

function draw(seeks) {
  shown = seeks;
  $("seeks").replaceChildren(...seeks.map(row));
  $("seeks-empty").textContent = seeks.length ? "" : t("lobby.empty");
  app.dataset.seeks = String(seeks.length);
}

/** A new list from the server; when a seek of ours has just been accepted, go to its game. */
function receive(message) {
  if (message.type === "challenge") {
    receiveChallenge(message.challenge);
    return;
  }
  if (message.type === "online") {
    $("lobby-online").textContent = onlineText(message.online);
    return;
  }
  if (message.type !== "seeks") return;
  if (message.accepted && seated.has(message.accepted)) {
    location.href = seated.get(message.accepted);
    return;
  }
  draw(message.seeks);
}

async function act(work) {
  if (busy) return;
  busy = true;
  say("");
  try {
    await work();
  } catch (error) {
    say(errorText(error));
  } finally {
    busy = false;
  }
}

function remember(seek) {
  if (seek.seated) seated.set(seek.id, seek.url);
  if (seek.mine) offered.add(seek.id);
  draw(shown); // the socket's list may have come before this answer
}

function accept(id) {
  return act(async () => {
    const room = await api("POST", `/api/lobby/seeks/${id}/accept/`);
    if (room.game.status === "waiting") {
      seated.set(id, room.url); // a 3-4 player table: wait here until it is full
      draw((await api("GET", "/api/lobby/")).seeks);
    } else {
      location.href = room.url;
    }
  });
}

function cancel(id) {
  return act(async () => {
    await api("DELETE", `/api/lobby/seeks/${id}/`);
    seated.delete(id);
    offered.delete(id);
    draw(shown.filter((seek) => seek.id !== id));
  });
}

function terms() {
  return {
    time_control: form.elements.time_control.value || null,
    rated: form.elements.rated.checked,
  };
}

form.addEventListener("submit", (event) => {
  event.preventDefault();
  act(async () => {
    const variant = { board: form.elements.board.value, players: Number(form.elements.players.value) };
    const seek = await api("POST", "/api/lobby/seeks/", { variant, color: form.elements.color.value, ...terms() });
    remember(seek);
  });
});

$("quick-button").addEventListener("click", () =>
  act(async () => {
    const paired = await api("POST", "/api/lobby/quick/", terms());
    if (paired.started) location.href = paired.room.url;
    else remember(paired.seek);
  }),
);

// ---------------------------------------------------------------- challenges

const challenges = new Map(); // id -> the challenge as the server last told it

function termsText(challenge) {
  return [gameText({ ...challenge, players: 2 }), clockText(challenge), challenge.rated ? t("lobby.rated") : t("lobby.casual")].join(", ");
}

function challengeItem(challenge) {
  const item = document.createElement("li");
  item.dataset.challenge = challenge.id;
  item.dataset.status = challenge.status;
  const other = challenge.incoming ? challenge.challenger : challenge.challenged;
  const key = challenge.incoming ? "challenge.incoming" : "challenge.outgoing";
  item.append(`${t(key, { name: other, terms: termsText(challenge) })} `);
  const path = `/api/challenges/${challenge.id}`;
  if (challenge.status === "pending" && challenge.incoming) {
    const reasons = $("decline-reasons").content.firstElementChild.cloneNode(true);
    item.append(
      button(t("lobby.accept"), () => act(async () => (location.href = (await api("POST", `${path}/accept/`)).url))),
      " ",
      reasons,
      " ",
      button(t("challenge.decline"), () => act(async () => receiveChallenge(await api("POST", `${path}/decline/`, { reason: reasons.value })))),
    );
  } else if (challenge.status === "pending") {
    item.append(`${t("lobby.waiting")} `, button(t("lobby.cancel"), () => act(async () => receiveChallenge(await api("POST", `${path}/cancel/`)))));
  } else if (challenge.status === "declined") {
    item.append(t("challenge.declined", { name: other, reason: t(`decline.${challenge.decline_reason}`) }));
  } else if (challenge.status === "accepted") {
    const link = document.createElement("a");
    link.href = challenge.url;
    link.textContent = t("challenge.accepted");
    item.append(link);
  } else {
    item.append(t(`challenge.${challenge.status}`));
  }
  return item;
}

function drawChallenges() {
  const list = $("challenges");
  if (!list) return;
  const latest = [...challenges.values()].sort((a, b) => b.created_at.localeCompare(a.created_at));
  list.replaceChildren(...latest.map(challengeItem));
}

/** A challenge's new state; the challenger goes to the game once it is accepted. */
function receiveChallenge(challenge) {
  const before = challenges.get(challenge.id);
  challenges.set(challenge.id, challenge);
  if (!challenge.incoming && challenge.status === "accepted" && before?.status === "pending") {
    location.href = challenge.url;
    return;
  }
  drawChallenges();
}

$("challenge-button")?.addEventListener("click", () =>
  act(async () => {
    const variant = { board: form.elements.board.value };
    const color = form.elements.color.value;
    const body = { username: form.elements.username.value.trim(), variant, color, ...terms() };
    receiveChallenge(await api("POST", "/api/challenges/", body));
  }),
);

async function start() {
  try {
    const { seeks } = await api("GET", "/api/lobby/");
    for (const seek of seeks) remember(seek);
    if ($("challenges")) for (const challenge of (await api("GET", "/api/challenges/")).challenges) challenges.set(challenge.id, challenge);
    drawChallenges();
  } catch (error) {
    say(errorText(error));
  }
  new LiveGame(null, { onMessage: receive, onStatus: (online) => ($("lobby-offline").hidden = online) }, "/ws/lobby/");
  app.dataset.ready = "true";
}

start();
