// The settings panel of the game page: legal-move dots, coordinates, board and disc themes,
// premove and move confirmation on touch. Each choice is remembered in this browser (prefs.js)
// and shown through the board's classes and data attributes, which the stylesheet's tokens
// follow (one stylesheet: games/css/reversi.css).
import { getChoice, getPref, setChoice, setPref } from "./prefs.js";

// name: [the checkbox's id, its value before the viewer chose]
const SWITCHES = {
  dots: ["dots-toggle", true],
  coords: ["coords-toggle", true],
  premove: ["premove-toggle", false],
  confirm: ["confirm-toggle", true],
};
// name: the select's id (its options are the choices, the one marked selected the default)
const CHOICES = { boardTheme: "board-theme", discTheme: "disc-theme" };

export class BoardSettings {
  /** @param {HTMLElement} board the board element the settings are drawn on */
  constructor(board) {
    this.board = board;
    this.controls = new Map();
    for (const [name, [id, fallback]] of Object.entries(SWITCHES)) {
      const input = document.getElementById(id);
      input.checked = getPref(name, fallback);
      input.addEventListener("change", () => {
        setPref(name, input.checked);
        this.draw();
      });
      this.controls.set(name, input);
    }
    for (const [name, id] of Object.entries(CHOICES)) {
      const select = document.getElementById(id);
      const choices = [...select.options].map((option) => option.value);
      select.value = getChoice(name, choices, select.value);
      select.addEventListener("change", () => {
        setChoice(name, select.value);
        this.draw();
      });
      this.controls.set(name, select);
    }
    this.draw();
  }

  /** Whether a switch ("dots", "coords", "premove", "confirm") is on. */
  on(name) {
    return this.controls.get(name).checked;
  }

  /** The chosen value of a choice ("boardTheme", "discTheme"). */
  choice(name) {
    return this.controls.get(name).value;
  }

  draw() {
    this.board.classList.toggle("dots", this.on("dots"));
    this.board.classList.toggle("no-coords", !this.on("coords"));
    this.board.classList.toggle("marks", this.choice("discTheme") === "marks");
    this.board.dataset.theme = this.choice("boardTheme");
  }
}
