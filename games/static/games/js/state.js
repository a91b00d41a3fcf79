// Turns the API's game state (games/selectors.py game_state) into the shape the page draws;
// the one place that knows the API's field names.
import { COLORS } from "./rules.js";

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
    resigned: result.resigned,
  };
}

/** The page's view of one API game state; `viewer` lists the colours this browser holds. */
export function normalizeState(raw) {
  const colors = COLORS.slice(0, raw.variant.players ?? 2);
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
    legal: raw.legal_moves,
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
    hints: raw.hints.used,
    hint: hint && hint.ply === raw.ply ? hint.move : null,
    hintPending: Boolean(hint && hint.ply === raw.ply && !hint.move),
    seats: raw.seats.map((seat) => ({
      color: seat.color,
      kind: seat.kind,
      level: seat.level,
      name: seat.name,
      taken: seat.taken,
      connected: seat.connected,
      absentSince: seat.absent_since ? Date.parse(seat.absent_since) : null,
      mine: (raw.you ?? []).includes(seat.color),
    })),
    room: raw.room,
    url: raw.url,
  };
}
