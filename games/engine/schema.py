"""How a game family's events are written and read back, by schema version (docs/design.md,
"Event versions"). Shared by the Rummikub events (``games.engine.events``) and the Rummy 45 ones
(``games.engine.r45.events``): each family keeps its own version, types and upgrades, and calls
these with them.

An event is a frozen dataclass. Written, it is a JSON-ready dict of its fields with ``kind`` and
``v``; read, a dict of any older version is upgraded one step at a time, and a field it lacks
takes the dataclass default (or is refused if it has none):

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Said:
...     seat: int
...     words: tuple[str, ...] = ()
...     kind = "Said"  # not annotated: a class attribute, not a field
>>> as_dict(Said(1, ("hi",)), 2)
{'seat': 1, 'words': ['hi'], 'kind': 'Said', 'v': 2}
>>> types = {"Said": Said}
>>> read({"kind": "Said", "seat": 1}, 2, {1: dict}, types, field_table(types), "an event")
Said(seat=1, words=())
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, fields
from typing import Any

from .errors import InvalidInput

Upgrades = Mapping[int, Callable[[dict[str, Any]], dict[str, Any]]]
FieldTable = Mapping[type, tuple[tuple[str, bool], ...]]

# Each event class's field names, looked up once (as_dict runs for every event of every frame).
_NAMES: dict[type, tuple[str, ...]] = {}


def as_dict(event: Any, version: int) -> dict[str, Any]:
    """``event`` as a JSON-ready dict: tuples become lists, ``kind`` names it, ``v`` is
    ``version``. Not ``dataclasses.asdict``: its deep copy cost more than the rest of a move's
    events."""
    cls = type(event)
    names = _NAMES.get(cls)
    if names is None:
        names = _NAMES[cls] = tuple(f.name for f in fields(event))
    data: dict[str, Any] = {name: thawed(getattr(event, name)) for name in names}
    data["kind"] = event.kind
    data["v"] = version
    return data


def field_table(types: Mapping[str, type]) -> dict[type, tuple[tuple[str, bool], ...]]:
    """Each event class's fields as ``(name, has a default)``, for :func:`read`."""
    return {
        cls: tuple((f.name, f.default is not MISSING) for f in fields(cls))
        for cls in types.values()
    }


def thawed(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return [thawed(v) for v in value]
    if isinstance(value, dict):
        return {k: thawed(v) for k, v in value.items()}
    return value


def frozen(value: Any) -> Any:
    if isinstance(value, list | tuple):
        return tuple(frozen(v) for v in value)
    return value


def upgraded(data: dict[str, Any], version: int, upgrades: Upgrades) -> dict[str, Any]:
    """``data`` at ``version``, upgraded step by step from the version it was written with (a
    dict without ``v`` is version 1); raise :class:`InvalidInput` for a newer one."""
    written = data.get("v", 1)
    if not isinstance(written, int) or isinstance(written, bool) or written < 1:
        raise InvalidInput(f"event schema version {written!r} is not a positive integer")
    if written == version and "v" in data:
        return data
    if written > version:
        raise InvalidInput(f"event schema version {written} is newer than this engine's {version}")
    while written < version:
        data = upgrades[written](dict(data))
        written += 1
    return {**data, "v": written}


def read(
    data: object,
    version: int,
    upgrades: Upgrades,
    types: Mapping[str, type],
    table: FieldTable,
    what: str,
) -> Any:
    """Rebuild an event from its dict, of any schema version up to ``version``; raise
    :class:`InvalidInput` on a malformed one (``what`` names the family's events in the
    message)."""
    if not isinstance(data, dict) or data.get("kind") not in types:
        raise InvalidInput(f"not {what}: {str(data)[:80]}")
    data = upgraded(data, version, upgrades)
    cls = types[data["kind"]]
    values: dict[str, Any] = {}
    missing = []
    for name, has_default in table[cls]:
        if name in data:
            values[name] = frozen(data[name])
        elif not has_default:
            missing.append(name)
    if missing:
        raise InvalidInput(f"{data['kind']} event lacks {', '.join(missing)}")
    return cls(**values)
