// Drawing the tile-rummy table (the Rummikub board and the puzzles): the skeleton once, then
// tiles, melds, rack, players and controls on every change. Tile elements are kept per id and
// moved, never rebuilt, so focus and animations hold.

import { formatClock } from "./clock.js";
import { abortedNote, byPlace, lineNote, ratingCell, rematchControls } from "./end.js";
import { playerName } from "./people.js";
import { settingsFields } from "./settings.js";
import { jokerSymbol, tileElement } from "./tiles.js";

const SKELETON = `
${jokerSymbol()}
<div class="rm-top">
  <ol class="rm-players" aria-label="Players"></ol>
  <div class="rm-pool" aria-live="off"><span class="rm-stack" aria-hidden="true"><i></i><i></i><i></i></span>
    <span><b class="rm-pool-n">0</b> <span class="rm-small">in pool</span></span></div>
  <button type="button" class="rm-gear" aria-haspopup="dialog" aria-expanded="false" aria-controls="rm-settings" title="Settings">
    <svg viewBox="0 0 24 24" aria-hidden="true"><path d="M19.4 13a7.7 7.7 0 0 0 0-2l2-1.6-2-3.4-2.4 1a7.6 7.6 0 0 0-1.7-1L15 3.5h-4L10.6 6a7.6 7.6 0 0 0-1.7 1l-2.4-1-2 3.4 2 1.6a7.7 7.7 0 0 0 0 2l-2 1.6 2 3.4 2.4-1a7.6 7.6 0 0 0 1.7 1l.4 2.5h4l.4-2.5a7.6 7.6 0 0 0 1.7-1l2.4 1 2-3.4ZM13 15.5a3.5 3.5 0 1 1 0-7 3.5 3.5 0 0 1 0 7Z" fill="currentColor" transform="translate(-1 0)"/></svg>
    <span class="rm-sr">Settings</span></button>
</div>
<div class="rm-settings" id="rm-settings" role="dialog" aria-label="Settings" hidden>
  ${settingsFields()}
  <p class="rm-keys"><b>Keys:</b> arrows move between tiles, Enter picks a tile, M moves the picked
    tiles after the focused one, N makes a new meld, Esc clears; Z undo, R reset, D draw,
    Space end turn, 1 sort by colour, 2 sort by number.</p>
</div>
<p class="rm-status" role="status"><span class="rm-turn"></span><span class="rm-left" aria-hidden="true"></span> <span class="rm-round rm-small"></span></p>
<section class="rm-table" tabindex="0" aria-label="Table" aria-describedby="rm-table-help">
  <div class="rm-melds"></div>
  <div class="rm-newzone" aria-hidden="true">Drop here for a new meld</div>
  <p class="rm-sr" id="rm-table-help">Arrow keys move between tiles; Enter picks one; M moves picked tiles after the focused tile; N makes a new meld.</p>
</section>
<div class="rm-hud">
  <div class="rm-opening" hidden><span class="rm-opening-text"></span><span class="rm-bar"><i></i></span></div>
  <p class="rm-hint"></p>
  <p class="rm-message" aria-live="assertive"></p>
</div>
<div class="rm-controls" role="toolbar" aria-label="Turn controls">
  <button type="button" class="rm-btn" data-act="sort-colour" title="Sort by colour (1)"><span class="rm-ic" aria-hidden="true">▤</span> Runs</button>
  <button type="button" class="rm-btn" data-act="sort-number" title="Sort by number (2)"><span class="rm-ic" aria-hidden="true">▥</span> Groups</button>
  <button type="button" class="rm-btn" data-act="undo" title="Undo one step (Z)" aria-keyshortcuts="Z"><span class="rm-ic" aria-hidden="true">↶</span> Undo</button>
  <button type="button" class="rm-btn" data-act="reset" title="Reset the turn (R)" aria-keyshortcuts="R"><span class="rm-ic" aria-hidden="true">⟲</span> Reset</button>
  <button type="button" class="rm-btn" data-act="new" title="Put the picked tiles in a new meld (N)" aria-keyshortcuts="N"><span class="rm-ic" aria-hidden="true">+</span> Meld</button>
  <button type="button" class="rm-btn rm-hint-btn" data-act="hint" title="Show me a play (H)" aria-keyshortcuts="H" hidden><span class="rm-ic" aria-hidden="true">?</span> Hint</button>
  <button type="button" class="rm-btn" data-act="draw" title="Draw a tile and end the turn (D)" aria-keyshortcuts="D"><span class="rm-ic" aria-hidden="true">⬇</span> <span class="rm-draw-label">Draw</span></button>
  <button type="button" class="rm-btn rm-primary" data-act="end" title="End the turn (Space)" aria-keyshortcuts="Space">
    <svg class="rm-clock" viewBox="0 0 36 36" aria-hidden="true"><circle class="rm-clock-bg" cx="18" cy="18" r="15"/><circle class="rm-clock-arc" cx="18" cy="18" r="15" pathLength="100"/></svg>
    <span>End turn</span> <span class="rm-secs"></span></button>
</div>
<section class="rm-rack" tabindex="0" aria-label="Your rack">
  <div class="rm-tier" data-tier="0"></div><div class="rm-tier" data-tier="1"></div>
</section>
<div class="rm-sr" aria-live="polite" data-live></div>
<div class="rm-end" hidden role="dialog" aria-modal="false" aria-labelledby="rm-end-title">
  <div class="rm-end-card"><h2 id="rm-end-title"></h2><div class="rm-end-body"></div><div class="rm-end-more"></div>
  <p class="rm-end-actions"><a class="rm-btn rm-primary rm-home" href="/">Back to the parlor</a> <button type="button" class="rm-btn rm-end-close">Look at the table</button></p></div>
</div>
<div class="rm-lasso" hidden></div>`;

const MODES = { parlor: "Parlor League", blitz: "Blitz", sandbox: "Sandbox", rush: "Rummy Rush", lan: "LAN rules" };
const GAP = 0.1; // gap between tiles, as a share of the tile width
const ASPECT = 1.34;

export class Ui {
  constructor(root, board, boot) {
    this.root = root;
    this.board = board;
    this.boot = boot;
    this.tiles = new Map();
    this.focusId = null;
    root.classList.add("rummi", "board-kit");
    root.innerHTML = SKELETON;
    if (boot?.home) root.querySelector(".rm-end .rm-home").href = boot.home;
    const $ = (s) => root.querySelector(s);
    this.el = {
      players: $(".rm-players"),
      poolN: $(".rm-pool-n"),
      turn: $(".rm-turn"),
      round: $(".rm-round"),
      left: $(".rm-left"),
      table: $(".rm-table"),
      melds: $(".rm-melds"),
      newzone: $(".rm-newzone"),
      opening: $(".rm-opening"),
      openingText: $(".rm-opening-text"),
      openingBar: $(".rm-bar i"),
      message: $(".rm-message"),
      hint: $(".rm-hint"),
      controls: $(".rm-controls"),
      rack: $(".rm-rack"),
      tiers: [...root.querySelectorAll(".rm-tier")],
      live: $("[data-live]"),
      end: $(".rm-end"),
      settings: $(".rm-settings"),
      gear: $(".rm-gear"),
      clockArc: $(".rm-clock-arc"),
      secs: $(".rm-secs"),
      drawLabel: $(".rm-draw-label"),
      lasso: $(".rm-lasso"),
    };
    this.buttons = Object.fromEntries(
      [...root.querySelectorAll("[data-act]")].map((b) => [b.dataset.act, b]),
    );
    if (board.seat === null) root.classList.add("rm-spectator");
    new ResizeObserver(() => this.fit()).observe(this.el.table);
    new ResizeObserver(() => this.fit()).observe(this.el.rack);
  }

  /** A page's own control (data-act `act`) just before End turn, kept in this.buttons. */
  addControl(act, icon, label, title) {
    const button = document.createElement("button");
    button.type = "button";
    button.className = "rm-btn";
    button.dataset.act = act;
    button.title = title;
    const mark = document.createElement("span");
    mark.className = "rm-ic";
    mark.setAttribute("aria-hidden", "true");
    mark.textContent = icon;
    button.append(mark, ` ${label}`);
    this.buttons.end.before(button);
    this.buttons[act] = button;
    return button;
  }

  tile(id) {
    let el = this.tiles.get(id);
    if (el) return el;
    el = tileElement(this.board.codes[id]);
    el.dataset.id = id;
    el.tabIndex = -1;
    el.setAttribute("role", "button");
    el.setAttribute("aria-pressed", "false");
    this.tiles.set(id, el);
    return el;
  }

  /** An account's avatar over the drawn initials (which stay for guests and bots). */
  avatar(li, username) {
    const box = li.querySelector(".rm-avatar");
    let img = box.querySelector("img");
    if (!username) return img?.remove();
    const src = `/@/${encodeURIComponent(username)}/avatar.svg`;
    if (img?.getAttribute("src") === src) return;
    img = img || document.createElement("img");
    img.className = "rm-avatar-img";
    img.alt = "";
    img.width = img.height = 40;
    img.src = src;
    box.append(img);
  }

  /** Render the whole board from the model, animating tiles that moved. */
  render() {
    const b = this.board;
    const before = this.measure();
    const check = b.check();
    const marks = b.changes();
    const placed = new Set(check.played);
    const baseKeys = new Set((b.base?.table || []).map((m) => m.join(",")));
    const melds = this.el.melds;
    while (melds.children.length > b.table.length) melds.lastChild.remove();
    b.table.forEach((meld, i) => {
      let m = melds.children[i];
      if (!m) {
        m = document.createElement("div");
        m.className = "meld";
        m.setAttribute("role", "group");
        m.tabIndex = -1;
        melds.append(m);
      }
      m.dataset.meld = i;
      const info = check.melds[i] || { valid: true };
      const touched = !baseKeys.has(meld.join(","));
      m.classList.toggle("ok", info.valid && touched && b.editing);
      m.classList.toggle("bad", !info.valid);
      m.classList.toggle("touched", touched);
      m.title = info.valid ? "" : info.error;
      const what = info.valid ? `${info.kind}, worth ${info.value}` : `not valid: ${info.error}`;
      m.setAttribute("aria-label", `Meld ${i + 1}, ${what}`);
      this.place(m, meld);
    });
    this.el.tiers.forEach((tier, t) => this.place(tier, b.rack[t] || []));
    for (const [id, el] of this.tiles) {
      const sel = b.selection.has(id);
      el.classList.toggle("sel", sel);
      el.setAttribute("aria-pressed", String(sel));
      el.classList.toggle("placed", placed.has(id));
      el.classList.toggle("chg-new", marks.get(id) === "new" && !placed.has(id));
      el.classList.toggle("chg-moved", marks.get(id) === "moved");
      el.classList.toggle("fresh", b.fresh.has(id));
      el.classList.toggle("locked", !b.canPick(id));
      el.classList.toggle("hinted", !!b.hint?.tiles.has(id));
    }
    [...melds.children].forEach((m, i) => m.classList.toggle("hint-target", !!b.hint?.melds.has(i)));
    for (const [id, el] of this.tiles) if (!b.locate(id)) el.remove();
    this.fit();
    this.animate(before);
    this.renderControls(check);
    this.renderOpening(check);
    this.renderStatus();
    if (b.notice) {
      this.say(b.notice);
      b.notice = null;
    }
  }

  place(container, ids) {
    const want = ids.map((id) => this.tile(id));
    want.forEach((el, i) => {
      if (container.children[i] !== el) container.insertBefore(el, container.children[i] || null);
    });
    while (container.children.length > want.length) container.lastChild.remove();
  }

  measure() {
    const rects = new Map();
    if (matchMedia("(prefers-reduced-motion: reduce)").matches) return rects;
    for (const [id, el] of this.tiles) if (el.isConnected) rects.set(id, el.getBoundingClientRect());
    return rects;
  }

  animate(before) {
    for (const [id, old] of before) {
      const el = this.tiles.get(id);
      if (!el?.isConnected) continue;
      const now = el.getBoundingClientRect();
      const dx = old.left - now.left;
      const dy = old.top - now.top;
      if (Math.abs(dx) < 1 && Math.abs(dy) < 1) continue;
      const scale = old.width / (now.width || 1);
      el.animate(
        [{ transform: `translate(${dx}px, ${dy}px) scale(${scale})` }, { transform: "none" }],
        { duration: 170, easing: "cubic-bezier(.2,.8,.3,1)" },
      );
    }
  }

  /** Pick tile sizes so the table and the rack fit without scrolling where they can. */
  fit() {
    const b = this.board;
    const table = this.el.table;
    const W = table.clientWidth - 16;
    const H = table.clientHeight - 16;
    if (W > 0 && H > 0) {
      const lengths = b.table.map((m) => m.length);
      let tw = 56;
      while (tw > 20 && !this.packs(lengths, tw, W, H)) tw -= 2;
      table.style.setProperty("--tw", `${tw}px`);
    }
    const rack = this.el.rack;
    const RW = rack.clientWidth - 20;
    if (RW > 0) {
      const longest = Math.max(8, ...b.rack.map((t) => t.length));
      const rw = Math.max(24, Math.min(54, Math.floor(RW / longest / (1 + GAP))));
      rack.style.setProperty("--tw", `${rw}px`);
    }
  }

  packs(lengths, tw, W, H) {
    const pad = tw * 0.22;
    const rowH = tw * ASPECT + 2 * pad + tw * 0.2;
    let rows = 1;
    let x = 0;
    for (const n of [...lengths, 3]) {
      const w = n * tw * (1 + GAP) + 2 * pad + tw * 0.3;
      if (x > 0 && x + w > W) {
        rows++;
        x = 0;
      }
      x += w;
    }
    return rows * rowH <= H;
  }

  renderControls(check) {
    const b = this.board;
    const mine = b.myTurn;
    const live = this.boot.status === "playing" && !b.view?.finished;
    const pool = b.view?.pool ?? 0;
    this.set("undo", b.undoStack.length > 0);
    this.set("reset", b.dirty || b.undoStack.length > 0);
    this.set("sort-colour", b.rack.flat().length > 1);
    this.set("sort-number", b.rack.flat().length > 1);
    this.set("new", b.editing && b.selection.size > 0);
    this.set("draw", live && mine && !b.dirty && !this.busy);
    this.set("end", live && mine && check.ok && !this.busy);
    // Nothing to hint at or resign after the game or once the viewer resigned.
    const out = b.seat !== null && b.seat !== undefined && !!b.view?.resigned?.[b.seat];
    this.set("hint", live && !out && !this.busy);
    if (this.buttons.resign) this.buttons.resign.hidden = !live || b.seat === null || out;
    this.el.drawLabel.textContent = pool > 0 ? "Draw" : "Pass";
    this.buttons.draw.title = b.dirty
      ? "Undo your changes first: you cannot draw with an unfinished table"
      : pool > 0
        ? "Draw a tile and end the turn (D)"
        : "The pool is empty: pass (D)";
    this.buttons.end.title = check.ok || !mine ? "End the turn (Space)" : check.reason;
    // While the table is being worked on, say what still stands between it and End turn.
    this.el.hint.textContent = mine && b.dirty && !check.ok ? check.reason : "";
  }

  set(act, enabled) {
    const btn = this.buttons[act];
    if (btn) btn.disabled = !enabled;
  }

  renderOpening(check) {
    const b = this.board;
    const show = b.seat !== null && !b.opened && b.editing && !!check.opening && !b.view?.finished;
    this.el.opening.hidden = !show;
    if (!show) return;
    const { value, needed, touches } = check.opening;
    this.el.openingText.textContent = touches
      ? "Initial meld: use only your rack, leave the table melds alone"
      : `Initial meld ${value} / ${needed}`;
    this.el.openingBar.style.width = `${Math.min(100, (value / needed) * 100)}%`;
    this.el.opening.classList.toggle("met", value >= needed && !touches);
  }

  renderStatus() {
    const b = this.board;
    const v = b.view;
    if (!v) return;
    const seats = this.boot.seats || [];
    const nameOf = (i) => seats[i]?.name || `Seat ${i + 1}`;
    this.el.poolN.textContent = v.pool;
    let turn;
    let planning = false;
    if (this.boot.status === "waiting") turn = "Waiting for players to join…";
    else if (v.finished || this.boot.status === "finished") turn = "The game is over.";
    else if (b.myTurn) turn = b.planned ? "Your turn: your plan is ready" : "Your turn";
    else {
      const out = b.seat != null && v.resigned?.[b.seat];
      turn = `${out ? "You resigned · " : ""}${nameOf(v.turn)} is playing`;
      planning = b.editing && b.seat !== null && !out;
    }
    // The planning hint gives way on a phone (board.css), so the mover's time left still shows.
    const hint = document.createElement("span");
    hint.className = "rm-plan";
    hint.textContent = " — you can plan on a private draft";
    this.el.turn.replaceChildren(turn, ...(planning ? [hint] : []));
    this.root.classList.toggle("rm-mine", b.myTurn);
    const match = v.match || {};
    const mode = MODES[this.boot.mode] || "";
    const length =
      match.kind === "rounds" ? `Round ${v.round} of ${match.rounds}` : match.kind === "target" ? `Round ${v.round} · to ${match.target}` : "One round";
    this.el.round.textContent = [mode, length].filter(Boolean).join(" · ");
    this.renderPlayers(nameOf);
    this.renderEnd(nameOf);
  }

  renderPlayers(nameOf) {
    const v = this.board.view;
    const list = this.el.players;
    const n = v.players;
    while (list.children.length > n) list.lastChild.remove();
    for (let i = 0; i < n; i++) {
      let li = list.children[i];
      if (!li) {
        li = document.createElement("li");
        li.className = "rm-player";
        li.innerHTML = `<span class="rm-avatar"><svg class="rm-ring" viewBox="0 0 44 44" aria-hidden="true"><circle cx="22" cy="22" r="20" pathLength="100"/></svg><span class="rm-initials"></span></span>
          <span class="rm-pinfo"><span class="rm-pname"></span><span class="rm-pcount"><i class="rm-back" aria-hidden="true"></i><b></b></span></span>`;
        list.append(li);
      }
      const seat = this.boot.seats?.[i];
      const name = nameOf(i);
      li.querySelector(".rm-initials").textContent = initials(name);
      li.querySelector(".rm-avatar").style.setProperty("--hue", hue(name));
      this.avatar(li, seat?.username);
      // The name itself, and "(you)" / "· bot" as a tag a phone drops to keep the name whole;
      // an account's name links to its profile.
      const pname = li.querySelector(".rm-pname");
      pname.replaceChildren(playerName(name, seat?.username, { avatar: false }));
      const tag = (i === this.board.seat ? "(you)" : "") + (seat?.kind === "bot" ? "· bot" : "");
      if (tag) pname.dataset.tag = tag;
      else delete pname.dataset.tag;
      const count = v.rack_counts[i];
      li.querySelector(".rm-pcount b").textContent = count;
      li.classList.toggle("rm-now", v.turn === i && !v.finished);
      li.classList.toggle("rm-me", i === this.board.seat);
      li.classList.toggle("rm-out", !!v.resigned?.[i] || (seat && seat.joined === false));
      const score = v.totals?.[i];
      li.setAttribute(
        "aria-label",
        `${name}${i === this.board.seat ? ", you" : ""}: ${count} tiles${score ? `, ${score} points` : ""}${v.turn === i ? ", playing now" : ""}`,
      );
    }
  }

  renderEnd(nameOf) {
    const v = this.board.view;
    if (!v.finished) {
      if (!this.el.end.classList.contains("rm-between")) this.el.end.hidden = true;
      this.endShown = false;
      return;
    }
    if (this.endShown) return;
    this.endShown = true;
    // The viewer's own outcome comes with the scorecard (showEnd); until then, plainly:
    this.showScores("Game over", v.winners || [], nameOf, false);
  }

  /** Between rounds of a match: who went out (or why the round ended) and the scores so far. */
  showRound(event, nameOf) {
    if (this.board.view?.finished) return;
    const who = event.winners.map(nameOf).join(" and ");
    const title =
      event.reason === "going_out"
        ? `Round ${event.round}: ${who} went Rummi!`
        : event.reason === "blocked"
          ? `Round ${event.round} is blocked: ${who} ${event.winners.length > 1 ? "share it" : "wins it"}`
          : `Round ${event.round} is over: ${who} ${event.winners.length > 1 ? "win" : "wins"}`;
    this.showScores(title, event.winners, nameOf, true);
  }

  showScores(title, winners, nameOf, between) {
    const v = this.board.view;
    const rounds = v.round_scores || [];
    const seats = this.boot.seats || [];
    const rows = Array.from({ length: v.players }, (_, i) =>
      scoreRow(winners.includes(i), nameOf(i), seats[i]?.username, "", [...rounds.map((r) => r[i] ?? ""), bold(v.totals?.[i] ?? 0)]),
    );
    const heads = ["", ...rounds.map((_, r) => `R${r + 1}`), "Total"].map((text) => headCell(text));
    this.el.end.querySelector("h2").textContent = title;
    this.el.end.querySelector(".rm-end-body").replaceChildren(scoreTable(heads, rows));
    this.el.end.querySelector(".rm-end-more").replaceChildren();
    this.el.end.classList.toggle("rm-between", between);
    this.el.end.querySelector(".rm-end-close").textContent = between ? "Next round" : "Look at the table";
    this.el.end.hidden = false;
    if (!between) this.onGameOver?.();
  }

  /** The finished game's scorecard (GET /api/games/<gid>/end), its links and the rematch. */
  showEnd(data, { title = "Game over", back = null, changes = null } = {}) {
    const lines = byPlace(data.scorecard);
    this.el.end.querySelector("h2").textContent = title;
    if (back) {
      const home = this.el.end.querySelector(".rm-home");
      home.href = back.url;
      home.textContent = back.label;
    }
    const rounds = Math.max(0, ...lines.map((l) => l.rounds.length));
    const heads = [
      headCell("Player"),
      ...Array.from({ length: rounds }, (_, r) => headCell(`R${r + 1}`, `Round ${r + 1}`)),
      headCell("Total"),
      // The rating change beside the total, so a phone shows it before the scorecard scrolls.
      ...(changes ? [headCell("Rating", "Rating change")] : []),
      headCell("Melds", "Melds laid"),
      headCell("Tiles", "Tiles played"),
      headCell("Jokers", "Jokers played"),
      headCell("Turn", "Average turn"),
    ];
    const rows = lines.map((l) => {
      const turn = l.average_turn_seconds === null ? "–" : `${l.average_turn_seconds} s`;
      const rating = changes ? [ratingCell(changes, l.seat)] : [];
      const cells = [...l.rounds, bold(l.total), ...rating, l.melds_laid, l.tiles_played, l.jokers_played, turn];
      const note = lineNote(l);
      return scoreRow(l.place === 1, l.name, l.username, note, cells);
    });
    const wrap = document.createElement("div");
    wrap.className = "rm-scores-wrap kit-scroll-x";
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    wrap.setAttribute("aria-label", "Scorecard");
    wrap.append(scoreTable(heads, rows));
    const aborted = abortedNote(lines);
    this.el.end.querySelector(".rm-end-body").replaceChildren(...(aborted ? [aborted] : []), wrap);
    const links = data.links || {};
    const more = document.createElement("p");
    more.className = "rm-end-links";
    const record = anchor("Record", links.record);
    record.download = "";
    more.append(anchor("Replay", links.replay), " · ", record, " · ", anchor("Check the shuffle", links.verify));
    const rematch = rematchControls(data.rematch);
    this.el.end.querySelector(".rm-end-more").replaceChildren(more, ...(rematch ? [rematch] : []));
  }

  /** The clock: ring and seconds on End turn, ring around the player whose turn it is. */
  tickClock(remaining, total) {
    const frac = total ? Math.max(0, Math.min(1, remaining / total)) : 1;
    const secs = Math.max(0, Math.ceil(remaining));
    const show = remaining !== null && total;
    this.root.classList.toggle("rm-timed", !!show);
    this.root.classList.toggle("rm-hurry", !!show && secs <= 10);
    this.el.clockArc.style.strokeDashoffset = show ? String(100 - frac * 100) : "0";
    this.el.secs.textContent = show ? formatClock(secs) : "";
    // The side that waits sees how long the mover has left (a correspondence ring looks full
    // for days): the mover's own time is on End turn.
    this.el.left.textContent = show && !this.board.myTurn ? ` · ${formatClock(secs)} left` : "";
    const ring = this.el.players.querySelector(".rm-now .rm-ring circle");
    for (const c of this.el.players.querySelectorAll(".rm-ring circle")) if (c !== ring) c.style.strokeDashoffset = "100";
    if (ring) ring.style.strokeDashoffset = show ? String(100 - frac * 100) : "0";
  }

  say(text, kind = "info") {
    const m = this.el.message;
    m.textContent = text || "";
    m.dataset.kind = kind;
    clearTimeout(this.sayTimer);
    if (text && kind === "info") this.sayTimer = setTimeout(() => (m.textContent = ""), 6000);
  }

  announce(text) {
    this.el.live.textContent = "";
    requestAnimationFrame(() => (this.el.live.textContent = text));
  }
}

// The end dialog's tables, built from nodes (names are text, never HTML).
function headCell(text, title = "") {
  const th = document.createElement("th");
  if (text) th.scope = "col";
  if (title) th.title = title;
  th.textContent = text;
  return th;
}

function bold(value) {
  const b = document.createElement("b");
  b.textContent = String(value);
  return b;
}

function scoreRow(won, name, username, note, cells) {
  const tr = document.createElement("tr");
  if (won) tr.className = "won";
  const th = document.createElement("th");
  th.scope = "row";
  th.append(playerName(name, username), note);
  tr.append(th);
  for (const value of cells) {
    const td = document.createElement("td");
    td.append(value instanceof Node ? value : String(value ?? ""));
    tr.append(td);
  }
  return tr;
}

function scoreTable(heads, rows) {
  const table = document.createElement("table");
  table.className = "rm-scores";
  const head = table.createTHead().insertRow();
  head.append(...heads);
  table.createTBody().append(...rows);
  return table;
}

function anchor(text, href) {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  return a;
}



function initials(name) {
  const parts = name.match(/[\p{L}\p{N}]+/gu) || []; // words of letters and digits
  const n = parts.length > 2 && /^[0-9]$/.test(parts.at(-1)) && parts.at(-1); // Strong bot 2: S2
  return ((parts[0]?.[0] || "?") + (n || parts[1]?.[0] || parts[0]?.[1] || "")).toUpperCase();
}

function hue(name) {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) % 360;
  return String(h);
}


export function escapeHtml(text) {
  return String(text).replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
