// The Rummy 45 page (templates/games/r45.html, docs/rules-45.md) over the board kit
// (static/kit/): the stack, the trump, the train, every player's displays and take-back pile,
// your own tiles only, the doubles exchange, and the actions of a turn. Tiles move by drag and
// drop, by selecting them and clicking, or by keyboard alone (the keys are in the settings
// panel). Every action is one POST /api/games/<gid>/r45 {move, key, expected_seq} through the
// kit's action controller, which also follows the game's socket. The account's felt, tile back,
// colour-blind mode and mute apply, the sounds play, and the end offers the rematch and the way
// back.

import { createActions } from "../kit/actions.js";
import { Client } from "../kit/client.js";
import { formatClock, secondsLeft } from "../kit/clock.js";
import { afterRelease, carry, holding } from "../kit/drag.js";
import { abortedNote, byPlace, fetchEnd, lineNote, outcomeTitle, ratingCell, ratingChanges, onRematch, rematchControls, wayBack } from "../kit/end.js";
import { onBoardKeys, walkRows } from "../kit/keys.js";
import { playerName } from "../kit/people.js";
import { applySettings, bindSettings, loadSettings, settingsFields } from "../kit/settings.js";
import * as sounds from "../kit/sounds.js";
import { jokerSymbol, tileBack, tileElement } from "../kit/tiles.js";

const boot = JSON.parse(document.getElementById("bootstrap").textContent);
const CODES = boot.tile_codes;
const ME = boot.seat;
const SEATS = boot.seats;
const COLOURS = { K: 0, B: 1, R: 2, Y: 3, J: 4 };
const $ = (id) => document.getElementById(id);
const root = $("r45");

const KEYS = `<p class="rm-keys"><b>Keys:</b> arrows move between tiles, Enter (or X) picks a tile of
  yours or takes a train tile or a joker into the meld being built, Esc clears the pick;
  D draw from the stack, T take the last discard, N the picked tiles as a new meld, P display
  the melds, C clear them, S stitch the picked tile onto the focused meld (Shift+S at its low
  end), Q discard the picked tile.</p>`;

let view = boot.view;
let status = boot.status;
let deadline = boot.deadline;
let selected = new Set(); // tile ids of your own board
let drafts = []; // melds being built: tile ids, yours or the table's (a discard, the train, a joker)
let endShown = false;

const name = (seat) => SEATS[seat]?.name || `Seat ${seat + 1}`;
const code = (id) => CODES[id];
const isJoker = (id) => code(id) === "J";
const mine = () => new Set(view?.rack || []);
const myTurn = () => ME !== null && view && view.to_act.includes(ME);
/** Whether the viewer has resigned (the others may play on: docs/rules-45.md "Resigning"). */
const resigned = () => ME !== null && !!view?.resigned?.[ME];

function order(a, b) {
  const ca = code(a), cb = code(b);
  return COLOURS[ca[0]] - COLOURS[cb[0]] || Number(ca.slice(1) || 99) - Number(cb.slice(1) || 99) || a - b;
}

function tileEl(id, extra = {}) {
  const el = tileElement(code(id), "span");
  el.classList.add("r45-tile");
  el.dataset.tile = id;
  el.tabIndex = -1;
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
  sounds.play("click");
  render();
}

function removeFromDrafts(id) {
  drafts = drafts.map((d) => d.filter((t) => t !== id)).filter((d) => d.length);
  render();
}

function toggle(id) {
  if (selected.has(id)) selected.delete(id);
  else selected.add(id);
  sounds.play("tick");
  render();
}

function newMeld() {
  if (!selected.size) return say("Select tiles of yours first.");
  drafts.push(arranged([...selected]));
  selected.clear();
  sounds.play("click");
  render();
}

// ---- actions

function say(text) {
  $("r45-error").textContent = text || "";
}

const client = new Client({
  api: boot.api,
  ws: boot.ws,
  csrf: boot.csrf,
  seq: boot.seq,
  onUpdate: (data) => {
    const before = view;
    view = data.view;
    if (data.status) status = data.status;
    if ("deadline" in data) deadline = data.deadline;
    for (const item of data.events || []) hear(item.event || item);
    if (before && before.turn_number !== view.turn_number && myTurn()) sounds.play("tick");
    prune();
    render();
  },
  onConnection: (state) => root.classList.toggle("rm-offline", state === "closed"),
});

const actions = createActions({ client, onBusy: () => render(), say, sound: (n) => sounds.play(n) });

/** The sounds of what others did (one's own moves sound as they are answered). */
function hear(event) {
  if (event.kind === "PlayStarted") sounds.play("shuffle");
  else if (event.kind === "GameEnded") sounds.play("chime");
  else if (event.seat === ME) return;
  else if (["Discarded", "Displayed", "Stitched", "JokerBorrowed", "TrainBroken", "WentOutOnBoard"].includes(event.kind)) sounds.play("clink");
  else if (event.kind === "TileDrawn" || event.kind === "DiscardTaken") sounds.play("click");
}

const SOUND_OF = { Draw: "click", TakeDiscard: "clink", Display: "clink", Stitch: "clink", Borrow: "clink", BreakTrain: "clink", Discard: "clink", GoOut: "chime", TakeTrump: "clink" };

async function send(move, options) {
  const answer = await actions.send("r45", { move }, options);
  if (answer.ok && SOUND_OF[move.action]) sounds.play(SOUND_OF[move.action]);
  return answer;
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
  // The server finds the end a tile fits; only when both would do does it ask which.
  const first = await send({ action: "Stitch", tile, meld, end: "" }, { quiet: true });
  let answer = first;
  if (!first.ok && first.data?.error === "which_end") answer = await send({ action: "Stitch", tile, meld, end: side });
  else if (!first.ok) say(first.data?.message || `The server refused that (${first.status}).`);
  if (answer.ok) selected.delete(tile);
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

function draw() {
  if (!myTurn() || view.phase !== "play" || view.taken) return say(myTurn() ? "You have already drawn this turn." : "It is not your turn.");
  send({ action: "Draw" });
}

function takeLastDiscard() {
  const last = view?.train.length > 1 ? view.train[view.train.length - 1] : null;
  if (!myTurn() || last === null) return say("There is no discard to take now.");
  addToDraft(last);
}

// ---- drag and drop (the kit's carry): a press without a move is a click

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

// ---- drawing the board

function statusText() {
  if (!view) return "Waiting for the deal.";
  if (view.phase === "over") {
    if (view.winner === null) return "Game over: no winner (the tiles ran out).";
    if (view.reason !== "resigned") return `Game over: ${name(view.winner)} won.`;
    const quit = (view.resigned || []).flatMap((out, s) => (out ? [s === ME ? "you" : name(s)] : []));
    const who = quit.length > 1 ? `${quit.slice(0, -1).join(", ")} and ${quit.at(-1)}` : quit[0];
    return `Game over: ${name(view.winner)} won (${who} resigned).`;
  }
  if (resigned()) return "You resigned: the others play on.";
  if (view.phase === "setup") {
    // The viewer is told what to do, never that the table waits for them by name.
    const others = view.to_act.filter((s) => s !== ME).map(name);
    const waiting = others.length ? ` Waiting for ${others.join(", ")}.` : "";
    if (view.offer && view.offer.to === ME) {
      return `Before play: ${name(view.offer.seat)} offers you a ${view.offer.size} double: accept with the selected tile, or decline.${waiting}`;
    }
    if (myTurn()) return `Before play, your move: show the trump or announce your doubles if you hold them, then press Ready.${waiting}`;
    return `Before play: the trump and the doubles.${waiting}`;
  }
  const first = view.first_round ? " First round: draw and discard only." : "";
  if (!myTurn()) return `${name(view.turn)} to play.${first}`;
  if (view.first_round) {
    // The first round has two steps at most; the 15-tile player has taken already.
    if (!view.taken) return "Your turn, first round: draw from the stack, then discard (no display yet).";
    const train = view.train.length ? "" : ": the locomotive, which starts the train";
    return `Your turn, first round: discard one tile${train} (no display yet).`;
  }
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
      head.replaceChildren(tileBack(), " ", playerName(name(s), seat.username), s === ME ? " (you)" : "");
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
            tile.setAttribute("role", "button");
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
  const setup = view?.phase === "setup" && ME !== null && !resigned();
  box.hidden = !setup;
  if (!setup) return;
  const holdsTwin = view.trump_shown === null && view.rack_codes.includes(view.trump_code);
  $("r45-show-trump").hidden = !holdsTwin || view.ready[ME];
  $("r45-ready").disabled = view.ready[ME] || actions.busy;
  $("r45-ready").textContent = view.ready[ME] ? "Ready: waiting for the others" : "Ready";
  $("r45-announce").disabled = view.ready[ME] || actions.busy;
  const select = $("r45-offer-to");
  const others = SEATS.filter((s) => s.index !== ME && view.doubles[s.index]?.length);
  select.replaceChildren(...others.map((s) => new Option(name(s.index), s.index)));
  $("r45-offer").disabled = !others.length || !view.doubles[ME]?.length || view.offer !== null || actions.busy;
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
      const on = selected.has(t);
      el.classList.toggle("r45-selected", on);
      el.setAttribute("role", "button");
      el.setAttribute("aria-pressed", String(on));
      carry(el, { onTap: () => toggle(t), onDrop: (zone, x) => dropped(t, zone, x), overClass: "r45-over", liftedClass: "r45-lifted", ghostClass: "r45-ghost" });
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
        tile.setAttribute("role", "button");
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
  const busy = actions.busy;
  const show = (id, on) => ($(id).hidden = !on);
  show("r45-actions", ME !== null && view?.phase !== "over" && !resigned());
  // Resigning is a visible control (with a confirm), as on the Rummikub board.
  $("r45-resign").disabled = busy || status !== "playing";
  $("r45-draw").disabled = !turn || view.taken || busy;
  $("r45-play").disabled = !turn || busy || !drafts.length;
  const usesDiscard = drafts.flat().some((t) => view?.train.indexOf(t) === view?.train.length - 1);
  $("r45-play").textContent = !view?.taken && usesDiscard ? "Take the discard and display" : "Display";
  $("r45-discard").disabled = !turn || !view.taken || busy;
  $("r45-board").hidden = !(turn && !view.taken && !view.first_round && !view.opened[ME] && view.train.length > 1);
  $("r45-goout").hidden = !(acting && !view.opened[ME]);
  $("r45-take-trump").hidden = !(turn && !view.taken && !view.first_round && !view.opened[ME] && view.trump_up);
}

/** The clock beside the status: whose move it is and how long they have left, for the side
 * that waits as for the mover (a correspondence move has days). */
function renderClock() {
  const el = $("r45-clock");
  const left = secondsLeft(deadline, client.skew);
  if (left === null || !view || view.phase === "over" || status === "finished") return (el.textContent = "");
  const who = view.to_act.includes(ME) ? "You have" : `${view.to_act.map(name).join(", ")} ${view.to_act.length > 1 ? "have" : "has"}`;
  el.textContent = `${who} ${formatClock(left)} left`;
  el.classList.toggle("r45-hurry", left <= 10);
}

function render() {
  // From a press on a tile until it is let go, the hand stays still (static/kit/drag.js).
  if (holding()) return afterRelease(render);
  const focused = document.activeElement?.closest?.(".r45 [data-tile]")?.dataset.tile;
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
      if (i > 0) {
        el.setAttribute("role", "button");
        el.addEventListener("click", () => myTurn() && addToDraft(t));
      }
      return el;
    }),
  );
  renderPlayers();
  renderSetup();
  renderHand();
  renderActions();
  renderClock();
  // The board is drawn anew: the keyboard's place stays on the same tile (or the hand's first).
  const again = focused && root.querySelector(`[data-tile="${focused}"]`);
  const first = $("r45-hand").querySelector(".r45-tile");
  if (first && !root.querySelector('[data-tile][tabindex="0"]')) first.tabIndex = 0;
  if (again) {
    again.tabIndex = 0;
    again.focus({ preventScroll: true });
  } else if (focused && first) first.focus({ preventScroll: true });
  root.dataset.phase = view?.phase || "";
  root.dataset.seq = client.seq;
  if (view?.phase === "over" && !endShown) showEnd();
}

// ---- the end: the viewer's outcome, the scorecard by place, the rematch and the way back

let endTimer = null;
let changes = null;

async function showEnd() {
  endShown = true;
  clearTimeout(endTimer);
  let data = null;
  for (let attempt = 0; attempt < 10 && !data; attempt++) {
    data = await fetchEnd(client.api);
    if (!data) await new Promise((r) => setTimeout(r, 500));
  }
  if (!data) return;
  changes = changes || (await ratingChanges(boot.gid));
  const lines = byPlace(data.scorecard);
  const heads = $("r45-scorecard").querySelector("thead tr");
  heads.querySelector(".r45-rating-head")?.remove();
  if (changes) {
    const th = document.createElement("th");
    th.className = "r45-rating-head";
    th.scope = "col";
    th.textContent = "Rating";
    heads.append(th);
  }
  $("r45-scorecard").querySelector("tbody").replaceChildren(
    ...lines.map((line) => {
      const tr = document.createElement("tr");
      tr.dataset.seat = line.seat;
      if (line.place === 1) tr.className = "won";
      const who = playerName(line.name, line.username);
      const note = lineNote(line);
      const cells = [line.place, [who, note], line.total, line.melds_laid, line.tiles_played, line.went_out ? "yes" : ""];
      if (changes) cells.push(ratingCell(changes, line.seat));
      for (const value of cells) {
        const td = document.createElement("td");
        td.append(...(Array.isArray(value) ? value : [value instanceof Node ? value : String(value ?? "")]));
        tr.append(td);
      }
      return tr;
    }),
  );
  $("r45-end-title").textContent = outcomeTitle(data.scorecard, ME);
  document.getElementById("r45-aborted")?.remove();
  const aborted = abortedNote(data.scorecard);
  if (aborted) {
    aborted.id = "r45-aborted";
    $("r45-end-title").after(aborted);
  }
  const links = $("r45-end-links");
  links.replaceChildren();
  for (const [label, key] of [["Replay", "replay"], ["Record", "record"], ["Check the shuffle", "verify"]]) {
    const a = document.createElement("a");
    a.href = data.links[key];
    a.textContent = label;
    if (key === "record") a.download = "";
    links.append(...(links.childNodes.length ? [" · ", a] : [a]));
  }
  const back = wayBack(data.links);
  const home = $("r45-back");
  home.href = back.url;
  home.textContent = back.label;
  const rematch = rematchControls(data.rematch);
  $("r45-rematch").replaceChildren(...(rematch ? rematch.childNodes : []));
  const dialog = $("r45-end");
  if (!dialog.open) dialog.showModal();
  root.dataset.ended = "";
  // Someone else's rematch may come while the dialog is open: ask again every few seconds.
  const r = data.rematch || {};
  if (dialog.open && r.can_offer && r.status !== "playing") endTimer = setTimeout(() => showEnd().catch(() => {}), 4000);
}

onRematch($("r45-end"), client.api, boot.csrf, say);
$("r45-end").addEventListener("close", () => clearTimeout(endTimer));

// ---- keyboard

function focusedMeld(target) {
  const row = target.closest?.(".r45-meld");
  return row ? Number(row.dataset.meld) : null;
}

function pickOrTake(tileEl) {
  const id = Number(tileEl.dataset.tile);
  if (tileEl.closest("#r45-hand")) return toggle(id);
  if (tileEl.closest(".r45-draft")) return removeFromDrafts(id);
  if (!myTurn()) return say("It is not your turn.");
  if (tileEl.closest("#r45-train") && Number(tileEl.dataset.train) > 0) return addToDraft(id);
  if (tileEl.classList.contains("r45-pick")) return addToDraft(id);
  say("That tile cannot be taken.");
}

function walk(from, key) {
  const rows = [
    [...$("r45-train").querySelectorAll(".r45-tile")],
    ...[...root.querySelectorAll(".r45-meld")].map((m) => [...m.querySelectorAll(".r45-tile")]),
    ...[...root.querySelectorAll("#r45-drafts .r45-draft")].map((d) => [...d.querySelectorAll(".r45-tile")]),
    [...$("r45-hand").querySelectorAll(".r45-tile")],
  ];
  return walkRows(rows, from, key);
}

const keyActions = {
  d: draw,
  t: takeLastDiscard,
  n: newMeld,
  p: playDrafts,
  c: () => ((drafts = []), render()),
  q: () => {
    const t = one("discard");
    if (t !== null) discard(t);
  },
};

function answerKey(key, e) {
  if (ME === null) return false;
  const t = e.target;
  const tileEl = t.closest?.(".r45-tile");
  const onButton = t.tagName === "BUTTON" || t.tagName === "A";
  if (tileEl && (key === "Enter" || key === "x" || (key === " " && !onButton))) pickOrTake(tileEl);
  else if (key === "s") {
    const meld = focusedMeld(t);
    const tile = one("stitch");
    if (meld === null) say("Move to a meld first (arrow keys), then press S.");
    else if (tile !== null) stitch(tile, meld, e.shiftKey ? "low" : "high");
  } else if (key === "Escape") {
    selected.clear();
    render();
  } else if (key in keyActions) keyActions[key]();
  else if (key.startsWith("Arrow") || key === "Home" || key === "End") return walk(t, key);
  else return false;
  return true;
}

// ---- wiring

const settings = loadSettings();
$("r45-defs").innerHTML = jokerSymbol();
$("r45-settings").innerHTML = settingsFields({ outline: false }) + KEYS;
applySettings(root, settings);
const panel = bindSettings(root, { panel: $("r45-settings"), gear: $("r45-gear") }, settings);
onBoardKeys({ settings: panel, handle: answerKey });
$("r45-stack").prepend(...[0, 1, 2].map(() => document.createElement("i")));

$("r45-draw").addEventListener("click", draw);
$("r45-meld").addEventListener("click", newMeld);
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
$("r45-resign").addEventListener("click", async () => {
  if (ME === null || view?.phase === "over" || resigned() || !confirm("Resign this game?")) return;
  await actions.send("resign", {});
});
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
  get busy() { return actions.busy; },
};
render();
client.connect();
if (boot.poll_ms) setInterval(() => status !== "finished" && client.refresh().catch(() => {}), boot.poll_ms);
setInterval(renderClock, 1000);
root.dataset.ready = "1";
