// A tournament's page: live standings and rounds (the socket's frames; polling only while the
// socket is down), and the countdown to the start.
import { playerName } from "../kit/people.js";

const live = JSON.parse(document.getElementById("tournament-live").textContent);

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

const number = (x) => (Number.isInteger(x) ? String(x) : x.toFixed(1));

function showStandings(rows) {
  const body = document.querySelector("#standings tbody");
  if (!body) return;
  body.replaceChildren(
    ...rows.map((row) => {
      const tr = document.createElement("tr");
      tr.dataset.entry = row.entry;
      if (row.entry === live.me) tr.className = "me";
      // A person's name links to their profile after their avatar; a bot's is text.
      const name = document.createElement("td");
      name.append(playerName(row.player, row.username));
      if (row.withdrawn) name.append(" (withdrawn)");
      // Games they were absent from (docs/fair-play.md), as the page's own rows say it.
      if (row.absent) {
        const note = document.createElement("span");
        note.className = "hint fair-play";
        note.dataset.absent = row.absent;
        note.textContent = `(absent from ${row.absent} game${row.absent === 1 ? "" : "s"})`;
        name.append(" ", note);
      }
      tr.append(
        cell(row.rank ?? ""),
        name,
        cell(number(row.points)),
        cell(String(row.tiebreaks.score)),
        cell(number(row.tiebreaks.buchholz)),
        cell(number(row.tiebreaks.sonneborn_berger)),
        cell(String(row.byes)),
      );
      return tr;
    }),
  );
}

function update(frame) {
  if (frame.type !== "standings") return;
  showStandings(frame.standings);
  const state = document.getElementById("t-state");
  const { rounds, done, tables_done: tablesDone } = frame.progress;
  // Rounds and tables are listed by the page itself: a new round, a finished table or a new
  // state reloads it (rare: once a table or round), the standings update in place.
  const key = `${rounds}/${done}/${tablesDone}/${frame.state}`;
  if (update.key && update.key !== key) window.location.reload();
  update.key = key;
  if (state) state.dataset.state = frame.state;
}

function poll() {
  fetch(live.json, { headers: { Accept: "application/json" } })
    .then((r) => (r.ok ? r.json() : null))
    .then((frame) => frame && update(frame))
    .catch(() => {});
}

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket;
  try {
    socket = new WebSocket(`${scheme}://${location.host}${live.socket}`);
  } catch {
    return;
  }
  socket.addEventListener("open", () => stopPolling());
  socket.addEventListener("message", (event) => update(JSON.parse(event.data)));
  // The socket is the page's source (every frame goes out through the one push path, relayed
  // from the worker in embedded mode); polling is only the fallback while it is down.
  socket.addEventListener("close", () => {
    startPolling();
    setTimeout(connect, 5000);
  });
}

let polling = null;

function startPolling() {
  if (polling === null) {
    poll();
    polling = setInterval(poll, live.poll_ms);
  }
}

function stopPolling() {
  if (polling !== null) clearInterval(polling);
  polling = null;
}

function countdown() {
  const el = document.getElementById("countdown");
  if (!el) return;
  const at = Date.parse(el.getAttribute("datetime"));
  const tick = () => {
    const left = Math.max(0, Math.round((at - Date.now()) / 1000));
    const h = Math.floor(left / 3600);
    const m = Math.floor((left % 3600) / 60);
    const s = left % 60;
    el.textContent = left ? `in ${h ? `${h} h ` : ""}${m} min ${s} s` : "now";
    if (!left) setTimeout(() => window.location.reload(), 4000);
    else setTimeout(tick, 1000);
  };
  tick();
}

connect();
poll();
countdown();
