// The setup page: enables only the choices the server allows (each choice's `data-requires`
// names the values other fields must have; the server builds them from the engine's variant
// registry), creates the game or room through the API, and offers this browser's unfinished
// games. It knows no rule of the game.
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

/** Whether the form's current values meet `requires` ({field: [allowed values]}). */
function holds(element) {
  const requires = JSON.parse(element.dataset.requires || "{}");
  return Object.entries(requires).every(([name, allowed]) => allowed.includes(String(value(name))));
}

/** Enable what the current choices allow; a chosen option that is no longer allowed gives way
 * to the first allowed one (which may free or forbid others, so repeat until nothing moves). */
function applyRequires() {
  for (let changed = true; changed; ) {
    changed = false;
    for (const element of form.querySelectorAll("[data-requires]")) {
      const allowed = holds(element);
      if (element.matches("[data-seat]")) element.hidden = !allowed;
      else element.disabled = !allowed;
      element.closest("label")?.classList.toggle("disabled", !allowed && element.matches("input"));
    }
    for (const input of form.querySelectorAll("input[type=radio]:checked:disabled")) {
      const first = form.querySelector(`input[name="${input.name}"]:not(:disabled)`);
      if (first) {
        first.checked = true;
        changed = true;
      }
    }
    for (const select of form.querySelectorAll("select")) {
      const chosen = select.selectedOptions[0];
      if (chosen?.disabled || select.disabled) {
        const fallback = select.disabled ? select.options[0] : [...select.options].find((option) => !option.disabled);
        if (fallback && !fallback.selected) {
          fallback.selected = true;
          changed = true;
        }
      }
      const choosable = [...select.options].filter((option) => !option.disabled);
      if (choosable.length === 1 && select.options.length > 1) select.disabled = true;
    }
    for (const checkbox of form.querySelectorAll("input[type=checkbox]:disabled:checked")) {
      checkbox.checked = false;
      changed = true;
    }
  }
}

function showField(id, visible) {
  document.getElementById(id).hidden = !visible;
}

function update() {
  applyRequires();
  const opponent = value("opponent");
  showField("level-field", opponent === "cpu" || (opponent === "group" && seatChoices().includes("cpu")));
  showField("color-field", opponent === "cpu");
  showField("players-field", opponent !== "friend");
  showField("seats-field", opponent === "group");
  showField("clock-field", opponent === "friend" || opponent === "group");
  showField("rated-field", opponent === "cpu" || opponent === "friend" || opponent === "group");
  showField("undo-field", (opponent === "cpu" && !value("rated")) || opponent === "local");
}

function seatChoices() {
  return [...form.querySelectorAll("[data-seat]")].filter((row) => !row.hidden).map((row) => row.querySelector("select").value);
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
  if (!form.elements.handicap_color.disabled) chosen.handicap_color = value("handicap_color");
  return chosen;
}

/** The API request the form describes: [path, body]. */
function request() {
  const opponent = value("opponent");
  if (opponent === "cpu") {
    const rated = value("rated");
    return ["/api/games/", { mode: "cpu", level: value("level"), color: value("color"), rated, undo: !rated && value("undo"), variant: variant() }];
  }
  if (opponent === "local") return ["/api/games/", { mode: "local", undo: value("undo"), variant: variant() }];
  const body = { variant: variant(), time_control: value("time_control") || null, rated: value("rated") };
  if (opponent === "group") {
    body.seats = ["human", ...seatChoices()].map((kind) => (kind === "cpu" ? { kind, level: value("level") } : { kind }));
  }
  return ["/api/rooms/", body];
}

// "Play now": the server's defaults (versus the CPU, its default level, black, 8x8).
const playNow = document.getElementById("play-now-button");
playNow.addEventListener("click", async () => {
  playNow.disabled = true;
  try {
    location.href = (await api("POST", "/api/games/", { mode: "cpu" })).url;
  } catch (error) {
    message.textContent = errorText(error);
    message.hidden = false;
    playNow.disabled = false;
  }
});

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

/** "Your unfinished games": games in play and rooms waiting for players, newest first, each
 * with its level (versus the CPU) and when it last changed. */
async function offerResume() {
  let list;
  try {
    const [active, waiting] = await Promise.all(
      ["active", "waiting"].map((status) => api("GET", `/api/games/?status=${status}`)),
    );
    list = [...active.games, ...waiting.games].sort((a, b) => b.updated_at.localeCompare(a.updated_at));
  } catch {
    return;
  }
  if (!list.length) return;
  const when = new Intl.DateTimeFormat(document.documentElement.lang, { dateStyle: "medium", timeStyle: "short" });
  const links = list.slice(0, 5).map((game) => {
    const item = document.createElement("li");
    const link = document.createElement("a");
    link.href = game.url;
    link.className = "button primary";
    const board = t(`board.${game.variant.board}`);
    const parts = [t("resume.link", { mode: t(`mode.${game.mode}`), board, ply: game.ply })];
    const cpu = game.seats.find((seat) => seat.kind === "cpu");
    if (cpu) parts.push(t(`level.${cpu.level}`));
    if (game.status === "waiting") parts.push(t("turn.waiting_players"));
    link.textContent = parts.join(" · ");
    const time = document.createElement("time");
    time.dateTime = game.updated_at;
    time.className = "resume-time";
    time.textContent = when.format(new Date(game.updated_at));
    item.append(link, " ", time);
    return item;
  });
  document.getElementById("resume-list").replaceChildren(...links);
  document.getElementById("resume").hidden = false;
}

update();
offerResume();
