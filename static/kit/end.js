// A game's end, for every family (docs/api.md, GET /api/games/<gid>/end): the viewer's outcome,
// the scorecard by place, rating changes (GET /api/ratings/game/<gid>), the way back and the
// rematch, whose game replaces this one in the address bar.

const JSON_GET = { credentials: "same-origin", headers: { Accept: "application/json" } };

/** GET the end of the game; null until it answers (before the end: 409). */
export async function fetchEnd(api) {
  const response = await fetch(`${api}end`, JSON_GET).catch(() => null);
  return response?.ok ? response.json() : null;
}

/** The scorecard's lines in place order (a shared place keeps seat order). */
export function byPlace(lines) {
  return [...(lines || [])].sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || a.seat - b.seat);
}

/** Whether the game was aborted (docs/fair-play.md): every line says so. */
export const aborted = (lines) => (lines || []).some((l) => l.fair_play === "aborted");

/** The end dialog's sentence for an aborted game (docs/fair-play.md), or null. */
export function abortedNote(lines) {
  if (!aborted(lines)) return null;
  const p = document.createElement("p");
  p.className = "rm-aborted";
  p.dataset.aborted = "";
  p.textContent = "Game aborted: a player resigned or timed out before a move of their own. It is unrated, earns no trophies and is not counted among wins.";
  return p;
}

/** A line's note after the name: absent, played by a stand-in for N turns, resigned or timed
 * out ("aborted" is the dialog's sentence, abortedNote, not each line's). */
export function lineNote(l) {
  if (l.fair_play && l.fair_play !== "aborted") return ` (${l.fair_play})`;
  return l.resigned ? " (resigned)" : l.timed_out ? " (timed out)" : "";
}

/** The end's title for the viewer at `seat` (null: a spectator); an aborted game has no winner. */
export function outcomeTitle(lines, seat) {
  const mine = (lines || []).find((l) => l.seat === seat);
  if (aborted(lines)) {
    if (mine?.resigned) return "You resigned: game aborted";
    if (mine?.timed_out) return "You timed out: game aborted";
    return "Game aborted";
  }
  if (seat === null || seat === undefined || !mine) return "Game over";
  const of = `place ${mine.place} of ${lines.length}`;
  if (mine.absent) return `You were absent: ${of}`;
  if (mine.resigned) return `You resigned: ${of}`;
  if (mine.timed_out) return `You timed out: ${of}`;
  if (mine.place === 1) {
    const shared = lines.filter((l) => l.place === 1).length > 1;
    return shared ? "You won, sharing first place" : "You won!";
  }
  return `You finished in ${of}`;
}

/** The end's way back: the tournament's when the end API names one, else the parlor. */
export function wayBack(links) {
  const back = links?.back;
  if (back?.url) return { url: back.url, label: back.label || "Back to the tournament" };
  return { url: "/", label: "Back to the parlor" };
}

/** Each seat's rating change as words ("+12", "−8", or why it was not rated), or null when
 * the ratings have nothing to say about this game (404, or no answer). */
export async function ratingChanges(gid) {
  const response = await fetch(`/api/ratings/game/${encodeURIComponent(gid)}`, JSON_GET).catch(() => null);
  if (!response?.ok) return null;
  const data = await response.json().catch(() => null);
  const changes = new Map();
  for (const s of data?.seats || []) {
    if (!s.rated) changes.set(s.seat, { text: s.reason || "unrated", rated: false });
    else changes.set(s.seat, { text: s.delta > 0 ? `+${s.delta}` : s.delta < 0 ? `−${-s.delta}` : "±0", rated: true, delta: s.delta });
  }
  return changes;
}

/** A cell's content for a seat's rating change, or "" when there is none. */
export function ratingCell(changes, seat) {
  const change = changes?.get(seat);
  if (!change) return "";
  const span = document.createElement("span");
  span.className = `rm-rating ${change.rated ? (change.delta < 0 ? "down" : "up") : "unrated"}`;
  span.textContent = change.text;
  return span;
}

/** Answer the Rematch buttons (.rm-rematch) inside `container`; `say` tells why one failed. */
export function onRematch(container, api, csrf, say) {
  container.addEventListener("click", async (e) => {
    const button = e.target.closest(".rm-rematch");
    if (!button) return;
    button.disabled = true;
    const answer = await askRematch(api, csrf);
    if (!answer.ok) {
      button.disabled = false;
      say(answer.data.message || "Could not ask for a rematch; try again.");
    }
  });
}

/** Ask for (or accept) the rematch; on success the new game replaces this page, in the
 * address bar as in the history, so a reload or Back never lands on the finished game. */
export async function askRematch(api, csrf) {
  const response = await fetch(`${api}rematch`, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", Accept: "application/json", "X-CSRFToken": csrf },
    body: "{}",
  }).catch(() => null);
  const data = response ? await response.json().catch(() => ({})) : {};
  if (response?.ok && data.url) {
    location.replace(data.url);
    return { ok: true, data };
  }
  return { ok: false, data };
}

/** The rematch's line of the end dialog (its buttons carry .rm-rematch), or null: go to the
 * rematch this player asked for, accept another's, or ask for one; a waiting offer says until
 * when it is open, a new one how long it will be (it lapses unaccepted: docs/design.md
 * "Rematches"). */
export function rematchControls(r = {}) {
  const p = document.createElement("p");
  p.className = "rm-end-rematch";
  if (r.offered && r.mine) {
    const go = document.createElement("a");
    go.className = "rm-btn rm-primary";
    go.href = r.url;
    go.textContent = "Go to the rematch";
    p.append(go);
    if (r.waiting?.length) p.append(" ", small(`Waiting for ${r.waiting.join(", ")}${openUntil(r.expires)}`));
  } else if (r.offered && r.can_offer) {
    p.append(rematchButton("Accept the rematch"), " ", small(`${r.accepted.join(", ")} asked for one${openUntil(r.expires)}`));
  } else if (r.can_offer) {
    p.append(rematchButton("Rematch"), " ", small(`same seats and options; the offer lapses in ${openFor(r.open_minutes)}`));
  }
  return p.childNodes.length ? p : null;
}

/** "; open until 14:32" (a weekday too past the next 20 hours) for a waiting offer, else "". */
export function openUntil(iso) {
  const at = iso ? new Date(iso) : null;
  if (!at || Number.isNaN(at.getTime())) return "";
  const soon = at - Date.now() < 20 * 3600 * 1000;
  const options = soon ? { hour: "2-digit", minute: "2-digit" } : { weekday: "short", hour: "2-digit", minute: "2-digit" };
  return `; open until ${at.toLocaleString([], options)}`;
}

/** How long an offer stays open, in words: "10 minutes", "3 days". */
export function openFor(minutes = 10) {
  const days = minutes / 1440;
  if (Number.isInteger(days)) return `${days} day${days === 1 ? "" : "s"}`;
  return `${minutes} minute${minutes === 1 ? "" : "s"}`;
}

function small(text) {
  const span = document.createElement("span");
  span.className = "rm-small";
  span.textContent = text;
  return span;
}

function rematchButton(text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "rm-btn rm-primary rm-rematch";
  button.textContent = text;
  return button;
}
