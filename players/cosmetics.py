"""Felts and tile backs (cosmetic only: nothing here changes play), and the board settings
that follow the account (docs/design.md "Players").

Today's three felts and two backs are everyone's; each new one is unlocked by a trophy
(players/trophies.py). The server refuses a locked choice. The settings are the board's:
felt, tile back, colour-blind mode, the invalid-meld outline, sounds (mute) and rack sort.

>>> sorted(FELTS)[:4]
['blue', 'champion', 'emerald', 'green']
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from games.errors import Forbidden, Invalid

from .models import PlayerProfile, TrophyAward
from .trophies import TROPHIES


@dataclass(frozen=True)
class Cosmetic:
    key: str
    name: str
    trophy: str | None = None  # None: everyone's

    def how(self) -> str:
        if self.trophy is None:
            return ""
        trophy = TROPHIES[self.trophy]
        return f"Earn the trophy {trophy.name}: {trophy.description}"


FELTS = {
    c.key: c
    for c in (
        Cosmetic("green", "Parlor green"),
        Cosmetic("blue", "Midnight blue"),
        Cosmetic("wine", "Claret"),
        Cosmetic("slate", "Slate", "first_win"),
        Cosmetic("emerald", "Emerald baize", "games_10"),
        Cosmetic("sunset", "Sunset", "parlor_target"),
        Cosmetic("royal", "Royal purple", "beat_master"),
        Cosmetic("champion", "Champion's gold", "tournament_win"),
    )
}
BACKS = {
    c.key: c
    for c in (
        Cosmetic("lattice", "Brass lattice"),
        Cosmetic("mahogany", "Mahogany"),
        Cosmetic("jade", "Jade", "ten_tiles"),
        Cosmetic("gold", "Gold leaf", "wins_10"),
        Cosmetic("starry", "Starry joker", "joker_freed"),
        Cosmetic("checker", "Checkered", "rated_game"),
        Cosmetic("podium", "Podium bronze", "tournament_podium"),
    )
}
SORTS = ("colour", "number", "none")
DEFAULTS: dict[str, Any] = {
    "felt": "green",
    "back": "lattice",
    "cb": False,
    "outline": True,
    "mute": False,
    "sort": "colour",
}


def held_trophies(user_id: int) -> set[str]:
    return set(TrophyAward.objects.filter(user_id=user_id).values_list("key", flat=True))


def catalogue(user_id: int) -> dict[str, list[dict[str, Any]]]:
    """Every felt and back, whether it is locked for this player, and how to earn it."""
    held = held_trophies(user_id)

    def rows(items: dict[str, Cosmetic]) -> list[dict[str, Any]]:
        return [
            {
                "key": c.key,
                "name": c.name,
                "locked": c.trophy is not None and c.trophy not in held,
                "how": c.how(),
            }
            for c in items.values()
        ]

    return {"felts": rows(FELTS), "backs": rows(BACKS)}


def settings_of(profile: PlayerProfile) -> dict[str, Any]:
    return {**DEFAULTS, **{k: v for k, v in (profile.board or {}).items() if k in DEFAULTS}}


def clean(raw: object, user_id: int, drop_locked: bool = False) -> dict[str, Any]:
    """The valid settings of ``raw``; a locked felt or back is refused (or, adopting a guest's
    browser settings, dropped)."""
    if not isinstance(raw, dict):
        raise Invalid("bad_settings", "Settings are an object.")
    held = held_trophies(user_id)
    made: dict[str, Any] = {}
    for name, value in raw.items():
        if name not in DEFAULTS:
            raise Invalid("bad_settings", f"There is no setting {name!r}.")
        if name in ("felt", "back"):
            items = FELTS if name == "felt" else BACKS
            item = items.get(value) if isinstance(value, str) else None
            if item is None:
                raise Invalid("bad_settings", f"{name} must be one of {', '.join(items)}.")
            if item.trophy is not None and item.trophy not in held:
                if drop_locked:
                    continue
                raise Forbidden("locked", f"{item.name} is locked. {item.how()}")
        elif name == "sort":
            if value not in SORTS:
                raise Invalid("bad_settings", f"sort must be one of {', '.join(SORTS)}.")
        elif not isinstance(value, bool):
            raise Invalid("bad_settings", f"{name} is true or false.")
        made[name] = value
    return made


def drop_locked(user_ids: set[int]) -> int:
    """A felt or tile back in use that is locked again (its trophy taken back,
    docs/fair-play.md) goes back to everyone's; how many boards changed."""
    changed = 0
    for profile in PlayerProfile.objects.filter(user_id__in=user_ids):
        held = held_trophies(profile.user_id)
        board = dict(profile.board or {})
        for name, items in (("felt", FELTS), ("back", BACKS)):
            item = items.get(board.get(name, ""))
            if item is not None and item.trophy is not None and item.trophy not in held:
                board.pop(name)
        if board != (profile.board or {}):
            profile.board = board
            profile.save(update_fields=["board"])
            changed += 1
    return changed


def save(profile: PlayerProfile, raw: object, adopt: bool = False) -> dict[str, Any]:
    """Save settings on the account. ``adopt``: a guest's browser settings, sent on the first
    page signed in; they apply only if the account has saved none yet."""
    if adopt and profile.board:
        return settings_of(profile)
    changes = clean(raw, profile.user_id, drop_locked=adopt)
    profile.board = {**(profile.board or {}), **changes}
    profile.save(update_fields=["board"])
    return settings_of(profile)
