"""FIDE Dutch pairing for a Swiss at 2 a table, through py4swiss's Dutch engine
(docs/tournaments.md "Swiss, 2 per table"). ``tournaments.pairing.swiss`` calls it for fields
of up to ``DUTCH_LIMIT`` players and pairs larger ones itself.

py4swiss pairs from a tournament report (TRF) holding every round of every player. We hold
less (points, rating, opponents met, first seats in order, byes had), so this builds the
engine's own player records from those and runs the loop that its
``Engine.generate_pairings`` runs after reading a TRF. What our inputs do not say is left
neutral: no floats from earlier rounds, and nobody is a topscorer (the last round is not known
here). Moving first is the colour: white moves first.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from py4swiss.engines.common import (
    ColorPreference,
    ColorPreferenceSide,
    ColorPreferenceStrength,
    Float,
    PairingError,
)
from py4swiss.engines.dutch.bracket import BracketPairer, Brackets
from py4swiss.engines.dutch.engine import Engine
from py4swiss.engines.dutch.player import Player
from py4swiss.engines.dutch.validity_matcher import ValidityMatcher

from . import Entrant, Round

log = logging.getLogger(__name__)

# The top seed moves first at table 1 in round 1, the next at table 2 moves second, and so on
# (TRF's "white1", py4swiss's default).
TOP_SEED_FIRST = True


def swiss_round(order: Sequence[Entrant], round_number: int, bye: int | None) -> Round | None:
    """The Dutch round for ``order`` (ranked best first), the bye, when the count is odd, to
    ``bye`` (the lowest-ranked player with the fewest byes). None when the Dutch rules allow no
    such round (every way would repeat a meeting, give the bye elsewhere, or seat two players
    who must both move first, or both second, at one table), when points are not whole
    tenths, or when the engine fails: the caller then pairs the round its own way."""
    if not order or any(abs(e.points * 10 - round(e.points * 10)) > 1e-9 for e in order):
        return None
    try:
        pairs = _pair(order, round_number, bye)
    except PairingError:
        return None
    except Exception:
        log.exception("py4swiss failed to pair round %s; pairing it our own way", round_number)
        return None
    paired = _round(order, pairs)
    if paired is None or paired.byes != ((bye,) if bye is not None else ()):
        log.warning("py4swiss paired round %s against its rules; ignored", round_number)
        return None
    return paired


def _preference(firsts: Sequence[bool]) -> tuple[ColorPreference, int, bool]:
    """The colour preference, the colour difference and whether the last two were the same
    (FIDE C.04.3 A.6), as py4swiss reads them from a TRF: first seat for white."""
    difference = 2 * sum(firsts) - len(firsts)
    double = len(firsts) > 1 and firsts[-1] == firsts[-2]
    if difference > 0:
        side = ColorPreferenceSide.BLACK
    elif difference < 0:
        side = ColorPreferenceSide.WHITE
    elif firsts:
        side = ColorPreferenceSide.BLACK if firsts[-1] else ColorPreferenceSide.WHITE
    else:
        side = ColorPreferenceSide.NONE
    if abs(difference) > 1 or double:
        strength = ColorPreferenceStrength.ABSOLUTE
    elif abs(difference) == 1:
        strength = ColorPreferenceStrength.STRONG
    elif firsts:
        strength = ColorPreferenceStrength.MILD
    else:
        strength = ColorPreferenceStrength.NONE
    return ColorPreference(side=side, strength=strength), difference, double


def _players(order: Sequence[Entrant], bye: int | None) -> list[Any]:
    """The engine's records, best first. Pairing numbers follow rating, as the standings do
    on equal points. Everyone but ``bye`` counts as having had a bye, so the Dutch rule C.2
    (no second bye) leaves the bye to ``bye`` alone."""
    by_rating = sorted(order, key=lambda e: (-e.rating, e.key))
    number = {e.key: n for n, e in enumerate(by_rating, start=1)}
    players = []
    for e in order:
        preference, difference, double = _preference(e.firsts)
        points = round(e.points * 10)
        players.append(
            Player(
                id=e.key,
                number=number[e.key],
                points=points,
                points_with_acceleration=points,
                color_preference=preference,
                color_difference=difference,
                color_double=double,
                float_1=Float.NONE,
                float_2=Float.NONE,
                opponents=set(e.met),
                colors=list(e.firsts),
                bye_received=e.key != bye,
                top_scorer=False,
            )
        )
    players.sort(reverse=True)
    return players


def _pair(order: Sequence[Entrant], round_number: int, bye: int | None) -> list[tuple[int, int]]:
    """(first, second) for each table, a bye as (key, key), in the engine's table order: the
    body of py4swiss's ``Engine.generate_pairings`` after it has read the TRF."""
    players = _players(order, bye)
    validity = ValidityMatcher(players, set())
    if not validity.is_valid_matching():
        raise PairingError("Round can not be paired")
    brackets = Brackets(players, round_number)
    pairs: list[Any] = []
    while not brackets.is_finished():
        pairer = BracketPairer(brackets.get_current_bracket(), validity, TOP_SEED_FIRST)
        bracket_pairs = Engine._get_bracket_pairs(pairer)
        if bracket_pairs is None:
            brackets.collapse()
        else:
            brackets.apply_bracket_pairings(bracket_pairs)
            pairs.extend(bracket_pairs)
    pairs.sort(key=Engine._get_player_pair_score, reverse=True)
    return [(int(white.id), int(black.id)) for white, black in pairs]


def _round(order: Sequence[Entrant], pairs: list[tuple[int, int]]) -> Round | None:
    """The pairs as a round, or None unless every player sits once and nobody meets a player
    met before."""
    by_key = {e.key: e for e in order}
    seated = [k for pair in pairs for k in set(pair)]
    if sorted(seated) != sorted(by_key):
        return None
    tables = tuple((a, b) for a, b in pairs if a != b)
    byes = tuple(a for a, b in pairs if a == b)
    if any(b in by_key[a].met for a, b in tables):
        return None
    return Round(tables, byes)
