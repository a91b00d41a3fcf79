// The game page and the room page: draws the state from the API, plays moves, follows the
// websocket, and offers undo, hint, resign, play again, rematch and takeover.
import { api } from "./api.js";
import { BoardView } from "./board.js";
import { colorName, t } from "./i18n.js";
import { LiveGame } from "./live.js";
import { getPref, setPref } from "./prefs.js";
import { squareName } from "./rules.js";
import { sound } from "./sound.js";
import { normalizeState } from "./state.js";

const app = document.getElementById("game-app");
const $ = (id) => document.getElementById(id);
const motionQuery = window.matchMedia("(prefers-reduced-motion: reduce)");
const ROOM_POLL_MS = 2000;

let gameId = app.dataset.gameId || null;
const roomCode = app.dataset.roomCode || null;
let state = null;
let room = null;
let live = null;
let busy = false;
let stickyPass = null;
let roomTimer = null;

const board = new BoardView($("board"), {
  onPlay: (square) => play(square),
  onFlip: () => sound.flip(),
  reducedMotion: () => motionQuery.matches,
});
document.documentElement.dataset.motion = motionQuery.matches ? "reduced" : "full";

// ---------------------------------------------------------------- seats and turn

function mySeats() {
  if (!state) return [];
  if (state.mode === "local") return state.colors;
  return state.seats.filter((seat) => seat.mine).map((seat) => seat.color);
}

function seatOf(color) {
  return state.seats.find((seat) => seat.color === color) ?? null;
}

function canPlay() {
  return Boolean(state?.active && !busy && state.toMove && mySeats().includes(state.toMove));
}

// ---------------------------------------------------------------- drawing

function show(element, visible) {
  element.hidden = !visible;
}

function say(text) {
  const message = $("message");
  message.textContent = text ?? "";
  show(message, Boolean(text));
}

function drawTurn() {
  const turn = $("turn");
  if (!state.active) {
    turn.textContent = t("turn.over");
    turn.dataset.color = "";
    return;
  }
  const seat = seatOf(state.toMove);
  const name = colorName(state.toMove);
  turn.dataset.color = state.toMove;
  if (state.mode === "local" || (seat?.mine && mySeats().length === 1)) {
    turn.textContent = state.mode === "local" ? t("turn.color", { color: name }) : t("turn.yours", { color: name });
  } else if (seat?.kind === "cpu") {
    turn.textContent = t("turn.cpu", { color: name });
  } else if (seat?.mine) {
    turn.textContent = t("turn.color", { color: name });
  } else {
    turn.textContent = t("turn.waiting", { color: name });
  }
}

function drawCounts() {
  const list = $("counts");
  list.replaceChildren(
    ...state.colors.map((color) => {
      const item = document.createElement("li");
      item.dataset.color = color;
      item.classList.toggle("to-move", state.active && state.toMove === color);
      const disc = document.createElement("span");
      disc.className = "swatch";
      disc.dataset.color = color;
      const seat = seatOf(color);
      const who = seat?.mine && state.mode !== "local" ? ` ${t("seat.you")}` : "";
      item.append(disc, `${colorName(color)}${who} `);
      const number = document.createElement("strong");
      number.className = "count";
      number.textContent = state.counts.get(color);
      item.append(number);
      return item;
    }),
  );
}

function drawLastMove() {
  const last = state.lastMove;
  $("last-move").textContent = last
    ? t("last.move", { color: colorName(last.color), square: last.square, count: last.flipCount })
    : "";
}

function drawPassBanner() {
  const banner = $("pass-banner");
  if (state.pass) stickyPass = state.pass;
  if (stickyPass && state.lastMove?.color === stickyPass.color && !state.pass) stickyPass = null;
  if (!state.active) stickyPass = null;
  banner.textContent = stickyPass ? t("pass.banner", { color: colorName(stickyPass.color) }) : "";
  show(banner, Boolean(stickyPass));
}

function drawButtonsGrid() {
  const grid = $("buttons-grid");
  const shape = state.rows.join("|").replace(/[^ |]/g, ".");
  if (grid.dataset.shape !== shape) {
    grid.dataset.shape = shape;
    grid.replaceChildren(
      ...state.rows.map((row, y) => {
        const tr = document.createElement("tr");
        for (let x = 0; x < row.length; x += 1) {
          const td = document.createElement("td");
          if (row[x] !== " ") {
            const button = document.createElement("button");
            button.type = "button";
            button.textContent = squareName(x, y);
            button.dataset.move = squareName(x, y);
            button.addEventListener("click", () => play(button.dataset.move));
            td.append(button);
          }
          tr.append(td);
        }
        return tr;
      }),
    );
  }
  const legal = new Set(canPlay() ? state.legal : []);
  for (const button of grid.querySelectorAll("button")) {
    button.disabled = !legal.has(button.dataset.move);
  }
}

function drawResult() {
  const panel = $("result");
  const result = state.result;
  show(panel, Boolean(result) && !state.active);
  if (!result || state.active) return;
  let title;
  if (result.draw) title = t("result.draw");
  else if (result.winner) {
    const seat = seatOf(result.winner);
    title =
      seat?.mine && state.mode !== "local" && mySeats().length === 1
        ? t("result.you_win", { color: colorName(result.winner) })
        : t("result.wins", { color: colorName(result.winner) });
  } else title = t("result.over");
  $("result-title").textContent = title;
  const rows = state.colors.map((color) => {
    const tr = document.createElement("tr");
    tr.dataset.color = color;
    const th = document.createElement("th");
    th.scope = "row";
    th.textContent = colorName(color);
    const discs = document.createElement("td");
    discs.textContent = result.discs.get(color) ?? state.counts.get(color);
    const tournament = document.createElement("td");
    tournament.textContent = result.tournament.get(color) ?? "";
    tr.append(th, discs, tournament);
    return tr;
  });
  $("result-rows").replaceChildren(...rows);
  $("result-empties").textContent = result.empties;
  $("result-undos").textContent = state.undos;
  $("result-hints").textContent = state.hints;
}

function drawControls() {
  const mine = mySeats();
  const seated = mine.length > 0;
  const inRoom = Boolean(roomCode);
  show($("undo-button"), state.undoAllowed && !inRoom);
  $("undo-button").disabled = busy || !state.active || state.ply === 0;
  show($("hint-button"), state.active && seated);
  $("hint-button").disabled = busy || !canPlay();
  show($("resign-button"), state.active && seated);
  $("resign-button").disabled = busy;
  show($("again-button"), !inRoom && !state.active);
  show($("rematch-button"), inRoom && !state.active && seated);
  const takeover = state.active && state.seats.some((seat) => seat.takeover) && seated;
  show($("takeover-button"), takeover);
}

function drawAll(pending) {
  board.render(
    {
      rows: state.rows,
      legal: state.legal,
      toMove: state.toMove,
      interactive: canPlay(),
      lastMove: state.lastMove?.square ?? null,
      hint: state.hint,
    },
    pending,
  );
  drawTurn();
  drawCounts();
  drawLastMove();
  drawPassBanner();
  drawButtonsGrid();
  drawResult();
  drawControls();
  if (state.mustPass && canPlay()) say(t("pass.must"));
  app.dataset.ply = state.ply;
  app.dataset.status = state.status;
}

// ---------------------------------------------------------------- applying states

function sameState(a, b) {
  return a.ply === b.ply && a.status === b.status && a.rows.join() === b.rows.join() && a.toMove === b.toMove;
}

/**
 * Show a new state; when it follows the shown one by one move the flips are animated.
 * `force` accepts an older state (undo, resync).
 */
function apply(raw, { force = false } = {}) {
  const next = normalizeState(raw);
  if (state && !force && next.id === state.id && next.ply < state.ply) return;
  const previous = state;
  if (previous && next.id === previous.id && sameState(previous, next) && !force) {
    state = { ...next };
    drawAll();
    return;
  }
  state = next;
  const pending = new Map();
  const colors = new Map();
  const last = next.lastMove;
  const animate =
    previous && previous.id === next.id && next.ply === previous.ply + 1 && last && last.flips.length;
  if (animate) {
    for (const square of last.flips) {
      const index = square.charCodeAt(0) - 97;
      const row = Number(square.slice(1)) - 1;
      const before = previous.rows[row][index];
      pending.set(square, { X: "black", O: "white", R: "red", G: "green", N: "neutral" }[before] ?? last.color);
      colors.set(square, last.color);
    }
  }
  if (previous && next.ply !== previous.ply && last) sound.place();
  drawAll(pending);
  if (animate) board.animateFlips(last.flips, colors);
  app.dataset.gameId = next.id;
}

async function refresh() {
  if (!gameId) return;
  apply(await api("GET", `/api/games/${gameId}/`), { force: true });
}

function onLiveMessage(message, first) {
  const raw = message.state ?? (message.board ? message : null);
  if (raw) {
    apply(raw, { force: first || message.type === "undo" });
  } else if (typeof message.ply === "number" && (!state || message.ply !== state.ply)) {
    refresh().catch(() => {});
  }
}

function follow(id) {
  live?.close();
  gameId = String(id);
  live = new LiveGame(gameId, {
    onMessage: onLiveMessage,
    onStatus: (online) => show($("offline"), !online),
  });
}

// ---------------------------------------------------------------- actions

async function act(work) {
  if (busy) return;
  busy = true;
  say("");
  if (state) drawAll();
  try {
    await work();
  } catch (error) {
    if (error.status === 409) {
      say(t("error.stale"));
      await refresh().catch(() => {});
    } else {
      say(error.message);
    }
  } finally {
    busy = false;
    if (state) drawAll();
  }
}

function play(square) {
  if (!canPlay() || !state.legal.includes(square)) return;
  return act(async () => {
    const raw = await api("POST", `/api/games/${state.id}/moves/`, { move: square, ply: state.ply });
    apply(raw);
  });
}

$("undo-button").addEventListener("click", () =>
  act(async () => apply(await api("POST", `/api/games/${state.id}/undo/`), { force: true })),
);

$("hint-button").addEventListener("click", () =>
  act(async () => {
    const answer = await api("POST", `/api/games/${state.id}/hint/`);
    if (answer?.board) apply(answer, { force: true });
    const square = answer?.hint ?? answer?.move ?? null;
    if (square) {
      state.hint = square;
      drawAll();
    } else say(t("hint.thinking"));
  }),
);

$("resign-button").addEventListener("click", () => {
  show($("resign-confirm"), true);
  $("resign-no").focus();
});
$("resign-no").addEventListener("click", () => show($("resign-confirm"), false));
$("resign-yes").addEventListener("click", () => {
  show($("resign-confirm"), false);
  act(async () => apply(await api("POST", `/api/games/${state.id}/resign/`), { force: true }));
});

$("again-button").addEventListener("click", () =>
  act(async () => {
    const saved = localStorage.getItem("reversi.setup");
    if (!saved) {
      location.href = $("choose-link").href;
      return;
    }
    const created = await api("POST", "/api/games/", JSON.parse(saved));
    location.href = created.url;
  }),
);

$("rematch-button").addEventListener("click", () =>
  act(async () => {
    const answer = await api("POST", `/api/rooms/${roomCode}/rematch/`);
    await enterRoom(answer);
  }),
);

$("takeover-button").addEventListener("click", () =>
  act(async () => apply(await api("POST", `/api/games/${state.id}/takeover/`), { force: true })),
);

const dotsToggle = $("dots-toggle");
dotsToggle.checked = getPref("dots", true);
$("board").classList.toggle("dots", dotsToggle.checked);
dotsToggle.addEventListener("change", () => {
  setPref("dots", dotsToggle.checked);
  $("board").classList.toggle("dots", dotsToggle.checked);
});

const soundToggle = $("sound-toggle");
function drawSound() {
  soundToggle.textContent = sound.enabled ? t("sound.on") : t("sound.off");
  soundToggle.setAttribute("aria-pressed", String(sound.enabled));
}
soundToggle.addEventListener("click", () => {
  sound.toggle();
  drawSound();
  sound.place();
});
drawSound();

motionQuery.addEventListener("change", () => {
  document.documentElement.dataset.motion = motionQuery.matches ? "reduced" : "full";
});

// ---------------------------------------------------------------- rooms

function drawRoom() {
  const panel = $("room-panel");
  show(panel, true);
  $("room-url").value = new URL(room.url ?? location.pathname, location.href).href;
  show($("share-button"), typeof navigator.share === "function");
  const seats = room.seats ?? [];
  const mine = seats.some((seat) => seat.mine ?? seat.is_you ?? seat.you);
  const open = seats.some((seat) => seat.open ?? seat.kind === "open");
  show($("join-button"), !mine && open);
  show($("room-waiting"), mine && open);
  $("room-seats").replaceChildren(
    ...seats.map((seat) => {
      const item = document.createElement("li");
      const color = typeof seat.color === "number" ? state?.colors[seat.color] : seat.color;
      let who;
      if (seat.open ?? seat.kind === "open") who = t("seat.open");
      else if (seat.kind === "cpu") who = t("seat.cpu", { level: t(`level.${seat.level}`) });
      else if (seat.mine ?? seat.is_you ?? seat.you) who = t("seat.you");
      else who = seat.name || t("seat.player");
      item.textContent = `${colorName(color)}: ${who}`;
      return item;
    }),
  );
}

async function enterRoom(answer) {
  room = answer;
  drawRoom();
  const game = room.game;
  const id = typeof game === "object" && game !== null ? game.id : game;
  if (id && String(id) !== gameId) {
    follow(id);
    if (typeof game === "object" && game.board) apply(game, { force: true });
    else await refresh();
  } else if (state) drawAll();
}

async function pollRoom() {
  clearTimeout(roomTimer);
  try {
    const answer = await api("GET", `/api/rooms/${roomCode}/`);
    const id = typeof answer.game === "object" ? answer.game?.id : answer.game;
    const waiting = (answer.seats ?? []).some((seat) => seat.open ?? seat.kind === "open");
    if (waiting || String(id) !== gameId || !state?.active) await enterRoom(answer);
  } catch {
    // Network trouble: try again on the next tick.
  }
  roomTimer = setTimeout(pollRoom, ROOM_POLL_MS);
}

$("join-button").addEventListener("click", () =>
  act(async () => {
    await enterRoom(await api("POST", `/api/rooms/${roomCode}/join/`));
    await refresh();
  }),
);

$("copy-button").addEventListener("click", async () => {
  const url = $("room-url").value;
  try {
    await navigator.clipboard.writeText(url);
  } catch {
    $("room-url").select();
    document.execCommand("copy");
  }
  $("copy-status").textContent = t("room.copied");
});

$("share-button").addEventListener("click", () => {
  navigator.share({ title: document.title, url: $("room-url").value }).catch(() => {});
});

// ---------------------------------------------------------------- start

async function start() {
  try {
    if (roomCode) {
      await enterRoom(await api("GET", `/api/rooms/${roomCode}/`));
      roomTimer = setTimeout(pollRoom, ROOM_POLL_MS);
    } else {
      follow(gameId);
      await refresh();
    }
  } catch (error) {
    say(error.message);
  }
  app.dataset.ready = "true";
}

start();
