// Premove: one move queued while another player (or the CPU) is to move, played as soon as the
// viewer's turn comes if the server's state lists it among the legal moves, and dropped if it
// does not. The page restates no rule: the only legality it knows is the server's list.

export class Premove {
  constructor() {
    this.square = null;
  }

  /** Queue `square`, replacing any queued move (the same square again cancels it). */
  toggle(square) {
    this.square = this.square === square ? null : square;
  }

  cancel() {
    this.square = null;
  }

  /**
   * Take the queued move now that it is the viewer's turn: `{play}` when `legal` (the server's
   * legal moves) holds it, `{dropped}` when it does not, null when nothing was queued.
   */
  take(legal) {
    const square = this.square;
    this.square = null;
    if (square === null) return null;
    return legal.includes(square) ? { play: square } : { dropped: square };
  }
}
