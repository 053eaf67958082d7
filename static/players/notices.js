// On every page of a signed-in player: what reaches them wherever they are (rummi_site/me.py),
// on their own socket, with no polling. A tournament's call to a new table and "your move" in a
// correspondence game show as a toast with a link and a short chime. Tables made while no page
// was open are asked for once, when the page loads. A toast comes back on the next page until
// the player follows its link, says "Later", or opens that game.
const URL_MINE = "/api/tournaments/mine";
const SEEN_KEY = "rummi.notices.seen";
const RETRY_MS = [1000, 2000, 5000, 10000, 30000];

function seen() {
  try {
    return new Set(JSON.parse(sessionStorage.getItem(SEEN_KEY) || "[]"));
  } catch {
    return new Set();
  }
}

function remember(key) {
  const known = seen();
  known.add(key);
  sessionStorage.setItem(SEEN_KEY, JSON.stringify([...known].slice(-200)));
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

function toast(key, message, link, label) {
  document.querySelector(".tournament-toast")?.remove();
  const box = document.createElement("div");
  box.className = "tournament-toast";
  box.setAttribute("role", "status");
  const text = document.createElement("p");
  text.textContent = message;
  const go = document.createElement("a");
  go.className = "button";
  go.href = link;
  go.textContent = label;
  go.addEventListener("click", () => remember(key));
  const close = document.createElement("button");
  close.type = "button";
  close.className = "button quiet";
  close.textContent = "Later";
  close.addEventListener("click", () => {
    remember(key);
    box.remove();
  });
  box.append(text, go, " ", close);
  document.body.append(box);
  chime();
}

function here(url) {
  return url && location.pathname.startsWith(url);
}

function heard(notice) {
  if (!notice || !notice.url) return;
  const key = notice.kind === "turn" ? `turn:${notice.game}:${notice.turn}` : `table:${notice.game}`;
  if (here(notice.url)) {
    remember(key); // the player is at that table already
    return;
  }
  if (seen().has(key)) return;
  if (notice.kind === "table") {
    toast(
      key,
      `${notice.tournament}, round ${notice.round}: your table ${notice.table} is ready.`,
      notice.url,
      "Go to your table",
    );
  } else if (notice.kind === "turn") {
    const against = (notice.against || []).join(", ");
    toast(key, `Your move${against ? ` against ${against}` : ""}.`, notice.url, "Go to the game");
  }
}

function catchUp() {
  fetch(URL_MINE, { headers: { Accept: "application/json" }, credentials: "same-origin" })
    .then((r) => (r.ok ? r.json() : { tables: [] }))
    .then(({ tables }) => tables.forEach((row) => heard({ kind: "table", ...row })))
    .catch(() => {});
}

let failures = 0;

function connect() {
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  let socket;
  try {
    socket = new WebSocket(`${scheme}://${location.host}/ws/me/`);
  } catch {
    return;
  }
  socket.addEventListener("open", () => {
    failures = 0;
    document.documentElement.dataset.notices = "open";
  });
  socket.addEventListener("message", (event) => {
    try {
      heard(JSON.parse(event.data));
    } catch {
      // A frame that is not a notice is ignored.
    }
  });
  socket.addEventListener("close", (event) => {
    document.documentElement.dataset.notices = "closed";
    if (event.code === 4401) return; // signed out meanwhile: nothing to hear
    const wait = RETRY_MS[Math.min(failures, RETRY_MS.length - 1)];
    failures += 1;
    setTimeout(() => {
      catchUp(); // what was sent while the socket was down
      connect();
    }, wait);
  });
}

catchUp();
connect();
