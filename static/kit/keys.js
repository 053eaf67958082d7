// Playing by keyboard alone. onBoardKeys is what every board shares: the keys a board answers,
// never while typing in a field or the settings panel, Escape closing the panel first; walkRows
// moves the focus along rows of tiles with the arrows. installKeys is the tile-rummy table's
// map (the Rummikub board, the puzzles): arrows walk the tiles, Enter picks, M moves the picked
// tiles after the focused tile (into its meld or rack tier), N makes a new meld; Z, R, D,
// Space, 1 and 2 are the controls. Focus stays on a tile element, whose aria-label names it.

/** Call `handle(key, event)` for keys meant for the board (a letter comes lower-cased); it
 * answers true when it used the key, which then does nothing else. */
export function onBoardKeys({ settings, handle }) {
  document.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    const t = e.target;
    if (e.key === "Escape" && settings?.isOpen()) return settings.close();
    if (t.closest?.("input, select, textarea, .rm-settings, dialog") || (t.isContentEditable ?? false)) return;
    const key = e.key.length === 1 ? e.key.toLowerCase() : e.key;
    if (handle(key, e)) e.preventDefault();
  });
}

/** Arrow keys over rows of tile elements: left and right along a row (on to the next row),
 * up and down between rows, Home and End; the focused tile alone is in the tab order. */
export function walkRows(rows, from, key) {
  rows = rows.filter((r) => r.length);
  if (!rows.length) return false;
  let r = rows.findIndex((row) => row.includes(from));
  let i = r >= 0 ? rows[r].indexOf(from) : 0;
  if (r < 0) r = 0;
  if (key === "ArrowRight") {
    if (i < rows[r].length - 1) i++;
    else if (r < rows.length - 1) [r, i] = [r + 1, 0];
  } else if (key === "ArrowLeft") {
    if (i > 0) i--;
    else if (r > 0) [r, i] = [r - 1, rows[r - 1].length - 1];
  } else if (key === "ArrowDown") {
    r = Math.min(rows.length - 1, r + 1);
    i = Math.min(i, rows[r].length - 1);
  } else if (key === "ArrowUp") {
    r = Math.max(0, r - 1);
    i = Math.min(i, rows[r].length - 1);
  } else if (key === "Home") i = 0;
  else if (key === "End") i = rows[r].length - 1;
  else return false;
  const next = rows[r][i];
  for (const row of rows) for (const el of row) if (el !== next) el.tabIndex = -1;
  next.tabIndex = 0;
  next.focus();
  return true;
}

export function installKeys({ root, board, ui, act, orderedSelection }) {
  const settings = { isOpen: () => !ui.el.settings.hidden, close: () => act.closeSettings() };
  onBoardKeys({ settings, handle: (key, e) => answer(key, e) });

  function answer(key, e) {
    const t = e.target;
    const onButton = t.tagName === "BUTTON" || t.tagName === "A";
    const tileEl = t.closest?.(".tile");
    let done = true;
    if (key === " " && !onButton) act.endTurn();
    else if (key === "z") act.undo();
    else if (key === "r") act.reset();
    else if (key === "d") act.draw();
    else if (key === "1") act.sort("colour");
    else if (key === "2") act.sort("number");
    else if (key === "n") act.newMeld();
    else if (key === "h") act.hint();
    else if (key === "Escape") {
      board.selection.clear();
      act.selected();
    } else if (tileEl && (key === "Enter" || key === "x")) act.toggle(Number(tileEl.dataset.id));
    else if (tileEl && key === "m") moveAfter(Number(tileEl.dataset.id), e.shiftKey);
    else if (key === "Enter" && t.classList?.contains("meld")) moveInto(Number(t.dataset.meld));
    else if (key.startsWith("Arrow") || key === "Home" || key === "End") done = walk(t, key);
    else done = false;
    return done;
  }

  // Tabbing into the table or the rack lands on a tile.
  for (const region of [ui.el.table, ui.el.rack]) {
    region.addEventListener("focus", () => {
      const first = region.querySelector(".tile");
      (first || region).focus?.({ preventScroll: true });
      if (first) first.tabIndex = 0;
    });
  }

  function moveAfter(id, before) {
    if (!board.selection.size) return ui.say("Pick tiles first (Enter), then press M on a tile to move them next to it.");
    if (board.selection.has(id)) return ui.say("Press M on a tile that is not picked.");
    const at = board.locate(id);
    const index = before ? at.index : at.index + 1;
    const target = at.area === "table" ? { area: "table", meld: at.meld, index } : { area: "rack", tier: at.tier, index };
    act.move(orderedSelection(), target);
  }

  function moveInto(meld) {
    if (!board.selection.size) return;
    act.move(orderedSelection(), { area: "table", meld, index: null });
  }

  /** Arrow keys: left and right along a row, up and down between melds or tiers. */
  function walk(from, key) {
    const rows = [...root.querySelectorAll(".rm-melds .meld, .rm-rack .rm-tier")].map((row) => [...row.querySelectorAll(".tile")]);
    return walkRows(rows, from, key);
  }
}
