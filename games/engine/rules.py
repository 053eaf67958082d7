"""Rule sets: which tiles, what opening threshold, what timeout penalty (docs/rules.md tables).

>>> RULES["rush"].opening, RULES["rush"].tile_set.size
(21, 73)
>>> lan = rules_named("classic").with_penalty(1)
>>> lan.penalty
1
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from .errors import InvalidInput
from .tiles import CLASSIC, LARGE, RUSH, TileSet

HAND_SIZE = 14


@dataclass(frozen=True, slots=True)
class Rules:
    """What a round is played with: tile set, initial meld threshold, timeout penalty."""

    name: str
    tile_set: TileSet
    opening: int
    penalty: int
    hand: int = HAND_SIZE

    @property
    def max_number(self) -> int:
        return self.tile_set.numbers

    def with_penalty(self, penalty: int) -> Rules:
        return replace(self, penalty=penalty)

    def with_opening(self, opening: int) -> Rules:
        return replace(self, opening=opening)

    def to_dict(self) -> dict[str, object]:
        return {
            "name": self.name,
            "opening": self.opening,
            "penalty": self.penalty,
            "hand": self.hand,
        }

    @classmethod
    def from_dict(cls, data: object) -> Rules:
        if isinstance(data, str):
            return rules_named(data)
        if not isinstance(data, dict):
            raise InvalidInput("rules must be a name or an object with a name")
        base = rules_named(data.get("name", ""))
        try:
            return replace(
                base,
                opening=int(data.get("opening", base.opening)),
                penalty=int(data.get("penalty", base.penalty)),
                hand=int(data.get("hand", base.hand)),
            )
        except (TypeError, ValueError) as exc:
            raise InvalidInput(f"rules: {exc}") from None


RULES: dict[str, Rules] = {
    "classic": Rules("classic", CLASSIC, opening=30, penalty=3),
    "large": Rules("large", LARGE, opening=30, penalty=3),
    "rush": Rules("rush", RUSH, opening=21, penalty=3),
}


def rules_named(name: object) -> Rules:
    """The rules called ``name`` (``classic``, ``large``, ``rush``); raise :class:`InvalidInput`."""
    if isinstance(name, str) and name in RULES:
        return RULES[name]
    raise InvalidInput(f"unknown rules {name!r}: expected one of {', '.join(RULES)}")
