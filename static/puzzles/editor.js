// The visual puzzle editor: a palette of the whole classic set (four colours, 1-13, two copies,
// two jokers), dragged onto the table's melds and the rack by Pointer Events (mouse, pen and
// touch share one path), or picked by a click (or Enter) and then placed by a second click.
// Each meld is checked as it is built with the board's own meld rules (static/kit/rules.js),
// so the reasons read as the engine's. The solver's verdict and the share link come from
// POST /puzzles/api/editor (puzzles/api.py); the text form below stays as the advanced way in,
// kept in step with what is built here.

import { COLOURS, meldError, parseCode, tileName } from "../kit/rules.js";

const COPIES = 2;
const JOKERS = 2;
const MAX_NUMBER = 13;
const MAX_RACK = 20; // puzzles/editor.py MAX_EDITOR_RACK
const MAX_TABLE = 80; // puzzles/editor.py MAX_EDITOR_TABLE
const DRAG_START_PX = 5;

function csrfToken() {
  const match = document.cookie.match(/(?:^|; )csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** Every kind of tile in the set, in palette order, with how many the set holds. */
export function tileKinds() {
  const kinds = [];
  for (const c of COLOURS) for (let n = 1; n <= MAX_NUMBER; n++) kinds.push({ code: `${c}${n}`, copies: COPIES });
  kinds.push({ code: "J", copies: JOKERS });
  return kinds;
}

/** Codes from a line of text: spaces or commas between them, letters in any case. */
export function parseLine(text) {
  return text
    .replace(/,/g, " ")
    .split(/\s+/)
    .filter(Boolean)
    .map((code) => code.toUpperCase());
}

/** The editor's position: melds and a rack of codes, and what is wrong with it in words. */
export class Position {
  constructor(melds = [], rack = []) {
    this.melds = melds;
    this.rack = rack;
  }

  used(code) {
    return this.melds.flat().filter((c) => c === code).length + this.rack.filter((c) => c === code).length;
  }

  left(kind) {
    return kind.copies - this.used(kind.code);
  }

  /** [index, reason] for each meld that is not a valid group or run. */
  badMelds() {
    return this.melds.map((m, i) => [i, meldError(m, MAX_NUMBER)]).filter(([, error]) => error);
  }

  /** What stops this position being saved, in a sentence, or null. */
  problem() {
    const bad = this.badMelds();
    if (bad.length) {
      return bad.length === 1 ? "One meld on the table is not valid yet: fix it first." : `${bad.length} melds on the table are not valid yet: fix them first.`;
    }
    if (!this.rack.length) return "Put at least one tile on the rack.";
    return null;
  }

  tableText() {
    return this.melds.map((m) => m.join(" ")).join("\n");
  }
}

export function start(host, form) {
  const kinds = tileKinds();
  const known = new Set(kinds.map((k) => k.code));
  const tableField = form.querySelector("#editor-table");
  const rackField = form.querySelector("#editor-rack");
  const pos = new Position();
  let picked = null; // {from: "palette"} | {from: "meld", meld, index} | {from: "rack", index}, with code
  let suppressClick = false;

  const el = (sel) => host.querySelector(sel);
  const palette = el(".ed-palette-tiles");
  const melds = el(".ed-melds");
  const rack = el(".ed-rack");
  const status = el(".ed-status");
  const verdict = el(".ed-verdict");
  const share = el(".ed-share");

  function readFields() {
    const table = tableField.value.split("\n").map(parseLine).filter((m) => m.length);
    const codes = [...table.flat(), ...parseLine(rackField.value)];
    if (codes.some((c) => !known.has(c))) return false;
    pos.melds = table;
    pos.rack = parseLine(rackField.value);
    return true;
  }

  function writeFields() {
    tableField.value = pos.tableText();
    rackField.value = pos.rack.join(" ");
  }

  function say(text, kind = "info") {
    status.textContent = text;
    status.dataset.kind = kind;
  }

  function tileButton(code, attrs) {
    const b = document.createElement("button");
    b.type = "button";
    const t = parseCode(code);
    b.className = `ed-tile c-${t.c ?? "J"}${t.n >= 10 ? " two" : ""}`;
    b.dataset.code = code;
    b.innerHTML = t.c === null ? '<span aria-hidden="true">☺</span>' : `<span aria-hidden="true">${t.n}</span>`;
    for (const [k, v] of Object.entries(attrs)) b.dataset[k] = v;
    return b;
  }

  function isPicked(where) {
    if (!picked) return false;
    if (picked.from !== where.from) return false;
    if (where.from === "palette") return picked.code === where.code;
    return picked.index === where.index && picked.meld === where.meld;
  }

  function renderPalette() {
    const grid = document.createDocumentFragment();
    for (const kind of kinds) {
      const left = pos.left(kind);
      const b = tileButton(kind.code, { from: "palette" });
      // The name holds the visible text in its order ("7", then the count "2"): axe's
      // label-content-name-mismatch, and speech input users who say what they see.
      b.insertAdjacentHTML("beforeend", ` <small aria-hidden="true">${left}</small>`);
      b.setAttribute("aria-label", `${tileName(kind.code)}, ${left} of ${kind.copies} left`);
      b.title = `${tileName(kind.code)}: ${left} of ${kind.copies} left`;
      b.disabled = left <= 0;
      b.classList.toggle("used-up", left <= 0);
      b.setAttribute("aria-pressed", String(isPicked({ from: "palette", code: kind.code })));
      if (kind.code === "J") b.classList.add("ed-joker-kind");
      grid.append(b);
    }
    palette.replaceChildren(grid);
  }

  function placedTile(code, from, index, meld) {
    const attrs = { from, index: String(index) };
    if (meld !== undefined) attrs.meld = String(meld);
    const b = tileButton(code, attrs);
    const where = meld === undefined ? "on the rack" : `in meld ${meld + 1}`;
    b.setAttribute("aria-label", `${tileName(code)} ${where}`);
    b.title = `${tileName(code)}: drag to move, or back to the tiles to take it off (Delete)`;
    b.setAttribute("aria-pressed", String(isPicked({ from, index, meld })));
    return b;
  }

  function renderTable() {
    const frag = document.createDocumentFragment();
    pos.melds.forEach((codes, i) => {
      const error = meldError(codes, MAX_NUMBER);
      const box = document.createElement("div");
      box.className = `ed-meld ${error ? "bad" : "good"}`;
      box.dataset.drop = `meld:${i}`;
      box.setAttribute("role", "group");
      box.setAttribute("aria-label", `Meld ${i + 1}`);
      const row = document.createElement("div");
      row.className = "ed-meld-tiles";
      codes.forEach((code, j) => row.append(placedTile(code, "meld", j, i)));
      const put = document.createElement("button");
      put.type = "button";
      put.className = "ed-put";
      put.dataset.put = `meld:${i}`;
      put.textContent = "+";
      put.title = `Put the picked tile at the end of meld ${i + 1}`;
      put.setAttribute("aria-label", `Put the picked tile in meld ${i + 1}`);
      row.append(put);
      const remove = document.createElement("button");
      remove.type = "button";
      remove.className = "ed-remove";
      remove.dataset.remove = String(i);
      remove.textContent = "×";
      remove.title = `Take meld ${i + 1} off the table`;
      remove.setAttribute("aria-label", `Take meld ${i + 1} off the table`);
      const note = document.createElement("p");
      note.className = "ed-meld-note";
      note.textContent = error ? `✗ ${error[0].toUpperCase()}${error.slice(1)}.` : "✓ Valid meld.";
      box.append(row, remove, note);
      frag.append(box);
    });
    const fresh = document.createElement("button");
    fresh.type = "button";
    fresh.className = "ed-new-meld";
    fresh.dataset.drop = "new";
    fresh.dataset.put = "new";
    fresh.textContent = pos.melds.length ? "+ New meld: drop a tile here" : "Drop a tile here to start a meld";
    frag.append(fresh);
    melds.replaceChildren(frag);
  }

  function renderRack() {
    const frag = document.createDocumentFragment();
    pos.rack.forEach((code, i) => frag.append(placedTile(code, "rack", i)));
    const put = document.createElement("button");
    put.type = "button";
    put.className = "ed-put";
    put.dataset.put = "rack";
    put.textContent = pos.rack.length ? "+" : "Drop a tile here for the rack";
    // A sentence names itself; the bare "+" needs its words.
    if (pos.rack.length) put.setAttribute("aria-label", "Put the picked tile on the rack");
    frag.append(put);
    rack.replaceChildren(frag);
  }

  function render({ write = true } = {}) {
    renderPalette();
    renderTable();
    renderRack();
    host.classList.toggle("picking", !!picked);
    const tiles = pos.melds.flat().length;
    el(".ed-counts").textContent = `${tiles} tile${tiles === 1 ? "" : "s"} on the table, ${pos.rack.length} on the rack`;
    const problem = pos.problem();
    el('[data-act="save"]').setAttribute("aria-describedby", "ed-status");
    if (picked) say(`Picked ${tileName(picked.code)}: now press a meld's +, the new meld or the rack, or drop it there.`);
    else if (problem) say(problem, pos.badMelds().length ? "error" : "info");
    else say("The table is valid. Check with the solver, or save and share.", "ok");
    if (write) writeFields(); // not while the player is typing there
  }

  function takeFrom(source) {
    if (source.from === "meld") {
      const [code] = pos.melds[source.meld].splice(source.index, 1);
      return code;
    }
    if (source.from === "rack") return pos.rack.splice(source.index, 1)[0];
    return source.code;
  }

  /** Move a tile (from the palette, a meld or the rack) to a place: "meld:i", "new", "rack" or
   * "palette" (off the board), before ``at`` in a meld when given. */
  function place(source, target, at) {
    const code = source.code;
    if (source.from === "palette" && target === "palette") return;
    if (source.from === "palette") {
      const kind = kinds.find((k) => k.code === code);
      if (pos.left(kind) <= 0) return say(`Both ${tileName(code)}s are in use already.`, "error");
    }
    const tableTiles = pos.melds.flat().length;
    if (source.from !== "meld" && target.startsWith("meld") && tableTiles >= MAX_TABLE) return say(`The table holds at most ${MAX_TABLE} tiles here.`, "error");
    if (source.from !== "rack" && target === "rack" && pos.rack.length >= MAX_RACK) return say(`A rack holds at most ${MAX_RACK} tiles here.`, "error");
    let meldIndex = target.startsWith("meld:") ? Number(target.slice(5)) : null;
    if (source.from === "meld" && meldIndex === source.meld && at !== undefined && at > source.index) at -= 1;
    takeFrom(source);
    if (target === "new") pos.melds.push([code]);
    else if (target === "rack") pos.rack.push(code);
    else if (meldIndex !== null) {
      const meld = pos.melds[meldIndex];
      meld.splice(at === undefined ? meld.length : Math.max(0, Math.min(at, meld.length)), 0, code);
    }
    // A meld emptied by the move goes; the indices of later melds shift with it.
    const emptied = pos.melds.findIndex((m) => !m.length);
    if (emptied >= 0) pos.melds.splice(emptied, 1);
    picked = null;
    clearShare();
    render();
  }

  function sourceOf(button) {
    const d = button.dataset;
    if (d.from === "palette") return { from: "palette", code: d.code };
    if (d.from === "meld") return { from: "meld", meld: Number(d.meld), index: Number(d.index), code: d.code };
    return { from: "rack", index: Number(d.index), code: d.code };
  }

  function focusPlaced(source) {
    const sel = source.from === "palette" ? `.ed-palette-tiles [data-code="${source.code}"]` : null;
    if (sel) host.querySelector(sel)?.focus();
  }

  // Clicks: pick a tile, place the picked one, take a meld or tile off.
  host.addEventListener("click", (event) => {
    // Only a pointer's click follows a drag; Enter's click (detail 0) can come before the timer.
    if (suppressClick && event.detail > 0) {
      suppressClick = false;
      return;
    }
    const remove = event.target.closest("[data-remove]");
    if (remove) {
      pos.melds.splice(Number(remove.dataset.remove), 1);
      picked = null;
      clearShare();
      render();
      el(".ed-new-meld").focus();
      return;
    }
    const put = event.target.closest("[data-put]");
    if (put && picked) {
      const target = put.dataset.put;
      place(picked, target);
      const again = target === "rack" ? '.ed-rack [data-put]' : target === "new" ? ".ed-new-meld" : `[data-put="${target}"]`;
      host.querySelector(again)?.focus();
      return;
    }
    if (put) return say("Pick a tile first: click one in the tiles above, then press here.");
    const tile = event.target.closest(".ed-tile");
    if (tile) {
      const source = sourceOf(tile);
      if (picked && picked.from !== "palette" && source.from === "palette") {
        place(picked, "palette");
        return focusPlaced(source);
      }
      picked = isPicked(source) ? null : source;
      render();
      host.querySelector(selectorFor(source))?.focus();
      return;
    }
    if (picked && picked.from !== "palette" && event.target.closest(".ed-palette")) place(picked, "palette");
  });

  function selectorFor(source) {
    if (source.from === "palette") return `.ed-palette-tiles [data-code="${source.code}"]`;
    if (source.from === "rack") return `.ed-rack [data-index="${source.index}"]`;
    return `.ed-melds [data-meld="${source.meld}"][data-index="${source.index}"]`;
  }

  // Keys: Delete or Backspace takes a placed tile off; Esc drops the pick.
  host.addEventListener("keydown", (event) => {
    const tile = event.target.closest?.(".ed-tile");
    if ((event.key === "Delete" || event.key === "Backspace") && tile && tile.dataset.from !== "palette") {
      event.preventDefault();
      place(sourceOf(tile), "palette");
      return;
    }
    if (event.key === "Escape" && picked) {
      picked = null;
      render();
    }
  });

  // Drag: one Pointer Events path for mouse, pen and touch.
  let drag = null;
  host.addEventListener("pointerdown", (event) => {
    const tile = event.target.closest(".ed-tile");
    if (!tile || tile.disabled || event.button > 0) return;
    drag = { source: sourceOf(tile), tile, x: event.clientX, y: event.clientY, id: event.pointerId, ghost: null };
  });

  function dropAt(x, y) {
    const under = document.elementFromPoint(x, y);
    if (!under) return null;
    if (under.closest(".ed-palette")) return { target: "palette" };
    const zone = under.closest("[data-drop], .ed-rack-zone");
    if (!zone) return null;
    if (zone.classList.contains("ed-rack-zone")) return { target: "rack" };
    const target = zone.dataset.drop;
    if (!target.startsWith("meld:")) return { target };
    const tiles = [...zone.querySelectorAll(".ed-tile")].filter((t) => t !== drag.tile);
    let at = tiles.findIndex((t) => {
      const box = t.getBoundingClientRect();
      return y < box.bottom && (x < box.left + box.width / 2 || y < box.top);
    });
    if (at < 0) at = tiles.length;
    // Indices count the dragged tile itself when it stays in its own meld.
    if (drag.source.from === "meld" && `meld:${drag.source.meld}` === target && at >= drag.source.index) at += 1;
    return { target, at };
  }

  function highlight(x, y) {
    for (const z of host.querySelectorAll(".drop-here")) z.classList.remove("drop-here");
    const found = dropAt(x, y);
    if (!found) return;
    const zone = found.target === "rack" ? el(".ed-rack-zone") : found.target === "palette" ? el(".ed-palette") : host.querySelector(`[data-drop="${found.target}"]`);
    zone?.classList.add("drop-here");
  }

  window.addEventListener("pointermove", (event) => {
    if (!drag || event.pointerId !== drag.id) return;
    if (!drag.ghost) {
      if (Math.hypot(event.clientX - drag.x, event.clientY - drag.y) < DRAG_START_PX) return;
      drag.ghost = drag.tile.cloneNode(true);
      drag.ghost.classList.add("ed-ghost");
      drag.ghost.removeAttribute("id");
      drag.ghost.setAttribute("aria-hidden", "true");
      document.body.append(drag.ghost);
      drag.tile.classList.add("lifted");
      try {
        drag.tile.setPointerCapture(event.pointerId);
      } catch {
        // a synthetic pointer may not be capturable; the window listeners follow it anyway
      }
    }
    event.preventDefault();
    drag.ghost.style.left = `${event.clientX}px`;
    drag.ghost.style.top = `${event.clientY}px`;
    highlight(event.clientX, event.clientY);
  });

  function endDrag(event, cancelled) {
    if (!drag || event.pointerId !== drag.id) return;
    const was = drag;
    if (was.ghost) {
      was.ghost.remove();
      for (const z of host.querySelectorAll(".drop-here")) z.classList.remove("drop-here");
      was.tile.classList.remove("lifted");
      suppressClick = true;
      // The click that follows a drag lands on whatever is under the pointer; skip that one only.
      setTimeout(() => (suppressClick = false), 0);
      const found = cancelled ? null : dropAt(event.clientX, event.clientY);
      drag = null;
      if (found) place(was.source, found.target, found.at);
    }
    drag = null;
  }
  window.addEventListener("pointerup", (event) => endDrag(event, false));
  window.addEventListener("pointercancel", (event) => endDrag(event, true));

  // The solver's verdict and the share link, from the server.
  async function ask(save) {
    const problem = pos.problem();
    if (problem) return say(problem, "error");
    const button = el(save ? '[data-act="save"]' : '[data-act="check"]');
    button.disabled = true;
    verdict.textContent = save ? "Saving…" : "Asking the solver…";
    try {
      const response = await fetch(host.dataset.api, {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
        body: JSON.stringify({ table: pos.melds, rack: pos.rack, save }),
      });
      const data = await response.json().catch(() => ({}));
      if (!response.ok) {
        verdict.textContent = "";
        return say(data.message || `The server said no (${response.status}).`, "error");
      }
      const all = data.tiles_placeable === data.rack_size;
      verdict.textContent = `The solver says ${data.tiles_placeable} of ${data.rack_size} rack tiles can go down${all ? ": all of them" : ""}.`;
      if (save) showShare(new URL(data.share_url, location.href).href);
    } catch {
      verdict.textContent = "";
      say("The server could not be reached; try again.", "error");
    } finally {
      button.disabled = false;
    }
  }

  function showShare(url) {
    const link = share.querySelector("a");
    link.href = url;
    link.textContent = url;
    share.hidden = false;
    say("Saved. Anyone with the link can play it.", "ok");
  }

  function clearShare() {
    share.hidden = true;
    verdict.textContent = "";
  }

  el('[data-act="check"]').addEventListener("click", () => ask(false));
  el('[data-act="save"]').addEventListener("click", () => ask(true));
  share.querySelector('[data-act="copy"]').addEventListener("click", async () => {
    try {
      await navigator.clipboard.writeText(share.querySelector("a").href);
      say("Link copied.", "ok");
    } catch {
      say("Copy the link from the box above.", "info");
    }
  });
  el('[data-act="clear"]').addEventListener("click", () => {
    pos.melds = [];
    pos.rack = [];
    picked = null;
    clearShare();
    render();
  });

  // The advanced text form and the visual editor show one position: typing there redraws here
  // as soon as the text reads as tiles (on input, so nothing moves under a click that follows);
  // text that does not is named when the field is left.
  for (const field of [tableField, rackField]) {
    field.addEventListener("input", () => {
      if (!readFields()) return;
      picked = null;
      clearShare();
      render({ write: false });
    });
    field.addEventListener("change", () => {
      if (readFields()) {
        picked = null;
        clearShare();
        render();
      } else say("The text holds a code that is not a tile (R7, B13, J); the tiles above are unchanged.", "error");
    });
  }

  readFields();
  // Without this script the text form is the editor, so it starts open; with it, it folds away
  // unless it holds a position sent back with an error.
  const advanced = form.closest("details");
  if (advanced && !tableField.value.trim() && !rackField.value.trim()) advanced.open = false;
  host.hidden = false;
  render();
  window.rummiEditor = { pos };
  host.dataset.ready = "";
}

const host = document.getElementById("pz-editor");
const form = document.getElementById("editor-form");
if (host && form) start(host, form);
