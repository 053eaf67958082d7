"""Rummy 45 bots: an action for one seat, chosen from that seat's view (docs/rules-45.md "Bots").

``choose_action(view, rng, strength)`` reads only ``views.view_for(state, seat)``: its own board,
the train, the displays, the trump and everyone's board *sizes*, never another board or the
stock's order. With the same view and the same ``rng`` state it chooses the same action. It is
called for a seat in ``view["to_act"]``, and returns one action at a time (a turn is several).

Strengths, weakest first (``BOT_STRENGTHS``; the site maps its own onto them, docs/rules-45.md
"Bots"):

* ``easy`` always draws from the stock, displays the first melds it notices once they reach 45
  points, discards a tile at random (never a joker) and stitches only when down to its last 3
  tiles, where no display can leave it a tile to discard (else it could never go out); before
  play it shows the trump and declines every exchange;
* ``hard`` plays every rule when it pays. Before play it shows the trump, announces its doubles
  and offers or accepts one exchange, never giving a 1 (the rules' tip) nor breaking up a hand
  of doubles. In play it takes the left discard when it makes a display, displays the most
  points it can (the first display as soon as it reaches 45, a borrowed joker included),
  borrows jokers from runs and sets into new displays, stitches every tile that fits (a 1 at a
  run's end first: it is taken back), breaks the train when that leaves it fewer tiles, takes
  the whole train with 3 tiles or fewer when it can use it, goes out on the board when its
  tiles make a combination (taking the left discard or the face-up trump as the last tile),
  stays closed while its hand is one tile from a combination, and discards the tile least
  connected to the others (the one worth most among equals);
* ``expert`` plays like ``hard``, shows the others as little as it can, and plans. Its first
  display is the fewest tiles that make 45 points (no joker if it can, then the fewest open
  places to stitch onto); after it, the melds it makes stay on its board until the turn it goes
  out, all at once: a taken discard, a borrowed joker or a train break shows only the meld that
  uses it, and it stitches no tile those melds need. So the other seats cannot stitch onto its
  melds nor borrow their jokers, and the tiles that extend them wait for its own draws (or its
  left discard). It takes that discard only when the tiles left loose after the turn's discard
  are fewer than a useless draw would leave (a turn always keeps a tile to discard, so a board
  of melds and nothing else is not a way out: the discard must break one). From 3 players it
  keeps back a stitch at a run's end as well (a 1, which closes the end, excepted): the tile
  would open the run's next place to every other seat. It reads which
  tiles are gone (the train, every display, the take-back piles, the trump: what the others
  have taken and laid down) and keeps the tiles a meld, a stitch or a board combination will
  need while their missing tiles are still live; before its first display, among the tiles it
  would let go first, it discards the one after which the most next draws make that display;
  with 8 tiles or fewer outside its melds it discards the tile after which the most of the
  next draws let it go out (or lay off the most), and it keeps its jokers for melds until its
  last tiles.
"""

from __future__ import annotations

import itertools
import random
from collections import Counter, defaultdict
from collections.abc import Mapping, Sequence
from typing import Any

from ..errors import IllegalMove, InvalidInput
from ..tiles import COLOURS, JOKER, Tile
from .hands import HAND, best_combination
from .melds import FIRST_DISPLAY, HIGH_ONE, check_display, end_value, readings, run_tile
from .state import (
    DOUBLE_SIZES,
    TILES,
    Action,
    AnnounceDoubles,
    AnswerExchange,
    Borrow,
    BreakTrain,
    Discard,
    Display,
    Draw,
    GoOut,
    OfferExchange,
    Ready,
    ShowTrump,
    Stitch,
    TakeDiscard,
    TakeTrump,
    double_size,
)

__all__ = ["BOT_STRENGTHS", "best_display", "choose_action"]

BOT_STRENGTHS: tuple[str, ...] = ("easy", "hard", "expert")
# The expert counts a tile in the train (a break or a take away) as this much of a live copy,
# and plans its discard over the next draw with this many tiles or fewer left.
TRAIN_COPY = 0.5
LOOKAHEAD_TILES = 7
SEARCH_NODES = 4000  # subsets of candidate melds tried, at most, per display search
Melds = tuple[tuple[int, ...], ...]


def candidate_melds(ids: Sequence[int], jokers_too: bool = True) -> list[tuple[int, ...]]:
    """Valid melds of distinct tiles among ``ids``, each written in order."""
    real = [i for i in ids if not TILES[i].is_joker]
    jokers = [i for i in ids if TILES[i].is_joker] if jokers_too else []
    by_kind: dict[Tile, int] = {}
    for i in real:
        by_kind.setdefault(TILES[i], i)
    found: list[tuple[int, ...]] = []
    by_number: dict[int, list[int]] = defaultdict(list)
    for kind, i in by_kind.items():
        by_number[kind.number].append(i)
    for group in by_number.values():
        for size in range(1, len(group) + 1):
            for chosen in itertools.combinations(group, size):
                for used in range(0, len(jokers) + 1):
                    if 3 <= size + used <= 4:
                        found.append(chosen + tuple(jokers[:used]))
    colours = {kind.colour for kind in by_kind}
    for colour in sorted(c for c in colours if c is not None):
        row = RUN_TILES[colour]
        for start in range(1, HIGH_ONE - 1):
            # The runs from ``start``, each the one before it and one more rank.
            run: list[int] = []
            spare = list(jokers)
            reals = 0
            for rank in range(start, HIGH_ONE + 1):
                tile = by_kind.get(row[rank])
                if tile is not None and tile not in run:
                    run.append(tile)
                    reals += 1
                elif spare:
                    run.append(spare.pop())
                else:
                    break
                if len(run) >= 3 and reals:
                    found.append(tuple(run))
    return [m for m in found if readings([TILES[t] for t in m])]


# RUN_TILES[colour][rank]: the tile a run of that colour holds at that rank (1-14).
RUN_TILES = {
    colour: [Tile(colour, 0)] + [run_tile(colour, rank) for rank in range(1, HIGH_ONE + 1)]
    for colour in COLOURS
}


def best_display(
    ids: Sequence[int],
    first: bool,
    must: int | None = None,
    keep: int = 1,
    by_tiles: bool = False,
    fewest: bool = False,
) -> tuple[Melds, int]:
    """The display of the most points among ``ids`` (using ``must`` if given, keeping ``keep``
    tiles back): ``((), 0)`` when there is none, or none a first display allows. ``by_tiles``:
    the display of the most tiles instead (the most points among those), the points returned;
    ``fewest``: the display of the fewest tiles and jokers, then of the fewest places where
    another tile could be stitched on (the most points among those)."""
    candidates = candidate_melds(ids)
    candidates.sort(key=lambda m: -sum(_points(m)))
    worth = [sum(_points(m)) for m in candidates]
    open_ends = [_open_ends(m) for m in candidates] if fewest else []
    best: tuple[Melds, int] = ((), 0)
    best_key: tuple[int, ...] = (0, 0)
    nodes = 0
    limit = len(ids) - keep

    def search(
        start: int, chosen: list[tuple[int, ...]], used: set[int], points: int, ends: int = 0
    ) -> None:
        nonlocal best, best_key, nodes
        nodes += 1
        wanted = not first or points >= FIRST_DISPLAY
        key: tuple[int, ...] = (len(used), points) if by_tiles else (points, 0)
        if fewest:
            key = (-sum(100 for t in used if TILES[t].is_joker) - len(used), -ends, points)
        if chosen and (key > best_key or not best[0]) and wanted and (must is None or must in used):
            try:
                check_display([[TILES[t] for t in m] for m in chosen], first)
            except IllegalMove:
                pass
            else:
                best, best_key = (tuple(chosen), points), key
        for n in range(start, len(candidates)):
            if nodes >= SEARCH_NODES:
                return
            meld = candidates[n]
            if used.isdisjoint(meld) and len(used) + len(meld) <= limit:
                more = open_ends[n] if open_ends else 0
                search(n + 1, chosen + [meld], used | set(meld), points + worth[n], ends + more)

    search(0, [], set(), 0)
    return best


def _open_ends(meld: Sequence[int]) -> int:
    """The places where a displayed meld takes another tile: a set's missing colour, a run's
    ends (none below a 1 nor above a high 1)."""
    reading = readings([TILES[t] for t in meld])[0]
    if reading.kind == "set":
        return 4 - len(meld)
    return int(reading.start > 1) + int(reading.end < HIGH_ONE)


def _points(meld: Sequence[int]) -> tuple[int, ...]:
    return readings([TILES[t] for t in meld])[0].values


def choose_action(view: Mapping[str, Any], rng: random.Random, strength: str) -> Action:
    """The action a bot of ``strength`` takes, seeing only ``view`` (its own seat's view)."""
    if strength not in BOT_STRENGTHS:
        raise InvalidInput(f"unknown bot strength {strength!r}: one of {', '.join(BOT_STRENGTHS)}")
    seat = view.get("seat")
    if not isinstance(seat, int):
        raise InvalidInput("a bot needs the view of a seat, not a spectator's")
    if seat not in view["to_act"]:
        raise InvalidInput(f"seat {seat} has nothing to do now")
    rack: list[int] = list(view["rack"])
    if view["phase"] == "setup":
        return _setup(view, seat, rack, strength)
    opened = view["opened_turn"][seat]
    waiting = opened == view["turn_number"]
    if strength == "easy":
        if not view["taken"]:
            return Draw(seat)
        if view["first_round"] or waiting or view["on_board"][seat]:
            return _discard(view, seat, rack, rng, strength)
        return _easy_act(view, seat, rack, rng, opened >= 0)
    if not view["taken"]:
        return _take(view, seat, rack, strength, opened >= 0)
    if view["on_board"][seat]:
        out = _board_out(rack)
        return GoOut(seat, out) if out is not None else _discard(view, seat, rack, rng, strength)
    if view["first_round"]:
        out = _board_out(rack)
        return GoOut(seat, out) if out is not None else _discard(view, seat, rack, rng, strength)
    if waiting:
        return _discard(view, seat, rack, rng, strength)
    return _act(view, seat, rack, rng, strength, opened >= 0)


# ---------------------------------------------------------------------------------------------
# Before play: the trump, the doubles


def _doubles(rack: Sequence[int]) -> dict[Tile, list[int]]:
    """The doubles on a board (two tiles of one kind; jokers are not), tile ids by kind."""
    by_kind: dict[Tile, list[int]] = defaultdict(list)
    for t in rack:
        if not TILES[t].is_joker:
            by_kind[TILES[t]].append(t)
    return {kind: ids for kind, ids in by_kind.items() if len(ids) >= 2}


# A board with this many doubles plays for the doubles combination and exchanges none.
DOUBLES_PLAN = 5


def _exchange_tile(rack: Sequence[int]) -> int | None:
    """The tile of a double a bot gives in an exchange: never a 1 (the rules' tip: 1s are worth
    25 and make high and low runs), none while the board plays for doubles, else the least
    connected of the others (a double's twin is dead weight in every meld but a set of one)."""
    doubles = _doubles(rack)
    if len(doubles) >= DOUBLES_PLAN:
        return None
    offered = [ids[0] for kind, ids in doubles.items() if kind.number != 1]
    if not offered:
        return None
    return min(offered, key=lambda t: (_links(t, rack), -end_value(TILES[t]), t))


def _setup(view: Mapping[str, Any], seat: int, rack: list[int], strength: str) -> Action:
    offer = view["offer"]
    if offer is not None and offer["to"] == seat:
        give = None if strength == "easy" else _exchange_tile(rack)
        return AnswerExchange(seat, give)
    trump = TILES[view["trump"]]
    if view["trump_shown"] is None and any(TILES[t] == trump for t in rack):
        return ShowTrump(seat)
    if strength == "easy":
        return Ready(seat)
    sizes = tuple(size for size in DOUBLE_SIZES if size in {double_size(k) for k in _doubles(rack)})
    if sizes and not view["doubles"][seat]:
        return AnnounceDoubles(seat, sizes)
    give = _exchange_tile(rack)
    if view["doubles"][seat] and offer is None and view["offers"][seat] == 0 and give is not None:
        out = view.get("resigned") or [False] * view["players"]
        partners = [
            s for s in range(view["players"]) if s != seat and view["doubles"][s] and not out[s]
        ]
        if partners:
            return OfferExchange(seat, partners[0], give)
    return Ready(seat)


# ---------------------------------------------------------------------------------------------
# Taking a tile


def _take(
    view: Mapping[str, Any], seat: int, rack: list[int], strength: str, opened: bool
) -> Action:
    train = view["train"]
    if view["first_round"]:
        return Draw(seat)
    few = view["few"][seat]
    if not opened:
        if view["trump_up"]:
            out = _board_out(rack + [view["trump"]], keep=view["trump"])
            if out is not None:
                return TakeTrump(seat, out)
        if len(train) > 1 and not few:
            out = _board_out(rack + [train[-1]], keep=train[-1])
            if out is not None:
                return TakeDiscard(seat, on_board=True)
    if len(train) > 1:
        take = _useful_discard(view, seat, rack, opened, strength)
        if take is not None:
            return take
    return Draw(seat)


def _useful_discard(
    view: Mapping[str, Any], seat: int, rack: list[int], opened: bool, strength: str = "hard"
) -> Action | None:
    if view["few"][seat] and len(view["train"]) > 2:
        return None
    tile = view["train"][-1]
    if not opened and _near_board(rack) is not None and not _hurry(view, seat):
        return None  # a display would end the board game it is one tile from
    expert = strength == "expert"
    # The expert's first display shows as little as it can (see _act).
    melds, points = best_display(
        rack + [tile], not opened, must=tile, by_tiles=expert, fewest=expert and not opened
    )
    if not melds or (view["few"][seat] and not any(tile in m and len(m) > 1 for m in melds)):
        return None
    if expert and opened and not _out_path(view, rack + [tile]):
        melds = tuple(m for m in melds if tile in m)  # it holds its other melds back
        # A take must leave fewer loose tiles after the turn's discard than a useless draw
        # would: one that only reshapes the melds it holds, or leaves nothing but melds (the
        # discard then breaks one), is worth less than a draw's chance of a tile that fits.
        if _after_discard(view, rack + [tile]) >= _loose(view, rack):
            return None
    return TakeDiscard(seat, melds)


# ---------------------------------------------------------------------------------------------
# Playing on the board


def _may_combine(tiles: Sequence[Tile]) -> bool:
    """A cheap test that 14 tiles could make a combination: ``False`` when they surely cannot."""
    jokers = sum(1 for t in tiles if t.is_joker)
    real = [t for t in tiles if not t.is_joker]
    counts = Counter(real)
    if sum(n % 2 for n in counts.values()) <= jokers:
        return True  # doubles, maybe
    numbers = Counter(t.number for t in real)
    if numbers[1] == 2 and all(n == 1 for k, n in numbers.items() if k != 1):
        return True  # a mozaic, maybe
    orphans = 0
    for tile in counts:
        if not any(
            o != tile
            and (
                (o.number == tile.number and o.colour != tile.colour)
                or (o.colour == tile.colour and _gap(o.number, tile.number) <= 2)
            )
            for o in counts
        ):
            orphans += 1
    return orphans * 2 <= jokers


def _uncovered(ids: Sequence[int]) -> set[int]:
    """The tiles of ``ids`` that stand in no meld of them (jokers included): a board with two
    of them splits into no melds without one of them."""
    covered = {t for meld in candidate_melds(ids) for t in meld}
    kinds = {TILES[t] for t in covered}
    return {t for t in ids if TILES[t] not in kinds and not TILES[t].is_joker}


def _unpaired(ids: Sequence[int]) -> int:
    counts = Counter(TILES[t] for t in ids if not TILES[t].is_joker)
    return sum(n % 2 for n in counts.values())


def _mozaic_like(ids: Sequence[int]) -> bool:
    numbers = Counter(TILES[t].number for t in ids if not TILES[t].is_joker)
    jokers = sum(1 for t in ids if TILES[t].is_joker)
    return numbers[1] >= 2 and len(numbers) + jokers >= 13


def _board_out(ids: Sequence[int], keep: int | None = None) -> int | None:
    """The tile to discard that leaves the best combination on the board (never ``keep``, the
    tile just taken), if any does."""
    if len(ids) != HAND + 1:
        return None
    jokers = sum(1 for t in ids if TILES[t].is_joker)
    pairs = _unpaired(ids) <= jokers + 1
    uncovered = _uncovered(ids)
    if not pairs and not _mozaic_like(ids) and len(uncovered) > 1:
        return None
    tried = ids if pairs or len(uncovered) != 1 else list(uncovered)
    best: tuple[int, int] | None = None
    seen: set[Tile] = set()
    for tile in tried:
        kind = TILES[tile]
        if tile == keep or kind in seen:
            continue
        seen.add(kind)
        rest = [TILES[t] for t in ids if t != tile]
        if not _may_combine(rest):
            continue
        name, points = best_combination(rest)
        if name is not None and (best is None or points > best[1]):
            best = (tile, points)
    return best[0] if best is not None else None


def _near_board(ids: Sequence[int]) -> int | None:
    """A tile to let go from a closed board one tile from a combination (14 tiles after the
    discard, one of them wrong): the tile, or ``None`` when the board is not that close."""
    if len(ids) not in (HAND, HAND + 1):
        return None
    spare = len(ids) - HAND  # tiles beyond 14: discarded outright
    jokers = sum(1 for t in ids if TILES[t].is_joker)
    if _unpaired(ids) <= jokers + 2 + spare:  # six doubles and the odd tiles
        counts = Counter(TILES[t] for t in ids if not TILES[t].is_joker)
        singles = [t for t in ids if counts[TILES[t]] % 2 == 1]
        return min(singles, key=lambda t: (-end_value(TILES[t]), t)) if singles else None
    uncovered = sorted(_uncovered(ids))
    if len(uncovered) > 3 + spare:
        return None
    order = sorted(ids, key=lambda t: (t not in uncovered, _links(t, ids), -end_value(TILES[t])))
    for wrong in itertools.combinations(order[: 3 + spare], 1 + spare):
        if not set(uncovered) <= set(wrong) | set(order[: 3 + spare]):
            continue
        rest = [TILES[t] for t in ids if t not in wrong] + [JOKER]
        if _may_combine(rest) and best_combination(rest)[0] is not None:
            return wrong[0]
    return None


# A closed board one tile from a combination stops waiting for it when another board is down to
# this many tiles, or the last stock to this many.
HURRY_TILES, HURRY_STOCK = 6, 10


def _hurry(view: Mapping[str, Any], seat: int) -> bool:
    """Whether the table is near its end: someone is down to a few tiles, or the stock is low
    with no renewal left."""
    counts = [int(n) for s, n in enumerate(view["rack_counts"]) if s != seat]
    last_stock = int(view["renewals"]) >= int(view.get("renewal_limit", 99))
    return min(counts) <= HURRY_TILES or (last_stock and int(view["stock"]) < HURRY_STOCK)


# ---------------------------------------------------------------------------------------------
# After taking


def _act(
    view: Mapping[str, Any],
    seat: int,
    rack: list[int],
    rng: random.Random,
    strength: str,
    opened: bool,
) -> Action:
    expert = strength == "expert"
    if not opened:
        out = _board_out(rack)
        if out is not None:
            return GoOut(seat, out)
        near = _near_board(rack)
        if near is not None and not _hurry(view, seat):
            return Discard(seat, near)
    melds, points = best_display(rack, not opened, by_tiles=expert)
    # The expert shows the others as little as it can: its first display is the fewest tiles
    # (and jokers) that make it, and after it the melds it makes stay on its board until the
    # turn it goes out, so nobody else stitches onto them or borrows their jokers, and their
    # open ends wait for its own tiles (or the left discard) only.
    if expert and not opened and melds:
        melds, points = best_display(rack, True, fewest=True)
    path = _out_path(view, rack) if expert and opened else ""
    holding = expert and opened and not path
    if holding or path == "stitch":
        melds, points = (), 0
    borrow = _best_borrow(view, seat, rack, opened, expert, hold=holding)
    if path:
        borrow = None
    if borrow is not None and (not melds or borrow[1] + 50 >= points):
        return borrow[0]
    if melds:
        return Display(seat, melds)
    if not opened:
        return _discard(view, seat, rack, rng, strength)
    broken = None if path else _break(view, seat, rack, expert, hold=holding)
    if broken is not None:
        return broken
    # The expert keeps a joker for its last turn: it fits any open run end, so with the joker
    # and one more tile left it always goes out (stitch one, discard the other).
    keep_jokers = expert and len(rack) > 2
    # From 3 players it keeps back a stitch at a run's end too (see _stitch).
    ends = holding and len(view["rack_counts"]) >= 3
    stitch = _stitch(view, seat, rack, keep_jokers=keep_jokers, hold=holding, run_ends=not ends)
    if stitch is not None:
        return stitch
    return _discard(view, seat, rack, rng, strength)


def _borrows(
    view: Mapping[str, Any], rack: Sequence[int]
) -> list[tuple[int, tuple[int, ...], int]]:
    """Every joker this board can borrow: (meld, the tiles given, the joker)."""
    found: list[tuple[int, tuple[int, ...], int]] = []
    by_kind: dict[Tile, int] = {}
    for t in rack:
        by_kind.setdefault(TILES[t], t)
    for index, meld in enumerate(view["melds"]):
        tiles = list(meld["tiles"])
        kinds = [TILES[t] for t in tiles]
        jokers = [p for p, k in enumerate(kinds) if k.is_joker]
        if not jokers:
            continue
        if meld["kind"] == "run":
            reading = next(r for r in readings(kinds) if r.kind == "run")
            for p in jokers:
                if (p == 0 and meld["closed"][0]) or (p == len(tiles) - 1 and meld["closed"][1]):
                    continue
                give = by_kind.get(reading.stands_for(p))
                if give is not None:
                    found.append((index, (give,), tiles[p]))
            continue
        real = [k for k in kinds if not k.is_joker]
        number = real[0].number
        missing = [c for c in ("K", "B", "R", "Y") if c not in {k.colour for k in real}]
        if len(real) + len(missing) != 4 or len(missing) < len(jokers):
            continue
        gives = [by_kind.get(Tile(c, number)) for c in missing]
        if all(g is not None for g in gives):
            found.append((index, tuple(g for g in gives if g is not None), tiles[jokers[0]]))
    return found


def _best_borrow(
    view: Mapping[str, Any],
    seat: int,
    rack: list[int],
    opened: bool,
    by_tiles: bool,
    hold: bool = False,
) -> tuple[Action, int] | None:
    """The borrow whose joker makes the best new display, and that display's points."""
    best: tuple[Action, int] | None = None
    for index, give, joker in _borrows(view, rack):
        meld = view["melds"][index]
        # A set gives all its jokers at once; a run the one the tile stood for.
        jokers = (
            [t for t in meld["tiles"] if TILES[t].is_joker] if meld["kind"] == "set" else [joker]
        )
        ids = [t for t in rack if t not in give] + jokers
        melds, points = best_display(ids, not opened, must=joker, by_tiles=by_tiles)
        used = melds and all(any(j in m for m in melds) for j in jokers)
        if hold:
            melds = tuple(m for m in melds if any(j in m for j in jokers))
        if used and (best is None or points > best[1]):
            best = (Borrow(seat, index, give, melds), points)
    return best


def _break(
    view: Mapping[str, Any], seat: int, rack: list[int], expert: bool, hold: bool = False
) -> Action | None:
    """Break the train when the tiles taken and displayed leave a smaller board; with 3 tiles or
    fewer, take the whole train when a tile of the board makes a meld with its first."""
    train = view["train"]
    if len(train) < 2:
        return None
    few = view["few"][seat]
    mine = 1 if few else 2
    starts = [1] if few else list(range(1, len(train)))
    best: tuple[int, Action] | None = None
    loose_before = -1
    for start in starts:
        first, rest = train[start], list(train[start + 1 :])
        if _links(first, rack + [first]) < 2 and not any(TILES[t].is_joker for t in rack):
            continue
        own = [
            m
            for m in candidate_melds(rack + [first])
            if first in m and len(set(m) & set(rack)) >= mine
        ]
        if not own:
            continue
        for meld in sorted(own, key=len, reverse=True)[:3]:
            left = [t for t in rack + rest if t not in meld]
            if not left:
                continue  # a break keeps a tile to discard
            if hold:
                if loose_before < 0:
                    loose_before = _loose(view, rack)
                after_loose = _loose(view, left)
                gain = loose_before - after_loose
                if gain >= 1 and (best is None or gain > best[0]):
                    # It shows only the meld the break needs, unless it goes out this turn.
                    more = best_display(left, False, keep=1, by_tiles=True)[0]
                    shown = (meld, *more) if after_loose <= 1 else (meld,)
                    best = (gain, BreakTrain(seat, start, shown))
                continue
            more, _ = best_display(left, False, keep=1, by_tiles=True)
            used = set(meld) | {t for m in more for t in m}
            after = [t for t in left if t not in used]
            if not after:
                continue
            stitched = sum(1 for t in after if _fits_somewhere(view, t))
            gain = len(rack) - (len(after) - stitched)
            if gain >= 1 and (best is None or gain > best[0]):
                best = (gain, BreakTrain(seat, start, (meld, *more)))
    return best[1] if best is not None else None


def _fits_somewhere(view: Mapping[str, Any], tile: int) -> bool:
    return bool(_stitches_of(view, tile))


def _stitches_of(view: Mapping[str, Any], tile: int) -> list[tuple[int, str]]:
    """The melds (and run ends) ``tile`` may be stitched to."""
    kind = TILES[tile]
    found: list[tuple[int, str]] = []
    for index, meld in enumerate(view["melds"]):
        tiles = [TILES[t] for t in meld["tiles"]]
        if meld["kind"] == "set":
            if len(tiles) < 4 and any(r.kind == "set" for r in readings(tiles + [kind])):
                found.append((index, ""))
            continue
        for end, grown in (("low", [kind] + tiles), ("high", tiles + [kind])):
            closed = meld["closed"][0 if end == "low" else 1]
            if not closed and any(r.kind == "run" for r in readings(grown)):
                found.append((index, end))
    return found


def _stitch(
    view: Mapping[str, Any],
    seat: int,
    rack: list[int],
    keep_jokers: bool = False,
    hold: bool = False,
    run_ends: bool = True,
) -> Action | None:
    """A stitch: a 1 at a run's end first (it is taken back, 25 points in the pile), jokers
    last (or never, with ``keep_jokers``); with ``hold``, never a tile whose stitch leaves
    fewer tiles in the melds the board holds back. Without ``run_ends``, no real tile but a 1
    that fits a run's end: such a stitch opens the run's next place to every other seat (a 1
    closes that end), so the tile waits on the board, counted as laid off, until the turn it
    goes out (``_out_path``), even where a set would take it now (kept, it may still go either
    way then: stitching it to the set was 0.9 points of win share worse at 4 players)."""
    if len(rack) < 2:
        return None
    order = sorted(rack, key=lambda t: (TILES[t].is_joker, TILES[t].number != 1))
    held = -1
    for tile in order:
        kind = TILES[tile]
        if keep_jokers and kind.is_joker:
            continue
        places = _stitches_of(view, tile)
        opens = not run_ends and not kind.is_joker and kind.number != 1
        if opens and any(view["melds"][index]["kind"] == "run" for index, _ in places):
            continue
        for index, end in places:
            if hold:
                if held < 0:
                    held = _held(rack)
                if _held([t for t in rack if t != tile]) < held:
                    break
            return Stitch(seat, tile, index, end)
    return None


def _held(ids: Sequence[int]) -> int:
    melds, _ = best_display(ids, False, keep=0, by_tiles=True)
    return sum(len(m) for m in melds)


def _out_path(view: Mapping[str, Any], rack: list[int]) -> str:
    """How this turn lays off every tile but the one to discard: ``display`` (the most tiles
    first, then stitches), ``stitch`` (stitches first, then a display), or ``""``."""
    table = _table(view)
    melds, _ = best_display(rack, False, keep=1, by_tiles=True)
    used = {t for m in melds for t in m}
    rest = [TILES[t] for t in rack if t not in used]
    count, _ = _stitched_count(_table_with(table, melds), rest)
    if len(used) + count >= len(rack) - 1:
        return "display"
    count, left = _stitched_count(table, [TILES[t] for t in rack])
    if len(left) >= 3:
        # With no stitch to leave undone, the display must leave a tile to discard.
        more, _ = best_display(_ids_of(rack, left), False, keep=int(count == 0), by_tiles=True)
        count += sum(len(m) for m in more)
    return "stitch" if count >= len(rack) - 1 else ""


def _table_with(table: Table, melds: Melds) -> Table:
    """The table with ``melds`` displayed on it too."""
    runs = [list(r) for r in table[0]]
    sets = [[n, set(c), size] for n, c, size in table[1]]
    for meld in melds:
        tiles = [TILES[t] for t in meld]
        reading = readings(tiles)[0]
        if reading.kind == "run":
            runs.append([reading.colour, reading.start, reading.end, True, True])
        elif len(tiles) < 4:
            sets.append([reading.number, {t.colour for t in tiles if not t.is_joker}, len(tiles)])
    return runs, sets


def _loose(view: Mapping[str, Any], ids: list[int]) -> int:
    """The tiles of ``ids`` that neither the melds they make nor stitches would lay off."""
    melds, _ = best_display(ids, False, keep=0, by_tiles=True)
    used = {t for m in melds for t in m}
    rest = [TILES[t] for t in ids if t not in used]
    count, _ = _stitched_count(_table_with(_table(view), melds), rest)
    return len(rest) - count


def _after_discard(view: Mapping[str, Any], ids: list[int]) -> int:
    """The loose tiles of ``ids`` left after the turn's discard: one fewer than ``_loose`` when
    a loose tile is there to go, else the fewest that a discard from a meld leaves."""
    loose = _loose(view, ids)
    if loose >= 1 or len(ids) < 2:
        return max(0, loose - 1)
    best = len(ids)
    seen: set[Tile] = set()
    for t in ids:
        if TILES[t] in seen:
            continue
        seen.add(TILES[t])
        best = min(best, _loose(view, [i for i in ids if i != t]))
        if best == 0:
            break
    return best


# An easy bot stitches only with this many tiles left, the tile taken included.
LAST_TILES = 3


def _easy_act(
    view: Mapping[str, Any], seat: int, rack: list[int], rng: random.Random, opened: bool
) -> Action:
    free = list(rack)
    chosen: list[tuple[int, ...]] = []
    for meld in candidate_melds(free, jokers_too=False):
        if set(meld) <= set(free) and len(free) - len(meld) >= 1:
            chosen.append(meld)
            free = [t for t in free if t not in meld]
    if chosen:
        try:
            check_display([[TILES[t] for t in m] for m in chosen], not opened)
        except IllegalMove:
            pass
        else:
            return Display(seat, tuple(chosen))
    if opened and len(rack) <= LAST_TILES:
        # Down to its last tiles a display would leave nothing to discard: only a stitch lets
        # it go out (without one, two easy bots would draw and discard for ever).
        stitch = _stitch(view, seat, rack)
        if stitch is not None:
            return stitch
    return _discard(view, seat, rack, rng, "easy")


def _links(tile: int, rack: Sequence[int]) -> int:
    """How many other tiles of ``rack`` could stand in a meld with ``tile``."""
    kind = TILES[tile]
    if kind.is_joker:
        return 99
    links = 0
    for other in rack:
        o = TILES[other]
        if other == tile or o.is_joker:
            continue
        if o.number == kind.number and o.colour != kind.colour:
            links += 2
        elif o.colour == kind.colour and _gap(o.number, kind.number) <= 2:
            links += 3 - _gap(o.number, kind.number)
    return links


def _gap(a: int, b: int) -> int:
    gaps = [abs(a - b)]
    if a == 1:
        gaps.append(abs(HIGH_ONE - b))
    if b == 1:
        gaps.append(abs(HIGH_ONE - a))
    return min(gaps) if min(gaps) > 0 else 9


def _discard(
    view: Mapping[str, Any], seat: int, rack: list[int], rng: random.Random, strength: str
) -> Action:
    plain = [t for t in rack if not TILES[t].is_joker] or rack
    if strength == "easy":
        return Discard(seat, rng.choice(plain))
    if strength == "expert":
        gone = _gone(view, seat)
        opened = view["opened_turn"][seat] >= 0
        if opened:
            # The melds it holds back are not counted among its last tiles, nor discarded.
            melds, _ = best_display(rack, False, keep=0, by_tiles=True)
            used = {t for m in melds for t in m}
            loose = [t for t in plain if t not in used] or plain
            if 2 <= len(rack) - len(used) <= LOOKAHEAD_TILES + 1:
                return Discard(seat, _last_tiles_discard(view, rack, loose, gone))
        order = sorted(plain, key=lambda t: (_keep(view, t, rack, gone), -end_value(TILES[t]), t))
        if not opened and not view["on_board"][seat]:
            return Discard(seat, _opening_discard(rack, order[:OPENING_CHOICES], gone))
        return Discard(seat, order[0])
    tile = min(plain, key=lambda t: (_links(t, rack), -end_value(TILES[t]), t))
    return Discard(seat, tile)


# Before its first display the expert weighs this many of the discards it would rather make.
OPENING_CHOICES = 4


def _opening_discard(rack: list[int], choices: list[int], gone: Counter[Tile]) -> int:
    """Among ``choices`` (best first), the discard after which the most of the next draws let
    the board make its first display (45 points, a tile kept to discard); the first choice when
    none is likelier than it. Only a draw that stands in a meld with a tile of the board can
    change what the board displays."""
    best, chosen = -1.0, choices[0]
    for tile in choices:
        kept = [t for t in rack if t != tile]
        near = {TILES[t] for t in kept}
        ways = 0.0
        for kind in _ALL_KINDS:
            copies = 2 - gone[kind]
            if copies <= 0 or not (kind.is_joker or any(_related(kind, k) for k in near)):
                continue
            drawn = next(i for i in _IDS_OF[kind] if i not in kept)
            if best_display(kept + [drawn], True)[0]:
                ways += copies
        if ways > best:
            best, chosen = ways, tile
    return chosen


def _gone(view: Mapping[str, Any], seat: int) -> Counter[Tile]:
    """How many copies of each kind the seat can see out of play (two of each exist): in the
    train, on every display, in the take-back piles, the face-up trump, on its own board."""
    seen: list[int] = list(view["train"]) + list(view["rack"])
    seen += [t for meld in view["melds"] for t in meld["tiles"]]
    seen += [t for pile in view["takebacks"] for t in pile]
    if view["trump_up"] and view["trump"] is not None:
        seen.append(view["trump"])
    return Counter(TILES[t] for t in seen)


def _live(kind: Tile, gone: Counter[Tile]) -> int:
    """The copies of ``kind`` that may still come (from the stock or a renewed train)."""
    return max(0, 2 - gone[kind])


def _keep(view: Mapping[str, Any], tile: int, rack: Sequence[int], gone: Counter[Tile]) -> float:
    """How much the expert wants to keep ``tile``: the live tiles that would take it off the
    board (completing a meld with the board's other tiles, or letting it be stitched), a meld it
    is in already, and its place in a board combination. A tile counts the more before the first
    display when it is worth 10 there (the display needs 45 points)."""
    kind = TILES[tile]
    if kind.is_joker:
        return 99.0
    colour = kind.colour
    assert colour is not None
    seat = view["seat"]
    opened = view["opened_turn"][seat] >= 0
    train = Counter(TILES[t] for t in view["train"][1:])
    others = [TILES[t] for t in rack if t != tile and not TILES[t].is_joker]
    jokers = sum(1 for t in rack if TILES[t].is_joker)

    def live(k: Tile) -> float:
        # Copies to come from the stock, and those in the train (a break or a take away).
        return max(0, 2 - gone[k]) + TRAIN_COPY * train[k]

    outs = 0.0
    made = False
    # Sets: the other colours of its number.
    mates = {o.colour for o in others if o.number == kind.number and o.colour != colour}
    if len(mates) >= 2:
        made = True
    elif mates:
        outs += sum(live(Tile(c, kind.number)) for c in COLOURS if c not in mates and c != colour)
        outs += 2.0 * jokers
    # Runs: its colour's neighbours on the board.
    own = {o.number for o in others if o.colour == colour}

    def held(rank: int) -> bool:
        return run_tile(colour, rank).number in own

    ranks = [kind.number] + ([HIGH_ONE] if kind.number == 1 else [])
    for rank in ranks:
        if kind.number == 1 and rank == 1 and held(2) is False and held(3) is False:
            pass
        for low in range(max(1, rank - 2), min(rank, HIGH_ONE - 2) + 1):
            window = [r for r in range(low, low + 3) if r != rank]
            missing = [r for r in window if not held(r)]
            if not missing:
                made = True
            elif len(missing) == 1:
                outs += live(run_tile(colour, missing[0])) + 2.0 * jokers
    # Stitches: a displayed run two ranks away needs the tile between; a set that lacks its
    # colour takes it now (before the first display, a stitch waiting to be made).
    for meld in view["melds"]:
        tiles = [TILES[t] for t in meld["tiles"]]
        if meld["kind"] == "set":
            if len(tiles) < 4 and any(r.kind == "set" for r in readings(tiles + [kind])):
                outs += 6.0
            continue
        reading = next(r for r in readings(tiles) if r.kind == "run")
        if reading.colour != colour:
            continue
        for rank in ranks:
            if rank in (reading.start - 1, reading.end + 1):
                outs += 6.0
            elif rank == reading.start - 2 and not meld["closed"][0]:
                outs += live(run_tile(colour, rank + 1))
            elif rank == reading.end + 2 and not meld["closed"][1]:
                outs += live(run_tile(colour, rank - 1))
    if made:
        outs += 8.0
    if not opened:
        outs *= 1.0 + (0.5 if kind.number >= 10 or kind.number == 1 else 0.0)
        twins = sum(1 for o in others if o == kind)
        if twins and len(_doubles(rack)) >= DOUBLES_PLAN - 1:
            outs += 6.0
    if any(o == kind for o in others):
        outs -= 1.0  # a twin: both copies wait for the same tiles
    return outs


# ---------------------------------------------------------------------------------------------
# The expert's last tiles: which discard leaves the likeliest way out next turn


Table = tuple[list[list[Any]], list[list[Any]]]  # runs [colour, low, high, low open, high open],
# sets [number, colours, size]


def _table(view: Mapping[str, Any]) -> Table:
    runs: list[list[Any]] = []
    sets: list[list[Any]] = []
    for meld in view["melds"]:
        tiles = [TILES[t] for t in meld["tiles"]]
        reading = next(r for r in readings(tiles) if r.kind == meld["kind"])
        if meld["kind"] == "run":
            runs.append(
                [
                    reading.colour,
                    reading.start,
                    reading.end,
                    not meld["closed"][0],
                    not meld["closed"][1],
                ]
            )
        elif len(tiles) < 4:
            sets.append([reading.number, {t.colour for t in tiles if not t.is_joker}, len(tiles)])
    return runs, sets


def _stitched_count(table: Table, kinds: list[Tile]) -> tuple[int, list[Tile]]:
    """How many of ``kinds`` stitch onto the table, one after another (a stitched tile moves a
    run's end for the next), and the kinds left."""
    runs = [list(r) for r in table[0]]
    sets = [[n, set(c), size] for n, c, size in table[1]]
    left = list(kinds)
    count = 0
    changed = True
    while changed and left:
        changed = False
        for kind in list(left):
            if kind.is_joker:
                fits = any(r[3] and r[1] > 1 or r[4] and r[2] < HIGH_ONE for r in runs) or any(
                    size < 4 for _, _, size in sets
                )
            else:
                fits = False
                for r in runs:
                    if r[0] != kind.colour:
                        continue
                    if r[4] and r[2] < HIGH_ONE and run_tile(r[0], r[2] + 1) == kind:
                        r[2] += 1
                        fits = True
                        break
                    if r[3] and r[1] > 1 and run_tile(r[0], r[1] - 1) == kind:
                        r[1] -= 1
                        fits = True
                        break
                if not fits:
                    for entry in sets:
                        if entry[0] == kind.number and kind.colour not in entry[1] and entry[2] < 4:
                            entry[1].add(kind.colour)
                            entry[2] += 1
                            fits = True
                            break
            if fits:
                left.remove(kind)
                count += 1
                changed = True
    return count, left


def _ids_of(ids: Sequence[int], kinds: Sequence[Tile]) -> list[int]:
    """The tiles of ``ids``, in order, that are of ``kinds``: one tile for each kind listed."""
    wanted = Counter(kinds)
    found = []
    for i in ids:
        if wanted[TILES[i]] > 0:
            wanted[TILES[i]] -= 1
            found.append(i)
    return found


def _sheds(table: Table, ids: list[int]) -> int:
    """How many of ``ids`` a turn can lay off (stitches, then a display of the rest, or a display,
    then stitches), keeping one to discard."""
    count, left = _stitched_count(table, [TILES[i] for i in ids])
    if len(left) >= 3:
        # A tile stays to discard: a stitch left undone, else one the display leaves.
        melds, _ = best_display(_ids_of(ids, left), False, keep=int(count == 0), by_tiles=True)
        count += sum(len(m) for m in melds)
    if count < len(ids) - 1 and len(ids) >= 3:  # or display first, then stitch
        melds, _ = best_display(ids, False, keep=1, by_tiles=True)
        used = {t for m in melds for t in m}
        rest_kinds = [TILES[t] for t in ids if t not in used]
        more, _ = _stitched_count(_table_with(table, melds), rest_kinds)
        count = max(count, len(used) + more)
    return min(count, len(ids) - 1)


def _last_tiles_discard(
    view: Mapping[str, Any], rack: list[int], plain: list[int], gone: Counter[Tile]
) -> int:
    """The discard after which the next draw most likely lets the board go out (and lays off
    the most tiles), among the board's last tiles."""
    table = _table(view)
    spots = _spots(table)
    unseen = [(kind, 2 - gone[kind]) for kind in _ALL_KINDS if gone[kind] < 2]
    best: tuple[float, float] | None = None
    chosen = plain[0]
    seen: set[Tile] = set()
    for tile in plain:
        if TILES[tile] in seen:
            continue
        seen.add(TILES[tile])
        kept = [t for t in rack if t != tile]
        weight = wins = shed = 0.0
        near = {TILES[t] for t in kept}
        idle = -1  # what a draw that fits nothing lays off: the same for every such draw
        for kind, copies in unseen:
            related = kind.is_joker or kind in spots or any(_related(kind, k) for k in near)
            if not related and idle >= 0:
                laid = idle
            else:
                drawn = next(i for i in _IDS_OF[kind] if i not in kept)
                laid = _sheds(table, kept + [drawn])
                if not related:
                    idle = laid
            weight += copies
            shed += copies * laid
            if laid == len(kept):
                wins += copies
        score = (wins + 0.2 * shed / max(1, len(kept))) / max(1.0, weight)
        key = (score, -_keep(view, tile, rack, gone))
        if best is None or key > best:
            best, chosen = key, tile
    return chosen


def _related(a: Tile, b: Tile) -> bool:
    """Whether two real tiles could stand in one meld."""
    if b.is_joker:
        return True
    if a.number == b.number:
        return a.colour != b.colour
    return a.colour == b.colour and _gap(a.number, b.number) <= 2


def _spots(table: Table) -> set[Tile]:
    """The kinds that fit an open place on the table now."""
    found: set[Tile] = set()
    for colour, low, high, low_open, high_open in table[0]:
        if low_open and low > 1:
            found.add(run_tile(colour, low - 1))
        if high_open and high < HIGH_ONE:
            found.add(run_tile(colour, high + 1))
    for number, colours, size in table[1]:
        if size < 4:
            found |= {Tile(c, number) for c in COLOURS if c not in colours}
    return found


_ALL_KINDS = sorted(set(TILES), key=lambda t: (t.colour or "", t.number))
_IDS_OF = {kind: [i for i, t in enumerate(TILES) if t == kind] for kind in _ALL_KINDS}
