"""Rummy 45 tournaments (docs/tournaments.md "Rummy 45"): tables of 2-4 are Rummy 45 games,
scored from their result rows; a duplicate round deals every table the same Rummy 45 deal;
tables have stand-ins but cannot be adjudicated or ended by a cancellation, so the tournament
is live only."""

from __future__ import annotations

from typing import Any

import pytest

from games.errors import Conflict, Invalid
from games.models import Game, GameResult, Mode, Status
from tournaments import services
from tournaments.models import Table, TableSeat

from .conftest import play
from .test_it_plays_whole_tournaments import simulate, standings_add_up

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_swiss_of_rummy45_duels_plays_to_its_end() -> None:
    result = simulate(format="swiss", players=5, table_size=2, rounds=2, mode="r45")

    assert [r["round"] for r in result["rounds"]] == [1, 2]
    names = {row["player"] for row in result["standings"]}
    for rnd in result["rounds"]:
        assert len(rnd["tables"]) == 2 and len(rnd["byes"]) == 1
        seated = [n for table in rnd["tables"] for n in table["players"]] + rnd["byes"]
        assert sorted(seated) == sorted(names)
        for table in rnd["tables"]:
            game = Game.objects.get(public_id=table["game"])
            assert game.mode == Mode.R45 and game.status == Status.FINISHED
            assert game.stand_in and len(table["commitment"]) == 64
            # The table's places and totals are its Rummy 45 result rows'.
            results = {r.seat: r for r in GameResult.objects.filter(game=game)}
            seats = TableSeat.objects.filter(table__game=game).order_by("seat")
            assert [(s.place, s.total) for s in seats] == [
                (results[s.seat].place, results[s.seat].total) for s in seats
            ]
            assert table["places"] == [results[k].place for k in sorted(results)]
    standings_add_up(result)
    assert sum(row["tiebreaks"]["score"] for row in result["standings"]) == sum(
        GameResult.objects.values_list("total", flat=True)
    )


def test_a_duplicate_round_of_rummy45_deals_every_table_alike() -> None:
    result = simulate(format="duplicate", players=4, table_size=2, rounds=1, mode="r45")

    (rnd,) = result["rounds"]
    games = [Game.objects.get(public_id=t["game"]) for t in rnd["tables"]]
    assert len(games) == 2 and {g.mode for g in games} == {Mode.R45}
    assert len({g.seed for g in games}) == 1 and len({g.commitment for g in games}) == 1
    assert not any(g.sealed for g in games), "the seed is shown once the round is over"
    dealt = [g.events.get(kind="Dealt").payload for g in games]
    assert dealt[0]["racks"] == dealt[1]["racks"], "seat k holds the same rack at every table"
    assert dealt[0]["stock"] == dealt[1]["stock"] and dealt[0]["trump"] == dealt[1]["trump"]
    standings_add_up(result)


def test_rummy45_tables_are_live_with_stand_ins_and_no_adjudication(
    make_tournament: Any, queue: Any
) -> None:
    by_post = make_tournament(mode="r45", clock_seconds=None, correspondence_days=3)
    with pytest.raises(Invalid, match="Rummy 45 tournaments are live"):
        services.check(by_post)

    t = make_tournament(bots=4, mode="r45", table_size=4, rounds=1)
    services.check(t)
    services.start(None, t.pk)
    (table,) = Table.objects.filter(round__tournament=t)
    assert table.game is not None and table.game.mode == Mode.R45 and table.game.players == 4
    assert table.game.stand_in  # games/services/bots.py play_stand_in_turn
    with pytest.raises(Conflict, match="cannot be adjudicated"):
        services.adjudicate(None, table, "stuck")
    assert not t.actions.filter(verb="adjudicated").exists()

    play(queue)

    t.refresh_from_db()
    assert t.state == "finished"
    places = sorted(TableSeat.objects.filter(table=table).values_list("place", flat=True))
    assert places[0] == 1 and len(places) == 4


def test_a_cancelled_rummy45_tournament_leaves_its_tables_to_play_out(
    make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(bots=2, mode="r45", rounds=2)
    services.start(None, t.pk)
    services.cancel(None, t, "snow")
    (table,) = Table.objects.filter(round__tournament=t)
    assert table.game is not None and table.game.status == Status.PLAYING

    play(queue)

    t.refresh_from_db()
    table.refresh_from_db()
    assert t.state == "cancelled" and table.done
    assert t.rounds_set.count() == 1, "nothing more is paired"
