// DEV HARNESS ONLY: a tiny in-browser stand-in for the game service of docs/api.md, so the board
// can be built and tested with `python -m http.server` before (or without) the Django backend.
// It replaces fetch and WebSocket for the game's URLs, then writes the bootstrap game.js reads.
// Query parameters: scenario=opening|midgame|end, seat, players, clock, mode, reject=1, gap=1.

import { checkTurn } from "../../kit/rules.js";

const params = new URLSearchParams(location.search);
const GID = "devgame00001";
const API = `/api/games/${GID}/`;
const WS = `/ws/games/${GID}/`;
const COLOURS = ["K", "B", "R", "Y"];
const codes = [];
for (const c of COLOURS) for (let n = 1; n <= 13; n++) for (let k = 0; k < 2; k++) codes.push(`${c}${n}`);
codes.push("J", "J");
const idOf = (code, copy = 0) => (code === "J" ? 104 + copy : codes.indexOf(code) + copy);

const scenario = params.get("scenario") || "midgame";
const players = Number(params.get("players") || 3);
const seat = params.has("spectator") ? null : Number(params.get("seat") || 0);
const clock = params.has("clock") ? Number(params.get("clock")) || null : 60;
const names = ["Alice", "Bob Marley", "Carol", "Dmitri", "Eve", "Farouk"];

function rng(seed) {
  return () => ((seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648);
}
const random = rng(Number(params.get("seed") || 7));

const state = { seq: 1, turn: 0, turn_number: 1, round: 1, table: [], racks: [], pool: [], opened: [], finished: false, passes: 0, winners: [], totals: [], scores: [] };
const used = new Set();
const take = (code) => {
  for (let k = 0; k < 2; k++) {
    const id = idOf(code, k);
    if (!used.has(id)) {
      used.add(id);
      return id;
    }
  }
  throw new Error(`no more ${code}`);
};
const melds = (list) => list.map((m) => m.split(" ").map(take));

if (scenario === "opening") {
  state.racks[0] = "R10 R11 R12 K5 B5 Y5 B1 K9 Y13 B7 R3 J K12 Y2".split(" ").map(take);
} else if (scenario === "end") {
  state.table = melds(["K1 K2 K3", "B9 R9 Y9"]);
  state.racks[0] = "R4 R5 R6".split(" ").map(take);
  state.opened = [true, true, true];
} else {
  state.table = melds(["R3 R4 R5 R6", "K7 B7 Y7", "B10 B11 B12 B13", "Y2 J Y4", "K11 R11 B11", "R8 R9 R10"]);
  state.racks[0] = "R7 K8 K9 K10 Y5 Y6 B4 B5 K12 R1 Y11 Y13 B2 K3".split(" ").map(take);
  state.opened = [true, true, true];
}
const rest = codes.map((_, i) => i).filter((i) => !used.has(i));
for (let i = rest.length - 1; i > 0; i--) {
  const j = Math.floor(random() * (i + 1));
  [rest[i], rest[j]] = [rest[j], rest[i]];
}
// ?rack=60: the player's rack filled up to that many tiles (a long game's rack on a phone).
for (let n = Number(params.get("rack") || 0); state.racks[0].length < n && rest.length; ) state.racks[0].push(rest.pop());
for (let s = 0; s < players; s++) {
  state.racks[s] ??= [];
  while (state.racks[s].length < (s === 0 ? state.racks[0].length : 14 - s)) state.racks[s].push(rest.pop());
  state.opened[s] ??= false;
  state.totals[s] = 0;
}
state.pool = rest;
state.opened = state.opened.slice(0, players);
const seats = Array.from({ length: players }, (_, i) => ({ index: i, name: names[i], kind: i === 0 ? "human" : i === 2 ? "bot" : "human", strength: null, joined: true }));
let deadline = null;
let timer = null;
const sockets = new Set();
const seen = new Map();
let rejectNext = params.get("reject") === "1";

function view(viewer) {
  return {
    seat: viewer, rules: { name: "classic", opening: 30, penalty: 3, hand: 14 }, match: { rounds: 1 }, players, round: state.round,
    finished: state.finished, table: state.table.map((m) => [...m]), table_codes: state.table.map((m) => m.map((i) => codes[i])),
    rack: viewer === null ? [] : [...state.racks[viewer]], rack_codes: viewer === null ? [] : state.racks[viewer].map((i) => codes[i]),
    rack_counts: state.racks.map((r) => r.length), pool: state.pool.length, turn: state.turn, turn_number: state.turn_number,
    initial_meld_done: [...state.opened], resigned: Array(players).fill(false), passes: state.passes, totals: [...state.totals],
    round_scores: state.scores.map((r) => [...r]), winners: [...state.winners], commitment: "00", seed: null,
  };
}
const full = () => ({ seq: state.seq, view: view(seat), seats, status: state.finished ? "finished" : "playing", deadline, me: { seat } });

function armClock() {
  clearTimeout(timer);
  if (!clock || state.finished) return (deadline = null);
  deadline = new Date(Date.now() + clock * 1000).toISOString();
  timer = setTimeout(() => {
    const s = state.turn;
    const drawn = state.pool.splice(-3, 3);
    state.racks[s].push(...drawn);
    advance([{ kind: "TurnTimedOut", seat: s, turn: state.turn_number, drawn }]);
  }, clock * 1000);
}

function advance(events) {
  if (!state.finished) {
    state.turn = (state.turn + 1) % players;
    state.turn_number++;
  }
  armClock();
  broadcast(events);
  if (!state.finished && state.turn !== seat) setTimeout(botMove, Number(params.get("botDelay") || 1400));
}

function broadcast(events) {
  const numbered = events.map((event) => ({ seq: ++state.seq, event }));
  const frame = JSON.stringify({ type: "update", seq: state.seq, events: numbered, view: view(seat), deadline, status: full().status, seats });
  for (const s of sockets) {
    if (params.get("gap") === "1" && numbered[0]?.seq % 3 === 0) continue;
    s.deliver(frame);
  }
}

function botMove() {
  if (state.finished || state.turn === seat) return;
  const s = state.turn;
  const tile = state.pool.pop();
  state.racks[s].push(tile);
  advance([{ kind: "TileDrawn", seat: s, turn: state.turn_number, tile: null }]);
}

function finishRound(winner) {
  const values = state.racks.map((r) => r.reduce((a, id) => a + (codes[id] === "J" ? 30 : Number(codes[id].slice(1))), 0));
  const scores = values.map((v, i) => (i === winner ? values.reduce((a, b) => a + b, 0) - v : -v));
  state.scores.push(scores);
  state.totals = state.totals.map((t, i) => t + scores[i]);
  state.winners = [winner];
  state.finished = true;
  return [
    { kind: "RoundEnded", round: 1, reason: "going_out", winners: [winner], scores, racks: [] },
    { kind: "GameEnded", winners: [winner], totals: state.totals, seed: "00" },
  ];
}

const json = (status, body) => new Response(JSON.stringify(body), { status, headers: { "Content-Type": "application/json", Date: new Date().toUTCString() } });

function handle(action, body) {
  if (action === "") return json(200, full());
  if (action.startsWith("events")) return json(200, { seq: state.seq, events: [] });
  if (seen.has(body.key)) return seen.get(body.key).clone();
  let answer;
  if (body.expected_seq !== state.seq) answer = json(409, { error: "stale", message: "The game moved on.", ...full() });
  else if (state.turn !== seat) answer = json(403, { error: "not_your_turn", message: "It is not your turn." });
  else if (action === "draw" || action === "pass") {
    const tile = state.pool.pop();
    if (tile !== undefined) state.racks[seat].push(tile);
    advance([{ kind: "TileDrawn", seat, turn: state.turn_number, tile }]);
    answer = json(200, full());
  } else if (action === "play") {
    const check = checkTurn({ before: state.table, after: body.table, rack: state.racks[seat], codeOf: (i) => codes[i], max: 13, opened: state.opened[seat], threshold: 30 });
    if (rejectNext) {
      rejectNext = false;
      answer = json(422, { error: "joker_not_replaced", message: "A table joker stood for Y3; it must keep standing for that tile unless a real Y3 replaced it." });
    } else if (!check.ok) answer = json(422, { error: "meld_invalid", message: check.reason });
    else {
      const played = new Set(check.played);
      state.table = body.table.map((m) => [...m]);
      state.racks[seat] = state.racks[seat].filter((id) => !played.has(id));
      state.opened[seat] = true;
      const events = [{ kind: "TilesPlayed", seat, turn: state.turn_number, table: state.table, played: [...played] }];
      if (!state.racks[seat].length) events.push(...finishRound(seat));
      advance(events);
      answer = json(200, full());
    }
  } else answer = json(400, { error: "bad", message: "Unknown action." });
  seen.set(body.key, answer.clone());
  return answer;
}

const realFetch = window.fetch.bind(window);
window.fetch = async (url, options = {}) => {
  const path = String(url);
  if (!path.startsWith(API)) return realFetch(url, options);
  await new Promise((r) => setTimeout(r, 30));
  window.mockRequests.push({ path, method: options.method || "GET", headers: options.headers || {}, body: options.body ? JSON.parse(options.body) : null });
  return handle(path.slice(API.length), options.body ? JSON.parse(options.body) : {});
};
window.mockRequests = [];

class FakeSocket extends EventTarget {
  constructor(url) {
    super();
    this.url = url;
    setTimeout(() => {
      sockets.add(this);
      this.dispatchEvent(new Event("open"));
      this.deliver(JSON.stringify({ type: "update", seq: state.seq, events: [], view: view(seat), deadline, status: full().status, seats }));
    }, 20);
  }
  deliver(data) {
    this.dispatchEvent(new MessageEvent("message", { data }));
  }
  close() {
    sockets.delete(this);
    this.dispatchEvent(new Event("close"));
  }
}
window.WebSocket = FakeSocket;
window.mock = { state, sockets, broadcast, advance, codes, idOf, botMove, finishRound, full };

if (scenario !== "opening" && params.get("turn")) state.turn = Number(params.get("turn"));
armClock();
const boot = {
  gid: GID, seat, seq: state.seq, view: view(seat), seats, status: "playing", deadline, tile_codes: codes, api: API, ws: WS,
  clock_seconds: clock, mode: params.get("mode") || "parlor", csrf: "dev-csrf-token",
};
if (params.has("correspondence")) boot.correspondence = true;
const node = document.createElement("script");
node.type = "application/json";
node.id = "bootstrap";
node.textContent = JSON.stringify(boot);
document.body.append(node);
