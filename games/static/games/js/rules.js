// Square names and the flip preview, computed from the board rows sent by the server.
// The server stays the authority on legality: this only draws the ghost disc and rings.

export const COLORS = ["black", "white", "red", "green"];
const CELL_COLOR = { X: "black", O: "white", R: "red", G: "green", N: "neutral" };
const DIRECTIONS = [
  [-1, -1], [0, -1], [1, -1],
  [-1, 0], [1, 0],
  [-1, 1], [0, 1], [1, 1],
];

/** "f5" for column 5, row 4 (0-based). */
export function squareName(col, row) {
  return String.fromCharCode(97 + col) + String(row + 1);
}

/** [col, row] (0-based) of a square name such as "f5". */
export function parseSquare(name) {
  return [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
}

/** What a board cell holds: a colour name, "empty", "wall" or "off" (octagon corner). */
export function cellAt(rows, col, row) {
  if (row < 0 || row >= rows.length || col < 0 || col >= rows[row].length) return "off";
  const char = rows[row][col];
  if (char === "-") return "empty";
  if (char === "#") return "wall";
  if (char === " ") return "off";
  return CELL_COLOR[char] ?? "empty";
}

function isDisc(cell) {
  return cell !== "empty" && cell !== "wall" && cell !== "off";
}

/**
 * The squares a disc of `color` placed on `square` would flip, nearest first. In a 2-player game
 * a line is made of the opponent's discs; with 3-4 players of any other discs (neutral included).
 */
export function flipsFor(rows, square, color) {
  const [col, row] = parseSquare(square);
  const found = [];
  for (const [dx, dy] of DIRECTIONS) {
    const line = [];
    let x = col + dx;
    let y = row + dy;
    while (isDisc(cellAt(rows, x, y)) && cellAt(rows, x, y) !== color) {
      line.push([x, y]);
      x += dx;
      y += dy;
    }
    if (line.length && cellAt(rows, x, y) === color) found.push(...line);
  }
  return sortNearestFirst(square, found.map(([x, y]) => squareName(x, y)));
}

/** Squares ordered by their distance (king moves) from `origin`, nearest first, stable. */
export function sortNearestFirst(origin, squares) {
  const [ox, oy] = parseSquare(origin);
  const distance = (name) => {
    const [x, y] = parseSquare(name);
    return Math.max(Math.abs(x - ox), Math.abs(y - oy));
  };
  return squares
    .map((name, index) => [distance(name), index, name])
    .sort((a, b) => a[0] - b[0] || a[1] - b[1])
    .map((entry) => entry[2]);
}
