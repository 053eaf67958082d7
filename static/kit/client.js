// The game service client (docs/api.md): GET the state, POST turns with the expected seq and an
// idempotency key, and a websocket for live frames. Every accepted answer moves `seq` forward; a
// frame whose first event is not seq+1 means frames were missed, so the state is fetched again.

const RETRIES = 3;
// How long an action sent on the socket waits for its answer before it is sent again by POST
// (same idempotency key, so it cannot land twice).
const SOCKET_ANSWER_MS = 4000;
const PRESENCE_PING_S = 25; // until the hello's ping_s (rummi_site/pings.py)

export class Client {
  constructor({ api, ws, csrf, seq, onUpdate, onConnection = () => {} }) {
    this.api = api.endsWith("/") ? api : api + "/";
    this.wsPath = ws;
    this.csrf = csrf;
    this.seq = seq ?? -1;
    this.onUpdate = onUpdate;
    this.onConnection = onConnection;
    this.socket = null;
    this.backoff = 500;
    this.closed = false;
    this.skew = 0; // server clock minus ours, in ms, from the Date header
    this.waiting = new Map(); // idempotency key -> resolve(answer) for actions sent on the socket
  }

  /** Apply an answer carrying {seq, view, ...} if it is not older than what we have. */
  accept(data, source) {
    if (typeof data?.seq !== "number" || !data.view) return false;
    if (data.seq < this.seq) return false;
    this.seq = data.seq;
    this.onUpdate(data, source);
    return true;
  }

  noteDate(response) {
    const date = Date.parse(response.headers.get("Date") || "");
    if (!Number.isNaN(date)) this.skew = date + 500 - Date.now();
  }

  async refresh() {
    const response = await fetch(this.api, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) throw new Error(`GET ${this.api}: ${response.status}`);
    this.noteDate(response);
    const data = await response.json();
    this.accept(data, "get");
    return data;
  }

  async events(after) {
    const response = await fetch(`${this.api}events?after=${after}`, { credentials: "same-origin" });
    return response.ok ? response.json() : { events: [] };
  }

  /**
   * Send an action (play, draw, pass, resign): on the open socket when there is one (one hop,
   * no HTTP request), else, or if the socket does not answer in time, by POST. Network failures
   * are retried with the same key, so the server answers a retry with its first answer.
   * Returns {ok, status, data}.
   */
  async post(action, extra = {}) {
    const fields = { expected_seq: this.seq, key: uuid(), ...extra };
    const answer = await this.sendOnSocket(action, fields);
    if (answer) {
      const { type, key, status, ...data } = answer;
      return this.answered(action, status, data);
    }
    return this.postHttp(action, JSON.stringify(fields));
  }

  /** The socket's answer to an action, or null (no open socket, or no answer in time). */
  sendOnSocket(action, fields) {
    const socket = this.socket;
    if (!socket || socket.readyState !== 1) return Promise.resolve(null);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(fields.key);
        resolve(null);
      }, SOCKET_ANSWER_MS);
      this.waiting.set(fields.key, (answer) => {
        clearTimeout(timer);
        this.waiting.delete(fields.key);
        resolve(answer);
      });
      try {
        socket.send(JSON.stringify({ type: "act", action, ...fields }));
      } catch {
        this.waiting.get(fields.key)?.(null);
      }
    });
  }

  async answered(action, status, data) {
    if (status >= 200 && status < 300) {
      this.accept(data, action);
      return { ok: true, status, data };
    }
    if (status === 409) {
      if (!this.accept(data, "stale")) await this.refresh().catch(() => {});
    }
    return { ok: false, status, data };
  }

  async postHttp(action, body) {
    let wait = 300;
    for (let attempt = 0; attempt < RETRIES; attempt++) {
      let response;
      try {
        response = await fetch(this.api + action, {
          method: "POST",
          credentials: "same-origin",
          headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": this.csrf || cookie("csrftoken") },
          body,
        });
      } catch {
        await sleep(wait);
        wait *= 2;
        continue;
      }
      const data = await response.json().catch(() => ({}));
      return this.answered(action, response.status, data);
    }
    return { ok: false, status: 0, data: { message: "Could not reach the server; check your connection." } };
  }

  connect() {
    if (this.closed || !this.wsPath) return;
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}${this.wsPath}`);
    this.socket = socket;
    socket.addEventListener("open", () => {
      this.backoff = 500;
      this.onConnection("open");
      this.pingEvery(socket, PRESENCE_PING_S); // until the hello says how often
    });
    socket.addEventListener("message", (e) => {
      this.unanswered = false; // any frame: alive
      this.heardAt = Date.now();
      this.frame(e.data);
    });
    socket.addEventListener("close", () => this.lost(socket));
  }

  /** Ping every `seconds` (the hello's `ping_s`); no frame back by the next ping: a dead socket. */
  pingEvery(socket, seconds) {
    clearInterval(this.pinger);
    this.unanswered = false;
    this.pinger = setInterval(() => {
      if (socket.readyState !== 1) return;
      if (this.unanswered) {
        this.lost(socket);
        socket.close();
        return;
      }
      this.unanswered = true;
      socket.send('{"type":"ping"}');
    }, seconds * 1000);
  }

  /** Hear the server's beat: no frame for `seconds` (hello's silent_s), a dead socket. */
  listenFor(socket, seconds) {
    clearInterval(this.pinger);
    this.heardAt = Date.now();
    this.pinger = setInterval(() => {
      if (socket.readyState === 1 && Date.now() - this.heardAt > seconds * 1000) {
        this.lost(socket);
        socket.close();
      }
    }, seconds * 250);
  }

  /** The socket closed or died: POST what waited on it, and reconnect. */
  lost(socket) {
    if (this.socket !== socket) return;
    this.socket = null;
    clearInterval(this.pinger);
    // Actions still waiting for an answer on this socket go again by POST, same key.
    for (const resolve of [...this.waiting.values()]) resolve(null);
    this.onConnection("closed");
    if (this.closed) return;
    // Back off up to 15 s, with jitter so a restarted server is not hit by everyone at once.
    const delay = Math.min(15000, this.backoff) * (0.75 + Math.random() / 2);
    this.backoff *= 2;
    setTimeout(() => this.connect(), delay);
  }

  frame(text) {
    let data;
    try {
      data = JSON.parse(text);
    } catch {
      return;
    }
    if (data.type === "answer") {
      this.waiting.get(data.key)?.(data);
      return;
    }
    if (data.type === "hello") {
      // Sent on connect: the whole summary, as GET answers it, and to ping or hear the beat.
      if (this.socket && data.ping_s > 0) this.pingEvery(this.socket, data.ping_s);
      else if (this.socket && data.silent_s > 0) this.listenFor(this.socket, data.silent_s);
      this.accept(data, "hello");
      return;
    }
    if (data.type !== "update") return;
    if (data.seq <= this.seq) return;
    const events = data.events || [];
    if (events.length && events[0].seq !== this.seq + 1 && this.seq >= 0) {
      // A gap: frames were missed (a reconnect, a dropped message). Fetch the whole state.
      this.refresh().catch(() => this.accept(data, "ws"));
      return;
    }
    this.accept(data, "ws");
  }

  close() {
    this.closed = true;
    this.socket?.close();
  }
}

/** A v4 UUID; crypto.randomUUID needs a secure context, which a LAN game may not have. */
export function uuid() {
  if (globalThis.crypto?.randomUUID) {
    try {
      return crypto.randomUUID();
    } catch {
      // fall through
    }
  }
  const b = crypto.getRandomValues(new Uint8Array(16));
  b[6] = (b[6] & 0x0f) | 0x40;
  b[8] = (b[8] & 0x3f) | 0x80;
  const h = [...b].map((x) => x.toString(16).padStart(2, "0")).join("");
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

function cookie(name) {
  const m = document.cookie.match(new RegExp(`(?:^|; )${name}=([^;]*)`));
  return m ? decodeURIComponent(m[1]) : "";
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
