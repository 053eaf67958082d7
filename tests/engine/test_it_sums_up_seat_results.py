"""docs/design.md "Results": one row per seat, from a finished game's log alone."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.events import Event, RoundStarted, TilesPlayed
from games.engine.results import DETAILS, seat_results
from games.engine.rules import rules_named
from games.engine.scoring import MatchFormat
from games.engine.state import (
    Draw,
    GameConfig,
    GameState,
    PlayTurn,
    Resign,
    adjudicate,
    apply,
    new_game,
    replay,
)

from .helpers import assert_conserved, random_action

SEED = bytes(range(32))
# Rummikub's records (Rummy 45's, named r45-*, start with R45Started and replay elsewhere).
RECORDS = sorted(
    p
    for p in (Path(__file__).parent.parent / "fixtures" / "records").glob("*.json")
    if not p.stem.startswith("r45-")
)


def started(players: int = 3) -> tuple[GameState, list]:
    state, log = new_game(GameConfig(rules_named("classic"), players, MatchFormat()), SEED)
    return state, list(log)


def test_an_adjudicated_game_is_scored_as_blocked_and_keeps_the_reason() -> None:
    state, log = started()
    state, more = apply(state, Draw(state.turn), SEED)

    ended, closing = adjudicate(state, "  stuck:   player left ", SEED)

    assert [e.kind for e in closing] == ["RoundEnded", "GameEnded"]
    assert closing[0].reason == "adjudicated"
    assert closing[1].note == "stuck: player left"
    assert ended.finished and ended.seed == SEED.hex()
    assert replay([e.to_dict() for e in log + more + closing]) == ended
    values = [sum(t.rack_value for t in ended.rack_tiles(s)) for s in range(3)]
    assert [values[w] for w in ended.winners] == [min(values)] * len(ended.winners)
    assert_conserved(ended)


def test_adjudicating_needs_a_reason_the_right_seed_and_a_running_game() -> None:
    state, _ = started()
    with pytest.raises(InvalidInput, match="why"):
        adjudicate(state, "  ", SEED)
    with pytest.raises(InvalidInput, match="seed"):
        adjudicate(state, "stuck", bytes(32))
    over, _ = adjudicate(state, "stuck", SEED)
    with pytest.raises(IllegalMove):
        adjudicate(over, "again", SEED)


def test_a_resigned_seat_places_last_and_the_winner_first() -> None:
    state, log = started(3)
    state, a = apply(state, Resign(1), SEED)
    state, b = apply(state, Resign(2), SEED)

    rows = seat_results(log + a + b)

    assert state.finished and state.winners == (0,)
    assert [(r.resigned, r.rounds_won) for r in rows] == [(False, 1), (True, 0), (True, 0)]
    assert rows[0].place == 1
    higher, lower = sorted(rows[1:], key=lambda r: -r.total)
    assert (higher.place, lower.place) == ((2, 3) if higher.total > lower.total else (2, 2))


def test_plays_melds_jokers_openings_and_turn_times_are_counted() -> None:
    rng = random.Random(3)
    state, log = started(2)
    times = [0.0] * len(log)
    clock = 0.0
    while not state.finished:
        action = random_action(state, rng)
        try:
            state, more = apply(state, action, SEED)
        except (IllegalMove, InvalidInput):
            state, more = apply(state, Draw(state.turn), SEED)
        clock += 2.0
        log += more
        times += [clock] * len(more)
        if len(log) > 3000:
            break
    if not state.finished:
        state, more = adjudicate(state, "long", SEED)
        log += more
        times += [clock] * len(more)

    rows = seat_results(log, times)

    plays = [e for e in log if e.kind == "TilesPlayed"]
    assert sum(r.tiles_played for r in rows) == sum(len(e.played) for e in plays)
    for row in rows:
        mine = [e for e in plays if e.seat == row.seat]
        assert row.biggest_turn == max((len(e.played) for e in mine), default=0)
        assert row.melds_laid >= len(mine)
        assert row.openings <= state.round
        assert row.opening_points >= 30 * row.openings
        assert row.average_turn_seconds == pytest.approx(2.0)
        assert row.jokers_played <= row.jokers_held
    assert sum(r.place == 1 for r in rows) >= 1


def test_a_game_not_finished_has_no_results_and_times_must_match() -> None:
    state, log = started()
    with pytest.raises(InvalidInput, match="finished"):
        seat_results(log)
    with pytest.raises(InvalidInput, match="one time"):
        seat_results(log, [0.0])


@pytest.mark.parametrize("path", RECORDS, ids=lambda p: p.stem)
def test_records_give_results_that_agree_with_their_totals(path: Path) -> None:
    record = json.loads(path.read_text())

    rows = seat_results(record["events"])

    assert [r.total for r in rows] == record["expected"]["totals"]
    assert {r.seat for r in rows if r.place == 1} == set(record["expected"]["winners"])
    assert all(r.average_turn_seconds is None for r in rows)
    # The stored row: the same figures, Rummikub's own ones moved into details.
    for r in rows:
        flat, row = r.to_dict(), r.row()
        assert set(row["details"]) == set(DETAILS) and not set(DETAILS) & set(row)
        assert {**{k: v for k, v in row.items() if k != "details"}, **row["details"]} == flat


def dealt(racks: list[list[str]], first: int = 0) -> tuple[GameState, list[Event]]:
    """A 2-seat classic game whose first round deals exactly these racks (codes)."""
    state, log = started(len(racks))
    kinds = state.kinds
    free = list(range(len(kinds)))
    ids = []
    for codes in racks:
        mine = []
        for code in codes:
            tile = next(i for i in free if str(kinds[i]) == code)
            free.remove(tile)
            mine.append(tile)
        ids.append(tuple(mine))
    deal = RoundStarted(1, (), first, tuple(ids), tuple(free))
    log = [log[0], deal]
    return replay(log), log


def test_an_opening_play_counts_its_value_melds_and_jokers() -> None:
    state, log = dealt([["R10", "B10", "K10", "R3", "R4", "J", "Y13"], ["K1", "K2", "K3", "Y9"]])
    r10, b10, k10, r3, r4, joker, _ = state.racks[0]
    first = TilesPlayed(0, 0, ((r10, b10, k10),), (r10, b10, k10))
    state = replay(log + [first])
    state, drew = apply(state, Draw(1), SEED)
    play = PlayTurn(0, ((r10, b10, k10), (r3, r4, joker)))
    state, second = apply(state, play, SEED)
    ended, closing = adjudicate(state, "test", SEED)

    seat0, seat1 = seat_results(log + [first, *drew, *second, *closing])

    assert (seat0.openings, seat0.opening_points) == (1, 30)
    assert (seat0.tiles_played, seat0.melds_laid, seat0.biggest_turn) == (6, 2, 3)
    assert (seat0.jokers_held, seat0.jokers_played, seat0.tiles_left) == (1, 1, 1)
    assert (seat1.openings, seat1.tiles_played, seat1.turns, seat1.tiles_left) == (0, 0, 1, 5)
    assert seat0.went_out is False  # the round was adjudicated, not gone out
    assert (seat0.place, seat1.place) == (1, 2)
    assert (seat0.rounds_won, seat0.rounds_won_blocked, seat0.rounds_won_out) == (1, 1, 0)


def test_going_out_is_counted_as_such() -> None:
    state, log = dealt([["R10", "B10", "K10"], ["K1", "K2", "Y9"]])
    state, out = apply(state, PlayTurn(0, (state.racks[0],)), SEED)

    seat0, seat1 = seat_results(log + out)

    assert state.finished
    assert (seat0.went_out, seat0.rounds_won_out, seat0.place, seat0.tiles_left) == (True, 1, 1, 0)
    assert (seat1.went_out, seat1.total, seat1.place) == (False, -12, 2)


def test_equal_racks_share_first_place() -> None:
    state, log = dealt([["R5", "B2"], ["K5", "Y2"]])
    ended, closing = adjudicate(state, "test", SEED)

    rows = seat_results(log + closing)

    assert [r.place for r in rows] == [1, 1]
    assert [r.total for r in rows] == [0, 0]
