// Turns the API's game state (games/presenters.py game_state) into the shape the page draws;
// the one place that knows the API's field names and how its board rows are written. The page
// computes no rule: legal moves, their flips and when a seat may be taken over come from here.

const CELL_CONTENT = { X: "black", O: "white", R: "red", G: "green", N: "neutral", "-": "empty", "#": "wall", " ": "off" };

/** "f5" for column 5, row 4 (0-based): the API's square names. */
export function squareName(col, row) {
  return String.fromCharCode(97 + col) + String(row + 1);
}

/** [col, row] (0-based) of a square name such as "f5". */
export function parseSquare(name) {
  return [name.charCodeAt(0) - 97, Number(name.slice(1)) - 1];
}

/** The board's shape (which cells are squares), to know when it must be built anew. */
export function boardShape(rows) {
  return rows.map((row, y) => [...row].map((_, x) => (cellAt(rows, x, y) === "off" ? " " : ".")).join("")).join("|");
}

/** What a board row's cell holds: a colour name, "empty", "wall" or "off" (not a square). */
export function cellAt(rows, col, row) {
  return CELL_CONTENT[rows[row]?.[col]] ?? "off";
}

function perColor(values, colors) {
  return new Map(colors.map((color) => [color, values?.[color] ?? null]));
}

function resultOf(result, colors) {
  if (!result) return null;
  return {
    discs: perColor(result.discs, colors),
    tournament: perColor(result.tournament, colors),
    empties: result.empties,
    winner: result.winner,
    draw: result.draw,
    reason: result.reason,
    resigned: result.resigned,
    flagged: result.flagged ?? null,
  };
}

/**
 * The page's view of one API game state. `clockOffset` is the server's clock minus this
 * browser's, when the state arrived (to compare the server's times with `serverNow`).
 */
export function normalizeState(raw) {
  const colors = raw.seats.map((seat) => seat.color);
  const last = raw.last_move;
  const hint = raw.hints.current;
  return {
    id: raw.id,
    version: raw.version,
    ply: raw.ply,
    mode: raw.mode,
    status: raw.status,
    active: raw.status === "active",
    toMove: raw.to_move,
    legal: Object.keys(raw.legal_moves),
    flips: new Map(Object.entries(raw.legal_moves)),
    clockOffset: Date.parse(raw.server_time) - Date.now(),
    rows: raw.board,
    colors,
    variant: raw.variant,
    counts: perColor(raw.discs, colors),
    empties: raw.empties,
    lastMove: last ? { square: last.move, color: last.color, flips: last.flipped, flipCount: last.flipped.length } : null,
    pass: raw.pass_notice ? { color: raw.pass_notice.color } : null,
    result: resultOf(raw.result, colors),
    undoAllowed: raw.undo.allowed,
    undos: raw.undo.used,
    undoColors: raw.undo.colors,
    hints: raw.hints.used,
    hintsAllowed: raw.hints.allowed,
    moves: raw.moves,
    rated: raw.rated,
    hint: hint && hint.ply === raw.ply ? hint.move : null,
    hintPending: Boolean(hint && hint.ply === raw.ply && !hint.move),
    seats: raw.seats.map((seat) => ({
      color: seat.color,
      kind: seat.kind,
      level: seat.level,
      name: seat.name,
      account: seat.account,
      bot: seat.bot,
      rating: seat.rating,
      taken: seat.taken,
      connected: seat.connected,
      takeoverAt: seat.takeover_at ? Date.parse(seat.takeover_at) : null,
      mine: (raw.you ?? []).includes(seat.color),
    })),
    room: raw.room,
    url: raw.url,
    clock: clockOf(raw.clock, colors, Date.parse(raw.server_time)),
    drawAllowed: raw.draw.allowed,
    drawOfferedBy: raw.draw.offered_by,
    abortAllowed: raw.abort_allowed,
    spectators: raw.spectators,
  };
}

function clockOf(clock, colors, serverTime) {
  if (!clock) return null;
  return {
    control: clock.time_control,
    remaining: perColor(clock.remaining_ms, colors),
    running: clock.running,
    serverTime,
  };
}

/**
 * The time `color` has left at the server's time `now` (ms): the server's figure when it built
 * the state, less the time since for the running clock. The server alone decides a flag.
 */
export function clockLeft(state, color, now) {
  const left = state.clock.remaining.get(color) ?? 0;
  if (state.clock.running !== color) return left;
  return Math.max(0, left - Math.max(0, now - state.clock.serverTime));
}

/** A clock's text: "4:59", "0:09.4" under 10 s, "1:02:03" over an hour, "2d 03h" over a day. */
export function formatClock(ms) {
  const pad = (number) => String(number).padStart(2, "0");
  if (ms >= 86_400_000) return `${Math.floor(ms / 86_400_000)}d ${pad(Math.floor((ms % 86_400_000) / 3_600_000))}h`;
  if (ms < 10_000) return `0:0${(Math.floor(ms / 100) / 10).toFixed(1)}`;
  const seconds = Math.floor(ms / 1000);
  const minutes = Math.floor(seconds / 60);
  if (minutes >= 60) return `${Math.floor(minutes / 60)}:${pad(minutes % 60)}:${pad(seconds % 60)}`;
  return `${minutes}:${pad(seconds % 60)}`;
}

/** The server's clock now, as far as the state `state` tells. */
export function serverNow(state) {
  return Date.now() + state.clockOffset;
}

/** The board row letter of each player's disc (the inverse of CELL_CONTENT for colours). */
const COLOR_CELL = { black: "X", white: "O", red: "R", green: "G" };

/**
 * The API state after a websocket move event (games/presenters.py MoveEvent), or null when the
 * event does not follow `raw` by exactly one version (then the page asks for a resync). The
 * event carries the move and its flips, the record entries from the move on, who moves next
 * with the legal moves, the counts, the result, the clocks, the draw offer and whether an abort
 * is allowed; everything else stays as it was.
 */
export function followMove(raw, event) {
  if (event.version !== raw.version + 1) return null;
  const move = event.move;
  const cell = COLOR_CELL[move.color];
  const rows = raw.board.map((row) => [...row]);
  for (const square of [move.move, ...move.flipped]) {
    const [col, row] = parseSquare(square);
    rows[row][col] = cell;
  }
  return {
    ...raw,
    version: event.version,
    ply: event.ply,
    status: event.status,
    to_move: event.to_move,
    legal_moves: event.legal_moves,
    discs: event.discs,
    empties: event.empties,
    undo: event.undo,
    result: event.result,
    clock: event.clock,
    draw: event.draw,
    abort_allowed: event.abort_allowed,
    board: rows.map((row) => row.join("")),
    last_move: move,
    pass_notice: event.pass_notice,
    moves: [...raw.moves.slice(0, move.ply), ...event.record],
    server_time: event.server_time,
    updated_at: event.updated_at,
  };
}
