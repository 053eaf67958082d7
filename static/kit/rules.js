// Meld rules for the board, mirroring games/engine/melds.py and turn.py (docs/rules.md, "Melds").
// The board checks as the player works so it can glow valid melds and refuse an End turn the
// server would reject; the server's check stays the truth (jokers' roles are left to it).

export const COLOURS = ["K", "B", "R", "Y"];
export const COLOUR_NAMES = { K: "black", B: "blue", R: "red", Y: "yellow" };
export const JOKER_VALUE = 30;
const MIN_MELD = 3;
const MAX_GROUP = COLOURS.length;

/** A tile kind from its code: {c: "R", n: 7} or the joker {c: null, n: 0}. */
export function parseCode(code) {
  if (code === "J") return { c: null, n: 0, code };
  return { c: code[0], n: Number(code.slice(1)), code };
}

/** "red 7", "joker": what a screen reader says for a tile. */
export function tileName(code) {
  const t = parseCode(code);
  return t.c === null ? "joker" : `${COLOUR_NAMES[t.c]} ${t.n}`;
}

export function maxNumberFor(rulesName) {
  return rulesName === "rush" ? 9 : 13;
}

function runReading(tiles, max) {
  const real = [];
  tiles.forEach((t, i) => {
    if (t.c !== null) real.push([i, t]);
  });
  const colour = real[0][1].c;
  const start = real[0][1].n - real[0][0];
  if (start < 1 || start + tiles.length - 1 > max) return null;
  for (const [i, t] of real) if (t.c !== colour || t.n !== start + i) return null;
  let value = 0;
  for (let i = 0; i < tiles.length; i++) value += start + i;
  return { kind: "run", value };
}

function groupReading(tiles) {
  if (tiles.length > MAX_GROUP) return null;
  const real = tiles.filter((t) => t.c !== null);
  const number = real[0].n;
  const colours = new Set(real.map((t) => t.c));
  if (real.some((t) => t.n !== number) || colours.size !== real.length) return null;
  return { kind: "group", value: number * tiles.length };
}

/** Every valid reading of a meld (codes), the most valuable first, a run first on ties. */
export function readings(codes, max = 13) {
  const tiles = codes.map(parseCode);
  if (tiles.length < MIN_MELD || tiles.every((t) => t.c === null)) return [];
  const found = [runReading(tiles, max), groupReading(tiles)].filter(Boolean);
  found.sort((a, b) => b.value - a.value || (a.kind === "run" ? -1 : 1));
  return found;
}

/** null for a valid meld, else the engine's sentence saying what is wrong and which rule it
 * breaks (games/engine/melds.py meld_error, word for word). */
export function meldError(codes, max = 13) {
  if (readings(codes, max).length) return null;
  const text = codes.join(" ");
  if (!codes.length) return `an empty meld: a meld needs at least ${MIN_MELD} tiles`;
  if (codes.length < MIN_MELD) {
    const count = `${codes.length} tile${codes.length > 1 ? "s" : ""}`;
    return `${text} has only ${count}: a meld needs at least ${MIN_MELD} tiles`;
  }
  const real = codes.map(parseCode).filter((t) => t.c !== null);
  if (!real.length) return `${text} is only jokers: a meld needs at least one numbered tile`;
  if (new Set(real.map((t) => t.n)).size === 1) {
    if (codes.length > MAX_GROUP) {
      return `${text} has ${codes.length} tiles: a group has at most ${MAX_GROUP}, one of each colour`;
    }
    const colours = real.map((t) => t.c);
    const twice = colours.find((c) => colours.filter((d) => d === c).length > 1);
    return `${text} has ${COLOUR_NAMES[twice]} twice: a group needs every colour different`;
  }
  if (new Set(real.map((t) => t.c)).size === 1) return runError(codes, max, text);
  return `${text} is neither a group nor a run: a group is one number in different colours, a run is consecutive numbers in one colour`;
}

/** Why tiles of one colour and several numbers are not a run (melds.py _run_error). */
function runError(codes, max, text) {
  const real = [];
  codes.map(parseCode).forEach((t, i) => {
    if (t.c !== null) real.push([i, t.n]);
  });
  const numbers = real.map(([, n]) => n);
  for (const n of numbers) {
    if (numbers.filter((m) => m === n).length > 1) {
      return `${text} has ${n} twice: a run needs each number once`;
    }
  }
  const pairs = real.slice(1).map((b, k) => [real[k], b]);
  for (const [[, a], [, b]] of pairs) {
    if (b < a) {
      if (b === 1 && a === max) {
        return `${text} goes round from ${max} to 1: a run cannot wrap, 1 is only low`;
      }
      return `${text} is out of order: a run is laid lowest first`;
    }
  }
  for (const [[i, a], [j, b]] of pairs) {
    if (b - a > j - i) return `${text} has a gap: a run needs consecutive numbers`;
    if (b - a < j - i) {
      return `${text} has too many tiles between ${a} and ${b}: a run needs consecutive numbers`;
    }
  }
  if (real[0][1] - real[0][0] < 1) return `${text} would go below 1: no tile comes before the 1`;
  return `${text} would go past ${max}: a run stops at ${max}`;
}

/** The best reading of a meld, or null when it is not valid. */
export function bestReading(codes, max = 13) {
  return readings(codes, max)[0] || null;
}

/**
 * An order of the meld's tiles (indexes into `codes`) that makes it valid, or null.
 * A valid meld keeps its order; otherwise the one-colour tiles are laid lowest first with
 * jokers filling the gaps, then after the top (or below the bottom when the top is the max).
 * Players drop tiles in any order; the server wants runs written lowest first.
 */
export function arrangement(codes, max = 13) {
  const identity = codes.map((_, i) => i);
  if (readings(codes, max).length) return identity;
  const tiles = codes.map(parseCode);
  const real = identity.filter((i) => tiles[i].c !== null);
  const jokers = identity.filter((i) => tiles[i].c === null);
  if (real.length === 0 || codes.length < MIN_MELD) return null;
  if (new Set(real.map((i) => tiles[i].c)).size !== 1) return null;
  real.sort((a, b) => tiles[a].n - tiles[b].n);
  const order = [];
  const spare = [...jokers];
  for (let k = 0; k < real.length; k++) {
    if (k > 0) {
      const gap = tiles[real[k]].n - tiles[real[k - 1]].n - 1;
      if (gap < 0 || gap > spare.length) return null;
      for (let g = 0; g < gap; g++) order.push(spare.shift());
    }
    order.push(real[k]);
  }
  let top = tiles[real[real.length - 1]].n;
  while (spare.length && top < max) {
    order.push(spare.shift());
    top++;
  }
  while (spare.length) order.unshift(spare.shift());
  return readings(
    order.map((i) => codes[i]),
    max,
  ).length
    ? order
    : null;
}

/** A rack value: numbers, a joker 30. */
export function rackValue(codes) {
  return codes.reduce((sum, code) => sum + (code === "J" ? JOKER_VALUE : parseCode(code).n), 0);
}

function setKey(meld) {
  return [...meld].sort((a, b) => a - b).join(",");
}

/**
 * Check a draft turn as the engine will, short of jokers' roles (the server checks those).
 * `codeOf(id)` gives a tile's code. Returns {ok, reason, played, melds: [{valid, error, value,
 * kind}], opening: {needed, value, touches} | null}.
 */
export function checkTurn({ before, after, rack, codeOf, max, opened, threshold }) {
  const rackSet = new Set(rack);
  const beforeIds = new Set(before.flat());
  const melds = after.map((meld) => {
    const codes = meld.map(codeOf);
    const best = bestReading(codes, max);
    return best
      ? { valid: true, error: null, value: best.value, kind: best.kind }
      : { valid: false, error: meldError(codes, max), value: 0, kind: null };
  });
  const afterIds = new Set(after.flat());
  const played = after.flat().filter((id) => rackSet.has(id));
  const missing = [...beforeIds].filter((id) => !afterIds.has(id));
  let opening = null;
  if (!opened) {
    const remaining = new Map();
    for (const meld of after) {
      const key = setKey(meld);
      remaining.set(key, (remaining.get(key) || 0) + 1);
    }
    let touches = false;
    for (const meld of before) {
      const key = setKey(meld);
      if (!remaining.get(key)) touches = true;
      else remaining.set(key, remaining.get(key) - 1);
    }
    let value = 0;
    after.forEach((meld, i) => {
      if (melds[i].valid && meld.every((id) => rackSet.has(id))) value += melds[i].value;
    });
    opening = { needed: threshold, value, touches };
  }
  let reason = null;
  const bad = melds.findIndex((m) => !m.valid);
  if (missing.length) reason = "Tiles on the table must stay on the table.";
  else if (!played.length) reason = "Play at least one tile from your rack, or draw.";
  else if (bad >= 0) reason = capitalise(melds[bad].error) + ".";
  else if (opening && opening.touches) {
    reason = "Your initial meld must be new melds from your rack alone.";
  } else if (opening && opening.value < threshold) {
    reason = `Your initial meld is worth ${opening.value}; it must be worth at least ${threshold}.`;
  }
  return { ok: reason === null, reason, played, melds, opening };
}

function capitalise(text) {
  return text ? text[0].toUpperCase() + text.slice(1) : text;
}

/** Rack order "by colour" (runs): colour, then number; jokers last. */
export function byColour(a, b) {
  const ta = parseCode(a);
  const tb = parseCode(b);
  if ((ta.c === null) !== (tb.c === null)) return ta.c === null ? 1 : -1;
  return COLOURS.indexOf(ta.c) - COLOURS.indexOf(tb.c) || ta.n - tb.n;
}

/** Rack order "by number" (groups): number, then colour; jokers last. */
export function byNumber(a, b) {
  const ta = parseCode(a);
  const tb = parseCode(b);
  if ((ta.c === null) !== (tb.c === null)) return ta.c === null ? 1 : -1;
  return ta.n - tb.n || COLOURS.indexOf(ta.c) - COLOURS.indexOf(tb.c);
}
