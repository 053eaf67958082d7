// Board settings that follow the account (docs/design.md "Players"): on the game page of a
// signed-in player, the settings saved on the account replace the browser's; the first time,
// the browser's own (a guest's, say) are adopted instead. The felts and tile backs unlocked by
// trophies join the settings panel, the locked ones shown disabled with how to earn them.
// Every change is saved on the account; a refused one is undone.

import { SETTINGS_KEY, applySettings } from "../games/game.js";

const API = "/api/me/settings";

function csrf() {
  const boot = document.getElementById("bootstrap");
  return boot ? JSON.parse(boot.textContent).csrf : "";
}

async function call(body) {
  const init = body
    ? { method: "POST", headers: { "Content-Type": "application/json", "X-CSRFToken": csrf() }, body: JSON.stringify(body) }
    : {};
  const answer = await fetch(API, { credentials: "same-origin", ...init });
  return { ok: answer.ok, body: await answer.json() };
}

function local() {
  try {
    return JSON.parse(localStorage.getItem(SETTINGS_KEY) || "{}");
  } catch {
    return {};
  }
}

function apply(root, s) {
  applySettings(root, s);
  try {
    localStorage.setItem(SETTINGS_KEY, JSON.stringify(s));
  } catch {
    // Not remembered in this browser; the account keeps them.
  }
}

function offer(panel, name, items) {
  const input = panel.querySelector(`input[name="${name}"]`);
  const fieldset = input && input.closest("fieldset");
  if (!fieldset) return;
  for (const item of items) {
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

function show(panel, s) {
  for (const input of panel.querySelectorAll("input")) {
    if (input.type === "radio") input.checked = s[input.name] === input.value;
    else if (input.name in s) input.checked = !!s[input.name];
  }
}

async function follow(root) {
  const panel = root.querySelector(".rm-settings");
  if (!panel) return;
  let got = await call();
  if (!got.ok) return; // a guest: the browser keeps the settings
  if (!got.body.saved) got = await call({ settings: pick(local()), adopt: true });
  let current = got.body.settings;
  offer(panel, "felt", got.body.felts);
  offer(panel, "back", got.body.backs);
  apply(root, current);
  show(panel, current);
  panel.addEventListener("change", async (event) => {
    const input = event.target;
    if (!input.name) return;
    const change = { [input.name]: input.type === "radio" ? input.value : input.checked };
    const saved = await call({ settings: change });
    if (saved.ok) current = saved.body.settings;
    apply(root, current);
    show(panel, current);
    root.dataset.settingsSaved = saved.ok ? "1" : "refused";
  });
  root.dataset.settingsFollow = "1";
}

function pick(s) {
  const known = ["felt", "back", "cb", "outline", "mute", "sort"];
  return Object.fromEntries(Object.entries(s).filter(([k]) => known.includes(k)));
}

function whenReady(root, then) {
  if (root.dataset.ready === "1") return then();
  new MutationObserver((_, observer) => {
    if (root.dataset.ready === "1") {
      observer.disconnect();
      then();
    }
  }).observe(root, { attributes: true, attributeFilter: ["data-ready"] });
}

const root = document.getElementById("rummi");
if (root) whenReady(root, () => follow(root).catch(() => {}));
