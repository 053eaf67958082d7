"""The puzzle editor solves no daily puzzle whose leaderboard is still open (README.md
"Puzzles": no hint or solution of the daily is seen outside the daily try).

The QA defect: a guest copied the daily's table and rack from /puzzles/daily/ into the editor
and got the full solution; an account then submitted it and topped the leaderboard in 0.0 s."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

import pytest
from django.test import Client

from puzzles import daily as dailies
from puzzles.daily import pick_daily
from puzzles.models import DailyPuzzle, Puzzle

from .conftest import post

pytestmark = pytest.mark.django_db
EDITOR = "/puzzles/api/editor"
REFUSED = {
    "error": "daily_position",
    "message": "That is the daily puzzle's position, whose leaderboard is still open: the "
    "editor does not solve it. Play it on the daily page.",
}


@pytest.fixture
def daily(shipped: list[Puzzle]) -> Puzzle:
    return pick_daily(dailies.today()).puzzle


def copied(puzzle: Puzzle) -> dict[str, Any]:
    """The daily's position as a player copies it: the melds, a group's tiles and the rack in
    another order (a run's order is the rules'), codes in lower case."""
    table = [[code.lower() for code in in_another_order(meld)] for meld in reversed(puzzle.table)]
    return {"table": table, "rack": list(reversed(puzzle.rack))}


def in_another_order(meld: list[str]) -> list[str]:
    numbers = {code[1:] for code in meld if code != "J"}
    return list(reversed(meld)) if len(numbers) == 1 else meld


@pytest.mark.parametrize("save", [False, True])
def test_the_editor_refuses_todays_daily_however_it_is_copied(daily: Puzzle, save: bool) -> None:
    answer = post(Client(), EDITOR, {**copied(daily), "save": save})
    assert answer.status_code == 403 and answer.json() == REFUSED
    assert not Puzzle.objects.filter(source="user").exists()


def test_the_editor_refuses_the_dailys_table_with_a_rack_changed(daily: Puzzle) -> None:
    position = copied(daily)
    fewer, more = position["rack"][1:] or position["rack"], [*position["rack"], *spare(daily)]
    for rack in (fewer, more):
        answer = post(Client(), EDITOR, {"table": position["table"], "rack": rack})
        assert answer.status_code == 403 and answer.json() == REFUSED


def unrelated_run(puzzle: Puzzle, length: int = 3) -> list[str]:
    """``length`` tiles in a row of one colour that the daily's position leaves a copy of
    (whatever the day's puzzle: a joker more is not always there to add)."""
    used = Counter(code.upper() for meld in puzzle.table for code in meld)
    used.update(code.upper() for code in puzzle.rack)
    for colour in "KBRY":
        for start in range(1, 15 - length):
            run = [f"{colour}{n}" for n in range(start, start + length)]
            if all(used[code] < 2 for code in run):
                return run
    raise AssertionError("no run left")


def spare(puzzle: Puzzle) -> list[str]:
    """One tile the daily's position leaves a copy of."""
    return unrelated_run(puzzle, 1)


def test_the_editor_refuses_the_daily_inside_a_larger_position(daily: Puzzle) -> None:
    """Found on 2026-12-08: the daily's table with one unrelated meld more was solved, and the
    solution, the daily's, submitted on the daily page topped its leaderboard."""
    position = copied(daily)
    larger = [*position["table"], unrelated_run(daily)]
    for body in (
        {"table": larger, "rack": position["rack"]},
        {"table": larger, "rack": position["rack"], "save": True},
        {"table": larger, "rack": [*position["rack"], *spare(daily)]},
    ):
        answer = post(Client(), EDITOR, body)
        assert answer.status_code == 403 and answer.json() == REFUSED, body
    assert not Puzzle.objects.filter(source="user").exists()


def test_the_editor_form_refuses_todays_daily(daily: Puzzle) -> None:
    form = {
        "table": "\n".join(" ".join(meld) for meld in daily.table),
        "rack": " ".join(daily.rack),
        "action": "check",
    }
    page = Client().post("/puzzles/editor/", form)
    assert "the editor does not solve it" in page.content.decode()
    assert page.status_code == 403


def test_yesterdays_daily_is_refused_while_its_leaderboard_is_open(shipped: list[Puzzle]) -> None:
    yesterday = pick_daily(dailies.today() - dt.timedelta(days=1)).puzzle
    assert post(Client(), EDITOR, copied(yesterday)).status_code == 403


def test_an_older_daily_is_solved_as_any_position(shipped: list[Puzzle]) -> None:
    old = pick_daily(dailies.today() - dt.timedelta(days=2)).puzzle
    assert DailyPuzzle.objects.count() == 1
    answer = post(Client(), EDITOR, copied(old))
    assert answer.status_code == 200 and answer.json()["solution"]
