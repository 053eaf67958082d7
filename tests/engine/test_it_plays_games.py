"""Game state: deal, first player, draw, pass, timeout, going out, blocked, scoring, matches."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.events import (
    GameEnded,
    Passed,
    PlayerResigned,
    RoundEnded,
    RoundStarted,
    TileDrawn,
    TilesPlayed,
    TurnTimedOut,
)
from games.engine.rules import RULES
from games.engine.scoring import MatchFormat, score_blocked_round, score_won_round
from games.engine.shuffle import commitment
from games.engine.state import (
    Draw,
    GameConfig,
    GameState,
    Pass,
    PlayTurn,
    Resign,
    TimeOut,
    apply,
    deal_round,
    new_game,
    replay,
)
from games.engine.tiles import Tile

from .helpers import assert_conserved

SEED = bytes(range(32))


def start(players: int = 2, rules: str = "classic", match: MatchFormat | None = None) -> GameState:
    config = GameConfig(RULES[rules], players, match or MatchFormat())
    state, _ = new_game(config, SEED)
    return state


def ids_of(state: GameState, seat: int, *codes: str) -> tuple[int, ...]:
    """Rack tile ids of the given codes (each code once, in order)."""
    free = list(state.racks[seat])
    found = []
    for code in codes:
        tile_id = next(i for i in free if str(state.kinds[i]) == code)
        free.remove(tile_id)
        found.append(tile_id)
    return tuple(found)


def with_rack(state: GameState, seat: int, *codes: str) -> GameState:
    """Give a seat exactly these tiles; its old ones go to the pool, others' racks keep sizes."""
    pool = list(state.pool) + list(state.racks[seat])
    racks = [list(r) for r in state.racks]
    racks[seat] = []
    for code in codes:
        tile = Tile.parse(code)
        tile_id = next((i for i in pool if state.kinds[i] == tile), None)
        if tile_id is None:
            owner = next(r for r in racks if any(state.kinds[i] == tile for i in r))
            tile_id = next(i for i in owner if state.kinds[i] == tile)
            owner.remove(tile_id)
            owner.append(pool.pop())
        else:
            pool.remove(tile_id)
        racks[seat].append(tile_id)
    return replace(state, pool=tuple(pool), racks=tuple(tuple(sorted(r)) for r in racks))


def test_a_new_game_deals_14_each_and_publishes_the_commitment() -> None:
    state, events = new_game(GameConfig(RULES["classic"], 4), SEED)
    assert [len(r) for r in state.racks] == [14] * 4
    assert len(state.pool) == 106 - 56
    assert state.commitment == commitment(SEED)
    assert isinstance(events[1], RoundStarted) and events[1].first == state.turn
    assert_conserved(state)


def test_the_deal_follows_from_the_seed_alone() -> None:
    config = GameConfig(RULES["classic"], 3)
    assert deal_round(config, SEED, 1) == deal_round(config, SEED, 1)
    assert deal_round(config, SEED, 1) != deal_round(config, bytes(32), 1)
    assert deal_round(config, SEED, 1) != deal_round(config, SEED, 2)


@pytest.mark.parametrize("seed_byte", range(40))
def test_the_highest_first_draw_starts_and_jokers_and_ties_redraw(seed_byte: int) -> None:
    config = GameConfig(RULES["rush"], 4)
    deal = deal_round(config, bytes([seed_byte]) * 32, 1)
    kinds = config.rules.tile_set.tiles
    alive: dict[int, int] = {}
    expected_drawers = [0, 1, 2, 3]
    for draw in deal.draws:
        assert [seat for seat, _ in draw] == expected_drawers
        alive.update((seat, kinds[tile].number) for seat, tile in draw)
        best = max(alive.values())
        jokers = [s for s, n in alive.items() if n == 0]
        leaders = [s for s, n in alive.items() if n == best]
        alive = {s: n for s, n in alive.items() if s in jokers or s in leaders}
        expected_drawers = jokers or leaders
    assert 0 not in alive.values() and list(alive) == [deal.first]


def test_redraws_happen_for_some_seeds() -> None:
    config = GameConfig(RULES["rush"], 4)
    assert any(len(deal_round(config, bytes([b]) * 32, 1).draws) > 1 for b in range(40))


def test_sizes_of_the_sets_bound_the_players() -> None:
    with pytest.raises(InvalidInput):
        GameConfig(RULES["classic"], 1)
    with pytest.raises(InvalidInput):
        GameConfig(RULES["classic"], 7)
    with pytest.raises(InvalidInput):
        GameConfig(RULES["rush"], 6)  # 84 tiles needed, 73 in the set
    GameConfig(RULES["large"], 6)


def test_a_short_seed_is_refused() -> None:
    with pytest.raises(InvalidInput):
        new_game(GameConfig(RULES["classic"], 2), b"short")


def test_drawing_takes_the_top_of_the_pool_and_passes_the_turn() -> None:
    state = start()
    seat, top = state.turn, state.pool[0]
    after, events = apply(state, Draw(seat), SEED)
    assert events == [TileDrawn(seat, 0, top)]
    assert top in after.racks[seat] and len(after.pool) == len(state.pool) - 1
    assert after.turn == 1 - seat and after.turn_number == 1


def test_only_the_seat_to_move_may_move() -> None:
    state = start()
    other = 1 - state.turn
    for action in (Draw(other), Pass(other), TimeOut(other, 0), PlayTurn(other, ())):
        with pytest.raises(IllegalMove) as raised:
            apply(state, action, SEED)
        assert raised.value.code == "not_your_turn"
    with pytest.raises(InvalidInput):
        apply(state, Draw(5), SEED)


def test_passing_needs_an_empty_pool() -> None:
    state = start()
    with pytest.raises(IllegalMove) as raised:
        apply(state, Pass(state.turn), SEED)
    assert raised.value.code == "pool_not_empty"
    empty = replace(state, pool=(), racks=(state.racks[0] + state.pool, state.racks[1]))
    _, events = apply(empty, Draw(empty.turn), SEED)
    assert isinstance(events[0], Passed)


def test_a_timeout_draws_the_penalty_and_is_applied_once() -> None:
    state = start()
    seat = state.turn
    after, events = apply(state, TimeOut(seat, 0), SEED)
    assert events == [TurnTimedOut(seat, 0, state.pool[:3])]
    assert len(after.racks[seat]) == 17 and after.table == state.table
    with pytest.raises(IllegalMove) as raised:
        apply(after, TimeOut(seat, 0), SEED)
    assert raised.value.code in {"stale_timeout", "not_your_turn"}
    with pytest.raises(IllegalMove) as raised:
        apply(after, TimeOut(after.turn, 0), SEED)
    assert raised.value.code == "stale_timeout"


def test_lan_rules_penalise_one_tile_and_a_short_pool_gives_fewer() -> None:
    config = GameConfig(RULES["classic"].with_penalty(1), 2)
    state, _ = new_game(config, SEED)
    _, events = apply(state, TimeOut(state.turn, 0), SEED)
    assert isinstance(events[0], TurnTimedOut) and len(events[0].drawn) == 1
    classic = start()
    short = replace(
        classic,
        pool=classic.pool[:2],
        racks=(classic.racks[0] + classic.pool[2:], classic.racks[1]),
    )
    after, events = apply(short, TimeOut(short.turn, 0), SEED)
    assert isinstance(events[0], TurnTimedOut) and len(events[0].drawn) == 2
    assert after.pool == ()
    assert_conserved(after)


def test_an_opening_play_marks_the_initial_meld_and_keeps_tiles_exact() -> None:
    state = with_rack(start(), 0, "R10", "R11", "R12", "K1", "K5")
    state = replace(state, turn=0)
    meld = ids_of(state, 0, "R10", "R11", "R12")
    after, events = apply(state, PlayTurn(0, (meld,)), SEED)
    assert isinstance(events[0], TilesPlayed) and set(events[0].played) == set(meld)
    assert after.opened == (True, False)
    assert after.table == (meld,)
    assert_conserved(after)


def test_an_illegal_play_changes_nothing() -> None:
    state = replace(with_rack(start(), 0, "R1", "R2", "R3", "K9"), turn=0)
    meld = ids_of(state, 0, "R1", "R2", "R3")
    with pytest.raises(IllegalMove) as raised:
        apply(state, PlayTurn(0, (meld,)), SEED)
    assert raised.value.code == "initial_meld_too_low"
    with pytest.raises(InvalidInput):
        apply(state, PlayTurn(0, "R1 R2 R3"), SEED)  # type: ignore[arg-type]


def test_going_out_ends_the_round_with_the_won_round_score() -> None:
    state = with_rack(start(), 0, "R10", "R11", "R12")
    state = with_rack(state, 1, "K7", "J")  # 7 + 30
    state = replace(state, turn=0)
    meld = ids_of(state, 0, "R10", "R11", "R12")
    after, events = apply(state, PlayTurn(0, (meld,)), SEED)
    ended = events[1]
    assert isinstance(ended, RoundEnded) and ended.reason == "going_out"
    assert ended.winners == (0,) and ended.scores == (37, -37)
    assert isinstance(events[2], GameEnded) and events[2].seed == SEED.hex()
    assert after.finished and after.winners == (0,) and after.totals == (37, -37)
    with pytest.raises(IllegalMove) as raised:
        apply(after, Draw(after.turn), SEED)
    assert raised.value.code == "game_over"


def test_ending_a_round_needs_the_right_seed() -> None:
    state = replace(with_rack(start(), 0, "R10", "R11", "R12"), turn=0)
    meld = ids_of(state, 0, "R10", "R11", "R12")
    with pytest.raises(InvalidInput):
        apply(state, PlayTurn(0, (meld,)))
    with pytest.raises(InvalidInput):
        apply(state, PlayTurn(0, (meld,)), bytes(32))


def test_a_blocked_round_ends_when_everyone_passes_on_an_empty_pool() -> None:
    state = start(players=3)
    racks = list(state.racks)
    racks[0] = racks[0] + state.pool
    state = replace(state, pool=(), racks=tuple(racks))
    events = []
    for _ in range(3):
        state, new = apply(state, Draw(state.turn), SEED)
        events += new
    ended = [e for e in events if isinstance(e, RoundEnded)]
    assert len(ended) == 1 and ended[0].reason == "blocked"
    assert state.finished


def test_won_and_blocked_round_scoring_follow_the_rules() -> None:
    assert score_won_round([0, 7, 32], 0) == [39, -7, -32]
    assert score_blocked_round([10, 4, 9], [3, 2, 2]) == ([1], [-6, 11, -5])
    # tie on value: fewer tiles wins
    assert score_blocked_round([8, 8, 12], [3, 2, 2]) == ([1], [0, 4, -4])
    # still tied: a shared win
    assert score_blocked_round([8, 8, 12], [2, 2, 2]) == ([0, 1], [2, 2, -4])
    # a resigned seat cannot win
    assert score_blocked_round([1, 8, 12], [1, 2, 2], eligible=[1, 2]) == ([1], [0, 4, -4])


def test_a_parlor_league_match_runs_rounds_to_the_target() -> None:
    state = start(match=MatchFormat("target", target=50))
    rounds = 0
    while not state.finished:
        state, events = apply(state, Draw(state.turn), SEED)
        rounds += sum(isinstance(e, RoundStarted) for e in events)
        assert_conserved(state)
    assert max(state.totals) >= 50 and sum(state.totals) == 0
    assert state.round == rounds + 1 > 1
    assert state.winners == (state.totals.index(max(state.totals)),)


def test_a_rush_match_is_three_rounds_and_the_highest_total_wins() -> None:
    state = start(rules="rush", match=MatchFormat("rounds", rounds=3))
    while not state.finished:
        state, _ = apply(state, Draw(state.turn), SEED)
    assert state.round == 3 and len(state.round_scores) == 3
    assert [sum(s[i] for s in state.round_scores) for i in range(2)] == list(state.totals)
    best = max(state.totals)
    assert state.winners == tuple(i for i, t in enumerate(state.totals) if t == best)


def test_resigning_skips_the_seat_and_the_last_one_standing_wins() -> None:
    state = start(players=3)
    mover = state.turn
    state, events = apply(state, Resign(mover), SEED)
    assert events == [PlayerResigned(mover, 0)]
    assert state.turn != mover and state.resigned[mover]
    with pytest.raises(IllegalMove) as raised:
        apply(state, Draw(mover), SEED)
    assert raised.value.code == "resigned"
    for _ in range(6):
        assert state.turn != mover
        state, _ = apply(state, Draw(state.turn), SEED)
    other = next(s for s in range(3) if s not in (mover, state.turn))
    state, events = apply(state, Resign(other), SEED)
    assert isinstance(events[1], RoundEnded) and events[1].reason == "resigned"
    assert state.finished and state.winners == (state.turn,)


def test_replay_rebuilds_the_state_from_event_dicts() -> None:
    state, log = new_game(GameConfig(RULES["classic"], 2, MatchFormat("target", 60)), SEED)
    while not state.finished:
        action = (
            TimeOut(state.turn, state.turn_number)
            if state.turn_number % 7 == 0
            else Draw(state.turn)
        )
        state, events = apply(state, action, SEED)
        log += events
    assert replay(log) == state
    assert replay([e.to_dict() for e in log]) == state
    with pytest.raises(InvalidInput):
        replay([e.to_dict() for e in log[1:]])
    with pytest.raises(InvalidInput):
        replay([{"kind": "Nonsense"}])
    with pytest.raises(InvalidInput):
        replay([{"kind": "GameStarted", "players": 2}])


def test_a_state_record_round_trips_exactly() -> None:
    import json

    from games.engine.state import state_from_record, state_to_record

    state, log = new_game(GameConfig(RULES["large"], 5, MatchFormat("target", 80)), SEED)
    while not state.finished:
        record = json.loads(json.dumps(state_to_record(state)))
        assert state_from_record(record) == state
        state, _ = apply(state, Draw(state.turn), SEED)
    assert state_from_record(json.loads(json.dumps(state_to_record(state)))) == state
    with pytest.raises(InvalidInput):
        state_from_record({"rules": "classic"})
