// The tile-rummy table's own moves (the Rummikub board and the puzzles): pick, move, swap,
// new meld, undo, reset and sort on the draft turn (./state.js), each with its sound, its
// message and a sentence for screen readers. A page spreads these into its `act` and adds
// what goes to its server (end turn, draw, hint, submit).

import { installDrag } from "./drag.js";
import { installKeys } from "./keys.js";
import { tileName } from "./rules.js";
import * as sounds from "./sounds.js";

/**
 * `orderedSelection()` lists the picked tiles in board order (from installDrag); `frozen()`
 * is true when the table takes no more moves (a puzzle solved or given up); `resetText` is
 * said when the turn goes back to its start.
 */
export function tableActions({ board, ui, orderedSelection, frozen = () => false, resetText = "The turn is back to its start." }) {
  const describe = (ids) => ids.map((id) => tileName(board.codes[id])).join(", ");
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
      if (frozen()) return;
      if (!board.canPick(id)) return act.refuse(board.seat === null ? "" : "Wait for your turn to move table tiles.");
      if (board.selection.has(id)) board.selection.delete(id);
      else board.selection.add(id);
      sounds.play("tick");
      ui.render();
      const n = board.selection.size;
      ui.announce(`${board.selection.has(id) ? "Picked" : "Put down"} ${tileName(board.codes[id])}. ${n} picked.`);
    },
    move(ids, target) {
      if (frozen()) return act.refuse("");
      const error = board.move(ids, target);
      if (error) return act.refuse(error);
      board.selection.clear();
      sounds.play(target.area === "rack" ? "click" : "clink");
      ui.say("");
      ui.render();
      const where = target.area === "rack" ? "to your rack" : target.area === "new" ? "into a new meld" : `into meld ${target.meld + 1}`;
      ui.announce(`Moved ${describe(ids)} ${where}.`);
    },
    swap(a, b) {
      if (frozen()) return act.refuse("");
      const error = board.swap(a, b);
      if (error) return act.refuse(error);
      sounds.play("clink");
      ui.render();
      ui.announce(`Swapped ${describe([a])} and ${describe([b])}.`);
    },
    newMeld() {
      if (!board.selection.size) return ui.say("Pick tiles first, then make a new meld of them.");
      act.move(orderedSelection(), { area: "new" });
    },
    undo() {
      if (frozen()) return;
      if (board.undo()) {
        sounds.play("click");
        ui.announce("Undone.");
      }
      ui.render();
    },
    reset() {
      if (frozen()) return;
      if (board.reset()) {
        sounds.play("shuffle");
        ui.announce(resetText);
        ui.say("");
      }
      ui.render();
    },
    sort(kind) {
      if (frozen()) return;
      board.sortRack(kind);
      sounds.play("click");
      ui.render();
      ui.announce(kind === "number" ? "Rack sorted by number." : "Rack sorted by colour.");
    },
    describe,
  };
  return act;
}

/** Pointer, keys and the control buttons (data-act) of a table board, wired to `act`; `extra`
 * maps a page's own buttons to their actions. Answers the drag (its orderedSelection). */
export function installTable({ root, board, ui, act, extra = {} }) {
  const drag = installDrag({ root, board, ui, act });
  installKeys({ root, board, ui, act, orderedSelection: drag.orderedSelection });
  const run = {
    "sort-colour": () => act.sort("colour"),
    "sort-number": () => act.sort("number"),
    undo: () => act.undo(),
    reset: () => act.reset(),
    new: () => act.newMeld(),
    end: () => act.endTurn(),
    hint: () => act.hint(),
    ...extra,
  };
  ui.el.controls.addEventListener("click", (e) => {
    const btn = e.target.closest("[data-act]");
    if (!btn || btn.disabled) return;
    run[btn.dataset.act]?.();
  });
  return drag;
}
