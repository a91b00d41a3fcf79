// The game's websocket (or the lobby's): reconnects automatically with back-off and reports
// every message (the game's protocol: games/consumers.py and the README's "Websocket" section).

export class LiveGame {
  /**
   * @param {string|number|null} gameId
   * @param {{onMessage: (message: object) => void, onStatus: (online: boolean) => void}} hooks
   * @param {string} path the socket's address (the game's by default)
   */
  constructor(gameId, hooks, path = `/ws/games/${gameId}/`) {
    this.gameId = gameId;
    this.path = path;
    this.hooks = hooks;
    this.delay = 500;
    this.closed = false;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.path}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.delay = 500;
      this.hooks.onStatus(true);
    });
    socket.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.hooks.onMessage(message);
    });
    socket.addEventListener("close", () => {
      if (this.closed) return;
      this.hooks.onStatus(false);
      setTimeout(() => this.connect(), this.delay);
      this.delay = Math.min(this.delay * 2, 8000);
    });
  }

  /** Ask for the whole state unless `version` is the server's (after a gap in the versions). */
  resync(version) {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify({ type: "sync", version }));
  }

  /** Stop listening (e.g. when the room moves on to a rematch game). */
  close() {
    this.closed = true;
    this.socket?.close();
  }
}
