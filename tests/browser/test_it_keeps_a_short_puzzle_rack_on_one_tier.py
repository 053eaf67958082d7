"""A puzzle's short rack stays on one tier of the board's rack (issue 28: a two-tile rack was
split, one tile a row), after either sort too; and its caption names the technique in words,
never tiles of the puzzle (l03-001: table K3 B3 R3 Y3 · ..., rack K2 K4)."""

from __future__ import annotations

import re
from typing import Any

import pytest

from .conftest import PHONE, call, shoot

pytestmark = pytest.mark.browser


def tiers(page: Any) -> list[int]:
    return [page.locator(f'.rm-tier[data-tier="{t}"] .tile').count() for t in (0, 1)]


def test_a_two_tile_rack_is_one_row_with_a_wordy_caption(new_page: Any, site: str) -> None:
    call(f"{site}/__test__/puzzles")
    page = new_page(PHONE, touch=True)
    page.goto(f"{site}/puzzles/l03-001/")
    page.wait_for_selector("#rummi[data-ready]")

    assert tiers(page) == [2, 0]
    lesson = page.locator(".pz-lesson").inner_text()
    assert "group of four" in lesson and not re.search(r"\b[KBRY]\d{1,2}\b", lesson)
    shoot(page, "puzzle-two-tile-rack-390x844.png")
    for key in ("2", "1"):  # sort by number, then by colour (the board's keys)
        page.keyboard.press(key)
        assert tiers(page) == [2, 0], key
