// The setup page: keeps the form's choices consistent (invalid combinations cannot be
// chosen), creates the game or room through the API, and offers this browser's unfinished games.
import { api } from "./api.js";
import { errorText, t } from "./i18n.js";

const form = document.getElementById("setup-form");
const message = document.getElementById("setup-message");

function value(name) {
  const field = form.elements[name];
  if (field instanceof RadioNodeList || field.type === "radio") return field.value;
  if (field.type === "checkbox") return field.checked;
  return field.value;
}

function choices(name) {
  return [...form.querySelectorAll(`[name="${name}"]`)];
}

/** Disable an option; if it was chosen, choose the first enabled one instead. */
function allow(name, isAllowed) {
  for (const input of choices(name)) {
    const permitted = isAllowed(input.value);
    input.disabled = !permitted;
    input.closest("label")?.classList.toggle("disabled", !permitted);
  }
  const field = form.elements[name];
  const chosen = choices(name).find((input) => (input.type === "radio" ? input.checked : input.selected));
  if (!chosen || chosen.disabled) {
    const first = choices(name).find((input) => !input.disabled);
    if (first?.type === "radio") first.checked = true;
    else if (first) field.value = first.value;
  }
}

function showField(id, visible) {
  document.getElementById(id).hidden = !visible;
}

/** Apply the rules of section 1 and 2 to what can be chosen. */
function update() {
  const opponent = value("opponent");
  allow("players", (players) => {
    if (opponent === "friend") return players === "2";
    if (opponent === "group") return players !== "2";
    return true;
  });
  const players = Number(value("players"));
  const many = players > 2;
  allow("board", (board) => !(many && board === "6x6"));
  allow("opening", (opening) => !(many && opening !== "cross"));
  const handicapPossible = !many && value("board") !== "octagon";
  if (!handicapPossible) form.elements.handicap.value = "0";
  form.elements.handicap.disabled = !handicapPossible;
  form.elements.handicap_color.disabled = !handicapPossible || value("handicap") === "0";
  allow("color", (color) => color === "random" || ["black", "white", "red", "green"].indexOf(color) < players);
  showField("level-field", opponent === "cpu" || (opponent === "group" && seatChoices().includes("cpu")));
  showField("color-field", opponent === "cpu");
  showField("players-field", opponent !== "friend");
  showField("seats-field", opponent === "group");
  for (const row of document.querySelectorAll("[data-seat-index]")) {
    row.hidden = Number(row.dataset.seatIndex) >= players;
  }
  showField("undo-field", opponent === "cpu" || opponent === "local");
}

function seatChoices() {
  const players = Number(value("players"));
  return [...document.querySelectorAll("[data-seat-index]")]
    .filter((row) => Number(row.dataset.seatIndex) < players)
    .map((row) => row.querySelector("select").value);
}

function variant() {
  const chosen = {
    players: Number(value("players")),
    board: value("board"),
    opening: value("opening"),
    anti: value("anti"),
    handicap: Number(value("handicap")),
  };
  const blocked = Number(value("blocked"));
  if (blocked) chosen.blocked = blocked;
  if (chosen.handicap) chosen.handicap_color = value("handicap_color");
  return chosen;
}

/** The API request the form describes: [path, body]. */
function request() {
  const opponent = value("opponent");
  if (opponent === "cpu") {
    return ["/api/games/", { mode: "cpu", level: value("level"), color: value("color"), undo: value("undo"), variant: variant() }];
  }
  if (opponent === "local") return ["/api/games/", { mode: "local", undo: value("undo"), variant: variant() }];
  const body = { variant: variant() };
  if (opponent === "group") {
    body.seats = ["human", ...seatChoices()].map((kind) => (kind === "cpu" ? { kind, level: value("level") } : { kind }));
  }
  return ["/api/rooms/", body];
}

form.addEventListener("change", update);
form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const [path, body] = request();
  const button = form.querySelector("[type=submit]");
  button.disabled = true;
  message.hidden = true;
  try {
    const created = await api("POST", path, body);
    location.href = created.url;
  } catch (error) {
    message.textContent = error.field ? `${error.field}: ${errorText(error)}` : errorText(error);
    message.hidden = false;
    button.disabled = false;
  }
});

async function offerResume() {
  let list;
  try {
    list = (await api("GET", "/api/games/?status=active")).games;
  } catch {
    return;
  }
  if (!list.length) return;
  const links = list.slice(0, 5).map((game) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = game.url;
    link.className = "button primary";
    const size = game.variant.board;
    const board = size === "octagon" ? t("board.octagon") : size.replace("x", "×");
    link.textContent = t("resume.link", { mode: t(`mode.${game.mode}`), board, ply: game.ply });
    item.append(link);
    return item;
  });
  document.getElementById("resume-list").replaceChildren(...links);
  document.getElementById("resume").hidden = false;
}

update();
offerResume();
