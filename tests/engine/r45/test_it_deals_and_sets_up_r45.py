"""The deal, the trump, the doubles exchange and the first round (docs/rules-45.md "The deal",
"Before play", "The first round")."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games.engine.errors import IllegalMove, InvalidInput
from games.engine.r45.deal import deal
from games.engine.r45.events import (
    DoublesAnnounced,
    DoublesExchanged,
    ExchangeDeclined,
    ExchangeOffered,
    PlayStarted,
    TrumpShown,
)
from games.engine.r45.state import (
    TILES,
    AnnounceDoubles,
    AnswerExchange,
    Discard,
    Display,
    Draw,
    OfferExchange,
    Ready,
    ShowTrump,
    TakeDiscard,
    apply,
    new_game,
    to_act,
)
from games.engine.shuffle import SeededStream

from .positions import SEED, play, position, tile_ids


def rederived(seed: bytes, players: int) -> tuple[int, int, list[list[int]], list[int]]:
    """The deal as docs/rules-45.md "The deal" tells it, written out again step by step."""
    stream = SeededStream(seed, "r45 deal")
    dealer = stream.below(players)
    order = stream.shuffled(range(106))
    while TILES[order[105]].is_joker:
        order = stream.shuffled(range(106))
    row = [order[7 * n : 7 * n + 7] for n in range(15)]
    if stream.below(2):
        row = row[::-1]
    landing = TILES[order[105]].number - 1
    row[landing + 1].append(row[landing].pop())
    hands: list[list[int]] = [[] for _ in range(players)]
    stacks = row[landing + 1 :] + row[:landing]
    for n in range(2 * players):
        hands[(dealer + 1 + n) % players] += stacks[n]
    rest = stacks[2 * players :] + [row[landing]]
    return dealer, order[105], [sorted(h) for h in hands], [t for s in rest for t in s[::-1]]


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", [b"a" * 32, b"b" * 32, b"c" * 32])
def test_the_deal_is_stacks_of_seven_and_a_trump_counted_out(players: int, seed: bytes) -> None:
    dealt = deal(seed, players)
    dealer, trump, hands, stock = rederived(seed, players)
    assert (dealt.dealer, dealt.trump) == (dealer, trump)
    assert [list(r) for r in dealt.racks] == hands and list(dealt.stock) == stock
    sizes = [len(r) for r in dealt.racks]
    assert sizes[(dealer + 1) % players] == 15 and sorted(sizes)[:-1] == [14] * (players - 1)
    assert not TILES[dealt.trump].is_joker and dealt.landing == TILES[dealt.trump].number - 1
    assert len(dealt.stock) == 106 - 1 - 14 * players - 1
    everything = [t for r in dealt.racks for t in r] + list(dealt.stock) + [dealt.trump]
    assert sorted(everything) == list(range(106))


def test_a_joker_counted_out_means_a_new_deal() -> None:
    redealt = [s for s in range(300) if deal(s.to_bytes(4, "big") * 8, 2).redeals]
    assert redealt, "some seed among 300 should count out a joker first"
    dealt = deal(redealt[0].to_bytes(4, "big") * 8, 2)
    assert not TILES[dealt.trump].is_joker


@pytest.mark.parametrize("players", [1, 5, "2"])
def test_a_game_has_two_to_four_players(players: object) -> None:
    with pytest.raises(InvalidInput):
        new_game(players, SEED)  # type: ignore[arg-type]
    with pytest.raises(InvalidInput):
        new_game(2, b"short")


def setup_position(racks: list[str], trump: str = "Y13") -> object:
    state = position(racks, trump=trump, taken=False, turn_number=0, train="")
    return replace(state, phase="setup", ready=(False,) * len(racks), dealer=len(racks) - 1)


def test_the_trump_is_shown_by_the_holder_of_its_twin_only_once() -> None:
    state = setup_position(["Y13 K2 K2", "B1 B2 B3"])
    with pytest.raises(IllegalMove) as caught:
        apply(state, ShowTrump(1), SEED)  # type: ignore[arg-type]
    assert caught.value.code == "no_trump"
    after, events = play(state, ShowTrump(0))
    assert isinstance(events[0], TrumpShown) and after.trump_shown == 0
    with pytest.raises(IllegalMove) as caught:
        apply(after, ShowTrump(0), SEED)
    assert caught.value.code == "trump_shown"


def test_doubles_are_announced_by_size_and_exchanged_by_agreement() -> None:
    state = setup_position(["K2 K2 R11 R11 B5", "Y7 Y7 B1 B2", "R4 K4 B4"])
    with pytest.raises(IllegalMove) as caught:
        apply(state, AnnounceDoubles(1, ("big",)), SEED)  # type: ignore[arg-type]
    assert caught.value.code == "no_such_double"
    with pytest.raises(InvalidInput):
        apply(state, AnnounceDoubles(0, ("huge",)), SEED)  # type: ignore[arg-type]
    after, events = play(state, AnnounceDoubles(0, ("small", "big")))
    assert events == [DoublesAnnounced(0, ("small", "big"))]
    give = tile_ids(after, 0, "K2")[0]
    with pytest.raises(IllegalMove) as caught:
        apply(after, OfferExchange(0, 1, give), SEED)
    assert caught.value.code == "no_doubles"  # seat 1 has announced none
    after, _ = play(after, AnnounceDoubles(1, ("medium",)))
    with pytest.raises(IllegalMove) as caught:
        apply(after, OfferExchange(0, 1, tile_ids(after, 0, "B5")[0]), SEED)
    assert caught.value.code == "not_a_double"
    offered, events = play(after, OfferExchange(0, 1, give))
    assert events == [ExchangeOffered(0, 1, give, "small")] and 1 in to_act(offered)
    with pytest.raises(IllegalMove) as caught:
        apply(offered, OfferExchange(1, 0, tile_ids(after, 1, "Y7")[0]), SEED)
    assert caught.value.code == "offer_pending"
    with pytest.raises(IllegalMove) as caught:
        apply(offered, AnswerExchange(2, None), SEED)
    assert caught.value.code == "no_offer"
    declined, events = play(offered, AnswerExchange(1, None))
    assert events == [ExchangeDeclined(1, 0)] and declined.offer is None
    taken = tile_ids(after, 1, "Y7")[0]
    swapped, events = play(offered, AnswerExchange(1, taken))
    assert events == [DoublesExchanged(1, 0, taken, give)]
    assert give in swapped.racks[1] and taken in swapped.racks[0]
    assert give not in swapped.racks[0] and taken not in swapped.racks[1]


def test_play_starts_when_everyone_is_ready_with_the_locomotive() -> None:
    state = setup_position(["R1 R2 R3 R4 R5 R6 R7", "B1 B2 B3 B4 B5 B6"])
    after, events = play(state, Ready(1))
    assert after.phase == "setup" and to_act(after) == (0,)
    with pytest.raises(IllegalMove):
        apply(after, Ready(1), SEED)
    with pytest.raises(IllegalMove) as caught:
        apply(after, Draw(0), SEED)
    assert caught.value.code == "not_playing"
    started, events = play(after, Ready(0))
    assert events[-1] == PlayStarted(0) and started.turn == 0 and started.taken
    with pytest.raises(IllegalMove) as caught:
        apply(started, Ready(0), SEED)
    assert caught.value.code == "not_setup"
    # The first round: the starter lays the locomotive without drawing; then draw and discard.
    with pytest.raises(IllegalMove) as caught:
        apply(started, Draw(0), SEED)
    assert caught.value.code == "taken"
    with pytest.raises(IllegalMove) as caught:
        apply(started, Display(0, (tile_ids(started, 0, "R1 R2 R3 R4 R5 R6"),)), SEED)
    assert caught.value.code == "first_round"
    locomotive = tile_ids(started, 0, "R7")[0]
    moved, _ = play(started, Discard(0, locomotive))
    assert moved.train == (locomotive,) and moved.turn == 1
    for action, code in [
        (Discard(1, moved.racks[1][0]), "take_first"),
        (TakeDiscard(1, ((locomotive,) + tile_ids(moved, 1, "B1 B2"),)), "first_round"),
        (Draw(0), "not_your_turn"),
    ]:
        with pytest.raises(IllegalMove) as caught:
            apply(moved, action, SEED)
        assert caught.value.code == code


def test_the_seed_must_match_the_commitment() -> None:
    state, _ = new_game(2, SEED)
    with pytest.raises(InvalidInput):
        apply(state, Ready(0), b"another seed entirely, 32 bytes!")
    with pytest.raises(InvalidInput):
        apply(state, Ready(5), SEED)
