// Moving tiles with Pointer Events: mouse, pen and touch share one path. Two shapes of board:
// installDrag is the tile-rummy table and rack (the Rummikub board, the puzzles); carry is one
// tile at a time onto drop zones marked data-drop (the Rummy 45 board).
//
// installDrag: press on a tile and move: drag (the selection, if the tile is in it). Press on an empty spot
// and move: box-select with a mouse, swipe-select with a finger. A tap picks or unpicks a tile;
// a tap on a meld or the rack with tiles picked moves them there.

const THRESHOLD = 5; // px before a press becomes a drag
const LIFT = 1.25; // on touch the held tiles float this many tile heights above the finger

export function installDrag({ root, board, ui, act }) {
  let gesture = null;

  root.addEventListener("pointerdown", (e) => {
    if (e.button !== 0 || gesture || board.seat === null) return;
    const tileEl = e.target.closest(".rm-table .tile, .rm-rack .tile");
    const area = e.target.closest(".rm-table, .rm-rack");
    if (!area) return;
    e.preventDefault();
    const base = { id: e.pointerId, x0: e.clientX, y0: e.clientY, touch: e.pointerType !== "mouse", moved: false };
    if (tileEl) {
      tileEl.focus({ preventScroll: true });
      gesture = { ...base, kind: "tile", el: tileEl, tile: Number(tileEl.dataset.id) };
    } else {
      gesture = { ...base, kind: "select", start: e.target, picked: new Set(), additive: e.shiftKey || e.ctrlKey || e.metaKey };
    }
    root.setPointerCapture(e.pointerId);
  });

  root.addEventListener("pointermove", (e) => {
    if (!gesture || e.pointerId !== gesture.id) return;
    const far = Math.hypot(e.clientX - gesture.x0, e.clientY - gesture.y0) > THRESHOLD;
    if (!gesture.moved && !far) return;
    if (!gesture.moved) {
      gesture.moved = true;
      if (gesture.kind === "tile" && !startDrag(gesture)) {
        gesture = null;
        return;
      }
      if (gesture.kind === "select") startSelect(gesture);
    }
    if (gesture.kind === "drag") moveDrag(gesture, e);
    else if (gesture.kind === "select") moveSelect(gesture, e);
  });

  const finish = (e, cancelled) => {
    if (!gesture || e.pointerId !== gesture.id) return;
    const g = gesture;
    gesture = null;
    if (root.hasPointerCapture(e.pointerId)) root.releasePointerCapture(e.pointerId);
    if (g.kind === "drag") endDrag(g, cancelled);
    else if (g.kind === "select") endSelect(g);
    else if (!cancelled && g.kind === "tile") act.toggle(g.tile);
    else if (!cancelled && g.kind === "select" && !g.moved) tapArea(g.start);
  };
  root.addEventListener("pointerup", (e) => finish(e, false));
  root.addEventListener("pointercancel", (e) => finish(e, true));

  // ---- dragging tiles --------------------------------------------------------------------

  function startDrag(g) {
    if (!board.canPick(g.tile)) {
      act.refuse(board.seat === null ? "" : "Wait for your turn to move table tiles.");
      return false;
    }
    const ids = board.selection.has(g.tile) ? orderedSelection() : [g.tile];
    const movable = ids.filter((id) => board.canPick(id));
    const rect = g.el.getBoundingClientRect();
    const ghost = document.createElement("div");
    ghost.className = "rm-ghost";
    ghost.style.setProperty("--tw", `${rect.width}px`);
    for (const id of movable) {
      const copy = ui.tile(id).cloneNode(true);
      copy.removeAttribute("tabindex");
      copy.classList.remove("sel", "locked");
      ghost.append(copy);
      ui.tile(id).classList.add("lifted");
    }
    root.append(ghost);
    const index = movable.indexOf(g.tile);
    g.kind = "drag";
    g.ids = movable;
    g.ghost = ghost;
    g.w = rect.width;
    g.h = rect.height;
    g.grabX = g.x0 - rect.left + index * rect.width * 1.08;
    g.grabY = g.y0 - rect.top;
    g.lift = g.touch ? rect.height * LIFT : 0;
    root.classList.add("rm-dragging");
    act.sound("pick");
    return true;
  }

  function moveDrag(g, e) {
    const x = e.clientX - g.grabX;
    const y = e.clientY - g.grabY - g.lift;
    g.ghost.style.transform = `translate(${x}px, ${y}px)${g.touch ? " scale(1.12)" : ""}`;
    // The spot that counts is under the held tile: on touch that is above the finger.
    const px = g.touch ? x + g.grabX : e.clientX;
    const py = g.touch ? y + g.h / 2 : e.clientY;
    g.target = targetAt(px, py, g.ids);
    showTarget(g.target);
  }

  function endDrag(g, cancelled) {
    g.ghost.remove();
    root.classList.remove("rm-dragging");
    for (const id of g.ids) ui.tile(id).classList.remove("lifted");
    showTarget(null);
    if (cancelled || !g.target) {
      ui.render();
      return;
    }
    if (g.target.swap !== undefined) act.swap(g.ids[0], g.target.swap);
    else act.move(g.ids, g.target);
  }

  /** What lies under a point: a swap with a tile, a place in a meld or tier, or a new meld. */
  function targetAt(x, y, moving) {
    const hit = document.elementFromPoint(x, y);
    if (!hit) return null;
    const tileEl = hit.closest(".rm-table .tile, .rm-rack .tile");
    if (tileEl && !moving.includes(Number(tileEl.dataset.id))) {
      const r = tileEl.getBoundingClientRect();
      if (moving.length === 1 && Math.abs(x - (r.left + r.width / 2)) < r.width * 0.24) {
        return { swap: Number(tileEl.dataset.id), el: tileEl };
      }
    }
    const meldEl = hit.closest(".meld");
    if (meldEl) {
      return { area: "table", meld: Number(meldEl.dataset.meld), index: indexAt(meldEl, x), el: meldEl };
    }
    const tier = hit.closest(".rm-tier");
    if (tier) return { area: "rack", tier: Number(tier.dataset.tier), index: indexAt(tier, x), el: tier };
    const rack = hit.closest(".rm-rack");
    if (rack) {
      const tiers = [...rack.querySelectorAll(".rm-tier")];
      const t = tiers.findIndex((el) => y < el.getBoundingClientRect().bottom);
      const tierEl = tiers[t < 0 ? tiers.length - 1 : t];
      return { area: "rack", tier: Number(tierEl.dataset.tier), index: indexAt(tierEl, x), el: tierEl };
    }
    if (hit.closest(".rm-table")) return { area: "new", el: ui.el.table };
    return null;
  }

  function indexAt(container, x) {
    const tiles = [...container.querySelectorAll(".tile")];
    for (let i = 0; i < tiles.length; i++) {
      const r = tiles[i].getBoundingClientRect();
      if (x < r.left + r.width / 2) return i;
    }
    return tiles.length;
  }

  let caret = null;
  function showTarget(t) {
    root.querySelectorAll(".drop-swap, .drop-in, .drop-new").forEach((el) => el.classList.remove("drop-swap", "drop-in", "drop-new"));
    if (!caret) {
      caret = document.createElement("div");
      caret.className = "rm-caret";
      root.append(caret);
    }
    caret.hidden = true;
    if (!t) return;
    if (t.swap !== undefined) return t.el.classList.add("drop-swap");
    if (t.area === "new") return t.el.classList.add("drop-new");
    t.el.classList.add("drop-in");
    const tiles = [...t.el.querySelectorAll(".tile:not(.lifted)")];
    const all = [...t.el.querySelectorAll(".tile")];
    const after = all.slice(0, t.index).filter((el) => !el.classList.contains("lifted")).pop();
    const next = after ? tiles[tiles.indexOf(after) + 1] : tiles[0];
    const box = t.el.getBoundingClientRect();
    const ref = after ? after.getBoundingClientRect() : next ? next.getBoundingClientRect() : null;
    const left = !ref ? box.left + 8 : after ? ref.right + 1 : ref.left - 3;
    const top = ref ? ref.top : box.top + 4;
    const height = ref ? ref.height : box.height - 8;
    const rootBox = root.getBoundingClientRect();
    Object.assign(caret.style, { left: `${left - rootBox.left}px`, top: `${top - rootBox.top}px`, height: `${height}px` });
    caret.hidden = false;
  }

  // ---- picking several tiles -------------------------------------------------------------

  function startSelect(g) {
    if (!g.additive) board.selection.clear();
    if (!g.touch) ui.el.lasso.hidden = false;
  }

  function moveSelect(g, e) {
    if (g.touch) {
      const hit = document.elementFromPoint(e.clientX, e.clientY)?.closest(".rm-table .tile, .rm-rack .tile");
      if (hit) g.picked.add(Number(hit.dataset.id));
    } else {
      const x1 = Math.min(g.x0, e.clientX);
      const y1 = Math.min(g.y0, e.clientY);
      const x2 = Math.max(g.x0, e.clientX);
      const y2 = Math.max(g.y0, e.clientY);
      const rootBox = root.getBoundingClientRect();
      Object.assign(ui.el.lasso.style, {
        left: `${x1 - rootBox.left}px`, top: `${y1 - rootBox.top}px`, width: `${x2 - x1}px`, height: `${y2 - y1}px`,
      });
      g.picked.clear();
      for (const [id, el] of ui.tiles) {
        if (!el.isConnected) continue;
        const r = el.getBoundingClientRect();
        if (r.right > x1 && r.left < x2 && r.bottom > y1 && r.top < y2) g.picked.add(id);
      }
    }
    for (const [id, el] of ui.tiles) el.classList.toggle("sel", board.selection.has(id) || g.picked.has(id));
  }

  function endSelect(g) {
    ui.el.lasso.hidden = true;
    for (const id of g.picked) if (board.canPick(id)) board.selection.add(id);
    if (g.picked.size) act.sound("tick");
    act.selected();
  }

  function tapArea(start) {
    const meldEl = start.closest?.(".meld");
    const tier = start.closest?.(".rm-tier, .rm-rack");
    if (board.selection.size && meldEl) return act.move(orderedSelection(), { area: "table", meld: Number(meldEl.dataset.meld), index: null });
    if (board.selection.size && tier) {
      const t = tier.dataset.tier !== undefined ? Number(tier.dataset.tier) : 1;
      return act.move(orderedSelection(), { area: "rack", tier: t, index: null });
    }
    board.selection.clear();
    act.selected();
  }

  /** The picked tiles in board order: table melds first, then the rack. */
  function orderedSelection() {
    return [...board.table.flat(), ...board.rack.flat()].filter((id) => board.selection.has(id));
  }

  return { orderedSelection };
}

// ---- one tile onto drop zones (carry) ----------------------------------------------------

let held = 0;
let released = [];

/** True from a press on a carried tile until it is let go: a board must not redraw the hand
 * then (a poll or a frame would take the pressed tile from under the pointer); it asks
 * `afterRelease` to draw once the tile is let go. */
export function holding() {
  return held > 0;
}

export function afterRelease(fn) {
  if (!held) return fn();
  if (!released.includes(fn)) released.push(fn);
}

function release() {
  held = Math.max(0, held - 1);
  if (held) return;
  const due = released;
  released = [];
  for (const fn of due) fn();
}

/** The drop zone (an element marked data-drop) under a point, if any. */
export function dropZoneAt(x, y) {
  return document.elementFromPoint(x, y)?.closest("[data-drop]") || null;
}

/**
 * Make `el` carriable: a press and a move past THRESHOLD lifts a copy of it that follows the
 * pointer (on touch, LIFT tile heights above the finger, so the finger does not hide it) and
 * lights the zone under it with `overClass`; letting go over a zone calls onDrop(zone, x); a
 * press without a move is onTap().
 */
export function carry(el, { onTap, onDrop, overClass = "drop-over", liftedClass = "lifted", ghostClass = "kit-ghost" }) {
  el.addEventListener("pointerdown", (down) => {
    if (down.button !== 0) return;
    down.preventDefault();
    const start = { x: down.clientX, y: down.clientY };
    const touch = down.pointerType !== "mouse";
    const rect = el.getBoundingClientRect();
    const grab = { x: start.x - rect.left, y: start.y - rect.top };
    const lift = touch ? rect.height * LIFT : 0;
    let ghost = null;
    let zone = null;
    el.setPointerCapture(down.pointerId);
    held++;
    const light = (next) => {
      if (zone === next) return;
      zone?.classList.remove(overClass);
      zone = next;
      zone?.classList.add(overClass);
    };
    const move = (e) => {
      if (!ghost && Math.hypot(e.clientX - start.x, e.clientY - start.y) > THRESHOLD) {
        ghost = el.cloneNode(true);
        ghost.removeAttribute("id");
        ghost.classList.add(ghostClass);
        Object.assign(ghost.style, { position: "fixed", left: "0", top: "0", zIndex: "60", pointerEvents: "none", margin: "0" });
        el.closest(".board-kit")?.append(ghost) ?? document.body.append(ghost);
        el.classList.add(liftedClass);
      }
      if (!ghost) return;
      const x = e.clientX - grab.x;
      const y = e.clientY - grab.y - lift;
      ghost.style.transform = `translate(${x}px, ${y}px)${touch ? " scale(1.12)" : ""}`;
      // The spot that counts is under the held tile: on touch that is above the finger.
      light(dropZoneAt(e.clientX, touch ? y + rect.height / 2 : e.clientY));
    };
    const up = (e) => {
      el.removeEventListener("pointermove", move);
      el.removeEventListener("pointerup", up);
      el.removeEventListener("pointercancel", up);
      const target = e.type === "pointercancel" ? null : zone;
      light(null);
      el.classList.remove(liftedClass);
      ghost?.remove();
      try {
        if (!ghost && e.type !== "pointercancel") onTap?.();
        else if (target) onDrop?.(target, e.clientX);
      } finally {
        release();
      }
    };
    el.addEventListener("pointermove", move);
    el.addEventListener("pointerup", up);
    el.addEventListener("pointercancel", up);
  });
}
