// On any page, for a player in a running tournament: when a new table of theirs is made,
// a toast with a link to it and a short chime.
const URL_MINE = "/api/tournaments/mine";
const SEEN_KEY = "rummi.tournament.tables";
const POLL_MS = 8000;

function seen() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(SEEN_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function remember(ids) {
  sessionStorage.setItem(SEEN_KEY, JSON.stringify([...ids]));
}

function chime() {
  try {
    const audio = new AudioContext();
    const tone = audio.createOscillator();
    const gain = audio.createGain();
    tone.frequency.value = 660;
    gain.gain.setValueAtTime(0.15, audio.currentTime);
    gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.6);
    tone.connect(gain).connect(audio.destination);
    tone.start();
    tone.stop(audio.currentTime + 0.6);
  } catch {
    // No sound where the browser allows none: the toast still shows.
  }
}

function toast(row) {
  document.querySelector(".tournament-toast")?.remove();
  const box = document.createElement("div");
  box.className = "tournament-toast";
  box.setAttribute("role", "status");
  const text = document.createElement("p");
  text.textContent = `${row.tournament}, round ${row.round}: your table ${row.table} is ready.`;
  const go = document.createElement("a");
  go.className = "button";
  go.href = row.url;
  go.textContent = "Go to your table";
  const close = document.createElement("button");
  close.type = "button";
  close.className = "button quiet";
  close.textContent = "Later";
  close.addEventListener("click", () => box.remove());
  box.append(text, go, " ", close);
  document.body.append(box);
  chime();
}

function check() {
  fetch(URL_MINE, { headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : { tables: [] }))
    .then(({ tables }) => {
      const known = seen();
      for (const row of tables) {
        if (known.has(row.game)) continue;
        known.add(row.game);
        if (!location.pathname.startsWith(row.url)) toast(row);
      }
      remember(known);
    })
    .catch(() => {});
}

check();
setInterval(check, POLL_MS);
