"""Rummy 45 positions written in tile codes, for the engine's rule tests."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from games.engine.r45.events import Event
from games.engine.r45.melds import readings
from games.engine.r45.state import TILES, Meld, R45State, apply, evolve, replay
from games.engine.shuffle import commitment
from games.engine.tiles import Tile

SEED = b"rummy 45 rule tests, 32 bytes.."


def conserved(state: R45State, events: list[Event], after: R45State | None = None) -> R45State:
    """Evolve ``state`` by ``events``, every tile in one zone after each; the end is ``after``."""
    for event in events:
        state = evolve(state, event)
        zones = state.zones()
        assert len(zones) == 106 and sorted(zones) == list(range(106)), event
    assert after is None or state == after
    return state


class Ids:
    """Hands out physical tile ids for codes: the lowest id of that kind not yet used."""

    def __init__(self) -> None:
        self.used: set[int] = set()

    def take(self, code: str) -> int:
        kind = Tile.parse(code)
        for i, tile in enumerate(TILES):
            if tile == kind and i not in self.used:
                self.used.add(i)
                return i
        raise ValueError(f"no {code} left")

    def many(self, text: str) -> tuple[int, ...]:
        return tuple(self.take(code) for code in text.split())


def position(
    racks: Sequence[str],
    *,
    train: str = "K9 Y2",
    melds: Sequence[tuple[int, str]] = (),
    trump: str = "Y13",
    stock: str | None = None,
    turn: int = 0,
    turn_number: int = 10,
    taken: bool = True,
    opened: Sequence[int] | None = None,
    few: Sequence[bool] | None = None,
    on_board: Sequence[bool] | None = None,
    trump_shown: int = -1,
    takebacks: Sequence[str] | None = None,
) -> R45State:
    """A game in play: ``racks`` per seat, ``melds`` as (owner, codes), the rest in the stock
    (or ``stock`` exactly, the rest nowhere). ``opened`` defaults to seats with melds, at turn 0."""
    ids = Ids()
    players = len(racks)
    trump_id = ids.take(trump)
    rack_ids = tuple(tuple(sorted(ids.many(r))) for r in racks)
    train_ids = ids.many(train)
    built = []
    for owner, codes in melds:
        tiles = ids.many(codes)
        kind = readings([TILES[t] for t in tiles])[0].kind
        built.append(Meld(owner, kind, tiles, (owner,) * len(tiles)))
    piles = tuple(ids.many(p) for p in takebacks) if takebacks else ((),) * players
    if stock is None:
        stock_ids = tuple(i for i in range(len(TILES)) if i not in ids.used)
    else:
        stock_ids = ids.many(stock)
    if opened is None:
        opened = [0 if any(o == s for o, _ in melds) else -1 for s in range(players)]
    return R45State(
        players=players,
        commitment=commitment(SEED),
        phase="play",
        trump=trump_id,
        trump_up=True,
        trump_shown=trump_shown,
        stock=stock_ids,
        train=train_ids,
        racks=rack_ids,
        melds=tuple(built),
        takebacks=piles,
        opened=tuple(opened),
        on_board=tuple(on_board or [False] * players),
        doubles=((),) * players,
        ready=(True,) * players,
        turn=turn,
        turn_number=turn_number,
        taken=taken,
        few=tuple(few or [False] * players),
    )


def tile_ids(state: R45State, seat: int, text: str) -> tuple[int, ...]:
    """The ids of ``text``'s codes on ``seat``'s board (each code once, in order)."""
    found: list[int] = []
    for code in text.split():
        kind = Tile.parse(code)
        found.append(next(i for i in state.racks[seat] if TILES[i] == kind and i not in found))
    return tuple(found)


def codes_of(tiles: Sequence[int]) -> str:
    return " ".join(str(TILES[t]) for t in tiles)


def play(state: R45State, *actions: object) -> tuple[R45State, list[Event]]:
    """Apply actions in turn (with the tests' seed); the events of them all."""
    events: list[Event] = []
    for action in actions:
        state, new = apply(state, action, SEED)  # type: ignore[arg-type]
        events += new
    return state, events


def same_as_replay(events: Sequence[Event], state: R45State) -> bool:
    return replay(events) == state


__all__ = ["SEED", "codes_of", "play", "position", "replace", "tile_ids"]
