// The analysis's figures as the review draws them (no DOM code: tested with node --test).

/** The score of a move for black (the mover's score, turned for white). */
export function blackScore(entry) {
  return entry.color === "white" ? -entry.score : entry.score;
}

/** The ply asked for in the page's address (?ply=n), within 0..total; `null` when none. */
export function plyFromQuery(search, total) {
  const value = new URLSearchParams(search).get("ply");
  if (value === null || !/^\d+$/.test(value)) return null;
  return Math.min(Number(value), total);
}

/** The graph's points: x from 0 to `width` over the moves, y with 0 discs in the middle. */
export function graphPoints(moves, total, width, height) {
  const limit = Math.max(8, ...moves.map((entry) => Math.abs(blackScore(entry))));
  return moves.map((entry) => ({
    x: total ? ((entry.ply + 1) / total) * width : 0,
    y: height / 2 - (blackScore(entry) / limit) * (height / 2 - 4),
    mistake: entry.mistake,
    ply: entry.ply + 1,
  }));
}
