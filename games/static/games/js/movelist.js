// The move list beside the board during play: every move so far, and any earlier position shown
// on the board on a click or with the arrow keys (Home and End jump) until the viewer goes back
// to the game or the game moves on. The positions come from the server (the review API's board
// after each move): this module computes no rule. A finished game's list is the review's.
import { api } from "./api.js";
import { t } from "./i18n.js";

const $ = (id) => document.getElementById(id);

export class LiveMoveList {
  /** @param {{board: {showPast: Function}, onReturn: () => void}} hooks `onReturn`: draw the game's
   * own position again */
  constructor({ board, onReturn }) {
    this.board = board;
    this.onReturn = onReturn;
    this.section = $("live-moves");
    this.list = $("live-move-list");
    this.state = null;
    this.viewed = null; // the ply shown on the board, or null for the game's position
    this.boards = null; // the server's board after each ply, fetched when first needed
    this.list.addEventListener("keydown", (event) => this.onKey(event));
    $("live-return").addEventListener("click", () => this.view(null));
  }

  /** Draw the list of the state the page shows; a new state shows the game's position again. */
  update(state) {
    const moved = this.state && (this.state.id !== state.id || this.state.ply !== state.ply);
    this.state = state;
    this.section.hidden = state.status === "finished" || state.moves.length === 0;
    if (moved || this.section.hidden) this.viewed = null;
    const labels = [t("review.start"), ...state.moves.map((move, index) => `${index + 1}. ${move}`)];
    this.list.replaceChildren(...labels.map((label, ply) => this.item(ply, label)));
    this.drawCurrent();
  }

  item(ply, label) {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "link-button";
    button.dataset.ply = String(ply);
    button.textContent = label;
    button.addEventListener("click", () => this.view(ply));
    item.append(button);
    return item;
  }

  /** Show the position after `ply` moves (null, or the game's ply: the game's own position). */
  async view(ply) {
    const total = this.state.ply;
    const asked = ply === null ? null : Math.max(0, Math.min(ply, total));
    if (asked === null || asked === total) {
      const wasViewing = this.viewed !== null;
      this.viewed = null;
      this.drawCurrent();
      if (wasViewing) this.onReturn();
      return;
    }
    if (!this.boards || this.boards.length <= total) {
      this.boards = (await api("GET", `/api/games/${this.state.id}/review/`)).boards;
    }
    if (this.state.ply !== total) return; // the game moved on while the boards were fetched
    this.viewed = asked;
    this.board.showPast(this.boards[asked], asked > 0 ? this.state.moves[asked - 1] : null);
    this.drawCurrent();
  }

  onKey(event) {
    if (!this.state) return;
    const shown = this.viewed ?? this.state.ply;
    const targets = { ArrowLeft: shown - 1, ArrowUp: shown - 1, ArrowRight: shown + 1, ArrowDown: shown + 1, Home: 0, End: this.state.ply };
    if (!(event.key in targets)) return;
    event.preventDefault();
    this.view(targets[event.key]).then(() => this.focusCurrent());
  }

  /** Whether an earlier position is on the board (the game's moves wait until it is not). */
  get viewing() {
    return this.viewed !== null;
  }

  drawCurrent() {
    const shown = this.viewed ?? this.state.ply;
    for (const button of this.list.querySelectorAll("button")) {
      const current = Number(button.dataset.ply) === shown;
      button.parentElement.classList.toggle("current", current);
      if (current) {
        button.setAttribute("aria-current", "step");
        button.scrollIntoView({ block: "nearest" });
      } else {
        button.removeAttribute("aria-current");
      }
    }
    $("live-return").hidden = this.viewed === null;
    $("live-viewing").textContent = this.viewed === null
      ? ""
      : t("moves.viewing", { ply: this.viewed, total: this.state.ply });
    document.getElementById("game-app").dataset.viewPly = this.viewed === null ? "" : String(this.viewed);
  }

  focusCurrent() {
    const shown = this.viewed ?? this.state.ply;
    this.list.querySelector(`button[data-ply="${shown}"]`)?.focus();
  }
}
