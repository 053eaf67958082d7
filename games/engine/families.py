"""The registry of game families (docs/design.md "Game families"): the site looks a family up
here by its name, or by the name of one of its modes, and never names a family itself.

>>> sorted(names())
['r45', 'rummikub']
>>> family_of_mode("rush").name, family_of_mode("r45").name
('rummikub', 'r45')
>>> family_of_mode("chess")
Traceback (most recent call last):
...
games.engine.errors.InvalidInput: mode must be one of parlor, blitz, sandbox, rush, lan, r45
"""

from __future__ import annotations

from .errors import InvalidInput
from .family import GameFamily, ModeInfo
from .r45.family import R45
from .rummikub import RUMMIKUB

_FAMILIES: dict[str, GameFamily] = {}


def register(family: GameFamily) -> GameFamily:
    """Add a family (the built-in ones at import; a test may add its own). A mode's name
    belongs to one family only."""
    taken = {mode for other in _FAMILIES.values() for mode in other.modes}
    clash = taken & set(family.modes) if family.name not in _FAMILIES else set()
    if clash:
        raise ValueError(f"modes {sorted(clash)} belong to another family already")
    _FAMILIES[family.name] = family
    return family


def unregister(name: str) -> None:
    """Remove a family a test registered."""
    _FAMILIES.pop(name, None)


def names() -> list[str]:
    return list(_FAMILIES)


def families() -> list[GameFamily]:
    return list(_FAMILIES.values())


def family_named(name: str) -> GameFamily:
    try:
        return _FAMILIES[name]
    except KeyError:
        raise InvalidInput(f"family must be one of {', '.join(_FAMILIES)}") from None


def modes() -> dict[str, ModeInfo]:
    """Every mode of every family, in registration order."""
    return {name: mode for family in _FAMILIES.values() for name, mode in family.modes.items()}


def family_of_mode(mode: object) -> GameFamily:
    for family in _FAMILIES.values():
        if isinstance(mode, str) and mode in family.modes:
            return family
    raise InvalidInput(f"mode must be one of {', '.join(modes())}")


def family_of_action(name: str) -> GameFamily | None:
    """The family whose moves come in under the URL action ``name``, if any."""
    return next((f for f in _FAMILIES.values() if name in f.action_fields), None)


register(RUMMIKUB)
register(R45)
