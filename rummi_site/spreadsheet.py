"""CSV files a spreadsheet opens safely (docs/fair-play.md "Exports").

A spreadsheet runs a cell that begins with ``=``, ``+``, ``-`` or ``@`` as a formula (and one
that begins with a tab or a carriage return can hide one), so a player named ``-2+3`` or
``=HYPERLINK(...)`` would be evaluated by whoever opens the standings. OWASP's rule for CSV
injection: such a text cell gets a single quote in front, which the spreadsheet shows as text.
Numbers stay numbers (``-3`` points is a number, not a formula).

defusedcsv does the same for ``=``, ``+``, ``-``, ``@``, ``|`` and ``%`` but not for a tab or a
carriage return, and it rewrites ``|`` inside cells, so the rule is kept here, whole.

>>> [cell(v) for v in ["-2+3", "=1+1", "@SUM(A1)", "\\tx", "Ann", -3, 1.5, ""]]
["'-2+3", "'=1+1", "'@SUM(A1)", "'\\tx", 'Ann', -3, 1.5, '']
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def cell(value: Any) -> Any:
    """``value`` as a CSV cell no spreadsheet takes for a formula."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    text = "" if value is None else str(value)
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def write_csv(header: list[str], rows: Iterable[Iterable[Any]]) -> str:
    """The text of a CSV file: the header, then the rows, every cell through :func:`cell`."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow([cell(h) for h in header])
    writer.writerows([cell(v) for v in row] for row in rows)
    return out.getvalue()
