"""Domain errors: what a service refuses, as a stable code and a sentence (docs/design.md
"Errors").

Every app's services raise these; none knows about HTTP. The edge maps each kind to a status
once, in rummi_site/jsonapi.py, and the socket sends the same body in its answer frame.

>>> error = Conflict("stale", "The game moved on.", seq=7)
>>> (error.code, error.message, error.body)
('stale', 'The game moved on.', {'error': 'stale', 'message': 'The game moved on.', 'seq': 7})

A refusal of a JSON value of the wrong type says how it came (:func:`sent_as`):

>>> [sent_as(v) for v in ("2", 2.0, True, None, ["Gus"], {})]
['text ("2")', 'a number with a decimal point (2.0)', 'true', 'null', 'a list', 'an object']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any


class DomainError(Exception):
    """A refused request: a stable ``code``, a sentence for people, and any extra fields."""

    def __init__(self, code: str, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    @property
    def body(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message, **self.extra}


class Invalid(DomainError):
    """The request itself is malformed: a missing field, a value out of range."""


class Forbidden(DomainError):
    """The asker may not do this (not seated, not signed in, not allowed in this game)."""


class NotFound(DomainError):
    """What the request names does not exist."""


class Conflict(DomainError):
    """The request no longer fits what is stored (the game moved on, already done)."""


class Illegal(DomainError):
    """Well-formed, but against the rules of the game or puzzle."""


class Unavailable(DomainError):
    """Cannot be answered now (nothing to pick from yet); trying later may work."""


def refuse_other_fields(
    body: Mapping[str, object], fields: Sequence[str], code: str, of: str
) -> None:
    """Refuse a JSON body that holds a field other than ``fields`` (a misspelt one would
    otherwise be ignored in silence), naming it (cut to 24 characters) and what ``of`` takes.

    >>> refuse_other_fields({"name": "Ann"}, ("name",), "bad_options", "joining")
    >>> refuse_other_fields({"nmae": "Ann"}, ("name",), "bad_options", "joining")
    Traceback (most recent call last):
    games.errors.Invalid: nmae is not a field of joining; the only one is name.
    >>> refuse_other_fields({"x" * 30: 1}, ("rack", "save"), "bad_field", "it")
    Traceback (most recent call last):
    games.errors.Invalid: xxxxxxxxxxxxxxxxxxxxxxxx... is not a field of it; they are rack, save.
    >>> refuse_other_fields({"slug": "a"}, (), "bad_field", "a hint")
    Traceback (most recent call last):
    games.errors.Invalid: slug is not a field of a hint; it takes none.
    """
    for key in body:
        if key not in fields:
            shown = key if len(key) <= 24 else key[:24] + "..."
            if not fields:
                them = "it takes none"
            elif len(fields) == 1:
                them = f"the only one is {fields[0]}"
            else:
                them = f"they are {', '.join(fields)}"
            raise Invalid(code, f"{shown} is not a field of {of}; {them}.")


def sent_as(value: object) -> str:
    """How a JSON value came, in words, for the sentence that refuses it for its type."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "null"
    if isinstance(value, str):
        shown = value if len(value) <= 20 else value[:20] + "..."
        return f'text ("{shown}")'
    if isinstance(value, float):
        return f"a number with a decimal point ({value})"
    if isinstance(value, int):
        return f"the number {value}"
    if isinstance(value, list):
        return "a list"
    return "an object"
