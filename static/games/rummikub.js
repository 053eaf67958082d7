// The Rummikub page (templates/games/game.html) over the board kit (static/kit/): reads the
// bootstrap the view rendered, builds the board and wires the model, the drawing, the pointer
// and keyboard input, the sounds, the settings and the live connection together.

import { createActions } from "../kit/actions.js";
import { Client } from "../kit/client.js";
import { fetchEnd, onRematch, outcomeTitle, ratingChanges, wayBack } from "../kit/end.js";
import { applySettings, bindSettings, loadSettings } from "../kit/settings.js";
import * as sounds from "../kit/sounds.js";
import { installTable, tableActions } from "../kit/table-actions.js";
import { Board } from "../kit/state.js";
import { Ui, escapeHtml } from "../kit/ui.js";

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
  // Resigning is a visible control beside End turn (with a confirm), not a setting.
  ui.addControl("resign", "⚑", "Resign", "Resign the game").classList.add("rm-resign");
  // The account's sort, arriving after load (static/players/board-settings.js), re-sorts a
  // rack the player has not arranged yet.
  root.rummiUseSort = (kind) => {
    if (board.useSort(kind)) ui.render();
  };
  applySettings(root, settings);
  const panel = bindSettings(root, { panel: ui.el.settings, gear: ui.el.gear }, settings);

  const act = {
    ...tableActions({ board, ui, orderedSelection: () => drag.orderedSelection() }),
    async hint() {
      if (!boot.hints || board.seat === null) return;
      if (board.view?.resigned?.[board.seat]) return act.refuse("You resigned: there are no hints for you.");
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
      ui.announce(`Hint: ${act.describe(data.played)}.`);
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
      if (board.seat === null || board.view?.finished || board.view?.resigned?.[board.seat]) return;
      if (!confirm("Resign this game?")) return;
      await send("resign", {});
    },
    closeSettings: () => panel.close(),
  };

  async function send(action, extra) {
    const result = await actions.send(action, extra);
    if (result.ok && action === "play") sounds.play("clink");
    if (result.ok && action === "draw") sounds.play("click");
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
  const actions = createActions({
    client,
    onBusy(busy) {
      ui.busy = busy;
      ui.render();
    },
    say: (text, kind) => ui.say(text, kind),
    sound: (name) => sounds.play(name),
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

  const drag = installTable({ root, board, ui, act, extra: { draw: () => act.draw(), resign: () => act.resign() } });

  // The end of the game (static/kit/end.js): the viewer's outcome, the scorecard with the
  // rating changes, the links, the way back and the rematch; while someone else's rematch
  // waits for this player, it is asked again every few seconds.
  let endTimer = null;
  let changes = null;
  async function loadEnd() {
    clearTimeout(endTimer);
    const data = await fetchEnd(boot.api);
    if (!data) return;
    changes = changes || (await ratingChanges(boot.gid));
    ui.showEnd(data, { title: outcomeTitle(data.scorecard, board.seat), back: wayBack(data.links), changes });
    root.dataset.ended = "1";
    const r = data.rematch || {};
    if (!ui.el.end.hidden && r.can_offer && r.status !== "playing") endTimer = setTimeout(() => loadEnd().catch(() => {}), 4000);
  }
  ui.onGameOver = () => loadEnd().catch(() => {});
  onRematch(ui.el.end, boot.api, boot.csrf, (text) => ui.say(text));
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
  root.classList.toggle("rm-watching", seat === null);
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

const node = document.getElementById("bootstrap");
const root = document.getElementById("rummi");
if (node && root) {
  window.rummi = start(root, JSON.parse(node.textContent));
}
