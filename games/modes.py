"""Game modes (docs/rules.md "Matches and modes") as the pages and forms see them: every mode
of every registered family (games.engine.families), its guide and its seat counts. What a new
game of a mode is played with is its family's ``setup``."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.engine.errors import InvalidInput
from games.engine.families import family_of_mode, modes
from games.engine.family import BOT_STRENGTHS, CORRESPONDENCE_DAYS, LIVE_CLOCKS, ModeInfo, Setup
from games.engine.rummikub import PLAYERS, TARGET_SCORES, TILE_SETS

__all__ = [
    "BOT_STRENGTHS",
    "CORRESPONDENCE_DAYS",
    "GUIDES",
    "LIVE_CLOCKS",
    "PLAYERS",
    "TARGET_SCORES",
    "TILE_SETS",
    "guides",
    "mode_info",
    "players_allowed",
    "setup_from",
]


def mode_info(mode: str) -> ModeInfo:
    """The mode's description; InvalidInput for a mode no family plays."""
    return family_of_mode(mode).modes[mode]


def players_allowed(mode: str) -> tuple[int, ...]:
    """How many may sit at a game of ``mode``, as its family's setup checks."""
    return mode_info(mode).players


def setup_from(options: Mapping[str, Any]) -> Setup:
    """Validate the options of a new game through its mode's family (InvalidInput if not)."""
    mode = options.get("mode", "parlor")
    return family_of_mode(mode).setup(str(mode), options)


class _Guides(Mapping[str, ModeInfo]):
    """Every registered mode's guide, read from the registry each time (a family a test
    registers appears too)."""

    def __getitem__(self, mode: str) -> ModeInfo:
        try:
            return mode_info(mode)
        except InvalidInput:
            raise KeyError(mode) from None

    def __iter__(self) -> Any:
        return iter(modes())

    def __len__(self) -> int:
        return len(modes())


GUIDES: Mapping[str, ModeInfo] = _Guides()


def players_in_words(players: tuple[int, ...]) -> str:
    """``(2, 3, 4)`` as "2-4 players", ``(2,)`` as "2 players"."""
    if len(players) == 1:
        return f"{players[0]} players"
    return f"{players[0]}-{players[-1]} players"


def what_is_fixed(info: ModeInfo) -> str:
    """The mode's fixed settings and its player count, the count once: a mode whose fixed
    sentence already gives it ("A 30-second clock, the classic set, 2-4 players.") is not told
    it again.

    >>> what_is_fixed(mode_info("blitz"))
    'A 30-second clock, the classic set, 2-4 players.'
    >>> what_is_fixed(mode_info("sandbox"))
    'No clock and one round; no target score. 2-6 players.'
    """
    words = players_in_words(info.players)
    return info.fixed if words in info.fixed else f"{info.fixed} {words}."


def guides() -> list[dict[str, Any]]:
    """Every mode's guide with its label and seat counts, for the pages (JSON-ready)."""
    return [
        {
            "mode": name,
            "label": info.label,
            "summary": info.summary,
            "options": list(info.options),
            "fixed": info.fixed,
            "fixed_and_players": what_is_fixed(info),
            "players": list(info.players),
        }
        for name, info in modes().items()
    ]
