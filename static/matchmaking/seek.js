// The lobby's "Find a rated game" panel (docs/api.md "Matchmaking"): seek, cancel, and while
// seeking ask GET /api/seek every 2 s; once matched, go to the game. Before a seek, the panel
// says which players a game in the chosen pool would be unrated with (the seek answer's
// unrated_with: docs/fair-play.md "Rated games between the same players").
const POLL_MS = 2000;
const form = document.getElementById("seek-form");
const api = form.dataset.api;
const csrf = form.querySelector("[name=csrfmiddlewaretoken]").value;
const modes = Object.fromEntries(JSON.parse(document.getElementById("seek-modes").textContent).map((m) => [m.mode, m]));
const mode = document.getElementById("seek-mode");
const players = document.getElementById("seek-players");
const go = document.getElementById("seek-go");
const cancel = document.getElementById("seek-cancel");
const line = document.getElementById("seek-status");
const counts = document.getElementById("seek-counts");
const unrated = document.getElementById("seek-unrated");
let timer = null;
let limits = [];

function syncPlayers() {
  const allowed = modes[mode.value].players;
  for (const option of players.options) option.hidden = option.disabled = !allowed.includes(Number(option.value));
  if (!allowed.includes(Number(players.value))) players.value = String(allowed[0]);
}

// The notices for the pool of the mode and table size chosen now.
function showUnrated() {
  const pool = modes[mode.value].pools[players.value];
  unrated.replaceChildren(
    ...limits
      .filter((l) => l.pool === pool)
      .map((l) => {
        const p = document.createElement("p");
        p.className = "unrated-notice";
        p.dataset.unratedNotice = "";
        p.textContent = l.notice;
        return p;
      }),
  );
}

function showCounts(rows) {
  counts.replaceChildren();
  if (!rows.length) {
    const none = document.createElement("p");
    none.className = "hint";
    none.textContent = "Nobody is seeking right now.";
    counts.append(none);
    return;
  }
  const list = document.createElement("ul");
  list.className = "seeking";
  for (const row of rows) {
    const item = document.createElement("li");
    const n = document.createElement("strong");
    n.textContent = String(row.count);
    item.append(n, ` ${row.count === 1 ? "player" : "players"} seeking ${row.label}, ${row.players} players`);
    list.append(item);
  }
  counts.append(list);
}

function show(state) {
  if (state.seeking) showCounts(state.seeking);
  if (state.unrated_with) {
    limits = state.unrated_with;
    showUnrated();
  }
  const seeking = state.status === "open";
  cancel.hidden = !seeking;
  // While seeking, sending the form replaces the open seek with these settings.
  go.textContent = seeking ? "Update seek" : "Seek";
  if (state.status === "matched" && state.game && timer !== null) {
    line.textContent = "Matched: taking you to your table…";
    poll(false);
    location.assign(state.game);
    return;
  }
  if (seeking) {
    const others = state.waiting - 1;
    const needed = Math.max(1, (state.players || 2) - 1); // the others a table of this size needs
    const wanted = needed === 1 ? "another player" : `${needed} more players`;
    const company = others ? `${others} other${others === 1 ? "" : "s"} seeking this game, of the ${needed} needed` : `waiting for ${wanted}`;
    const bots = state.bots_after ? ` Bots fill the table after ${state.bots_after} s.` : "";
    line.textContent = `Seeking (rating ${state.rating}, within ±${state.window}): ${company}.${bots}`;
  } else if (state.status === "matched" && state.game) {
    line.replaceChildren("Your last seek found a game: ");
    const link = document.createElement("a");
    link.href = state.game;
    link.textContent = "open it";
    line.append(link, ".");
  } else {
    line.textContent = "";
  }
  poll(seeking);
}

function poll(on) {
  if (on && timer === null) timer = setInterval(refresh, POLL_MS);
  if (!on && timer !== null) {
    clearInterval(timer);
    timer = null;
  }
}

async function send(method, body) {
  const response = await fetch(api, {
    method,
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const data = await response.json().catch(() => ({ message: "The site did not answer; try again." }));
  if (!response.ok) throw new Error(data.message || `The request was refused (${response.status}).`);
  return data;
}

async function refresh() {
  try {
    show(await send("GET"));
  } catch {
    // A missed poll is retried on the next tick.
  }
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  const bots = form.elements.bots_after.value;
  const body = {
    mode: mode.value,
    players: Number(players.value),
    bots_after: bots === "" ? null : Number(bots),
    bot_strength: form.elements.bot_strength.value,
  };
  try {
    poll(true);
    show(await send("POST", body));
  } catch (error) {
    poll(false);
    line.textContent = error.message;
  }
});

cancel.addEventListener("click", async () => {
  try {
    show(await send("DELETE"));
  } catch (error) {
    line.textContent = error.message;
  }
});

mode.addEventListener("change", () => {
  syncPlayers();
  showUnrated();
});
players.addEventListener("change", showUnrated);
syncPlayers();
show(JSON.parse(document.getElementById("seek-state").textContent));
