// The replay viewer of a game's replay page and of the rules page's teaching replays
// (templates/games/replay.html, templates/games/teach.html): the steps of #replay-steps, one at
// a time, with the slider and the ◀ ▶ buttons. A step shows its line, the table (a run's end
// closed by a 1 taken back is shown turned over), the train when the family has one, and every
// rack with its take-back pile; a review note, a puzzle link or a lesson when the step has one.
// The tiles left to draw are the pool, or what the step's family calls them (Rummy 45: stock).
import { playerName } from "../kit/people.js";

const root = document.getElementById("replay");
const steps = JSON.parse(document.getElementById("replay-steps").textContent);
const names = document.getElementById("replay-usernames");
const usernames = names ? JSON.parse(names.textContent) : [];
const slider = document.getElementById("replay-slider");

const tile = (code, turned = false) => {
  const el = document.createElement("span");
  el.className = "mini-tile c" + (code === "J" ? "J" : code[0]) + (turned ? " turned" : "");
  el.textContent = code === "J" ? "☺" : code.slice(1);
  el.setAttribute("aria-label", turned ? `${code}, turned over` : code);
  if (turned) el.title = "Turned over: a 1 stitched here was taken back, this end is closed";
  return el;
};
const row = (codes, closed = [false, false]) => {
  const el = document.createElement("div");
  el.className = "mini-meld";
  codes.forEach((c, i) => el.append(tile(c, (i === 0 && closed[0]) || (i === codes.length - 1 && closed[1]))));
  return el;
};
const labelled = (label, codes, className) => {
  const el = document.createElement("div");
  el.className = className;
  el.append(label);
  if (codes.length) el.append(row(codes));
  return el;
};

function show(i) {
  const step = steps[i];
  document.getElementById("replay-label").textContent = `${i + 1}/${steps.length}: ${step.text} · ${step.pile || "pool"} ${step.pool}`;
  const note = document.getElementById("replay-review");
  if (note) {
    note.hidden = !step.review;
    note.textContent = step.review ? `Review: ${step.review}` : "";
  }
  const lesson = document.getElementById("replay-lesson");
  if (lesson) {
    lesson.hidden = !step.lesson;
    lesson.textContent = step.lesson || "";
  }
  const puzzle = document.getElementById("replay-puzzle");
  if (puzzle) {
    puzzle.hidden = !step.puzzle_url;
    if (step.puzzle_url) puzzle.action = step.puzzle_url;
  }
  const closed = step.closed || [];
  document.getElementById("replay-table").replaceChildren(...step.table.map((codes, n) => row(codes, closed[n])));
  const train = document.getElementById("replay-train");
  if (train) {
    train.hidden = !step.train;
    if (step.train) train.replaceChildren(labelled(`Train (${step.train.length}): `, step.train, "mini-rack"));
  }
  document.getElementById("replay-racks").replaceChildren(...step.racks.map((r, n) => {
    const el = document.createElement("div");
    el.className = "mini-rack";
    el.append(playerName(r.name, usernames[n], { avatar: false }), ` (${r.count} tiles, total ${step.totals[n]}): `);
    if (r.tiles.length) el.append(row(r.tiles));
    if (r.takebacks && r.takebacks.length) el.append(labelled("taken back: ", r.takebacks, "takebacks"));
    return el;
  }));
  root.dataset.at = String(i);
}

slider.addEventListener("input", () => show(Number(slider.value)));
root.querySelectorAll("[data-step]").forEach((b) => b.addEventListener("click", () => {
  slider.value = Math.min(steps.length - 1, Math.max(0, Number(slider.value) + Number(b.dataset.step)));
  show(Number(slider.value));
}));
// #seq-N (a trophy's link from a profile) opens the replay at that event; a teaching replay
// opens at its data-start.
const at = /^#seq-(\d+)$/.exec(location.hash);
const found = at ? steps.findIndex((step) => step.seq === Number(at[1])) : -1;
if (found >= 0) slider.value = found;
else if (root.dataset.start) slider.value = root.dataset.start;
if (steps.length) show(Number(slider.value));
window.addEventListener("hashchange", () => {
  const seq = /^#seq-(\d+)$/.exec(location.hash);
  const index = seq ? steps.findIndex((step) => step.seq === Number(seq[1])) : -1;
  if (index >= 0) {
    slider.value = index;
    show(index);
  }
});
