// The board's model: the server's view, the player's draft of the table and the two-tier rack,
// the undo stack and the selection. No DOM here, so it can be tested on its own.

import { arrangement, byColour, byNumber, checkTurn, maxNumberFor } from "./rules.js";

const clone = (melds) => melds.map((m) => [...m]);
const sameMelds = (a, b) =>
  a.length === b.length && a.every((m, i) => m.length === b[i].length && m.every((x, j) => x === b[i][j]));
const meldKey = (m) => m.join(",");

export class Board {
  constructor({ gid, seat, codes, correspondence = false, storage = globalThis.localStorage, sort = "colour" }) {
    this.gid = gid;
    this.sort = sort; // how the rack is sorted when it is dealt: "colour", "number" or "none"
    this.autoSorted = false; // the rack is still as the board sorted it at load
    this.seat = seat;
    this.codes = codes;
    this.correspondence = correspondence;
    this.storage = storage;
    this.view = null;
    this.status = "playing";
    this.table = [];
    this.rack = [[], []];
    this.base = null; // {table, rack} when the draft began: what Reset goes back to
    this.draftTurn = null; // turn_number the draft belongs to
    this.planned = false; // the draft was begun while waiting (correspondence planning)
    this.undoStack = [];
    this.selection = new Set();
    this.seen = null; // the table just after this seat's last turn: what changed since
    this.fresh = new Set(); // rack tiles drawn since the last look
    this.hint = null; // {tiles, melds} of the last "show me a play"
    this.notice = null;
  }

  codeOf = (id) => this.codes[id];

  get max() {
    return maxNumberFor(this.view?.rules?.name);
  }

  get myTurn() {
    const v = this.view;
    return !!v && this.seat !== null && this.status === "playing" && !v.finished && v.turn === this.seat;
  }

  /** May the table be edited now: on this seat's turn, or while planning by correspondence. */
  get editing() {
    if (this.seat === null || !this.view || this.view.finished || this.status !== "playing") return false;
    return this.myTurn || this.correspondence;
  }

  get opened() {
    return !!this.view?.initial_meld_done?.[this.seat];
  }

  get serverTable() {
    return this.view ? this.view.table : [];
  }

  /** The table differs from the turn's start: Draw waits until it is undone. */
  get dirty() {
    return !!this.base && !sameMelds(this.table, this.base.table);
  }

  // ---- server state -------------------------------------------------------------------

  /** Take a view from the server, keeping, carrying over or dropping the draft. */
  applyView(view, status = this.status) {
    const previous = this.view;
    const draft = this.base
      ? { base: this.base.table, table: this.table, planned: this.planned, dirty: this.dirty }
      : null;
    this.view = view;
    this.status = status;
    this.noteSeen(previous, view);
    if (!draft) {
      this.startDraft(view, previous);
      this.restoreDraft();
    } else if (sameMelds(draft.base, view.table) && this.draftTurn === view.turn_number) {
      this.syncRack(view, previous);
    } else {
      // The turn or the table moved on: a plan is carried over if it still fits; a turn's
      // own draft ends with the turn (played, or taken back by the clock).
      const carried = draft.dirty && draft.planned ? rebase(draft, view.table, new Set(view.rack)) : null;
      this.store("draft", null, this.draftTurn);
      this.startDraft(view, previous);
      if (carried) {
        this.table = carried;
        this.placeRackFromTable();
        this.planned = !this.myTurn;
        this.notice = "Your planned move was carried over to the new table.";
      } else if (draft.dirty && !sameMelds(draft.table, view.table)) {
        this.notice = draft.planned
          ? "The table changed, so your planned move was dropped."
          : "The turn ended; your unfinished changes were taken back.";
      }
    }
    this.pruneSelection();
    this.save();
  }

  startDraft(view, previous) {
    this.table = clone(view.table);
    this.syncRack(view, previous);
    this.base = { table: clone(view.table), rack: this.rack.map((t) => [...t]) };
    this.draftTurn = view.turn_number;
    this.undoStack = [];
    this.planned = false;
  }

  /** Tiers keep the player's order; tiles gone are dropped, new ones join the shorter tier. */
  syncRack(view, previous) {
    const want = new Set(view.rack);
    const onTable = new Set(this.table.flat().filter((id) => want.has(id)));
    const keep = (tier) => tier.filter((id) => want.has(id) && !onTable.has(id));
    let stored = null;
    if (!previous) {
      stored = this.load("rack");
      if (Array.isArray(stored) && stored.length === 2) this.rack = stored.map(keep);
      else stored = null;
    }
    this.rack = this.rack.map(keep);
    const have = new Set(this.rack.flat());
    const before = new Set(previous ? previous.rack : []);
    // Tiles that arrive together (a penalty draw) stay together, on the shorter tier.
    const tier = this.rack[0].length <= this.rack[1].length ? 0 : 1;
    for (const id of view.rack) {
      if (have.has(id) || onTable.has(id)) continue;
      this.rack[tier].push(id);
      if (previous && !before.has(id)) this.fresh.add(id);
    }
    if (!previous && !stored) {
      if (this.sort !== "none") this.sortRack(this.sort, false);
      this.autoSorted = true;
    }
  }

  /** The player's sort preference arrived (the account's, after load): re-sort a rack the
   * player has not touched yet. True when the rack changed. */
  useSort(kind) {
    const changed = kind !== this.sort;
    this.sort = kind;
    if (!changed || !this.autoSorted || this.undoStack.length || kind === "none") return false;
    this.sortRack(kind, false);
    return true;
  }

  /** After a draft comes back, rack tiles now on the table leave the rack. */
  placeRackFromTable() {
    const onTable = new Set(this.table.flat());
    this.rack = this.rack.map((tier) => tier.filter((id) => !onTable.has(id)));
  }

  noteSeen(previous, view) {
    if (this.seat === null) return;
    const stored = this.seen || this.load("seen");
    const endedMine = previous && previous.turn === this.seat && view.turn !== this.seat;
    if (!stored || endedMine || view.round !== stored.round) {
      this.seen = { round: view.round, table: clone(view.table) };
    } else {
      this.seen = stored;
    }
    this.store("seen", this.seen);
  }

  /** Per table tile: "new" (not on the table after my last turn) or "moved" (meld changed). */
  changes() {
    const marks = new Map();
    if (!this.seen) return marks;
    const where = new Map();
    for (const meld of this.seen.table) for (const id of meld) where.set(id, meldKey([...meld].sort()));
    for (const meld of this.serverTable) {
      const key = meldKey([...meld].sort());
      for (const id of meld) {
        if (!where.has(id)) marks.set(id, "new");
        else if (where.get(id) !== key) marks.set(id, "moved");
      }
    }
    return marks;
  }

  // ---- where tiles are -----------------------------------------------------------------

  locate(id) {
    for (let m = 0; m < this.table.length; m++) {
      const i = this.table[m].indexOf(id);
      if (i >= 0) return { area: "table", meld: m, index: i };
    }
    for (let t = 0; t < this.rack.length; t++) {
      const i = this.rack[t].indexOf(id);
      if (i >= 0) return { area: "rack", tier: t, index: i };
    }
    return null;
  }

  /** Was on the table when the turn began: may never go to a rack. */
  isTableTile(id) {
    return !!this.base && this.base.table.some((m) => m.includes(id));
  }

  canPick(id) {
    const at = this.locate(id);
    if (!at || this.seat === null) return false;
    return at.area === "rack" || this.editing;
  }

  // ---- moves ---------------------------------------------------------------------------

  snapshot() {
    return { table: clone(this.table), rack: this.rack.map((t) => [...t]) };
  }

  push() {
    this.undoStack.push(this.snapshot());
    if (this.undoStack.length > 200) this.undoStack.shift();
  }

  /**
   * Move tiles to a target: {area: "table", meld, index} (index null = end), {area: "new"}
   * or {area: "rack", tier, index}. Returns an error sentence, or null when done.
   */
  move(ids, target) {
    ids = ids.filter((id) => this.locate(id));
    if (!ids.length) return "Nothing to move.";
    const toTable = target.area !== "rack";
    const fromTable = ids.some((id) => this.locate(id).area === "table");
    if ((toTable || fromTable) && !this.editing) return "Wait for your turn to change the table.";
    if (!toTable && ids.some((id) => this.isTableTile(id))) {
      return "Tiles on the table must stay on the table.";
    }
    this.push();
    const anchor = this.anchorFor(target, ids);
    for (const id of ids) this.remove(id);
    if (target.area === "new") {
      this.table.push([...ids]);
      this.arrange(this.table[this.table.length - 1]);
    } else if (target.area === "table") {
      const meld = anchor.list;
      meld.splice(anchor.indexIn(), 0, ...ids);
      this.arrange(meld);
    } else {
      const tier = this.rack[target.tier ?? 0];
      tier.splice(anchor.indexIn(), 0, ...ids);
    }
    this.table = this.table.filter((m) => m.length);
    this.changed();
    return null;
  }

  /** Where to insert once the moving tiles are gone: after the nearest tile that stays. */
  anchorFor(target, ids) {
    const moving = new Set(ids);
    const list = target.area === "table" ? this.table[target.meld] : target.area === "rack" ? this.rack[target.tier ?? 0] : null;
    if (!list) return { list: null, indexIn: () => 0 };
    const index = target.index ?? list.length;
    const before = list.slice(0, index).filter((id) => !moving.has(id));
    const prev = before[before.length - 1];
    return { list, indexIn: () => (prev === undefined ? 0 : list.indexOf(prev) + 1) };
  }

  remove(id) {
    const at = this.locate(id);
    if (!at) return;
    const list = at.area === "table" ? this.table[at.meld] : this.rack[at.tier];
    list.splice(at.index, 1);
  }

  /** Swap two tiles' places. */
  swap(a, b) {
    const pa = this.locate(a);
    const pb = this.locate(b);
    if (!pa || !pb || a === b) return "Nothing to swap.";
    const touchesTable = pa.area === "table" || pb.area === "table";
    if (touchesTable && !this.editing) return "Wait for your turn to change the table.";
    if ((pb.area === "rack" && this.isTableTile(a)) || (pa.area === "rack" && this.isTableTile(b))) {
      return "Tiles on the table must stay on the table.";
    }
    this.push();
    const listOf = (p) => (p.area === "table" ? this.table[p.meld] : this.rack[p.tier]);
    listOf(pa)[pa.index] = b;
    listOf(pb)[pb.index] = a;
    for (const p of [pa, pb]) if (p.area === "table") this.arrange(this.table[p.meld]);
    this.changed();
    return null;
  }

  /** Lay a meld in an order the rules accept, when there is one (runs lowest first). */
  arrange(meld) {
    const order = arrangement(meld.map(this.codeOf), this.max);
    if (!order) return;
    const laid = order.map((i) => meld[i]);
    meld.splice(0, meld.length, ...laid);
  }

  undo() {
    const last = this.undoStack.pop();
    if (!last) return false;
    this.table = last.table;
    this.rack = last.rack;
    this.changed();
    return true;
  }

  reset() {
    if (!this.base) return false;
    if (!this.dirty && !this.undoStack.length) return false;
    this.push();
    this.table = clone(this.base.table);
    const onTable = new Set(this.table.flat());
    const inRack = new Set(this.view.rack);
    const kept = this.base.rack.map((tier) => tier.filter((id) => inRack.has(id) && !onTable.has(id)));
    const placed = new Set(kept.flat());
    for (const id of this.view.rack) {
      if (!placed.has(id)) kept[kept[0].length <= kept[1].length ? 0 : 1].push(id);
    }
    this.rack = kept;
    this.undoStack = [];
    this.changed();
    return true;
  }

  /** Sort the rack by colour (runs) or by number (groups), split over the two tiers. */
  sortRack(kind, record = true) {
    const all = this.rack.flat();
    if (!all.length) return;
    if (record) this.push();
    const cmp = kind === "number" ? byNumber : byColour;
    all.sort((a, b) => cmp(this.codes[a], this.codes[b]) || a - b);
    const split = this.splitPoint(all, kind);
    this.rack = [all.slice(0, split), all.slice(split)];
    if (record) this.changed();
  }

  /** Split near the middle, at a colour (or number) boundary when one is close. */
  splitPoint(sorted, kind) {
    const half = Math.ceil(sorted.length / 2);
    const group = (id) => {
      const code = this.codes[id];
      if (code === "J") return "J";
      return kind === "number" ? code.slice(1) : code[0];
    };
    let best = half;
    let bestCost = Infinity;
    for (let i = 1; i < sorted.length; i++) {
      if (group(sorted[i]) === group(sorted[i - 1])) continue;
      const cost = Math.abs(i - half);
      if (cost < bestCost && cost <= Math.max(2, sorted.length / 5)) {
        best = i;
        bestCost = cost;
      }
    }
    return best;
  }

  changed() {
    this.planned = this.dirty && !this.myTurn;
    this.pruneSelection();
    this.save();
  }

  pruneSelection() {
    for (const id of this.selection) if (!this.locate(id)) this.selection.delete(id);
  }

  // ---- the turn ------------------------------------------------------------------------

  check() {
    if (!this.base || !this.view) return { ok: false, reason: "Loading.", melds: [], played: [], opening: null };
    const rackIds = this.view.rack;
    return checkTurn({
      before: this.base.table,
      after: this.table,
      rack: rackIds,
      codeOf: this.codeOf,
      max: this.max,
      opened: this.opened,
      threshold: this.view.rules?.opening ?? 30,
    });
  }

  /** The table to submit: every meld in the order the rules read (runs lowest first). */
  submission() {
    const table = clone(this.table);
    for (const meld of table) this.arrange(meld);
    return table;
  }

  // ---- persistence: the draft survives a reload ------------------------------------------

  key(kind, turn = "") {
    return `rummi:${kind}:${this.gid}:${this.seat}${turn === "" ? "" : ":" + turn}`;
  }

  load(kind, turn) {
    try {
      return JSON.parse(this.storage.getItem(this.key(kind, turn)) || "null");
    } catch {
      return null;
    }
  }

  store(kind, value, turn) {
    try {
      if (value === null) this.storage.removeItem(this.key(kind, turn));
      else this.storage.setItem(this.key(kind, turn), JSON.stringify(value));
    } catch {
      // Private mode or a full store: the draft just will not survive a reload.
    }
  }

  save() {
    if (this.seat === null || !this.view) return;
    this.store("rack", this.rack);
    if (!this.base) return;
    const draft = this.dirty
      ? { base: this.base.table, table: this.table, baseRack: this.base.rack, planned: !this.myTurn }
      : null;
    this.store("draft", draft, this.draftTurn);
  }

  /** Bring back this turn's draft after a reload, if the table is as it was. */
  restoreDraft() {
    if (this.seat === null) return;
    let draft = this.load("draft", this.draftTurn);
    let planned = false;
    if (!draft && this.correspondence) {
      draft = this.latestPlan();
      planned = !!draft;
    }
    if (!draft) return;
    const rackIds = new Set(this.view.rack);
    const table = sameMelds(draft.base, this.view.table)
      ? consistent(draft.table, this.view.table, rackIds)
      : planned || draft.planned
        ? rebase(draft, this.view.table, rackIds)
        : null;
    if (!table) {
      this.notice = "The table changed, so your draft was dropped.";
      this.store("draft", null, this.draftTurn);
      return;
    }
    this.base.rack = (draft.baseRack || this.base.rack).map((t) => t.filter((id) => rackIds.has(id)));
    this.table = clone(table);
    this.placeRackFromTable();
    this.planned = !!draft.planned && !this.myTurn;
    if (!sameMelds(draft.base, this.view.table)) this.notice = "Your planned move was carried over to the new table.";
  }

  /** A planning draft from an earlier turn of this game, the latest one. */
  latestPlan() {
    const prefix = this.key("draft") + ":";
    let best = null;
    let bestTurn = -1;
    for (let i = 0; i < this.storage.length; i++) {
      const k = this.storage.key(i);
      if (!k || !k.startsWith(prefix)) continue;
      const turn = Number(k.slice(prefix.length));
      if (turn < this.draftTurn && turn > bestTurn) {
        try {
          const d = JSON.parse(this.storage.getItem(k));
          if (d?.planned) {
            best = d;
            bestTurn = turn;
          }
        } catch {
          // A broken entry is as good as none.
        }
      }
    }
    return best;
  }
}

/**
 * Carry a planned draft onto a new table, or null. The melds the plan changed must be on the
 * new table exactly as they were; melds it left alone take their new form; new melds join.
 * The result must hold every new table tile once, and otherwise only rack tiles.
 */
export function rebase(draft, newTable, rackIds) {
  const draftKeys = new Set(draft.table.map(meldKey));
  const newKeys = new Set(newTable.map(meldKey));
  const baseKeys = new Set(draft.base.map(meldKey));
  const touched = draft.base.filter((m) => !draftKeys.has(meldKey(m)));
  if (touched.some((m) => !newKeys.has(meldKey(m)))) return null;
  const result = draft.table.filter((m) => !baseKeys.has(meldKey(m)) || newKeys.has(meldKey(m)));
  const resultKeys = new Set(result.map(meldKey));
  for (const m of newTable) {
    if (!baseKeys.has(meldKey(m)) && !resultKeys.has(meldKey(m))) result.push([...m]);
  }
  return consistent(result, newTable, rackIds);
}

/** The table if it holds every table tile once and otherwise only rack tiles, else null. */
function consistent(table, serverTable, rackIds) {
  const seen = new Set();
  const tableIds = new Set(serverTable.flat());
  for (const id of table.flat()) {
    if (seen.has(id) || (!tableIds.has(id) && !rackIds.has(id))) return null;
    seen.add(id);
  }
  for (const id of tableIds) if (!seen.has(id)) return null;
  return clone(table);
}
