"""Errors raised by the engine, split by cause.

Both are ``ValueError`` so callers that only care "was this input acceptable" can catch one type.
"""

from __future__ import annotations


class InvalidInput(ValueError):
    """The request is malformed: unknown tile code or id, bad JSON shape, wrong seat.

    ``code`` names the malformation for programs when the caller knows it better than
    ``bad_action`` (a play's table: ``bad_table``).
    """

    def __init__(self, message: str, code: str = "bad_action") -> None:
        super().__init__(message)
        self.code = code


class IllegalMove(ValueError):
    """The request is well formed but breaks a rule.

    ``code`` is stable and meant for programs (the UI, the API); ``str(error)`` is a sentence
    meant for a player.
    """

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class SolverBusy(RuntimeError):
    """Another solve held the solver for longer than the caller would wait: try again."""
