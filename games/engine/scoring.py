"""Round and match scoring (docs/rules.md "Scoring", "Matches and modes").

>>> score_won_round([0, 7, 32], winner=0)
[39, -7, -32]
>>> score_blocked_round(values=[10, 4, 9], counts=[3, 2, 2])
([1], [-6, 11, -5])
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Literal

from .errors import InvalidInput
from .tiles import Tile


def rack_value(tiles: Sequence[Tile]) -> int:
    """The sum of numbers on a rack, each joker 30."""
    return sum(tile.rack_value for tile in tiles)


def score_won_round(values: Sequence[int], winner: int) -> list[int]:
    """The winner scores the sum of the others' rack values; each other scores minus their own."""
    scores = [-value for value in values]
    scores[winner] = sum(v for seat, v in enumerate(values) if seat != winner)
    return scores


def score_blocked_round(
    values: Sequence[int], counts: Sequence[int], eligible: Sequence[int] | None = None
) -> tuple[list[int], list[int]]:
    """Winners and scores of a blocked round.

    The lowest rack value wins; ties go to fewer tiles; a remaining tie is a shared win. Each
    loser scores minus (own value - winners' value); the winners share the sum of those
    differences equally, rounded down, so the round stays as close to zero-sum as whole
    numbers allow. ``eligible`` seats (default all) are the ones who can win; a resigned seat
    never gains, even with a lower rack.
    """
    seats = list(eligible) if eligible is not None else list(range(len(values)))
    best = min((values[s], counts[s]) for s in seats)
    winners = [s for s in seats if (values[s], counts[s]) == best]
    scores = [-max(0, value - best[0]) for value in values]
    share = sum(-s for seat, s in enumerate(scores) if seat not in winners) // len(winners)
    for seat in winners:
        scores[seat] = share
    return winners, scores


@dataclass(frozen=True, slots=True)
class MatchFormat:
    """How a match is decided.

    ``single``: one round. ``target``: rounds until someone's total reaches ``target``
    (Parlor League, default 200). ``rounds``: a fixed number of rounds (Rummy Rush: 3).
    In the last two the highest total wins; equal highest totals share the win.
    """

    kind: Literal["single", "target", "rounds"] = "single"
    target: int = 200
    rounds: int = 3

    def is_over(self, rounds_played: int, totals: Sequence[int]) -> bool:
        if self.kind == "single":
            return rounds_played >= 1
        if self.kind == "rounds":
            return rounds_played >= self.rounds
        return max(totals) >= self.target

    def to_dict(self) -> dict[str, object]:
        return {"kind": self.kind, "target": self.target, "rounds": self.rounds}

    @classmethod
    def from_dict(cls, data: object) -> MatchFormat:
        if not isinstance(data, dict) or data.get("kind") not in ("single", "target", "rounds"):
            raise InvalidInput("match must be an object with kind single, target or rounds")
        target, rounds = data.get("target", 200), data.get("rounds", 3)
        if not isinstance(target, int) or not isinstance(rounds, int) or target < 1 or rounds < 1:
            raise InvalidInput("match target and rounds must be positive integers")
        return cls(data["kind"], target, rounds)


def match_winners(totals: Sequence[int], eligible: Sequence[int]) -> list[int]:
    best = max(totals[s] for s in eligible)
    return [s for s in eligible if totals[s] == best]
