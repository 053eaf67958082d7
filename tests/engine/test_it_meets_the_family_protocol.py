"""Every registered game family passes the same checks (docs/design.md "Game families"), as
python-chess runs every variant through one perft harness: a new game of each mode, bots'
legal actions and the clock rule played to the end, the log replayed to exactly the state
after every action, the seed's audit passing, and one result per seat with sane places."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from games.engine import families
from games.engine.errors import IllegalMove, InvalidInput
from games.engine.family import BOT_STRENGTHS, RESULT_FIELDS, GameFamily

MAX_ACTIONS = 3000
FULL_REPLAY = 100


def _games() -> list[tuple[str, str, int, int]]:
    """(family, mode, players, seed) to play: every mode, at its fewest and most players."""
    found = []
    for family in families.families():
        for name, mode in family.modes.items():
            for players in sorted({min(mode.players), max(mode.players)}):
                found += [(family.name, name, players, seed) for seed in range(2)]
    return found


def _play(family: GameFamily, mode: str, players: int, seed: int) -> tuple[Any, list[Any]]:
    """A whole game: bots of random strengths, a timeout every 7th action; after every action
    the log replays to exactly the state reached."""
    secret = bytes([seed]) * 32
    rng = random.Random(seed)
    setup = family.setup(mode, {"players": players})
    assert (setup.family, setup.mode, setup.players) == (family.name, mode, players)
    state, events = family.new_game(setup, secret)
    log = [family.event_to_dict(e) for e in events]
    replayed = family.replay(log)
    assert family.commitment(state) and family.players_of(state) == players
    strengths = [rng.choice(BOT_STRENGTHS) for _ in range(players)]
    for n in range(MAX_ACTIONS):
        turn = family.turn(state)
        if turn.finished:
            break
        assert turn.to_act, "a running game always has a seat to act"
        if n % 7 == 6:
            state, more = family.time_out(state, secret)
            assert more, "a timeout always plays something"
        else:
            seat = turn.to_act[0]
            view = family.view_for(state, seat)
            try:
                strength = family.engine_strength(strengths[seat])
                action = family.bot_action(view, rng, strength)
                state, more = family.apply(state, action, secret)
            except (IllegalMove, InvalidInput):
                state, more = family.apply(state, family.fallback_action(state, seat), secret)
        new = [family.event_to_dict(e) for e in more]
        log += new
        # The new events, read back from their dicts, evolve the replayed state to exactly the
        # state reached (the whole log is replayed from its start every FULL_REPLAY actions
        # and at the end: replaying it after every action made a long game quadratic).
        for data in new:
            replayed = family.evolve(replayed, family.event_from_dict(data))
        if n % FULL_REPLAY == 0:
            replayed = family.replay(log)
        assert family.state_to_record(replayed) == family.state_to_record(state)
        assert family.state_from_record(family.state_to_record(state)) == state
    assert family.state_to_record(family.replay(log)) == family.state_to_record(state)
    return state, log


# Whole games of bots, the solver's among them: run in make test's compiled pass.
@pytest.mark.slow
@pytest.mark.heavy_solver
@pytest.mark.parametrize(("name", "mode", "players", "seed"), _games())
def test_every_family_plays_whole_games_by_the_protocol(
    name: str, mode: str, players: int, seed: int
) -> None:
    family = families.family_named(name)
    state, log = _play(family, mode, players, seed)
    if not family.turn(state).finished:
        pytest.skip(f"{name} game {seed} still running after {MAX_ACTIONS} actions")
    check = family.audit({"events": log, "seed": (bytes([seed]) * 32).hex()})[1]
    assert check["commitment_matches"] and check["deals_match"]
    rows = family.results(log, None, state)
    assert [row["seat"] for row in rows] == list(range(players))
    assert all(set(row) == {"seat", *RESULT_FIELDS, "details"} for row in rows)
    assert all(set(row["details"]) == set(family.result_details) for row in rows)
    assert min(row["place"] for row in rows) == 1
    assert all(1 <= row["place"] <= players for row in rows)
    # Nothing a viewer is shown is another seat's hand: each seat's view names its own seat.
    for seat in range(players):
        assert family.view_for(state, seat)["seat"] == seat
    names = [f"P{s}" for s in range(players)]
    assert all(isinstance(family.describe(p, names), str) for p in log)


@pytest.mark.slow
@pytest.mark.heavy_solver
def test_each_family_finishes_most_bot_games() -> None:
    """A registered family's bots end their games: the conformance runs are not all skips."""
    for family in families.families():
        mode = next(iter(family.modes))
        ended = sum(family.turn(_play(family, mode, 2, seed)[0]).finished for seed in range(3))
        assert ended >= 2, family.name


RECORDS = sorted(
    p
    for folder in ("records", "records-r45")
    for p in (Path(__file__).parent.parent / "fixtures" / folder).glob("*.json")
)


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_stored_record_counts_the_common_fields_and_its_familys_details(
    path: Path,
) -> None:
    """docs/design.md "Results": a row is the fields every family has, and in ``details``
    exactly the keys its family declares (none of them a common field's name); the exported
    records of both families still give their recorded totals."""
    record = json.loads(path.read_text())
    events = record["events"]
    family = families.family_named("r45" if events[0]["kind"] == "R45Started" else "rummikub")
    assert not set(family.result_details) & {"seat", "details", *RESULT_FIELDS}
    rows = family.results(events, None, family.replay(events))
    assert all(set(row) == {"seat", *RESULT_FIELDS, "details"} for row in rows)
    assert all(set(row["details"]) == set(family.result_details) for row in rows)
    assert all(isinstance(v, int) for row in rows for v in row["details"].values())
    expected = record["expected"]
    assert [row["total"] for row in rows] == expected.get("totals", expected.get("scores"))


def test_a_mode_belongs_to_one_family_and_unknown_modes_are_refused() -> None:
    assert families.family_of_mode("parlor").name == "rummikub"
    assert families.family_of_mode("r45").name == "r45"
    with pytest.raises(InvalidInput, match="mode must be one of"):
        families.family_of_mode(["parlor"])
    with pytest.raises(ValueError, match="belong to another family"):
        families.register(_Clash())


class _Clash:
    """A family that claims a mode another family has."""

    name = "clash"
    modes = families.family_named("rummikub").modes
