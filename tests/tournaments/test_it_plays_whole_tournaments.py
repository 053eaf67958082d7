"""Whole tournaments of bots, through ``manage.py simulatetournament`` and the real services:
every format to its end, with the JSON contract of docs/tournaments.md."""

from __future__ import annotations

import io
import json
from collections import Counter
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.models import Game

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]


def simulate(**options: Any) -> dict[str, Any]:
    out = io.StringIO()
    call_command("simulatetournament", "--json", stdout=out, **options)
    return json.loads(out.getvalue())


def standings_add_up(result: dict[str, Any]) -> None:
    """Standings' points are the sum of the table points each player earned, plus byes."""
    earned: Counter[str] = Counter()
    for rnd in result["rounds"]:
        for table in rnd["tables"]:
            for name, points in zip(table["players"], table["points"], strict=True):
                earned[name] += points
        for name in rnd["byes"]:
            earned[name] += rnd["bye_points"]
    for row in result["standings"]:
        assert row["points"] == pytest.approx(earned[row["player"]]), row
    ranks = [row["rank"] for row in result["standings"]]
    assert ranks == sorted(ranks) and ranks[0] == 1
    points = [row["points"] for row in result["standings"]]
    assert points == sorted(points, reverse=True)


def test_a_13_player_swiss_at_tables_of_4_plays_4_rounds() -> None:
    result = simulate(format="swiss", players=13, table_size=4, rounds=4, seed="13")

    assert result["format"] == "swiss"
    assert [r["round"] for r in result["rounds"]] == [1, 2, 3, 4]
    names = {row["player"] for row in result["standings"]}
    assert len(names) == 13
    for rnd in result["rounds"]:
        seated = [n for table in rnd["tables"] for n in table["players"]] + rnd["byes"]
        assert sorted(seated) == sorted(names), "everyone plays or has a bye, once"
        assert all(len(table["players"]) in (3, 4) for table in rnd["tables"])
        for table in rnd["tables"]:
            assert len(table["commitment"]) == 64
            assert Game.objects.get(public_id=table["game"]).status == "finished"
    standings_add_up(result)
    assert set(result["standings"][0]["tiebreaks"]) == {"score", "buchholz", "sonneborn_berger"}


def test_an_arena_seats_players_again_until_its_time_is_up() -> None:
    result = simulate(format="arena", players=8, table_size=4, rounds=2, seed="6")

    (rnd,) = result["rounds"]
    assert len(rnd["tables"]) >= 4, "players were seated again as their games ended"
    seated = [
        sum(n in t["players"] for t in rnd["tables"])
        for n in {row["player"] for row in result["standings"]}
    ]
    assert min(seated) >= 1 and max(seated) >= 2, "everyone played, and some sat again"
    standings_add_up(result)


def test_a_duplicate_round_deals_every_table_the_same_tiles() -> None:
    result = simulate(format="duplicate", players=8, table_size=4, rounds=2, seed="4")

    for rnd in result["rounds"]:
        games = [Game.objects.get(public_id=t["game"]) for t in rnd["tables"]]
        assert len({g.commitment for g in games}) == 1, "one committed deal for the round"
        assert len({g.seed for g in games}) == 1
        assert not any(g.sealed for g in games), "the seed is shown once the round is over"
        dealt = [g.events.filter(kind="RoundStarted").order_by("seq")[0].payload for g in games]
        assert all(d["racks"] == dealt[0]["racks"] for d in dealt), "seat k: the same rack"
        assert all(d["pool"] == dealt[0]["pool"] for d in dealt), "the pool in the same order"
    standings_add_up(result)


def test_bad_options_exit_with_one_line() -> None:
    with pytest.raises(CommandError, match="table size"):
        simulate(format="swiss", players=3, table_size=4, rounds=2)
    with pytest.raises(CommandError, match="rounds"):
        simulate(format="swiss", players=8, table_size=2, rounds=0)
