// The watch page: the games between people being played now (rated first, then the most
// watched) and who is online, from /api/watch/ every few seconds.
import { api } from "./api.js";
import { t } from "./i18n.js";
import { onlineText } from "./online.js";

const $ = (id) => document.getElementById(id);
const REFRESH_MS = 5000;

function cell(content) {
  const td = document.createElement("td");
  td.append(content);
  return td;
}

function row(game) {
  const tr = document.createElement("tr");
  tr.dataset.game = game.id;
  const link = document.createElement("a");
  link.href = game.url;
  link.textContent = t("watch.move", { ply: game.ply });
  tr.append(
    cell(game.players.join(" – ")),
    cell(t(`board.${game.variant.board}`)),
    cell(game.time_control ? t(`time.${game.time_control}`) : t("lobby.untimed")),
    cell(`${game.rated ? t("lobby.rated") : t("lobby.casual")}${game.rating === null ? "" : ` · ${game.rating}`}`),
    cell(String(game.spectators)),
    cell(link),
  );
  return tr;
}

async function refresh() {
  try {
    const { games, online } = await api("GET", "/api/watch/");
    $("live-games").replaceChildren(...games.map(row));
    $("live-empty").textContent = games.length ? "" : t("watch.empty");
    $("online").textContent = onlineText(online);
    $("watch-app").dataset.ready = "true";
  } catch {
    // the next refresh tries again
  }
}

refresh();
setInterval(refresh, REFRESH_MS);
