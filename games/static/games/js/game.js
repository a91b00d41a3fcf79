// The game page and the room page: draws the state from the API, plays moves, follows the
// websocket, and offers undo, hint, resign, play again, rematch and takeover; the settings
// (settings.js), premove (premove.js) and the move list during play (movelist.js) have modules.
import { api } from "./api.js";
import { BoardView } from "./board.js";
import { BoardCamera, VIEWS } from "./board3d.js";
import { colorName, errorText, t } from "./i18n.js";
import { LiveGame } from "./live.js";
import { LiveMoveList } from "./movelist.js";
import { getPref, setPref } from "./prefs.js";
import { Premove } from "./premove.js";
import { GameReview } from "./review.js";
import { BoardSettings } from "./settings.js";
import { sound } from "./sound.js";
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
} from "./state.js";

const app = document.getElementById("game-app");
const $ = (id) => document.getElementById(id);
const motionQuery = window.matchMedia("(prefers-reduced-motion: reduce)");

let gameId = app.dataset.gameId || null;
const roomCode = app.dataset.roomCode || null;
let roomUrl = null; // the room's join link, from the rooms API (set before any state is drawn)
let state = null;
let shown = null; // the API state that `state` was made from (websocket move events apply to it)
let live = null;
let busy = false;
let review = null; // the finished game's move list and analysis (review.js)

const settings = new BoardSettings($("board"));
const premove = new Premove();
const board = new BoardView($("board"), {
  onPlay: (square) => play(square),
  onIdle: (square) => queuePremove(square),
  confirmTouch: () => settings.on("confirm"),
  onFlip: () => sound.flip(),
  reducedMotion: () => motionQuery.matches,
});
const moveList = new LiveMoveList({ board, onReturn: () => drawAll() });
document.documentElement.dataset.motion = motionQuery.matches ? "reduced" : "full";

// ---------------------------------------------------------------- seats and turn

function mySeats() {
  return state ? state.seats.filter((seat) => seat.mine).map((seat) => seat.color) : [];
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

/** Show an error message (`kind`: the error's code, so a later state can clear a "no
 * connection" message once the server is reached again). */
function say(text, kind = "") {
  const message = $("message");
  message.textContent = text ?? "";
  message.dataset.kind = text ? kind : "";
  show(message, Boolean(text));
}

const pageTitle = document.title;
const favicon = document.querySelector('link[rel="icon"]');
const restingIcon = favicon.href;

/** The tab's title and icon say when it is the viewer's move (to see it from another tab). */
function drawTitle() {
  const yours = canPlay() && state.mode !== "local";
  document.title = yours ? `${t("title.your_turn")} · ${pageTitle}` : pageTitle;
  const icon = yours ? new URL(favicon.dataset.turnHref, location.href).href : restingIcon;
  if (favicon.href !== icon) favicon.href = icon;
}

function drawTurn() {
  drawTitle();
  const turn = $("turn");
  if (!state.active) {
    turn.textContent = state.status === "waiting" ? t("turn.waiting_players") : t("turn.over");
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

/** The player cards: colour, "(you)", discs, who plays the seat and their rating (with "?"
 * while provisional), who is to move and, in a timed game, the clock (`tickClocks`). */
function drawCounts() {
  $("counts").replaceChildren(...state.colors.map(playerCard));
  tickClocks();
}

function playerCard(color) {
  const item = document.createElement("li");
  item.dataset.color = color;
  const toMove = state.active && state.toMove === color;
  item.classList.toggle("to-move", toMove);
  const disc = document.createElement("span");
  disc.className = "swatch";
  disc.dataset.color = color;
  const seat = seatOf(color);
  const who = seat?.mine && state.mode !== "local" ? ` ${t("seat.you")}` : "";
  const head = part("card-head", "", "div");
  head.append(disc, `${colorName(color)}${who} `, part("count", state.counts.get(color), "strong"));
  if (toMove) head.append(" ", part("to-move-mark", t("card.to_move")));
  const body = part("card-body", "", "div");
  const player = seatLabel(seat);
  if (player) body.append(part("who", player));
  if (seat?.rating) body.append(" ", ratingPart(seat.rating));
  item.append(head, body);
  if (state.clock) {
    const clock = part("clock", "");
    clock.dataset.color = color;
    clock.classList.toggle("running", state.clock.running === color);
    const time = part("clock-time", "", "strong");
    time.setAttribute("aria-label", t("clock.label", { color: colorName(color) }));
    clock.append(time);
    body.append(clock);
  }
  return item;
}

function part(className, text, tag = "span") {
  const element = document.createElement(tag);
  element.className = className;
  element.textContent = text;
  return element;
}

/** "1500?" for a provisional rating (said in full to a screen reader), "1712" otherwise. */
function ratingPart(rating) {
  const element = part("rating", String(rating.value));
  if (rating.provisional) {
    const mark = part("", "?");
    mark.setAttribute("aria-hidden", "true");
    mark.title = t("card.provisional");
    element.append(mark, part("visually-hidden", ` (${t("card.provisional")})`));
  }
  return element;
}

function drawLastMove() {
  const last = state.lastMove;
  const key = last?.flipCount === 0 ? "last.placed" : "last.move";
  $("last-move").textContent = last
    ? t(key, { color: colorName(last.color), square: last.square, count: last.flipCount })
    : "";
}

/** Say what changed (the last move, a pass, the result) in the live region, once per state. */
function announce(previous) {
  if (previous && previous.id === state.id && previous.version === state.version) return;
  const parts = [];
  if (state.lastMove && (!previous || previous.ply !== state.ply)) parts.push($("last-move").textContent);
  if (state.active && state.pass && state.pass.color !== previous?.pass?.color) parts.push($("pass-banner").textContent);
  if (!state.active && state.result && previous?.active) parts.push($("result-title").textContent);
  if (parts.length) $("announcer").textContent = parts.join(". ");
}

function drawPassBanner() {
  const banner = $("pass-banner");
  const notice = state.active ? state.pass : null;
  banner.textContent = notice ? t("pass.banner", { color: colorName(notice.color) }) : "";
  show(banner, Boolean(notice));
}

function drawButtonsGrid() {
  const grid = $("buttons-grid");
  const shape = boardShape(state.rows);
  if (grid.dataset.shape !== shape) {
    grid.dataset.shape = shape;
    grid.replaceChildren(
      ...state.rows.map((row, y) => {
        const tr = document.createElement("tr");
        for (let x = 0; x < row.length; x += 1) {
          const td = document.createElement("td");
          if (cellAt(state.rows, x, y) !== "off") {
            const button = document.createElement("button");
            button.type = "button";
            button.textContent = squareName(x, y);
            button.dataset.move = squareName(x, y);
            button.addEventListener("click", () => {
              play(button.dataset.move);
              board.focusOn(button.dataset.move);
            });
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
    button.setAttribute("aria-label", $(`cell-${button.dataset.move}`).getAttribute("aria-label"));
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
    const player = state.mode !== "local" && mySeats().length === 1;
    if (player && seat?.mine) title = t("result.you_won");
    else if (player) title = t("result.you_lost");
    else title = t("result.wins", { color: colorName(result.winner) });
  } else title = t("result.over");
  $("result-title").textContent = title;
  $("result-note").textContent = resultNote(result);
  $("result-ratings").replaceChildren(...state.seats.filter((seat) => Number.isInteger(seat.rating?.change)).map(ratingChange));
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

/** "Your rating: 1512 (+12)", or "alice: 1488 (−12)" for another account's seat. */
function ratingChange(seat) {
  const { value, change } = seat.rating;
  const signed = change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0";
  const text = seat.mine && state.mode !== "local"
    ? t("result.your_rating", { rating: value, change: signed })
    : t("result.rating", { name: seat.account, rating: value, change: signed });
  const item = part(change > 0 ? "gain" : change < 0 ? "loss" : "", text, "li");
  item.dataset.color = seat.color;
  return item;
}

function resultNote(result) {
  if (result.resigned) return t("result.resigned", { color: colorName(result.resigned) });
  if (result.flagged) return t("result.flagged", { color: colorName(result.flagged) });
  if (result.reason === "agreement") return t("result.agreement");
  if (result.reason === "aborted") return t("result.aborted");
  return "";
}

/** The cards' clocks as the server last told them, the running one counted down. */
function tickClocks() {
  if (!state?.clock) return;
  const now = serverNow(state);
  for (const item of $("counts").querySelectorAll(".clock")) {
    const left = clockLeft(state, item.dataset.color, now);
    item.querySelector(".clock-time").textContent = formatClock(left);
    item.dataset.ms = String(left);
    item.classList.toggle("low", left < 10_000);
  }
}

function drawOffers() {
  const seated = mySeats().length > 0;
  show($("abort-button"), state.abortAllowed && seated);
  $("abort-button").disabled = busy;
  const offeredBy = state.drawAllowed ? state.drawOfferedBy : null;
  const mine = offeredBy !== null && mySeats().includes(offeredBy);
  show($("draw-offer-button"), state.drawAllowed && seated && offeredBy === null);
  $("draw-offer-button").disabled = busy;
  show($("draw-offer"), seated && offeredBy !== null);
  $("draw-offer-text").textContent = mine
    ? t("draw.offered_by_you")
    : offeredBy && t("draw.offered_to_you", { color: colorName(offeredBy) });
  show($("draw-accept-button"), !mine);
  show($("draw-decline-button"), !mine);
}

function drawControls() {
  const mine = mySeats();
  const seated = mine.length > 0;
  const inRoom = Boolean(roomCode);
  show($("undo-button"), state.undoAllowed && !inRoom && state.active && seated);
  $("undo-button").disabled = busy || !mine.some((color) => state.undoColors.includes(color));
  show($("hint-button"), state.active && seated && state.hintsAllowed);
  $("hint-button").disabled = busy || !canPlay() || state.hintPending;
  show($("resign-button"), state.active && seated);
  $("resign-button").disabled = busy;
  show($("again-button"), !inRoom && !state.active);
  drawTakeover();
  drawOffers();
  drawRoom();
}

function drawAll(pending) {
  moveList.update(state);
  if (!moveList.viewing) {
    board.render(
      {
        rows: state.rows,
        legal: state.legal,
        flips: state.flips,
        toMove: state.toMove,
        interactive: canPlay(),
        lastMove: state.lastMove?.square ?? null,
        hint: state.hint,
        premove: premove.square,
      },
      pending,
    );
  }
  drawTurn();
  drawCounts();
  show($("rated-badge"), state.rated);
  $("spectators").textContent = t("watch.spectators", { count: state.spectators });
  show($("spectators"), state.active && state.spectators > 0);
  drawLastMove();
  drawPassBanner();
  drawButtonsGrid();
  drawResult();
  drawControls();
  app.dataset.ply = state.ply;
  app.dataset.toMove = state.toMove ?? "";
  app.dataset.status = state.status;
  if (state.status === "finished") {
    review ??= new GameReview({ board, gameId: state.id });
    review.show(state.moves).catch((error) => say(errorText(error)));
    review.drawBoard();
  }
  // After the caller's own drawing (the flips it animates), so that a premove played now
  // does not cut that animation short.
  queueMicrotask(playPremove);
}

// ---------------------------------------------------------------- applying states

/**
 * Show a state unless a newer one is already shown (states carry a version that grows with
 * every change). When it follows the shown position by one move, the flips are animated.
 */
function apply(raw) {
  const next = normalizeState(raw);
  const previous = state;
  if (previous && next.id === previous.id && next.version < previous.version) return;
  state = next;
  shown = raw;
  const pending = new Map();
  const colors = new Map();
  const last = next.lastMove;
  const oneMoveOn = previous && previous.id === next.id && next.ply === previous.ply + 1;
  if (oneMoveOn && last) {
    for (const square of last.flips) {
      const [col, row] = parseSquare(square);
      pending.set(square, cellAt(previous.rows, col, row));
      colors.set(square, last.color);
    }
    sound.place();
  }
  drawAll(pending);
  announce(previous);
  if (pending.size) board.animateFlips(last.flips, colors);
}

/**
 * A websocket message: a whole state (on connect, on a resync and for changes other than moves),
 * a move event (also the answer to the page's own move), applied when it follows the shown state
 * (after a gap in the versions the page asks for the state again; an event it already has, from
 * the socket or from its own move's answer, is dropped), or who
 * is at the board (the seats, the number of spectators and the clocks, read at the version it
 * carries: one older than the shown state is dropped, the shown state's presence being newer).
 */
function receive(message) {
  if (message.state) {
    apply(message.state);
  } else if (message.type === "move" && shown && message.version > shown.version) {
    const next = followMove(shown, message);
    if (!next) live.resync(shown.version);
    else {
      apply(next);
      // A rated game's last move: the rating changes come with the whole state (the seats').
      if (next.status === "finished" && next.rated) refresh().catch(() => {});
    }
  } else if (message.type === "presence" && shown && message.version === shown.version) {
    const { seats, spectators, clock, server_time } = message;
    apply({ ...shown, seats, spectators, clock, server_time });
  } else if (message.type === "presence" && shown && message.version > shown.version) {
    live.resync(shown.version);
  }
}

async function refresh() {
  apply(await api("GET", `/api/games/${gameId}/`));
}

function follow(id) {
  live?.close();
  gameId = String(id);
  live = new LiveGame(gameId, {
    onMessage: (message) => receive(message),
    onStatus: (online) => {
      show($("offline"), !online);
      app.dataset.online = String(online);
      // Connected again: the server resends the state, so a "no connection" message is stale.
      if (online && $("message").dataset.kind === "network") say("");
    },
  });
}

// ---------------------------------------------------------------- actions

async function act(work) {
  if (busy) return;
  busy = true;
  app.dataset.busy = "true";
  say("");
  if (state) drawAll();
  try {
    await work();
  } catch (error) {
    say(error.status === 409 ? t("error.stale") : errorText(error), error.code);
    if (error.status === 409) await refresh().catch(() => {});
  } finally {
    busy = false;
    delete app.dataset.busy;
    if (state) drawAll();
  }
}

function post(action, body) {
  return act(async () => apply(await api("POST", `/api/games/${state.id}/${action}/`, body)));
}

/** Play a move: the answer is the move's event, the socket's (handled the same way: dropped when
 * the socket's came first), or the whole state when the move had been played already. */
function play(square) {
  if (!canPlay() || !state.legal.includes(square)) return;
  const body = { move: square, ply: state.ply };
  act(async () => receive(await api("POST", `/api/games/${state.id}/moves/`, body)));
}

/** A premove may be queued by a seat of a game between players while it cannot move now. */
function canPremove() {
  return Boolean(
    settings.on("premove") && state?.active && state.mode !== "local" && mySeats().length && !canPlay() && !moveList.viewing,
  );
}

/** Queue (or cancel) a premove on an empty square; the server's legal moves decide later. */
function queuePremove(square) {
  if (!canPremove()) return;
  const [col, row] = parseSquare(square);
  if (cellAt(state.rows, col, row) !== "empty") return;
  premove.toggle(square);
  drawPremove();
  drawAll();
}

function drawPremove(dropped = null) {
  let note = "";
  if (dropped) note = t("premove.dropped", { square: dropped });
  else if (premove.square) note = t("premove.queued", { square: premove.square });
  $("premove-note").textContent = note;
}

/** Play the queued premove when the viewer's turn has come, if the server lists it as legal. */
function playPremove() {
  if (premove.square === null) return;
  if (!state.active || !settings.on("premove")) {
    premove.cancel();
    drawPremove();
    return;
  }
  if (!canPlay()) return;
  const taken = premove.take(state.legal);
  drawPremove(taken.dropped);
  if (taken.play) play(taken.play);
  else drawAll();
}

$("undo-button").addEventListener("click", () => post("undo"));
$("abort-button").addEventListener("click", () => post("abort"));
$("draw-offer-button").addEventListener("click", () => post("draw", { action: "offer" }));
$("draw-accept-button").addEventListener("click", () => post("draw", { action: "accept" }));
$("draw-decline-button").addEventListener("click", () => post("draw", { action: "decline" }));
$("hint-button").addEventListener("click", () => post("hint"));
$("resign-button").addEventListener("click", () => {
  show($("resign-confirm"), true);
  $("resign-no").focus();
});
$("resign-no").addEventListener("click", () => show($("resign-confirm"), false));
$("resign-yes").addEventListener("click", () => {
  show($("resign-confirm"), false);
  post("resign");
});
$("takeover-button").addEventListener("click", () => {
  const away = absentOpponent();
  if (away) post("takeover", { color: away.color, level: $("takeover-level").value });
});

$("again-button").addEventListener("click", () =>
  act(async () => {
    const body = { mode: state.mode, undo: state.undoAllowed, variant: state.variant };
    if (state.mode === "cpu") {
      body.color = mySeats()[0];
      body.level = state.seats.find((seat) => seat.kind === "cpu").level;
    }
    location.href = (await api("POST", "/api/games/", body)).url;
  }),
);

$("rematch-button").addEventListener("click", () =>
  act(async () => {
    const room = await api("POST", `/api/rooms/${roomCode}/rematch/`);
    location.href = room.url;
  }),
);

const camera = new BoardCamera($("board-stage"), $("board"));
const threeDToggle = $("three-d-toggle");
function drawThreeD() {
  camera.setEnabled(threeDToggle.checked);
  show($("view-controls"), threeDToggle.checked);
}
threeDToggle.checked = getPref("board3d", false);
drawThreeD();
threeDToggle.addEventListener("change", () => {
  setPref("board3d", threeDToggle.checked);
  drawThreeD();
});
$("view-oblique").addEventListener("click", () => camera.setView(VIEWS.oblique));
$("view-top-down").addEventListener("click", () => camera.setView(VIEWS.topDown));

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

/** Another person's seat, away, that the server will let the CPU take over (M3), or null. */
function awayOpponent() {
  if (!state?.active || !mySeats().length) return null;
  return state.seats.find((seat) => !seat.mine && seat.takeoverAt !== null) ?? null;
}

/** The away seat once the server's takeover time has come, or null. */
function absentOpponent() {
  const away = awayOpponent();
  return away && away.takeoverAt <= serverNow(state) ? away : null;
}

/** The takeover panel: a countdown to the time the server sent, then the button and level. */
function drawTakeover() {
  const away = awayOpponent();
  show($("takeover"), Boolean(away));
  if (!away) return;
  const seconds = Math.max(0, Math.ceil((away.takeoverAt - serverNow(state)) / 1000));
  const clock = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
  $("takeover-countdown").textContent =
    seconds > 0 ? t("takeover.countdown", { color: colorName(away.color), time: clock }) : t("takeover.now", { color: colorName(away.color) });
  $("takeover-button").disabled = busy || seconds > 0;
}

/** Who holds a seat, for its player card: the CPU and its level, the account's name, a guest,
 * or nobody yet (nothing on the hot-seat board, whose players share the device). */
function seatLabel(seat) {
  if (!seat || state.mode === "local") return "";
  if (seat.kind === "cpu") return t("seat.cpu", { level: t(`level.${seat.level}`) });
  if (seat.account) return accountName(seat);
  return seat.taken ? t("seat.guest") : t("seat.open");
}

/** An account's name as shown, with lichess's "BOT" title before a bot's. */
function accountName(seat) {
  return seat.bot ? `BOT ${seat.account}` : seat.account;
}

/** A person's seat as shown: their account's name if they have one, "(you)" or "away". */
function playerName(seat) {
  const status = seat.mine ? t("seat.you") : seat.connected ? "" : t("seat.away");
  if (!seat.account) return status || t("seat.guest");
  return status ? `${accountName(seat)} ${status}` : accountName(seat);
}

function drawRoom() {
  show($("room-panel"), Boolean(roomCode && state));
  if (!roomCode || !state) return;
  $("room-url").value = new URL(roomUrl, location.href).href;
  show($("share-button"), typeof navigator.share === "function");
  const seated = mySeats().length > 0;
  const open = state.seats.some((seat) => !seat.taken);
  show($("join-button"), !seated && open);
  show($("room-waiting"), seated && open);
  $("room-seats").replaceChildren(
    ...state.seats.map((seat) => {
      const item = document.createElement("li");
      item.dataset.color = seat.color;
      let who;
      if (!seat.taken) who = t("seat.open");
      else if (seat.kind === "cpu") who = t("seat.cpu", { level: t(`level.${seat.level}`) });
      else who = playerName(seat);
      item.textContent = `${colorName(seat.color)}: ${who}`;
      return item;
    }),
  );
  const rematch = state.room?.rematch;
  show($("rematch-link"), Boolean(rematch) && seated);
  if (rematch) $("rematch-link").href = rematch.url;
  show($("rematch-button"), !state.active && state.status === "finished" && seated && !rematch);
}

$("join-button").addEventListener("click", () =>
  act(async () => {
    const room = await api("POST", `/api/rooms/${roomCode}/join/`);
    roomUrl = room.url;
    apply(room.game);
    follow(room.game.id); // a new guest's socket must reconnect to count as seated
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
      const room = await api("GET", `/api/rooms/${roomCode}/`);
      roomUrl = room.url;
      follow(room.game.id);
      apply(room.game);
    } else {
      follow(gameId);
      await refresh();
    }
  } catch (error) {
    say(errorText(error));
  }
  setInterval(() => state && drawTakeover(), 1000);
  setInterval(tickClocks, 100);
  app.dataset.ready = "true";
}

start();
