// The Rummy 45 board (docs/rules-45.md): the stack, the trump, the train, every player's
// displays and take-back pile, your own tiles only, the doubles exchange, and the actions of a
// turn. Tiles move by drag and drop (Pointer Events) or by selecting them and clicking.
// Every action is one POST /api/games/<gid>/r45 {move, key, expected_seq} (games/r45_services.py)
// through the shared Client (./api.js), which also follows the game's socket.

import { Client } from "./api.js";
import { playerName } from "./people.js";

const boot = JSON.parse(document.getElementById("bootstrap").textContent);
const CODES = boot.tile_codes;
const ME = boot.seat;
const SEATS = boot.seats;
const COLOURS = { K: 0, B: 1, R: 2, Y: 3, J: 4 };
const $ = (id) => document.getElementById(id);
const root = $("r45");

let view = boot.view;
let status = boot.status;
let deadline = boot.deadline;
let selected = new Set(); // tile ids of your own board
let drafts = []; // melds being built: tile ids, yours or the table's (a discard, the train, a joker)
let busy = false;
let endShown = false;
let dragging = false; // while a tile is pressed or carried, updates wait: the board is drawn after
let pending = false;

const name = (seat) => SEATS[seat]?.name || `Seat ${seat + 1}`;
const code = (id) => CODES[id];
const isJoker = (id) => code(id) === "J";
const mine = () => new Set(view?.rack || []);
const myTurn = () => ME !== null && view && view.to_act.includes(ME);

function order(a, b) {
  const ca = code(a), cb = code(b);
  return COLOURS[ca[0]] - COLOURS[cb[0]] || Number(ca.slice(1) || 99) - Number(cb.slice(1) || 99) || a - b;
}

function tileEl(id, extra = {}) {
  const c = code(id);
  const el = document.createElement("span");
  el.className = "r45-tile c" + c[0];
  el.textContent = c === "J" ? "☺" : c.slice(1);
  el.dataset.tile = id;
  el.dataset.code = c;
  el.setAttribute("aria-label", c === "J" ? "joker" : c);
  for (const [k, v] of Object.entries(extra)) el.dataset[k] = v;
  return el;
}

// ---- the table's tiles that a meld being built may use

function foreign(id) {
  if (!view) return null;
  const t = view.train.indexOf(id);
  if (t >= 0) return { train: t };
  for (const [m, meld] of view.melds.entries()) {
    if (meld.tiles.includes(id) && isJoker(id)) return { meld: m };
  }
  return null;
}

function prune() {
  const own = mine();
  selected = new Set([...selected].filter((t) => own.has(t)));
  drafts = drafts.map((d) => d.filter((t) => own.has(t) || foreign(t))).filter((d) => d.length);
}

// A meld as written: with a joker, in the order its tiles were picked (its place says what it
// stands for); else sorted, a 1 after the 13 of a run that holds one (R12 R13 R1).
function arranged(tiles) {
  if (tiles.some(isJoker)) return tiles;
  const sorted = [...tiles].sort(order);
  const run = new Set(sorted.map((t) => code(t)[0])).size === 1;
  if (run && sorted.some((t) => code(t).slice(1) === "13")) {
    const ones = sorted.filter((t) => code(t).slice(1) === "1");
    const rest = sorted.filter((t) => code(t).slice(1) !== "1");
    return ones.length === 2 ? [ones[0], ...rest, ones[1]] : [...rest, ...ones];
  }
  return sorted;
}

function addToDraft(id, index) {
  for (const d of drafts) {
    const at = d.indexOf(id);
    if (at >= 0) d.splice(at, 1);
  }
  drafts = drafts.filter((d) => d.length);
  if (index === undefined || index >= drafts.length) drafts.push([id]);
  else drafts[index].push(id);
  drafts = drafts.map(arranged);
  selected.delete(id);
  render();
}

function removeFromDrafts(id) {
  drafts = drafts.map((d) => d.filter((t) => t !== id)).filter((d) => d.length);
  render();
}

// ---- actions

function say(text) {
  $("r45-error").textContent = text || "";
}

// One move at a time, in the order they were made: a move made while another is on its way
// (a tile dropped on the train while the draw is still being answered) waits its turn, and is
// sent with the seq the first one's answer brings, instead of being lost.
let queue = Promise.resolve();

function send(move) {
  const run = queue.then(() => post(move));
  queue = run.catch(() => {});
  return run;
}

async function post(move) {
  busy = true;
  say("");
  try {
    const answer = await client.post("r45", { move });
    if (!answer.ok) say(answer.data?.message || `Refused (${answer.status}).`);
    return answer;
  } finally {
    busy = false;
    render();
  }
}

function playDrafts() {
  const melds = drafts.map((d) => [...d]);
  if (!melds.length) return say("Build a meld first: select tiles and press “Selected → new meld”.");
  const used = new Set(melds.flat());
  const taken = melds.flat().map(foreign).filter(Boolean);
  const joker = taken.find((f) => f.meld !== undefined);
  const train = taken.filter((f) => f.train !== undefined).map((f) => f.train);
  let move;
  if (joker) {
    const give = [...selected].filter((t) => !used.has(t));
    if (!give.length) return say("Select the tile(s) the joker stands for, to give in its place.");
    move = { action: "Borrow", meld: joker.meld, give, melds };
  } else if (train.length && !view.taken && train.length === 1 && train[0] === view.train.length - 1) {
    move = { action: "TakeDiscard", melds };
  } else if (train.length) {
    move = { action: "BreakTrain", start: Math.min(...train), melds };
  } else {
    move = { action: "Display", melds };
  }
  send(move).then((a) => {
    if (a.ok) {
      drafts = [];
      selected.clear();
      render();
    }
  });
}

async function stitch(tile, meld, side) {
  const first = await send({ action: "Stitch", tile, meld, end: "" });
  if (!first.ok && first.data?.error === "which_end") await send({ action: "Stitch", tile, meld, end: side });
  if (first.ok) selected.delete(tile);
  render();
}

function one(what) {
  if (selected.size !== 1) {
    say(`Select one tile of yours to ${what}.`);
    return null;
  }
  return [...selected][0];
}

function discard(tile) {
  send({ action: "Discard", tile }).then((a) => a.ok && (selected.delete(tile), render()));
}

// ---- drag and drop (Pointer Events); a press without a move is a click

function dropTarget(x, y) {
  const el = document.elementFromPoint(x, y);
  return el?.closest("[data-drop]") || null;
}

function dropped(id, target, x) {
  const kind = target.dataset.drop;
  if (kind === "meld") {
    const rect = target.getBoundingClientRect();
    return stitch(id, Number(target.dataset.meld), x < rect.left + rect.width / 2 ? "low" : "high");
  }
  if (kind === "train") return discard(id);
  if (kind === "draft") return addToDraft(id, Number(target.dataset.draft));
  if (kind === "new-draft") return addToDraft(id);
  if (kind === "hand") return removeFromDrafts(id);
}

function draggable(el, id, onClick) {
  el.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    down.preventDefault();
    const start = { x: down.clientX, y: down.clientY };
    let ghost = null;
    el.setPointerCapture(down.pointerId);
    // From the press on, updates wait (a poll or a frame would redraw the hand and drop the
    // pressed tile from under the pointer): the board is drawn again once it is released.
    dragging = true;
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) > 6) {
        ghost = el.cloneNode(true);
        ghost.classList.add("r45-ghost");
        document.body.append(ghost);
        el.classList.add("r45-lifted");
      }
      if (ghost) {
        ghost.style.left = `${e.clientX - 18}px`;
        ghost.style.top = `${e.clientY - 24}px`;
        document.querySelectorAll(".r45-over").forEach((o) => o.classList.remove("r45-over"));
        dropTarget(e.clientX, e.clientY)?.classList.add("r45-over");
      }
    };
    const up = (e) => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      document.querySelectorAll(".r45-over").forEach((o) => o.classList.remove("r45-over"));
      el.classList.remove("r45-lifted");
      dragging = false;
      if (!ghost) {
        onClick();
        if (pending) render();
        return;
      }
      ghost.remove();
      const target = e.type === "pointercancel" ? null : dropTarget(e.clientX, e.clientY);
      if (target) dropped(id, target, e.clientX);
      if (pending) render();
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  });
}

// ---- drawing the board

function statusText() {
  if (!view) return "Waiting for the deal.";
  if (view.phase === "over") {
    return view.winner === null ? "Game over: no winner (the tiles ran out)." : `Game over: ${name(view.winner)} won.`;
  }
  if (view.phase === "setup") {
    const waiting = view.to_act.map(name).join(", ");
    const offer = view.offer && view.offer.to === ME ? ` ${name(view.offer.seat)} offers you a ${view.offer.size} double.` : "";
    return `Before play: the trump and the doubles. Waiting for ${waiting}.${offer}`;
  }
  const first = view.first_round ? " First round: draw and discard only." : "";
  if (!myTurn()) return `${name(view.turn)} to play.${first}`;
  if (!view.taken) return `Your turn: draw from the stack, or take the last discard into a display.${first}`;
  if (view.opened_turn[ME] === view.turn_number) return "You displayed: now discard (the rest waits a round).";
  return `Your turn: display, stitch, borrow a joker or break the train, then discard.${first}`;
}

function renderPlayers() {
  const box = $("r45-players");
  box.replaceChildren(
    ...SEATS.map((seat) => {
      const s = seat.index;
      const el = document.createElement("article");
      el.className = "r45-player" + (view && view.to_act.includes(s) ? " r45-acting" : "") + (s === ME ? " r45-me" : "");
      el.dataset.seat = s;
      const head = document.createElement("h3");
      const notes = [];
      if (view) {
        notes.push(`${view.rack_counts[s]} tiles`);
        if (view.opened[s]) notes.push("displayed");
        if (view.on_board[s]) notes.push("on the board");
        if (view.few[s]) notes.push("3 or fewer!");
        if (view.trump_shown === s) notes.push("showed the trump");
        if (view.doubles[s]?.length) notes.push(`doubles: ${view.doubles[s].join(", ")}`);
        if (view.phase === "over") notes.push(`${view.scores[s]} points`);
      }
      // An account's name links to its profile; a guest's or a bot's is the name alone.
      head.replaceChildren(playerName(name(s), seat.username), s === ME ? " (you)" : "");
      const small = document.createElement("span");
      small.className = "r45-small";
      small.textContent = " · " + notes.join(" · ");
      head.append(small);
      el.append(head);
      const melds = document.createElement("div");
      melds.className = "r45-displays";
      (view?.melds || []).forEach((meld, m) => {
        if (meld.owner !== s) return;
        const row = document.createElement("div");
        row.className = "r45-meld";
        row.dataset.drop = "meld";
        row.dataset.meld = m;
        row.setAttribute("aria-label", `meld ${m + 1}: ${meld.codes.join(" ")}`);
        meld.tiles.forEach((t) => {
          const tile = tileEl(t);
          if (isJoker(t)) {
            tile.classList.add("r45-pick");
            tile.title = "Borrow this joker: add it to a meld being built";
            tile.addEventListener("click", () => myTurn() && addToDraft(t));
          }
          row.append(tile);
        });
        row.addEventListener("click", (e) => {
          if (e.target.closest(".r45-pick") || selected.size !== 1) return;
          const rect = row.getBoundingClientRect();
          stitch([...selected][0], m, e.clientX < rect.left + rect.width / 2 ? "low" : "high");
        });
        melds.append(row);
      });
      el.append(melds);
      const back = view?.takebacks[s] || [];
      if (back.length) {
        const pile = document.createElement("div");
        pile.className = "r45-takeback";
        pile.append("Take-back: ", ...back.map((t) => tileEl(t)));
        el.append(pile);
      }
      if (view?.racks) {
        const board = document.createElement("div");
        board.className = "r45-left";
        board.append("Left on the board: ", ...[...view.racks[s]].sort(order).map((t) => tileEl(t)));
        el.append(board);
      }
      return el;
    }),
  );
}

function renderSetup() {
  const box = $("r45-setup");
  const setup = view?.phase === "setup" && ME !== null;
  box.hidden = !setup;
  if (!setup) return;
  const holdsTwin = view.trump_shown === null && view.rack_codes.includes(view.trump_code);
  $("r45-show-trump").hidden = !holdsTwin || view.ready[ME];
  $("r45-ready").disabled = view.ready[ME] || busy;
  $("r45-ready").textContent = view.ready[ME] ? "Ready: waiting for the others" : "Ready";
  $("r45-announce").disabled = view.ready[ME] || busy;
  const select = $("r45-offer-to");
  const others = SEATS.filter((s) => s.index !== ME && view.doubles[s.index]?.length);
  select.replaceChildren(...others.map((s) => new Option(name(s.index), s.index)));
  $("r45-offer").disabled = !others.length || !view.doubles[ME]?.length || view.offer !== null || busy;
  const toMe = view.offer && view.offer.to === ME;
  $("r45-offer-in").textContent = toMe ? `${name(view.offer.seat)} offers a ${view.offer.size} double.` : view.offer ? "An exchange offer is waiting." : "";
  $("r45-accept").hidden = $("r45-decline").hidden = !toMe;
}

function renderHand() {
  const hand = $("r45-hand");
  const inDrafts = new Set(drafts.flat());
  const rack = [...(view?.rack || [])].filter((t) => !inDrafts.has(t)).sort(order);
  hand.replaceChildren(
    ...rack.map((t) => {
      const el = tileEl(t);
      el.classList.toggle("r45-selected", selected.has(t));
      el.tabIndex = 0;
      const toggle = () => {
        if (selected.has(t)) selected.delete(t);
        else selected.add(t);
        render();
      };
      el.addEventListener("keydown", (e) => (e.key === " " || e.key === "Enter") && (e.preventDefault(), toggle()));
      draggable(el, t, toggle);
      return el;
    }),
  );
  const box = $("r45-drafts");
  const fresh = $("r45-new-draft");
  box.replaceChildren(
    ...drafts.map((d, i) => {
      const el = document.createElement("div");
      el.className = "r45-draft";
      el.dataset.drop = "draft";
      el.dataset.draft = i;
      d.forEach((t) => {
        const tile = tileEl(t);
        if (foreign(t)) tile.classList.add("r45-foreign");
        tile.title = "Click to take it out of this meld";
        tile.addEventListener("click", () => removeFromDrafts(t));
        el.append(tile);
      });
      return el;
    }),
    fresh,
  );
}

function renderActions() {
  const turn = myTurn() && view.phase === "play";
  const acting = turn && view.taken && !view.first_round;
  const show = (id, on) => ($(id).hidden = !on);
  show("r45-actions", ME !== null && view?.phase !== "over");
  $("r45-draw").disabled = !turn || view.taken || busy;
  $("r45-play").disabled = !turn || busy || !drafts.length;
  const usesDiscard = drafts.flat().some((t) => view?.train.indexOf(t) === view?.train.length - 1);
  $("r45-play").textContent = !view?.taken && usesDiscard ? "Take the discard and display" : "Display";
  $("r45-discard").disabled = !turn || !view.taken || busy;
  $("r45-board").hidden = !(turn && !view.taken && !view.first_round && !view.opened[ME] && view.train.length > 1);
  $("r45-goout").hidden = !(acting && !view.opened[ME]);
  $("r45-take-trump").hidden = !(turn && !view.taken && !view.first_round && !view.opened[ME] && view.trump_up);
}

function renderClock() {
  const el = $("r45-clock");
  if (!deadline || view?.phase === "over") return (el.textContent = "");
  const left = Math.max(0, Math.round((Date.parse(deadline) - Date.now() - client.skew) / 1000));
  el.textContent = left > 3600 ? `${Math.round(left / 3600)} h left` : `${left} s`;
}

function render() {
  if (dragging) {
    pending = true;
    return;
  }
  pending = false;
  $("r45-stock").textContent = view ? view.stock : "?";
  const trump = $("r45-trump-tile");
  trump.replaceChildren(view?.trump !== null && view?.trump !== undefined ? tileEl(view.trump) : "?");
  $("r45-trump").classList.toggle("r45-gone", !view?.trump_up);
  $("r45-status").textContent = statusText();
  const train = $("r45-train");
  train.replaceChildren(
    ...(view?.train || []).map((t, i) => {
      const el = tileEl(t, { train: i });
      if (i === 0) el.classList.add("r45-loco");
      if (i === view.train.length - 1 && i > 0) el.classList.add("r45-last");
      if (i > 0) el.addEventListener("click", () => myTurn() && addToDraft(t));
      return el;
    }),
  );
  renderPlayers();
  renderSetup();
  renderHand();
  renderActions();
  renderClock();
  root.dataset.phase = view?.phase || "";
  root.dataset.seq = client.seq;
  if (view?.phase === "over" && !endShown) showEnd();
}

async function showEnd() {
  endShown = true;
  let data = null;
  for (let attempt = 0; attempt < 10 && !data; attempt++) {
    const response = await fetch(`${client.api}end`, { credentials: "same-origin" });
    if (response.ok) data = await response.json();
    else await new Promise((r) => setTimeout(r, 500));
  }
  if (!data) return;
  const body = $("r45-scorecard").querySelector("tbody");
  body.replaceChildren(
    ...data.scorecard.map((line) => {
      const tr = document.createElement("tr");
      tr.dataset.seat = line.seat;
      for (const value of [line.place, playerName(line.name, line.username), line.total, line.melds_laid, line.tiles_played, line.went_out ? "yes" : ""]) {
        const td = document.createElement("td");
        td.append(value instanceof Node ? value : String(value));
        tr.append(td);
      }
      return tr;
    }),
  );
  $("r45-end-title").textContent = statusText();
  const links = $("r45-end-links");
  links.replaceChildren();
  for (const [label, key] of [["Replay", "replay"], ["Record", "record"], ["Check the shuffle", "verify"]]) {
    const a = document.createElement("a");
    a.href = data.links[key];
    a.textContent = label;
    links.append(a, " ");
  }
  const dialog = $("r45-end");
  if (!dialog.open) dialog.showModal();
  root.dataset.ended = "";
}

// ---- wiring

const client = new Client({
  api: boot.api,
  ws: boot.ws,
  csrf: boot.csrf,
  seq: boot.seq,
  onUpdate: (data) => {
    view = data.view;
    if (data.status) status = data.status;
    if ("deadline" in data) deadline = data.deadline;
    prune();
    render();
  },
});

$("r45-draw").addEventListener("click", () => send({ action: "Draw" }));
$("r45-meld").addEventListener("click", () => {
  if (!selected.size) return say("Select tiles of yours first.");
  drafts.push(arranged([...selected]));
  selected.clear();
  render();
});
$("r45-play").addEventListener("click", playDrafts);
$("r45-clear").addEventListener("click", () => ((drafts = []), render()));
$("r45-discard").addEventListener("click", () => {
  const t = one("discard");
  if (t !== null) discard(t);
});
$("r45-board").addEventListener("click", () => send({ action: "TakeDiscard", on_board: true }));
$("r45-goout").addEventListener("click", () => {
  const t = one("discard as you go out");
  if (t !== null) send({ action: "GoOut", tile: t });
});
$("r45-take-trump").addEventListener("click", () => {
  const t = one("discard after taking the trump");
  if (t !== null) send({ action: "TakeTrump", discard: t });
});
$("r45-show-trump").addEventListener("click", () => send({ action: "ShowTrump" }));
$("r45-ready").addEventListener("click", () => send({ action: "Ready" }));
$("r45-announce").addEventListener("click", () => {
  const sizes = [...document.querySelectorAll("#r45-doubles-box input:checked")].map((i) => i.value);
  if (!sizes.length) return say("Tick the sizes of the doubles you hold.");
  send({ action: "AnnounceDoubles", sizes });
});
$("r45-offer").addEventListener("click", () => {
  const t = one("offer (one tile of a double)");
  if (t !== null) send({ action: "OfferExchange", to: Number($("r45-offer-to").value), give: t });
});
$("r45-accept").addEventListener("click", () => {
  const t = one("give (one tile of a double)");
  if (t !== null) send({ action: "AnswerExchange", give: t });
});
$("r45-decline").addEventListener("click", () => send({ action: "AnswerExchange", give: null }));

window.r45 = {
  client,
  get view() { return view; },
  get status() { return status; },
  get drafts() { return drafts; },
  get busy() { return busy; },
};
render();
client.connect();
if (boot.poll_ms) setInterval(() => status !== "finished" && client.refresh().catch(() => {}), boot.poll_ms);
setInterval(renderClock, 1000);
root.dataset.ready = "";
