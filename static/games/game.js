// The game page: reads the bootstrap the view rendered, builds the board and wires the model,
// the drawing, the pointer and keyboard input, the sounds and the live connection together.

import { Client } from "./api.js";
import { installDrag } from "./drag.js";
import { installKeys } from "./keys.js";
import { tileName } from "./rules.js";
import * as sounds from "./sounds.js";
import { Board } from "./state.js";
import { Ui, escapeHtml } from "./ui.js";

export const SETTINGS_KEY = "rummi:settings";
const DEFAULTS = { felt: "green", back: "lattice", outline: true, cb: false, mute: false, sort: "colour" };

export function loadSettings() {
  try {
    return { ...DEFAULTS, ...JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}") };
  } catch {
    return { ...DEFAULTS };
  }
}

export function start(root, boot) {
  const seat = boot.seat ?? boot.me ?? null;
  const settings = loadSettings();
  const board = new Board({
    gid: boot.gid,
    seat,
    codes: boot.tile_codes,
    correspondence: !!(boot.correspondence_days ?? boot.correspondence),
    sort: settings.sort,
  });
  const ui = new Ui(root, board, boot);
  // The account's sort, arriving after load (static/players/board-settings.js), re-sorts a
  // rack the player has not arranged yet.
  root.rummiUseSort = (kind) => {
    if (board.useSort(kind)) ui.render();
  };
  applySettings(root, settings);
  bindSettings(root, ui, settings);

  const describe = (ids) => ids.map((id) => tileName(board.codes[id])).join(", ");
  const after = () => ui.render();
  const act = {
    sound: (name) => sounds.play(name),
    refuse(message) {
      if (message) ui.say(message, "error");
      sounds.play("deny");
      ui.render();
    },
    selected() {
      ui.render();
      const n = board.selection.size;
      ui.announce(n ? `${n} tile${n > 1 ? "s" : ""} picked` : "Nothing picked");
    },
    toggle(id) {
      if (!board.canPick(id)) return act.refuse(board.seat === null ? "" : "Wait for your turn to move table tiles.");
      if (board.selection.has(id)) board.selection.delete(id);
      else board.selection.add(id);
      sounds.play("tick");
      ui.render();
      const n = board.selection.size;
      ui.announce(`${board.selection.has(id) ? "Picked" : "Put down"} ${tileName(board.codes[id])}. ${n} picked.`);
    },
    move(ids, target) {
      const error = board.move(ids, target);
      if (error) return act.refuse(error);
      board.selection.clear();
      sounds.play(target.area === "rack" ? "click" : "clink");
      ui.say("");
      after();
      const where = target.area === "rack" ? "to your rack" : target.area === "new" ? "into a new meld" : `into meld ${target.meld + 1}`;
      ui.announce(`Moved ${describe(ids)} ${where}.`);
    },
    swap(a, b) {
      const error = board.swap(a, b);
      if (error) return act.refuse(error);
      sounds.play("clink");
      after();
      ui.announce(`Swapped ${describe([a])} and ${describe([b])}.`);
    },
    newMeld() {
      if (!board.selection.size) return ui.say("Pick tiles first, then make a new meld of them.");
      act.move(drag.orderedSelection(), { area: "new" });
    },
    undo() {
      if (board.undo()) {
        sounds.play("click");
        ui.announce("Undone.");
      }
      after();
    },
    reset() {
      if (board.reset()) {
        sounds.play("shuffle");
        ui.announce("The turn is back to its start.");
        ui.say("");
      }
      after();
    },
    sort(kind) {
      board.sortRack(kind);
      sounds.play("click");
      after();
      ui.announce(kind === "number" ? "Rack sorted by number." : "Rack sorted by colour.");
    },
    async hint() {
      if (!boot.hints || board.seat === null) return;
      const answer = await fetch(`${boot.api}hint`, { credentials: "same-origin" });
      const data = await answer.json().catch(() => ({}));
      if (!answer.ok) return act.refuse(data.message || "No hint now.");
      if (!data.tiles_played) {
        board.hint = null;
        ui.say("Hint: there is no play from this rack; draw a tile.");
        return ui.render();
      }
      const played = new Set(data.played);
      const targets = data.table.filter((meld) => meld.some((id) => played.has(id)));
      const touched = new Set(targets.flat());
      const melds = new Set();
      board.table.forEach((meld, i) => {
        if (meld.some((id) => touched.has(id))) melds.add(i);
      });
      board.hint = { tiles: played, melds };
      const words = targets.map((meld) => meld.map((id) => board.codes[id]).join(" "));
      ui.say(`Hint: lay ${data.tiles_played} tile${data.tiles_played > 1 ? "s" : ""}, making ${words.join(" · ")}.`, "hint");
      ui.announce(`Hint: ${describe(data.played)}.`);
      sounds.play("tick");
      ui.render();
    },
    async draw() {
      if (!board.myTurn || ui.busy) return act.refuse(board.myTurn ? "" : "It is not your turn.");
      if (board.dirty) return act.refuse("Undo your changes to the table before drawing.");
      await send(board.view.pool > 0 ? "draw" : "pass", {});
    },
    async endTurn() {
      if (!board.myTurn || ui.busy) return act.refuse(board.myTurn ? "" : "It is not your turn.");
      const check = board.check();
      if (!check.ok) return act.refuse(check.reason);
      await send("play", { table: board.submission() });
    },
    async resign() {
      if (board.seat === null || !confirm("Resign this game?")) return;
      await send("resign", {});
    },
    closeSettings() {
      ui.el.settings.hidden = true;
      ui.el.gear.setAttribute("aria-expanded", "false");
      ui.el.gear.focus();
    },
  };

  async function send(action, extra) {
    ui.busy = true;
    ui.render();
    const result = await client.post(action, extra);
    ui.busy = false;
    if (result.ok) {
      if (action === "play") sounds.play("clink");
      if (action === "draw") sounds.play("click");
      ui.say("");
    } else if (result.status === 409) {
      ui.say("The game moved on while you played; the board is up to date again.", "error");
    } else {
      ui.say(result.data?.message || `The server refused that (${result.status}).`, "error");
      sounds.play("deny");
    }
    ui.render();
    return result;
  }

  const client = new Client({
    api: boot.api,
    ws: boot.ws,
    csrf: boot.csrf,
    seq: boot.seq,
    onUpdate: (data, source) => update(data, source),
    onConnection: (state) => root.classList.toggle("rm-offline", state === "closed"),
  });

  function update(data, source) {
    const before = board.view;
    if (data.seats) boot.seats = data.seats;
    if (data.status) boot.status = data.status;
    if ("deadline" in data) boot.deadline = data.deadline;
    board.applyView(data.view, boot.status);
    for (const item of data.events || []) hear(item.event || item);
    const turnMoved = before && before.turn_number !== data.view.turn_number;
    // Frames and POST answers carry no deadline: a new turn's clock comes from a GET.
    if (turnMoved && !("deadline" in data)) client.refresh().catch(() => {});
    if (turnMoved && board.myTurn) {
      ui.announce("Your turn.");
      sounds.play("tick");
    }
    if (turnMoved) {
      warned = false;
      board.hint = null;
    }
    ui.render();
  }

  function hear(event) {
    const name = (i) => boot.seats?.[i]?.name || `Seat ${i + 1}`;
    if (event.kind === "TilesPlayed" && event.seat !== board.seat) sounds.play("clink");
    else if (event.kind === "RoundStarted") sounds.play("shuffle");
    else if (event.kind === "TurnTimedOut") {
      const mine = event.seat === board.seat;
      board.notice = null; // this says it better than "the turn ended"
      ui.say(
        mine
          ? `You ran out of time and drew ${event.drawn.length}; the table went back to the start of your turn.`
          : `${name(event.seat)} ran out of time and drew ${event.drawn.length}.`,
      );
      sounds.play("warning");
    }
    else if (event.kind === "RoundEnded") {
      if (event.reason === "going_out") sounds.play("chime");
      ui.showRound(event, name);
    } else if (event.kind === "GameEnded") {
      sounds.play("chime");
      showAway([]);
    }
    if (event.kind === "TurnTimedOut" && board.seat !== null && event.seat !== board.seat) loadAway();
  }

  // A seat that timed out three turns in a row is away: the others choose to play on against
  // a bot in it, or to end the game as its player's resignation (POST /api/games/<gid>/away).
  const awayBox = document.createElement("div");
  awayBox.className = "rm-away";
  awayBox.hidden = true;
  awayBox.setAttribute("role", "alert");
  root.append(awayBox);
  function showAway(seats) {
    const others = (seats || []).filter((s) => s !== board.seat);
    if (board.seat === null || !others.length || board.view?.finished) {
      awayBox.hidden = true;
      return;
    }
    const s = others[0];
    const who = escapeHtml(boot.seats?.[s]?.name || `Seat ${s + 1}`);
    awayBox.innerHTML =
      `<p><b>${who}</b> has timed out three turns in a row and seems to have left the table.</p>` +
      `<p><button type="button" class="rm-btn rm-primary" data-away="bot" data-seat="${s}">Play on against a bot</button> ` +
      `<button type="button" class="rm-btn" data-away="end" data-seat="${s}">End the game (${who} resigns)</button></p>`;
    awayBox.hidden = false;
  }
  async function loadAway() {
    const response = await fetch(`${boot.api}away`, { credentials: "same-origin" }).catch(() => null);
    if (response?.ok) showAway((await response.json()).away);
  }
  awayBox.addEventListener("click", async (e) => {
    const button = e.target.closest("[data-away]");
    if (!button) return;
    button.disabled = true;
    const response = await fetch(`${boot.api}away`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": boot.csrf },
      body: JSON.stringify({ seat: Number(button.dataset.seat), choice: button.dataset.away }),
    }).catch(() => null);
    const data = response ? await response.json().catch(() => ({})) : {};
    if (!response?.ok) {
      button.disabled = false;
      return ui.say(data.message || "That did not work; try again.");
    }
    awayBox.hidden = true;
    if (data.choice === "bot" && boot.seats?.[data.seat]) boot.seats[data.seat].kind = "bot";
    client.refresh().catch(() => {});
  });

  const drag = installDrag({ root, board, ui, act });
  installKeys({ root, board, ui, act, orderedSelection: drag.orderedSelection });
  ui.el.controls.addEventListener("click", (e) => {
    const btn = e.target.closest("[data-act]");
    if (!btn || btn.disabled) return;
    const run = {
      "sort-colour": () => act.sort("colour"),
      "sort-number": () => act.sort("number"),
      undo: act.undo,
      reset: act.reset,
      new: act.newMeld,
      draw: act.draw,
      end: act.endTurn,
      hint: act.hint,
    }[btn.dataset.act];
    run?.();
  });
  root.querySelector(".rm-resign").addEventListener("click", () => act.resign());

  // The end of the game: the scorecard, links and rematch come from the game's end endpoint;
  // while someone else's rematch waits for this player, it is asked again every few seconds.
  let endTimer = null;
  async function loadEnd() {
    clearTimeout(endTimer);
    const response = await fetch(`${boot.api}end`, { credentials: "same-origin", headers: { Accept: "application/json" } });
    if (!response.ok) return;
    const data = await response.json();
    ui.showEnd(data);
    const r = data.rematch || {};
    if (!ui.el.end.hidden && r.can_offer && r.status !== "playing") endTimer = setTimeout(() => loadEnd().catch(() => {}), 4000);
  }
  ui.onGameOver = () => loadEnd().catch(() => {});
  ui.el.end.addEventListener("click", async (e) => {
    const button = e.target.closest(".rm-rematch");
    if (!button) return;
    button.disabled = true;
    const response = await fetch(`${boot.api}rematch`, {
      method: "POST",
      credentials: "same-origin",
      headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": boot.csrf },
      body: "{}",
    }).catch(() => null);
    const data = response ? await response.json().catch(() => ({})) : {};
    if (response?.ok && data.url) location.assign(data.url);
    else {
      button.disabled = false;
      ui.say(data.message || "Could not ask for a rematch; try again.");
    }
  });
  root.querySelector(".rm-end-close").addEventListener("click", () => {
    ui.el.end.hidden = true;
    ui.el.end.classList.remove("rm-between");
  });

  let warned = false;
  let lastSecond = null;
  function tick() {
    const total = boot.clock_seconds || (boot.correspondence_days ?? 0) * 86400 || null;
    if (!boot.deadline || !total || board.view?.finished || boot.status !== "playing") {
      ui.tickClock(null, null);
      return;
    }
    const remaining = (Date.parse(boot.deadline) - (Date.now() + client.skew)) / 1000;
    ui.tickClock(remaining, total);
    if (!board.myTurn) return;
    const second = Math.ceil(remaining);
    if (remaining <= 10 && remaining > 0 && !warned) {
      warned = true;
      sounds.play("warning");
      ui.announce("Ten seconds left.");
    } else if (second <= 5 && second > 0 && second !== lastSecond) sounds.play("tick");
    lastSecond = second;
  }

  const fitPage = () => root.style.setProperty("--above", `${root.getBoundingClientRect().top + scrollY}px`);
  fitPage();
  addEventListener("resize", fitPage);
  ui.buttons.hint.hidden = !boot.hints || seat === null;
  showAway(boot.away);
  board.applyView(boot.view, boot.status);
  ui.render();
  setInterval(tick, 250);
  tick();
  setInterval(() => {
    if (board.fresh.size) {
      board.fresh.clear();
      ui.render();
    }
  }, 5000);
  if (boot.poll_ms) {
    // Embedded mode: bots and clocks run in another process whose frames reach no socket.
    setInterval(() => {
      const overdue = boot.deadline && Date.parse(boot.deadline) < Date.now();
      if (!board.view?.finished && (!board.myTurn || overdue) && !ui.busy) client.refresh().catch(() => {});
    }, boot.poll_ms);
  }
  client.connect();
  root.dataset.ready = "1";
  performance.mark("rummi-ready");
  return { board, ui, client, act };
}

export function applySettings(root, s) {
  root.dataset.felt = s.felt;
  root.dataset.back = s.back;
  root.classList.toggle("rm-cb", !!s.cb);
  root.classList.toggle("rm-no-outline", !s.outline);
  sounds.setMuted(!!s.mute);
  if (s.sort) root.rummiUseSort?.(s.sort);
}

function bindSettings(root, ui, settings) {
  const panel = ui.el.settings;
  for (const input of panel.querySelectorAll("input")) {
    if (input.type === "radio") input.checked = settings[input.name] === input.value;
    else input.checked = !!settings[input.name];
    input.addEventListener("change", () => {
      settings[input.name] = input.type === "radio" ? input.value : input.checked;
      try {
        localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
      } catch {
        // Settings just will not be remembered.
      }
      applySettings(root, settings);
    });
  }
  document.addEventListener("pointerdown", (e) => {
    if (!panel.hidden && !panel.contains(e.target) && !ui.el.gear.contains(e.target)) {
      panel.hidden = true;
      ui.el.gear.setAttribute("aria-expanded", "false");
    }
  });
  ui.el.gear.addEventListener("click", () => {
    const open = panel.hidden;
    panel.hidden = !open;
    ui.el.gear.setAttribute("aria-expanded", String(open));
    if (open) panel.querySelector("input:checked, input")?.focus();
  });
}

const node = document.getElementById("bootstrap");
const root = document.getElementById("rummi");
if (node && root) {
  window.rummi = start(root, JSON.parse(node.textContent));
}
