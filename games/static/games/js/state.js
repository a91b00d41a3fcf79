// Turns the API's game state into the shape the page draws; the one place that knows the
// API's field names.
import { COLORS } from "./rules.js";

function colorOf(value) {
  return typeof value === "number" ? (COLORS[value] ?? "neutral") : value;
}

function countsOf(raw, colors) {
  const counts = new Map();
  const source = raw.counts ?? {};
  colors.forEach((color, index) => {
    counts.set(color, Array.isArray(source) ? source[index] : (source[color] ?? 0));
  });
  return counts;
}

function moveOf(raw) {
  const last = raw.last_move;
  if (!last) return null;
  const flips = Array.isArray(last.flips) ? last.flips : [];
  return {
    square: last.move ?? last.square ?? last.notation,
    color: colorOf(last.color ?? last.player),
    flips,
    flipCount: typeof last.flipped === "number" ? last.flipped : flips.length,
  };
}

function resultOf(raw, colors) {
  const result = raw.result;
  if (!result) return null;
  const perColor = (values) =>
    new Map(colors.map((color, index) => [color, Array.isArray(values) ? values[index] : values?.[color]]));
  return {
    discs: perColor(result.discs),
    tournament: perColor(result.tournament),
    empties: result.empties ?? 0,
    winner: result.winner === null || result.winner === undefined ? null : colorOf(result.winner),
    draw: Boolean(result.draw),
    reason: result.reason ?? null,
  };
}

function seatsOf(raw) {
  return (raw.seats ?? []).map((seat) => ({
    color: colorOf(seat.color),
    kind: seat.kind ?? (seat.cpu || seat.level ? "cpu" : "human"),
    level: seat.level ?? null,
    name: seat.name ?? "",
    mine: Boolean(seat.mine ?? seat.is_you ?? seat.you),
    open: Boolean(seat.open ?? (seat.kind === "open")),
    connected: seat.connected ?? true,
    takeover: Boolean(seat.takeover_available ?? seat.can_take_over),
  }));
}

/** The page's view of one API game state. */
export function normalizeState(raw) {
  const variant = raw.variant ?? {};
  const players = variant.players ?? 2;
  const colors = COLORS.slice(0, players);
  const pass = raw.pass_notice ?? raw.pass ?? null;
  return {
    id: raw.id,
    ply: raw.ply,
    mode: raw.mode ?? "cpu",
    status: raw.status,
    active: raw.status === "active",
    toMove: raw.to_move === null || raw.to_move === undefined ? null : colorOf(raw.to_move),
    legal: (raw.legal_moves ?? []).filter((move) => move !== "pass"),
    mustPass: (raw.legal_moves ?? []).includes("pass"),
    rows: raw.board,
    colors,
    variant,
    counts: countsOf(raw, colors),
    empties: raw.empties ?? raw.board.join("").split("-").length - 1,
    lastMove: moveOf(raw),
    pass: pass ? { color: colorOf(pass.color ?? pass.player ?? pass) } : null,
    result: resultOf(raw, colors),
    undoAllowed: Boolean(raw.undo_allowed ?? raw.undo),
    undos: raw.undo_count ?? raw.undos ?? 0,
    hints: raw.hint_count ?? raw.hints ?? 0,
    hint: raw.hint ?? null,
    seats: seatsOf(raw),
    url: raw.url,
  };
}
