"""Game modes (docs/rules.md "Matches and modes"): what a new game of each mode is played with."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.engine.errors import InvalidInput
from games.engine.rules import Rules, rules_named
from games.engine.scoring import MatchFormat

from .models import Mode

LIVE_CLOCKS = (30, 60, 120)
CORRESPONDENCE_DAYS = (1, 3, 7)
BOT_STRENGTHS = ("beginner", "casual", "strong", "master")
PLAYERS = (2, 3, 4, 5, 6)
TARGET_SCORES = (50, 100, 150, 200, 300, 500)
TILE_SETS = ("classic", "large", "rush")


def players_allowed(mode: str) -> tuple[int, ...]:
    """How many may sit at a game of ``mode``: Rummy Rush is for two, Blitz uses the classic
    set (2-4), the other modes take 2-6 (the large set from 5). As :func:`setup_from` checks."""
    if mode == Mode.RUSH:
        return (2,)
    if mode in (Mode.BLITZ, Mode.R45):
        return PLAYERS[:3]
    return PLAYERS


@dataclass(frozen=True)
class Setup:
    """A validated request for a new game."""

    mode: str
    players: int
    rules: Rules
    match: MatchFormat
    clock_seconds: int | None
    correspondence_days: int | None


def _choice(options: dict[str, Any], name: str, allowed: tuple[Any, ...], default: Any) -> Any:
    value = options.get(name, default)
    if value in (None, "") and None in allowed:
        return None
    try:
        value = type(default)(value) if default is not None else int(value)
    except (TypeError, ValueError):
        raise InvalidInput(f"{name} must be one of {', '.join(map(str, allowed))}") from None
    if value not in allowed:
        raise InvalidInput(f"{name} must be one of {', '.join(str(a) for a in allowed if a)}")
    return value


def setup_from(options: dict[str, Any]) -> Setup:
    """Validate the options of a new game and fill in each mode's defaults.

    ``options``: mode, players (2-6), clock (30/60/120 s), days (1/3/7, correspondence
    instead of a live clock), target (Parlor League score, default 200), rounds ("one" for a
    single round in Blitz), tiles ("classic"/"large" for Sandbox), opening (Sandbox).
    """
    mode = options.get("mode", Mode.PARLOR)
    if mode not in Mode.values:
        raise InvalidInput(f"mode must be one of {', '.join(Mode.values)}")
    players = _choice(options, "players", PLAYERS, 2)
    days = _choice(options, "days", (None, *CORRESPONDENCE_DAYS), None)
    large = players >= 5
    clock: int | None
    if mode == Mode.RUSH:
        if players != 2:
            raise InvalidInput("Rummy Rush is a game for 2 players")
        rules, match, clock = rules_named("rush"), MatchFormat("rounds", rounds=3), 60
    elif mode == Mode.BLITZ:
        if large:
            raise InvalidInput("Blitz is played with the classic set, 2-4 players")
        single = options.get("rounds") == "one"
        target = _target(options)
        match = MatchFormat("single") if single else MatchFormat("target", target=target)
        rules, clock = rules_named("classic"), 30
    elif mode == Mode.R45:
        # Rummy 45 (docs/rules-45.md): the classic 106 tiles, 2-4 players, one game; the
        # rules and match stored are the classic ones, which its engine does not read.
        if players > 4:
            raise InvalidInput("Rummy 45 is a game for 2-4 players")
        rules, match = rules_named("classic"), MatchFormat("single")
        clock = _choice(options, "clock", LIVE_CLOCKS, 60)
    elif mode == Mode.LAN:
        rules = rules_named("large" if large else "classic").with_penalty(1)
        match = MatchFormat("single")
        clock = _choice(options, "clock", (None, *LIVE_CLOCKS), None)
    elif mode == Mode.SANDBOX:
        tiles = options.get("tiles") or ("large" if large else "classic")
        if tiles not in TILE_SETS:
            raise InvalidInput("tiles must be classic, large or rush")
        rules = rules_named(tiles)
        opening = _choice(options, "opening", tuple(range(0, 61)), rules.opening)
        rules, match, clock = rules.with_opening(opening), MatchFormat("single"), None
    else:
        rules = rules_named("large" if large else "classic")
        match = MatchFormat("target", target=_target(options))
        clock = _choice(options, "clock", LIVE_CLOCKS, 60)
    if days is not None and mode == Mode.SANDBOX:
        raise InvalidInput("Sandbox games have no clock")
    if days is not None:
        clock = None
    return Setup(mode, players, rules, match, clock, days)


def _target(options: dict[str, Any]) -> int:
    return int(_choice(options, "target", TARGET_SCORES, 200))


@dataclass(frozen=True)
class ModeGuide:
    """What the new-game form and the "How to play" page say of a mode: a one-line summary,
    the form's options it uses (the others it fixes or ignores) and what it fixes, in words.
    As :func:`setup_from` plays it (docs/rules.md, "Modes")."""

    summary: str
    options: tuple[str, ...]
    fixed: str


GUIDES: dict[str, ModeGuide] = {
    Mode.PARLOR: ModeGuide(
        "The classic match: play rounds until someone's total reaches the target score.",
        ("players", "clock", "days", "target"),
        "Opening 30 points, 3-tile penalty on a timeout; the large set for 5-6 players.",
    ),
    Mode.BLITZ: ModeGuide(
        "Fast turns: 30 seconds each, to a target score or for one round.",
        ("players", "days", "target", "rounds"),
        "A 30-second clock, the classic set, 2-4 players.",
    ),
    Mode.SANDBOX: ModeGuide(
        "Practice without pressure: no clock, one round, hints allowed, any tile set.",
        ("players", "tiles"),
        "No clock and one round; no target score.",
    ),
    Mode.RUSH: ModeGuide(
        "A quick duel with the small 1-9 set: three rounds, the highest total wins.",
        ("days",),
        "2 players, the rush set (opening 21), a 60-second clock, 3 rounds.",
    ),
    Mode.LAN: ModeGuide(
        "House rules of the table at home: one round, a 1-tile penalty, no clock unless set.",
        ("players", "clock", "days"),
        "One round and a 1-tile penalty on a timeout; no target score.",
    ),
    Mode.R45: ModeGuide(
        "Romanian Rummy 45: draw and discard, display 45 points, stitch, or play on the board.",
        ("players", "clock", "days"),
        "The classic 106 tiles, 2-4 players, one game; a timeout draws and discards.",
    ),
}


def guides() -> list[dict[str, Any]]:
    """Every mode's guide with its label and seat counts, for the pages (JSON-ready)."""
    return [
        {
            "mode": mode,
            "label": Mode(mode).label,
            "summary": guide.summary,
            "options": list(guide.options),
            "fixed": guide.fixed,
            "players": list(players_allowed(mode)),
        }
        for mode, guide in GUIDES.items()
    ]
