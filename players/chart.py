"""A rating history as an inline SVG polyline, drawn on the server (no script)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.utils.html import format_html

WIDTH, HEIGHT, PAD = 320, 90, 6


def history_svg(points: Sequence[tuple[Any, int]], label: str) -> str:
    """An SVG of the shown rating after each game, oldest first; empty with no games."""
    if not points:
        return ""
    values = [v for _, v in points]
    low, high = min(values), max(values)
    span = max(high - low, 1)
    step = (WIDTH - 2 * PAD) / max(len(values) - 1, 1)
    coords = " ".join(
        f"{PAD + n * step:.1f},{HEIGHT - PAD - (v - low) * (HEIGHT - 2 * PAD) / span:.1f}"
        for n, v in enumerate(values)
    )
    return format_html(
        '<svg class="rating-chart" viewBox="0 0 {} {}" role="img" aria-label="{}">'
        "<title>{}</title>"
        '<polyline fill="none" stroke="currentColor" stroke-width="2" points="{}"/></svg>',
        WIDTH,
        HEIGHT,
        f"{label}: from {values[0]} to {values[-1]} over {len(values)} games",
        f"{label}: {low} to {high}",
        coords,
    )
