// The review of a finished game: the move list to step through (buttons, arrow keys, Home and
// End), the position at any ply (shareable as ?ply=n), the analysis's score graph with the
// mistakes marked, and the opening's name. Everything shown comes from the review API
// (scores, mistakes and the board after each move): this module computes no rule.
import { graphPoints, plyFromQuery } from "./reviewgraph.js";
import { api } from "./api.js";
import { colorName, t } from "./i18n.js";

const $ = (id) => document.getElementById(id);
const SVG = "http://www.w3.org/2000/svg";
const POLL_MS = 3000;

export class GameReview {
  /** @param {{board: {showPast: Function}, gameId: string}} options */
  constructor({ board, gameId }) {
    this.board = board;
    this.gameId = gameId;
    this.analysis = null;
    this.played = null;
    this.ply = null;
    this.timer = null;
    this.section = $("review");
    $("review-first").addEventListener("click", () => this.step(0));
    $("review-prev").addEventListener("click", () => this.step(this.ply - 1));
    $("review-next").addEventListener("click", () => this.step(this.ply + 1));
    $("review-last").addEventListener("click", () => this.step(this.analysis.total));
    $("review-request").addEventListener("click", () => this.request());
    this.section.addEventListener("keydown", (event) => this.onKey(event));
    for (const format of ["txt", "ggf", "json"]) {
      $(`export-${format}`).href = `/api/games/${gameId}/export/?format=${format}`;
    }
  }

  /** Show the review of a finished game's `moves` (notations; fetching the analysis again
   * while it runs). */
  async show(moves) {
    if (this.played) return;
    this.played = moves;
    this.section.hidden = false;
    await this.load();
  }

  async load() {
    this.analysis = await api("GET", `/api/games/${this.gameId}/review/`);
    this.drawStatus();
    this.drawList();
    this.drawGraph();
    if (this.ply === null) {
      const asked = plyFromQuery(window.location.search, this.analysis.total);
      this.ply = this.analysis.total;
      if (asked !== null) this.step(asked);
    } else {
      this.drawPly();
    }
    clearTimeout(this.timer);
    if (this.analysis.status === "queued" || this.analysis.status === "running") {
      this.timer = setTimeout(() => this.load(), POLL_MS);
    }
  }

  /** Ask for the analysis of a game that has none (an imported one); a refusal (too many
   * analyses under way, in the page's language) is shown in its place. */
  async request() {
    const button = $("review-request");
    button.disabled = true;
    try {
      await api("POST", `/api/games/${this.gameId}/review/`);
    } catch (error) {
      $("review-status").textContent = error.message;
      return;
    } finally {
      button.disabled = false;
    }
    await this.load();
  }

  onKey(event) {
    const moves = { ArrowLeft: this.ply - 1, ArrowRight: this.ply + 1, Home: 0, End: this.analysis?.total };
    if (!(event.key in moves) || !this.analysis) return;
    event.preventDefault();
    this.step(moves[event.key]);
  }

  /** Show the position after `ply` moves and put it in the address (?ply=n). */
  step(ply) {
    if (!this.analysis) return;
    this.ply = Math.max(0, Math.min(ply, this.analysis.total));
    const url = new URL(window.location.href);
    url.searchParams.set("ply", String(this.ply));
    window.history.replaceState(null, "", url);
    this.drawPly();
    this.drawBoard();
    document.getElementById("game-app").dataset.reviewPly = String(this.ply);
  }

  /** Draw the position of the ply shown again (after the game's own state redrew the board). */
  drawBoard() {
    if (!this.analysis || this.ply === null) return;
    this.board.showPast(this.analysis.boards[this.ply], this.ply > 0 ? this.played[this.ply - 1] : null);
  }

  drawStatus() {
    const { status, analysed, total, opening } = this.analysis;
    $("review-status").textContent = status === "running" || status === "queued"
      ? t(status === "queued" ? "review.queued" : "review.running", { done: analysed, total })
      : t(status === "done" ? "review.done" : "review.none");
    $("review-request").hidden = status !== "none";
    $("review-opening").hidden = !opening;
    if (opening) $("review-opening").textContent = t("review.opening", { name: opening.name });
  }

  drawList() {
    const list = $("move-list");
    const analysed = new Map(this.analysis.moves.map((entry) => [entry.ply, entry]));
    list.replaceChildren(this.listItem(0, t("review.start"), null));
    this.played.forEach((move, index) => {
      const entry = analysed.get(index);
      const label = entry
        ? t("review.move", { number: index + 1, color: colorName(entry.color), move })
        : `${index + 1}. ${move}`;
      list.append(this.listItem(index + 1, label, entry));
    });
  }

  listItem(ply, label, entry) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link-button";
    button.textContent = label;
    button.addEventListener("click", () => this.step(ply));
    item.append(button);
    item.dataset.ply = String(ply);
    if (entry) {
      const note = document.createElement("span");
      note.className = "review-note";
      note.textContent = entry.mistake
        ? t("review.mistake", { loss: entry.loss.toFixed(1), best: entry.best })
        : t("review.best", { best: entry.best, score: entry.best_score.toFixed(1) });
      item.append(" ", note);
      item.classList.toggle("mistake", entry.mistake);
    }
    return item;
  }

  drawPly() {
    for (const item of $("move-list").children) {
      const current = item.dataset.ply === String(this.ply);
      item.classList.toggle("current", current);
      if (current) {
        item.querySelector("button").setAttribute("aria-current", "step");
        item.scrollIntoView({ block: "nearest" });
      } else {
        item.querySelector("button").removeAttribute("aria-current");
      }
    }
    $("review-ply").textContent = `${this.ply} / ${this.analysis.total}`;
  }

  drawGraph() {
    const graph = $("score-graph");
    const width = 300;
    const height = 100;
    const points = graphPoints(this.analysis.moves, this.analysis.total, width, height);
    graph.replaceChildren(shape("line", { x1: 0, y1: height / 2, x2: width, y2: height / 2, class: "axis" }));
    if (!points.length) return;
    const path = points.map((point) => `${point.x.toFixed(1)},${point.y.toFixed(1)}`).join(" ");
    graph.append(shape("polyline", { points: `0,${height / 2} ${path}`, class: "score-line" }));
    for (const point of points.filter((each) => each.mistake)) {
      const mark = shape("circle", { cx: point.x, cy: point.y, r: 3, class: "mistake-mark" });
      mark.dataset.ply = String(point.ply);
      mark.addEventListener("click", () => this.step(point.ply));
      graph.append(mark);
    }
  }
}

function shape(name, attributes) {
  const element = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) element.setAttribute(key, String(value));
  return element;
}
