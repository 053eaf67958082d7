"""A rating history for the profile's chart (static/players/rating-chart.js draws it with the
vendored Chart.js, static/vendor/chartjs/) and for its table, which screen readers and pages
without script read instead: a point per game, oldest first.

>>> from datetime import datetime, timezone
>>> when = datetime(2026, 3, 1, 12, tzinfo=timezone.utc)
>>> [(p["axis"], p["label"]) for p in history_points([(when, 1000, 1012)])]
[('12:00', '2026-03-01: 1012 (+12)')]
>>> later = datetime(2027, 1, 2, 9, tzinfo=timezone.utc)
>>> [p["axis"] for p in history_points([(when, 1000, 1012), (later, 1012, 1004)])]
['1 Mar 2026', '2 Jan 2027']
>>> summary("Live, 2 players", [1012])
'Live, 2 players: 1012 after 1 game'
>>> summary("Live, 2 players", [1012, 990, 1030])
'Live, 2 players: from 1012 to 1030 over 3 games, lowest 990, highest 1030'
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from .changes import signed


def axis_label(when: datetime, one_day: bool, years: bool) -> str:
    """A point's label on the time axis: the time when every game fell on one day (the axis
    title then gives the day), else the day, with the year when the games span years."""
    if one_day:
        return when.strftime("%H:%M")
    return f"{when.day} {when.strftime('%b %Y' if years else '%b')}"


def history_points(points: Sequence[tuple[datetime, int, int]]) -> list[dict[str, Any]]:
    """Each game's ``(finished, before, after)`` as the chart reads it: its label on the
    time axis, its day and time, the number after it and its change."""
    days = {when.date() for when, _, _ in points}
    years = len({day.year for day in days}) > 1
    rows = []
    for when, before, after in points:
        day = when.strftime("%Y-%m-%d")
        change = signed(after - before)
        rows.append(
            {
                "axis": axis_label(when, len(days) == 1, years),
                "date": day,
                "when": when.strftime("%Y-%m-%d %H:%M"),
                "value": after,
                "change": change,
                "label": f"{day}: {after} ({change})",
            }
        )
    return rows


def summary(label: str, values: Sequence[int]) -> str:
    """One sentence for the chart's accessible name."""
    if not values:
        return f"{label}: no rated games yet"
    if len(values) == 1:
        return f"{label}: {values[0]} after 1 game"
    return (
        f"{label}: from {values[0]} to {values[-1]} over {len(values)} games, "
        f"lowest {min(values)}, highest {max(values)}"
    )
