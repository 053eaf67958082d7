// A tile drawn from its code (docs/rules.md notation: K7, B13, R1, Y9, J) for every family's
// board and the puzzles: an ivory tile with its number and a colour mark (a shape per colour in
// colour-blind mode), or the joker's crown and face. Styled by static/kit/kit.css.

import { tileName } from "./rules.js";

const JOKER = `<svg class="rm-defs" width="0" height="0" aria-hidden="true" focusable="false"><defs>
  <symbol id="rm-joker" viewBox="0 0 40 40">
    <path d="M8 17 L4 5 L14 12 L20 2 L26 12 L36 5 L32 17 Z" fill="currentColor"/>
    <circle cx="4" cy="5" r="2.4" fill="#c9a227"/><circle cx="20" cy="2.6" r="2.4" fill="#c9a227"/>
    <circle cx="36" cy="5" r="2.4" fill="#c9a227"/>
    <circle cx="20" cy="26" r="10" fill="none" stroke="#1d1b19" stroke-width="2.4"/>
    <circle cx="16.4" cy="24" r="1.6" fill="#1d1b19"/><circle cx="23.6" cy="24" r="1.6" fill="#1d1b19"/>
    <path d="M14.5 28.5 Q20 34 25.5 28.5" fill="none" stroke="#1d1b19" stroke-width="2.2" stroke-linecap="round"/>
  </symbol>
</defs></svg>`;

/** The joker's drawing, once per page, for the tiles' <use href="#rm-joker">. */
export function jokerSymbol() {
  return JOKER;
}

/** A new tile element for `code`: `.tile.c-<colour>` (or `.tile.joker`), named for readers. */
export function tileElement(code, tag = "div") {
  const el = document.createElement(tag);
  el.className = code === "J" ? "tile joker" : `tile c-${code[0]}`;
  el.dataset.code = code;
  // A picture of a tile with its name; a board makes the ones it lets you act on buttons.
  el.setAttribute("role", "img");
  el.setAttribute("aria-label", tileName(code));
  el.innerHTML =
    code === "J"
      ? '<svg class="tile-jk" viewBox="0 0 40 40" aria-hidden="true"><use href="#rm-joker"/></svg>'
      : `<b aria-hidden="true">${code.slice(1)}</b><i aria-hidden="true"></i>`;
  return el;
}

/** A face-down tile in the player's chosen tile back (the root's data-back). */
export function tileBack() {
  const el = document.createElement("i");
  el.className = "rm-back";
  el.setAttribute("aria-hidden", "true");
  return el;
}
