// The board settings every family's board honours (see docs/design.md
// "The board in the browser"): the felt, the tile back, colour-blind symbols, the invalid-meld
// outline and mute. They live in the browser (localStorage) and, for a signed-in player, on
// the account (GET/POST /api/me/settings), whose copy wins; the felts and tile backs unlocked
// by trophies join the panel, the locked ones shown disabled with how to earn them. A refused
// change is undone.

import * as sounds from "./sounds.js";

export const SETTINGS_KEY = "rummi:settings";
const DEFAULTS = { felt: "green", back: "lattice", outline: true, cb: false, mute: false, sort: "colour" };
const KNOWN = Object.keys(DEFAULTS);
const API = "/api/me/settings";

export function loadSettings() {
  return { ...DEFAULTS, ...readLocal() };
}

function readLocal() {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
  } catch {
    return {};
  }
}

function saveLocal(settings) {
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(settings));
  } catch {
    // Not remembered in this browser; the account (if any) keeps them.
  }
}

/** Dress a board's root: felt and tile back as data attributes, colour-blind symbols and the
 * outline as classes (static/kit/tiles.css), and the sounds muted or not. */
export function applySettings(root, s) {
  root.classList.add("board-kit");
  root.dataset.felt = s.felt;
  root.dataset.back = s.back;
  root.classList.toggle("rm-cb", !!s.cb);
  root.classList.toggle("rm-no-outline", !s.outline);
  sounds.setMuted(!!s.mute);
  if (s.sort) root.rummiUseSort?.(s.sort);
}

/** The settings panel's fields; `outline` only for a board that checks melds as they are made. */
export function settingsFields({ outline = true } = {}) {
  return `
  <fieldset><legend>Felt</legend>
    <label><input type="radio" name="felt" value="green"> Parlor green</label>
    <label><input type="radio" name="felt" value="blue"> Midnight blue</label>
    <label><input type="radio" name="felt" value="wine"> Claret</label></fieldset>
  <fieldset><legend>Tile backs</legend>
    <label><input type="radio" name="back" value="lattice"> Brass lattice</label>
    <label><input type="radio" name="back" value="mahogany"> Mahogany</label></fieldset>
  <fieldset><legend>Table</legend>
    ${outline ? '<label><input type="checkbox" name="outline"> Outline invalid melds in red</label>' : ""}
    <label><input type="checkbox" name="cb"> Colour-blind symbols</label>
    <label><input type="checkbox" name="mute"> Mute sounds</label></fieldset>`;
}

function show(panel, s) {
  for (const input of panel.querySelectorAll("input[name]")) {
    if (input.type === "radio") input.checked = s[input.name] === input.value;
    else if (input.name in s) input.checked = !!s[input.name];
  }
}

/** Wire the panel's inputs and the gear that opens it; changes are kept in this browser. */
export function bindSettings(root, { panel, gear }, settings) {
  show(panel, settings);
  for (const input of panel.querySelectorAll("input[name]")) {
    input.addEventListener("change", () => {
      settings[input.name] = input.type === "radio" ? input.value : input.checked;
      saveLocal(settings);
      applySettings(root, settings);
    });
  }
  const close = (focus) => {
    panel.hidden = true;
    gear.setAttribute("aria-expanded", "false");
    if (focus) gear.focus();
  };
  document.addEventListener("pointerdown", (e) => {
    if (!panel.hidden && !panel.contains(e.target) && !gear.contains(e.target)) close(false);
  });
  gear.addEventListener("click", () => {
    const open = panel.hidden;
    panel.hidden = !open;
    gear.setAttribute("aria-expanded", String(open));
    if (open) panel.querySelector("input:checked, input")?.focus();
  });
  return { close: () => close(true), isOpen: () => !panel.hidden };
}

// ---- the account's copy -------------------------------------------------------------------

async function call(csrf, body) {
  const init = body
    ? { method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf }, body: JSON.stringify(body) }
    : {};
  const answer = await fetch(API, { credentials: "same-origin", ...init });
  return { ok: answer.ok, body: await answer.json().catch(() => ({})) };
}

function offer(panel, name, items) {
  const input = panel.querySelector(`input[name="${name}"]`);
  const fieldset = input && input.closest("fieldset");
  if (!fieldset) return;
  for (const item of items || []) {
    let radio = fieldset.querySelector(`input[value="${item.key}"]`);
    if (!radio) {
      const label = document.createElement("label");
      radio = document.createElement("input");
      radio.type = "radio";
      radio.name = name;
      radio.value = item.key;
      label.append(radio, ` ${item.name}`);
      fieldset.append(label);
    }
    radio.disabled = item.locked;
    if (item.locked) {
      radio.closest("label").title = item.how;
      radio.closest("label").classList.add("rm-locked");
    }
  }
}

function apply(root, s) {
  applySettings(root, s);
  saveLocal(s);
}

const pick = (s) => Object.fromEntries(Object.entries(s).filter(([k]) => KNOWN.includes(k)));

/** A signed-in player's board: the account's settings replace the browser's (the first time
 * the browser's own are adopted), and every change is saved on the account. */
export async function followAccount(root, csrf) {
  const panel = root.querySelector(".rm-settings");
  if (!panel) return;
  let got = await call(csrf);
  if (!got.ok) return; // a guest: the browser keeps the settings
  if (!got.body.saved) got = await call(csrf, { settings: pick(readLocal()), adopt: true });
  let current = got.body.settings;
  offer(panel, "felt", got.body.felts);
  offer(panel, "back", got.body.backs);
  apply(root, current);
  show(panel, current);
  panel.addEventListener("change", async (event) => {
    const input = event.target;
    if (!input.name) return;
    const change = { [input.name]: input.type === "radio" ? input.value : input.checked };
    const saved = await call(csrf, { settings: change });
    if (saved.ok) current = saved.body.settings;
    apply(root, current);
    show(panel, current);
    root.dataset.settingsSaved = saved.ok ? "1" : "refused";
  });
  root.dataset.settingsFollow = "1";
}

/** Run `then` once the board has drawn itself (its root's data-ready is "1"). */
export function whenReady(root, then) {
  if (root.dataset.ready === "1") return then();
  new MutationObserver((_, observer) => {
    if (root.dataset.ready === "1") {
      observer.disconnect();
      then();
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-ready"] });
}
