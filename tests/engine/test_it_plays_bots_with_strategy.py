"""What tells the strengths apart, on positions built to show it."""

from __future__ import annotations

import random
from dataclasses import replace

from games.engine.bots import choose_action
from games.engine.projection import view_for
from games.engine.rules import RULES
from games.engine.scoring import MatchFormat
from games.engine.state import Draw, GameConfig, GameState, PlayTurn, new_game

SEED = bytes(range(32))


def position(table: list[str], rack: str, opponent: int = 10) -> GameState:
    """Seat 0 to move, opened, with ``table`` and ``rack``; seat 1 holds ``opponent`` tiles."""
    state, _ = new_game(GameConfig(RULES["classic"], 2, MatchFormat("single")), SEED)
    free: dict[str, list[int]] = {}
    for i, kind in enumerate(state.kinds):
        free.setdefault(str(kind), []).append(i)
    melds = tuple(tuple(free[code].pop() for code in meld.split()) for meld in table)
    own = tuple(free[code].pop() for code in rack.split())
    rest = [i for ids in free.values() for i in ids]
    other, pool = tuple(rest[:opponent]), tuple(rest[opponent:])
    return replace(state, table=melds, racks=(own, other), pool=pool, turn=0, opened=(True, True))


def played_codes(state: GameState, strength: str) -> list[str]:
    action = choose_action(view_for(state, 0), random.Random(1), strength)
    if not isinstance(action, PlayTurn):
        return []
    on_table = {i for meld in action.table for i in meld}
    return sorted(str(state.kinds[i]) for i in state.racks[0] if i in on_table)


def test_only_casual_and_up_add_a_tile_to_a_table_meld() -> None:
    state = position(["R4 R5 R6"], "R7 K1")
    assert choose_action(view_for(state, 0), random.Random(1), "beginner") == Draw(0)
    assert played_codes(state, "casual") == ["R7"]


def test_only_strong_and_up_rearrange_the_table() -> None:
    state = position(["R4 R5 R6 R7"], "R5 R6 K1")  # R4 R5 R6 + R5 R6 R7: a split
    assert played_codes(state, "casual") == []
    assert played_codes(state, "strong") == ["R5", "R6"]


def test_the_master_plays_like_strong_while_no_opponent_is_close() -> None:
    state = position(["R4 R5 R6"], "R7 K1 Y9", opponent=7)
    assert played_codes(state, "strong") == ["R7"]
    assert played_codes(state, "master") == ["R7"]


def test_the_master_already_holds_back_against_an_opponent_with_six_tiles() -> None:
    state = position(["R4 R5 R6"], "R7 K1 Y9", opponent=6)  # R7 would let R8 and a pair out
    assert played_codes(state, "strong") == ["R7"]
    assert choose_action(view_for(state, 0), random.Random(1), "master") == Draw(0)


def test_the_master_draws_rather_than_open_a_place_for_a_last_tile() -> None:
    state = position(["R4 R5 R6"], "R7 K1 Y9", opponent=1)  # R7 would let an R8 go out
    assert choose_action(view_for(state, 0), random.Random(1), "master") == Draw(0)


def test_the_master_holds_back_the_dangerous_tile_and_plays_the_safe_one() -> None:
    state = position(["R4 R5 R6", "K9 B9 Y9"], "R7 R9 K1", opponent=1)
    assert played_codes(state, "strong") == ["R7", "R9"]
    assert played_codes(state, "master") == ["R9"]  # a fourth 9 opens nothing


def test_the_master_keeps_a_tile_that_a_last_pair_could_take_off_the_table() -> None:
    state = position(["R4 R5 R6"], "R7 K1 Y9", opponent=2)  # R4-R7 gives up R7 to K7 Y7
    assert choose_action(view_for(state, 0), random.Random(1), "master") == Draw(0)


def test_the_master_goes_out_even_when_an_opponent_is_about_to() -> None:
    state = position(["R4 R5 R6"], "R7 R8", opponent=1)
    assert played_codes(state, "master") == ["R7", "R8"]


def test_the_master_ignores_an_opponent_who_has_not_made_the_initial_meld() -> None:
    state = replace(position(["R4 R5 R6"], "R7 K1 Y9", opponent=1), opened=(True, False))
    assert played_codes(state, "master") == ["R7"]


def test_the_master_goes_out_in_one_go_when_it_can() -> None:
    state = position(["R4 R5 R6"], "R7 J K1 K2 K3")
    assert played_codes(state, "master") == ["J", "K1", "K2", "K3", "R7"]


def test_the_master_keeps_a_joker_that_lays_down_no_other_tile() -> None:
    state = position(["R4 R5 R6"], "R7 J K1 K5")
    assert played_codes(state, "strong") == ["J", "R7"]
    assert played_codes(state, "master") == ["R7"]


def test_the_master_draws_rather_than_lay_down_only_a_joker() -> None:
    state = position(["R4 R5 R6"], "J K1 K5")
    assert played_codes(state, "strong") == ["J"]
    assert choose_action(view_for(state, 0), random.Random(1), "master") == Draw(0)


def test_the_master_spends_a_joker_that_lays_down_more_tiles() -> None:
    state = position(["R4 R5 R6"], "R7 J K1 K2 K9")  # J K1 K2 is a meld, K1 K2 is not
    assert played_codes(state, "master") == ["J", "K1", "K2", "R7"]


def test_the_master_keeps_only_the_joker_it_does_not_need() -> None:
    state = position(["R4 R5 R6"], "J J K1 K2 K9")
    assert played_codes(state, "strong") == ["J", "J", "K1", "K2"]
    assert played_codes(state, "master") == ["J", "K1", "K2"]


def test_the_master_goes_out_with_its_jokers() -> None:
    state = position(["R4 R5 R6"], "R7 J")
    assert played_codes(state, "master") == ["J", "R7"]
