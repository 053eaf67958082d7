"""Play seeded bot games with the engine and write them as exported records (tests/fixtures).

Usage: python tools/export_fixture_records.py OUT_DIR [NAME ...]

With names, only those games are exported (a new record joins the old ones, which are never
written over). Rummikub games come first, then Rummy 45's (``R45_GAMES``, names ``r45-*``):
seeded bot games at 2 and 4 players, one long enough that the stock is renewed from the train.

Each file has the shape of ``/g/<id>/record.json`` (game, mode, commitment, seed, events) plus
``expected``: the final totals and winners and the seed check, as the engine gave them on the
day the record was exported. The suite replays every such file: a record exported once must
replay to the same result forever (docs/design.md "Event versions"), so these files are
written once and never regenerated over.
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.engine.audit import audit_record  # noqa: E402
from games.engine.bots import choose_action  # noqa: E402
from games.engine.projection import view_for  # noqa: E402
from games.engine.r45 import audit as r45_audit  # noqa: E402
from games.engine.r45 import bots as r45_bots  # noqa: E402
from games.engine.r45 import state as r45_state  # noqa: E402
from games.engine.r45 import views as r45_views  # noqa: E402
from games.engine.r45.events import StockRenewed  # noqa: E402
from games.engine.rules import rules_named  # noqa: E402
from games.engine.scoring import MatchFormat  # noqa: E402
from games.engine.state import (  # noqa: E402
    Draw,
    GameConfig,
    Resign,
    TimeOut,
    apply,
    new_game,
)

GAMES = [
    # name, mode, rules, players, match, strengths, resign_at, timeout_every
    (
        "classic-2-single",
        "sandbox",
        "classic",
        2,
        {"kind": "single"},
        ["strong", "casual"],
        None,
        0,
    ),
    (
        "classic-4-target",
        "parlor",
        "classic",
        4,
        {"kind": "target", "target": 100},
        ["strong", "casual", "beginner", "master"],
        None,
        9,
    ),
    (
        "rush-3-rounds",
        "rush",
        "rush",
        3,
        {"kind": "rounds", "rounds": 3},
        ["casual", "strong", "beginner"],
        None,
        0,
    ),
    (
        "large-6-resign",
        "lan",
        "large",
        6,
        {"kind": "single"},
        ["casual", "beginner", "strong", "casual", "beginner", "casual"],
        40,
        7,
    ),
]


R45_GAMES = [
    # name, mode, strengths (one a seat), whether the stock must have been renewed, the action
    # before which the seat to act resigns (event version 3)
    ("r45-2-hard-easy", "sandbox", ["hard", "easy"], False, None),
    ("r45-4-mixed", "parlor", ["easy", "hard", "hard", "easy"], False, None),
    ("r45-2-easy-renewed", "sandbox", ["easy", "easy"], True, None),
    ("r45-3-resign", "r45", ["hard", "hard", "easy"], False, 40),
]


def play_r45(
    name: str, strengths: list[str], renewed: bool, resign_at: int | None = None
) -> dict[str, object]:
    """A seeded Rummy 45 bot game, each bot seeing only its own view; the first seed whose game
    renews the stock when ``renewed`` asks for one. With ``resign_at``, the seat to act at that
    action resigns instead, and the others play on."""
    for attempt in range(200):
        seed = hashlib.sha256(f"rummi fixture {name} {attempt}".encode()).digest()
        state, events = r45_state.new_game(len(strengths), seed)
        log = list(events)
        rng = random.Random(f"{name} {attempt}")
        for step in range(5000):
            if state.finished:
                break
            seat = r45_state.to_act(state)[0]
            view = r45_views.view_for(state, seat)
            action = r45_bots.choose_action(view, rng, strengths[seat])
            if step == resign_at:
                action = r45_state.Resign(seat)
            state, new = r45_state.apply(state, action, seed)
            log.extend(new)
        if not state.finished:
            continue
        if renewed and not any(isinstance(e, StockRenewed) for e in log):
            continue
        payloads = [e.to_dict() for e in log]
        record: dict[str, object] = {
            "game": name,
            "mode": "",
            "commitment": state.commitment,
            "seed": seed.hex(),
            "events": payloads,
            "stand_ins": [],
        }
        final, check = r45_audit.audit_record(record)
        record["expected"] = {
            "reason": final.reason,
            "winner": final.winner,
            "scores": list(final.scores),
            "renewals": final.renewals,
            "events": len(payloads),
            "check": check,
        }
        return record
    raise SystemExit(f"{name}: no seed gave the game asked for")


def play(
    name: str,
    rules: str,
    players: int,
    match: dict[str, object],
    strengths: list[str],
    resign_at: int | None,
    timeout_every: int,
) -> dict[str, object]:
    seed = hashlib.sha256(f"rummi fixture {name}".encode()).digest()
    config = GameConfig(rules_named(rules), players, MatchFormat.from_dict(match))
    state, events = new_game(config, seed)
    log = list(events)
    rng = random.Random(name)
    steps = 0
    while not state.finished:
        steps += 1
        seat = state.turn
        if resign_at is not None and steps == resign_at:
            action = Resign((seat + 1) % players)
        elif timeout_every and steps % timeout_every == 0:
            action = TimeOut(seat, state.turn_number)
        else:
            action = choose_action(view_for(state, seat), rng, strengths[seat])
        try:
            state, new = apply(state, action, seed)
        except Exception:
            state, new = apply(state, Draw(seat), seed)
        log.extend(new)
        if steps > 5000:
            raise SystemExit(f"{name}: no end after 5000 turns")
    payloads = [e.to_dict() for e in log]
    record = {
        "game": name,
        "mode": "",
        "commitment": state.commitment,
        "seed": seed.hex(),
        "events": payloads,
    }
    final, check = audit_record(record)
    record["expected"] = {
        "totals": list(final.totals),
        "winners": list(final.winners),
        "rounds": final.round,
        "events": len(payloads),
        "check": check,
    }
    return record


def main() -> None:
    out = Path(sys.argv[1])
    wanted = set(sys.argv[2:])
    out.mkdir(parents=True, exist_ok=True)
    for name, mode, rules, players, match, strengths, resign_at, timeout_every in GAMES:
        if wanted and name not in wanted:
            continue
        record = play(name, rules, players, match, strengths, resign_at, timeout_every)
        record["mode"] = mode
        path = out / f"{name}.json"
        path.write_text(json.dumps(record, separators=(",", ":")) + "\n")
        print(path, record["expected"]["totals"], record["expected"]["events"])
    for name, mode, r45_strengths, renewed, r45_resign_at in R45_GAMES:
        if wanted and name not in wanted:
            continue
        record = play_r45(name, r45_strengths, renewed, r45_resign_at)
        record["mode"] = mode
        path = out / f"{name}.json"
        path.write_text(json.dumps(record, separators=(",", ":")) + "\n")
        print(path, record["expected"])


if __name__ == "__main__":
    main()
