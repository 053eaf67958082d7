// The puzzle page: the board kit's table (static/kit) on a one-player table that is always your
// turn, with no clock and no pool. Submit asks the server, whose engine is the judge; Hint and
// Give up ask it too. Reads the puzzle-bootstrap JSON and replaces #puzzle-board.

import { playerName } from "../kit/people.js";
import * as sounds from "../kit/sounds.js";
import { installTable, tableActions } from "../kit/table-actions.js";
import { Board } from "../kit/state.js";
import { Ui } from "../kit/ui.js";

// The draft is not kept across reloads: a puzzle starts from its table every time.
const NO_STORAGE = { getItem: () => null, setItem() {}, removeItem() {}, key: () => null, length: 0 };

function csrfToken() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

async function post(url, body) {
  try {
    const response = await fetch(url, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
      body: JSON.stringify(body || {}),
    });
    const data = await response.json().catch(() => ({}));
    return { ok: response.ok, status: response.status, data };
  } catch {
    return { ok: false, status: 0, data: { message: "The server could not be reached; try again." } };
  }
}

/** Synthetic tile ids: table tiles first, meld by meld, then the rack; codes[id] is the code. */
export function deal(table, rack) {
  const codes = [];
  const ids = (list) => list.map((code) => codes.push(code) - 1);
  const melds = table.map(ids);
  return { codes, table: melds, rack: ids(rack) };
}

export function goalText(goal, rackSize) {
  if (goal === "all" || goal === null || goal === undefined || goal >= rackSize) {
    return rackSize === 1 ? "Put down your rack tile." : `Put down all ${rackSize} rack tiles.`;
  }
  return `Put down at least ${goal} of your ${rackSize} rack tiles.`;
}

// The most rack tiles a puzzle keeps on one tier of the rack (a phone's row holds about 8).
const ONE_TIER = 8;

export function start(host, boot) {
  const dealt = deal(boot.table, boot.rack);
  const root = document.createElement("div");
  root.id = "rummi";
  root.className = "rummi rm-puzzle";
  root.dataset.felt = "green";
  root.dataset.back = "lattice";
  host.replaceChildren(root);

  const board = new Board({ gid: `puzzle-${boot.slug}`, seat: 0, codes: dealt.codes, storage: NO_STORAGE });
  const view = {
    table: dealt.table,
    rack: dealt.rack,
    turn: 0,
    turn_number: 1,
    round: 1,
    players: 1,
    rack_counts: [dealt.rack.length],
    pool: 0,
    finished: false,
    initial_meld_done: [true],
    rules: { opening: 0 },
    match: {},
  };
  const uiBoot = { status: "playing", mode: "puzzle", seats: [{ name: "You" }] };
  const ui = new Ui(root, board, uiBoot);
  let done = false; // solved or given up: the table is shown, no more moves
  let hintCodes = null; // the hinted meld's codes, kept highlighted as tiles move

  // The puzzle's facts where the players and the pool would be.
  const top = root.querySelector(".rm-top");
  const info = document.createElement("div");
  info.className = "pz-info";
  info.innerHTML = '<span class="pz-level"></span> <span class="pz-goal"></span><p class="pz-lesson"></p>';
  info.querySelector(".pz-level").textContent = `Level ${boot.level}${boot.technique ? ` · ${boot.technique}` : ""}`;
  info.querySelector(".pz-goal").textContent = goalText(boot.goal, boot.rack.length);
  info.querySelector(".pz-lesson").textContent = boot.lesson || "";
  top.prepend(info);

  // The game's controls, fitted to a puzzle: no draw, Submit for End turn, Hint and Give up.
  ui.buttons.draw.hidden = true;
  ui.buttons.hint.hidden = false;
  ui.buttons.hint.title = "Show a meld of the solution; it costs rating (H)";
  ui.buttons.end.querySelector("span:not(.rm-secs)").textContent = "Submit";
  ui.buttons.end.title = "Submit the table (Space)";
  const giveUp = ui.addControl("give-up", "⚑", "Give up", "Show the solution");

  const baseRender = ui.render.bind(ui);
  ui.render = () => {
    board.hint = hintCodes ? hintFor(hintCodes) : null;
    baseRender();
    const check = board.check();
    // The engine judges a submission: Submit works as soon as a tile is on the table.
    ui.buttons.end.disabled = done || ui.busy || !check.played.length;
    ui.buttons.end.title = check.ok ? "Submit the table (Space)" : `Submit the table (Space): ${check.reason}`;
    ui.buttons.hint.disabled = done || ui.busy;
    giveUp.disabled = done || ui.busy;
    if (done) for (const name of ["undo", "reset", "new", "sort-colour", "sort-number"]) ui.buttons[name].disabled = true;
    ui.el.turn.textContent = done ? (root.dataset.solved ? "Solved!" : "The solution") : "Your move";
    ui.el.round.textContent = "";
    if (!check.played.length && !done) ui.el.hint.textContent = "Drag your rack tiles onto the table.";
    else if (!check.ok && !done) ui.el.hint.textContent = check.reason.replace(", or draw", "");
  };

  /** The ids of the hinted meld's tiles wherever they are now, and the melds that hold them. */
  function hintFor(codes) {
    const want = [...codes];
    const tiles = new Set();
    const all = [...board.rack.flat(), ...board.table.flat()];
    for (const code of want) {
      const id = all.find((i) => board.codes[i] === code && !tiles.has(i));
      if (id !== undefined) tiles.add(id);
    }
    const melds = new Set();
    board.table.forEach((meld, i) => {
      if (meld.length && meld.every((id) => tiles.has(id))) melds.add(i);
    });
    return { tiles, melds };
  }

  // Today's daily already solved: the solved table, no new attempt.
  const started = boot.solved_table ? Promise.resolve(null) : post(boot.api.attempt, { mode: boot.mode });

  const act = {
    ...tableActions({
      board,
      ui,
      orderedSelection: () => drag.orderedSelection(),
      frozen: () => done,
      resetText: "The puzzle is back to its start.",
    }),
    draw() {},
    resign() {},
    closeSettings() {
      ui.el.settings.hidden = true;
    },
    async hint() {
      if (done || ui.busy) return;
      const result = await ask(boot.api.hint);
      if (!result) return;
      if (!result.ok) return act.refuse(result.data.message || "No hint now.");
      hintCodes = result.data.meld;
      ui.say(`Hint: ${result.data.message || result.data.meld.join(" ")}`, "hint");
      sounds.play("tick");
      ui.render();
    },
    async giveUp() {
      if (done || ui.busy) return;
      // Ask first, saying what it costs: the first press arms the button, the second gives up.
      if (giveUp.dataset.armed !== "1") {
        giveUp.dataset.armed = "1";
        const cost = boot.give_up_cost;
        ui.say(
          `Give up and see the solution? ${cost ? `It costs about ${Math.round(cost)} rating point${Math.round(cost) === 1 ? "" : "s"}` : "It does not change your rating"}. Press Give up again to confirm.`,
          "error",
        );
        giveUp.setAttribute("aria-pressed", "true");
        return;
      }
      const result = await ask(boot.api.give_up);
      if (!result) return;
      if (!result.ok) return act.refuse(result.data.message || "The server refused that.");
      showSolution(result.data.solution);
      const change = ratingText(result.data.rating);
      ui.say(`The solution is on the table.${change}`, "result");
      ui.render();
      refreshPage(result.data.rating);
    },
    async endTurn() {
      if (done || ui.busy) return;
      if (!board.check().played.length) return act.refuse("Put a rack tile on the table first.");
      const result = await ask(boot.api.submit, { table: board.submission().map((m) => m.map(board.codeOf)) });
      if (!result) return;
      if (!result.ok) {
        ui.say(result.data.message || `The server refused that (${result.status}).`, "error");
        sounds.play("deny");
        return ui.render();
      }
      done = true;
      hintCodes = null;
      root.dataset.solved = "1";
      sounds.play("chime");
      const d = result.data;
      ui.say(`Solved in ${d.seconds} s${d.hints ? ` with ${d.hints} hint${d.hints > 1 ? "s" : ""}` : ""}!${ratingText(d.rating)}`, "result");
      ui.render();
      refreshPage(d.rating);
    },
  };

  async function ask(url, body) {
    ui.busy = true;
    ui.render();
    await started;
    const result = await post(url, body);
    ui.busy = false;
    return result;
  }

  /** After a solve or a give-up: the page's rating line, and on the daily its leaderboard and
   * streak, without a reload. */
  async function refreshPage(rating) {
    const line = document.getElementById("rating-line");
    if (line && rating) line.textContent = String(Math.round(rating.after));
    if (!boot.daily_api) return;
    const response = await fetch(boot.daily_api, { credentials: "same-origin" }).catch(() => null);
    if (!response?.ok) return;
    const state = await response.json();
    const streak = document.getElementById("daily-streak");
    if (streak) streak.textContent = String(state.streak);
    const solved = document.getElementById("daily-solved");
    if (solved && state.solved) solved.textContent = "You solved today's.";
    const board = document.getElementById("daily-leaderboard");
    if (!board) return;
    board.replaceChildren(leaderboard(state.leaderboard));
  }

  /** The daily's leaderboard as templates/puzzles/daily.html draws it: each name links to the
   * player's profile after their avatar. Built from nodes: a name is never read as HTML. */
  function leaderboard(rows) {
    if (!rows.length) {
      const none = document.createElement("p");
      none.className = "muted";
      none.textContent = "No ranked solve yet.";
      return none;
    }
    const table = document.createElement("table");
    table.className = "board";
    const line = (tag, cells) => {
      const tr = table.insertRow();
      for (const value of cells) {
        const cell = document.createElement(tag);
        cell.append(value);
        tr.append(cell);
      }
    };
    line("th", ["#", "Player", "Time", "Hints"]);
    for (const r of rows) line("td", [String(r.rank), playerName(r.name, r.username), `${r.seconds} s`, String(r.hints)]);
    return table;
  }

  function ratingText(rating) {
    if (!rating) return "";
    const sign = rating.change >= 0 ? "+" : "";
    return ` Rating ${Math.round(rating.after)} (${sign}${Math.round(rating.change)}).`;
  }

  /** Lay the solution out with the puzzle's own tiles (codes matched to ids, twins in turn). */
  function showSolution(solution) {
    const free = new Map();
    for (let id = 0; id < board.codes.length; id++) {
      const code = board.codes[id];
      if (!free.has(code)) free.set(code, []);
      free.get(code).push(id);
    }
    board.table = solution.map((meld) => meld.map((code) => free.get(code)?.shift()).filter((id) => id !== undefined));
    const used = new Set(board.table.flat());
    board.rack = board.rack.map((tier) => tier.filter((id) => !used.has(id)));
    board.selection.clear();
    hintCodes = null;
    done = true;
    root.dataset.gaveUp = "1";
  }

  const drag = installTable({ root, board, ui, act, extra: { "give-up": () => act.giveUp() } });

  const fitPage = () => root.style.setProperty("--above", `${root.getBoundingClientRect().top + scrollY}px`);
  fitPage();
  addEventListener("resize", fitPage);
  // A puzzle's short rack stays on one tier: the board splits a rack over two for a full
  // hand, which would put each of two tiles on its own row.
  const baseSort = board.sortRack.bind(board);
  const oneTier = () => {
    if (board.rack.flat().length <= ONE_TIER) board.rack = [board.rack.flat(), []];
  };
  board.sortRack = (kind, record = true) => {
    baseSort(kind, record);
    oneTier();
  };
  board.applyView(view, "playing");
  oneTier();
  if (board.base) board.base.rack = board.rack.map((tier) => [...tier]); // what Reset restores
  if (boot.solved_table) {
    showSolution(boot.solved_table);
    delete root.dataset.gaveUp;
    root.dataset.solved = "1";
    ui.say("You solved today's puzzle: this is your table. A new one comes tomorrow.", "result");
  }
  ui.render();
  root.dataset.ready = "1";
  return { board, ui, act, started };
}

const node = document.getElementById("puzzle-bootstrap");
const host = document.getElementById("puzzle-board");
if (node && host) {
  window.rummi = start(host, JSON.parse(node.textContent));
}
