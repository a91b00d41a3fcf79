// The 2D board: a CSS grid of cells with a lettered frame, legal-move dots, the hover/tap
// preview (ghost disc + rings on the discs that would flip), a keyboard focus ring and the
// one-by-one flip animation.
import { colorName, t } from "./i18n.js";
import { boardShape, cellAt, parseSquare, squareName } from "./state.js";

const FLIP_STEP_MS = 110;
const FLIP_ANIMATION_MS = 260;

export class BoardView {
  /**
   * @param {HTMLElement} root the element that holds the board
   * @param {{onPlay: (square: string) => void, onIdle?: (square: string) => void,
   *   confirmTouch?: () => boolean, onFlip?: () => void, reducedMotion: () => boolean}} hooks
   * `onIdle`: a square chosen that is not a legal move now (a premove); `confirmTouch`: whether
   * a tap only previews a move and a second tap plays it (true when not given)
   */
  constructor(root, hooks) {
    this.root = root;
    this.hooks = hooks;
    this.cells = new Map();
    this.rows = [];
    this.legal = new Set();
    this.flips = new Map();
    this.toMove = null;
    this.interactive = false;
    this.preview = null;
    this.cursor = null;
    this.shape = "";
    this.timers = [];
    this.animating = new Map(); // square -> colour shown until its flip, while one runs
    root.addEventListener("pointerdown", (event) => {
      this.pointerType = event.pointerType;
    });
    root.addEventListener("click", (event) => this.onClick(event));
    root.addEventListener("pointerover", (event) => {
      if (event.pointerType !== "mouse") return;
      const square = this.squareOf(event.target);
      if (square) this.showPreview(square);
    });
    root.addEventListener("pointerleave", (event) => {
      if (event.pointerType === "mouse") this.clearPreview();
    });
    root.addEventListener("keydown", (event) => this.onKey(event));
    root.addEventListener("focus", () => {
      if (root.matches(":focus-visible")) this.moveCursorTo(this.cursor ?? this.defaultCursor());
    });
    root.addEventListener("blur", () => {
      this.root.classList.remove("keyboard");
    });
  }

  /** (Re)build the cells when the board's shape changes. */
  build(rows) {
    const shape = boardShape(rows);
    if (shape === this.shape) return;
    this.shape = shape;
    const height = rows.length;
    const width = rows[0].length;
    this.root.style.setProperty("--cols", width);
    this.root.style.setProperty("--rows", height);
    this.root.replaceChildren();
    this.cells.clear();
    // An ARIA grid: one row element per board row (display: contents, so the CSS grid still
    // lays out the cells); the letter row and the numbers are only for the eye.
    const letters = document.createElement("div");
    letters.className = "row-group";
    letters.setAttribute("aria-hidden", "true");
    letters.append(label("corner", ""));
    for (let col = 0; col < width; col += 1) letters.append(label("col", String.fromCharCode(97 + col)));
    this.root.append(letters);
    for (let row = 0; row < height; row += 1) {
      const line = document.createElement("div");
      line.className = "row-group";
      line.setAttribute("role", "row");
      line.append(label("row", String(row + 1)));
      for (let col = 0; col < width; col += 1) {
        const square = squareName(col, row);
        const cell = document.createElement("div");
        cell.className = "cell";
        cell.id = `cell-${square}`;
        cell.setAttribute("role", "gridcell");
        cell.dataset.square = square;
        const disc = document.createElement("span");
        disc.className = "disc";
        const mark = document.createElement("span");
        mark.className = "mark";
        mark.setAttribute("aria-hidden", "true");
        disc.append(mark);
        cell.append(disc);
        line.append(cell);
        this.cells.set(square, cell);
      }
      this.root.append(line);
    }
    if (width === 8 && height === 8) this.markStarPoints();
  }

  /** The four star points of an 8x8 board (where the lines b/c, f/g and 2/3, 6/7 cross): each
   * is drawn as a quarter dot in the corner of the four cells around it. */
  markStarPoints() {
    for (const [x, y] of [[2, 2], [6, 2], [2, 6], [6, 6]]) {
      const quarters = [[x - 1, y - 1, "100% 100%"], [x, y - 1, "0 100%"], [x - 1, y, "100% 0"], [x, y, "0 0"]];
      for (const [col, row, corner] of quarters) {
        const cell = this.cells.get(squareName(col, row));
        cell.classList.add("star");
        cell.style.setProperty("--star-at", corner);
      }
    }
  }

  /**
   * Draw a position. `view`: {rows, legal, flips, toMove, interactive, lastMove, hint, premove}
   * (`flips` maps each legal move to the squares it flips, `premove` is a queued move's square
   * or null); `pending` maps
   * squares to the colour they show until their flip is animated.
   */
  render(view, pending = new Map()) {
    // A redraw of the position being animated (the POST's answer after the socket's event, a
    // busy flag cleared) lets the animation run on: the discs not turned yet stay as they were.
    const samePosition = this.animating.size > 0 && pending.size === 0 && sameRows(view.rows, this.rows);
    if (samePosition) pending = this.animating;
    else this.stopAnimation();
    this.build(view.rows);
    this.rows = view.rows;
    this.legal = new Set(view.interactive ? view.legal : []);
    this.flips = view.flips;
    this.toMove = view.toMove;
    this.interactive = view.interactive;
    this.root.classList.toggle("interactive", view.interactive);
    for (const [square, cell] of this.cells) {
      const [col, row] = parseSquare(square);
      const content = cellAt(view.rows, col, row);
      const shown = pending.get(square) ?? content;
      cell.dataset.content = shown === "wall" || shown === "off" || shown === "empty" ? shown : "disc";
      cell.firstChild.dataset.color = ["wall", "off", "empty"].includes(shown) ? "" : shown;
      cell.classList.toggle("legal", this.legal.has(square));
      cell.classList.toggle("last", view.lastMove === square);
      cell.classList.toggle("hint", view.hint === square);
      cell.classList.toggle("premove", view.premove === square);
      cell.setAttribute("aria-label", this.describe(square, content, view));
    }
    // Keep the preview (a first tap, the mouse or the keyboard cursor) while it is still legal.
    const previewed = this.preview;
    this.clearPreview();
    if (previewed) this.showPreview(previewed);
    if (this.root.classList.contains("keyboard")) this.paintCursor();
  }

  /** Draw a position of the game's past (`move`: the notation that led to it, or null): nothing
   * can be played on it. */
  showPast(rows, move) {
    this.render({
      rows,
      legal: [],
      flips: new Map(),
      toMove: null,
      interactive: false,
      lastMove: move && move !== "pass" ? move : null,
      hint: null,
      premove: null,
    });
  }

  /** What a screen reader says of a square: "d4, white", "c4, empty, legal, flips 1". */
  describe(square, content, view) {
    const parts = [square, cellWord(content)];
    if (this.legal.has(square)) parts.push(t("cell.legal", { count: (view.flips.get(square) ?? []).length }));
    if (view.lastMove === square) parts.push(t("cell.last"));
    if (view.hint === square) parts.push(t("cell.hint"));
    if (view.premove === square) parts.push(t("cell.premove"));
    return parts.join(", ");
  }

  /** Turn the pending discs to their colours one by one, nearest first (at once if reduced). */
  animateFlips(order, colors) {
    const turn = (square) => {
      this.animating.delete(square);
      const cell = this.cells.get(square);
      if (cell) cell.firstChild.dataset.color = colors.get(square);
      this.hooks.onFlip?.();
      return cell;
    };
    if (this.hooks.reducedMotion()) {
      order.forEach(turn);
      return;
    }
    this.root.dataset.animating = "true";
    for (const square of order) this.animating.set(square, this.cells.get(square)?.firstChild.dataset.color);
    order.forEach((square, index) => {
      this.timers.push(setTimeout(() => turn(square)?.classList.add("flipping"), (index + 1) * FLIP_STEP_MS));
    });
    this.timers.push(setTimeout(() => this.stopAnimation(), order.length * FLIP_STEP_MS + FLIP_ANIMATION_MS));
  }

  /** End a running flip animation (a newer position is about to be drawn). */
  stopAnimation() {
    this.timers.forEach(clearTimeout);
    this.timers = [];
    this.animating.clear();
    for (const cell of this.root.querySelectorAll(".flipping")) cell.classList.remove("flipping");
    delete this.root.dataset.animating;
  }

  squareOf(target) {
    const cell = target.closest?.(".cell");
    return cell && this.root.contains(cell) ? cell.dataset.square : null;
  }

  onClick(event) {
    const square = this.squareOf(event.target);
    if (!square || !this.legal.has(square)) {
      this.clearPreview();
      if (square) this.hooks.onIdle?.(square);
      return;
    }
    const confirm = this.hooks.confirmTouch?.() ?? true;
    if (confirm && this.pointerType === "touch" && this.preview !== square) {
      this.showPreview(square);
      return;
    }
    this.hooks.onPlay(square);
  }

  /** Put the keyboard focus on the board with its cursor on `square` (after a move played
   * from elsewhere, such as the buttons grid, whose button is then disabled). */
  focusOn(square) {
    this.root.focus({ preventScroll: true });
    this.moveCursorTo(square);
  }

  /** Ghost disc on `square` and rings on the discs it would flip (legal squares only). */
  showPreview(square) {
    this.clearPreview();
    if (!this.legal.has(square)) return;
    this.preview = square;
    const cell = this.cells.get(square);
    cell.classList.add("ghost");
    cell.dataset.ghost = this.toMove;
    for (const flipped of this.flips.get(square) ?? []) {
      this.cells.get(flipped)?.classList.add("would-flip");
    }
  }

  clearPreview() {
    this.preview = null;
    for (const cell of this.root.querySelectorAll(".ghost, .would-flip")) {
      cell.classList.remove("ghost", "would-flip");
      delete cell.dataset.ghost;
    }
  }

  defaultCursor() {
    const first = [...this.legal].sort()[0];
    if (first) return first;
    return squareName(Math.floor((this.rows[0]?.length ?? 8) / 2), Math.floor(this.rows.length / 2));
  }

  moveCursorTo(square) {
    this.cursor = square;
    this.root.classList.add("keyboard");
    this.paintCursor();
    this.showPreview(square);
  }

  paintCursor() {
    for (const cell of this.root.querySelectorAll(".cursor")) cell.classList.remove("cursor");
    const cell = this.cells.get(this.cursor);
    if (cell) {
      cell.classList.add("cursor");
      this.root.dataset.cursor = this.cursor;
      this.root.setAttribute("aria-activedescendant", cell.id);
    }
  }

  onKey(event) {
    const moves = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
    if (event.key in moves) {
      event.preventDefault();
      const [col, row] = parseSquare(this.cursor ?? this.defaultCursor());
      const [dx, dy] = moves[event.key];
      const width = this.rows[0].length;
      const height = this.rows.length;
      const next = squareName(
        Math.min(width - 1, Math.max(0, col + dx)),
        Math.min(height - 1, Math.max(0, row + dy)),
      );
      this.moveCursorTo(next);
    } else if (event.key === "Enter" || event.key === " ") {
      event.preventDefault();
      if (this.cursor && this.legal.has(this.cursor)) this.hooks.onPlay(this.cursor);
      else if (this.cursor) this.hooks.onIdle?.(this.cursor);
    }
  }
}

/** "white", "empty", "blocked": a square's content in words. */
export function cellWord(content) {
  if (content === "empty") return t("cell.empty");
  if (content === "wall") return t("cell.wall");
  return colorName(content).toLocaleLowerCase(document.documentElement.lang);
}

function sameRows(a, b) {
  return a.length === b.length && a.every((row, index) => row === b[index]);
}

function label(kind, text) {
  const element = document.createElement("div");
  element.className = `label ${kind}`;
  element.textContent = text;
  element.setAttribute("aria-hidden", "true");
  return element;
}
