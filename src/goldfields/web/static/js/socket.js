// One table's WebSocket: says hello, reconnects by itself with backoff, and resyncs
// (the server answers every hello with a full update).

// A test may set a shorter beat (GOLDFIELDS_PING_MS) rather than wait a minute for a silence.
const PING_MS = Number(globalThis.GOLDFIELDS_PING_MS) || 25000;

export class TableSocket {
  /**
   * @param {string} tableId
   * @param {{seat: number|null, token: string|null}} who
   * @param {{onMessage: Function, onStatus: Function}} handlers
   */
  constructor(tableId, who, handlers) {
    this.tableId = tableId;
    this.who = who;
    this.onMessage = handlers.onMessage;
    this.onStatus = handlers.onStatus || (() => {});
    this.ws = null;
    this.attempt = 0;
    this.closed = false;
    this.timer = null;
    this.pinger = null;
    this.status = "idle";
    this.notBefore = 0; // performance.now() before which not to reconnect (a server's retry_after)
    this.toldWait = 0; // seconds: the last refusal's retry_after on this socket
    // Messages are handled one after another: handling one may wait (the first update loads the
    // game's module), and the next must not overtake it (two updates would mount two boards).
    this.handled = Promise.resolve();
  }

  url() {
    const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${window.location.host}/api/tables/${encodeURIComponent(this.tableId)}/ws`;
  }

  setStatus(status, detail) {
    this.status = status;
    this.onStatus(status, detail);
  }

  connect() {
    this.closed = false;
    clearTimeout(this.timer);
    this.setStatus(this.attempt ? "reconnecting" : "connecting");
    let ws;
    try {
      ws = new WebSocket(this.url());
    } catch {
      this.retry();
      return;
    }
    this.ws = ws;
    ws.onopen = () => {
      const hello = { type: "hello" };
      if (this.who.seat !== null && this.who.token) {
        hello.seat = this.who.seat;
        hello.token = this.who.token;
      }
      ws.send(JSON.stringify(hello));
      clearInterval(this.pinger);
      this.heard = performance.now();
      this.pinged = null;
      // The server answers every ping: a ping still unanswered at the next beat means the connection
      // is dead though the browser has not noticed (half-open, after a network change), so it is
      // opened again. Counted in beats, not seconds: a hidden tab's timers run late, a minute apart.
      this.pinger = setInterval(() => {
        if (this.pinged !== null && this.heard < this.pinged) {
          this.resync();
          return;
        }
        this.pinged = performance.now();
        this.send({ type: "ping" });
      }, PING_MS);
    };
    ws.onmessage = (event) => {
      this.heard = performance.now();
      let msg;
      try {
        msg = JSON.parse(event.data);
      } catch {
        return;
      }
      if (msg.type === "update" && msg.full) {
        this.attempt = 0; // a full update means we are in sync again
        this.setStatus("online");
      }
      // A refusal's wait, for the next try should the server close the socket for it (below).
      if (msg.type === "error" && msg.retry_after > 0) this.toldWait = msg.retry_after;
      this.handled = this.handled
        .then(() => this.onMessage(msg))
        .catch((err) => setTimeout(() => { throw err; })); // reported as before, and the next goes on
    };
    ws.onclose = (event) => {
      if (this.ws !== ws) return; // a socket already replaced: its pinger went with it
      clearInterval(this.pinger);
      this.ws = null;
      if (this.closed) return;
      if (event.code === 4404) {
        this.setStatus("gone");
        return;
      }
      // 1013, try again later (a join refused for the join rate, too many sockets): the next try
      // waits as long as the server said, not the backoff's half second.
      if (event.code === 1013 && this.toldWait) this.notBefore = performance.now() + this.toldWait * 1000;
      this.toldWait = 0;
      this.retry();
    };
    ws.onerror = () => {
      /* onclose follows */
    };
  }

  retry() {
    if (this.closed) return;
    // 0.5 s, 1 s, 2 s ... up to 10 s, with some jitter so that a restarted server is not stampeded.
    const base = Math.min(10000, 500 * 2 ** Math.min(this.attempt, 5));
    const told = Math.max(0, (this.notBefore || 0) - performance.now()); // a server's retry_after
    const delay = Math.max(told, Math.round(base * (0.75 + Math.random() * 0.5)));
    this.notBefore = 0;
    this.attempt += 1;
    this.setStatus("offline", delay);
    this.timer = setTimeout(() => this.connect(), delay);
  }

  /** Drop the connection and open a new one now: the full update that follows resyncs. */
  resync() {
    const ws = this.ws;
    this.ws = null;
    clearInterval(this.pinger);
    if (ws) ws.close();
    this.attempt = 0;
    this.connect();
  }

  send(message) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    clearInterval(this.pinger);
    if (this.ws) this.ws.close();
    this.ws = null;
  }
}
