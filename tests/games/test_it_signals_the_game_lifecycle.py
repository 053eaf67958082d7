"""docs/design.md "Lifecycle signals" and "Results": signals on commit, result rows written
with the final event, an operator's end of a stuck game, and the backfill of old games."""

from __future__ import annotations

import importlib
from collections.abc import Iterator
from typing import Any

import pytest
from django.apps import apps as django_apps
from django.db import transaction

from games import services, signals
from games.engine.events import event_from_dict
from games.engine.state import state_from_record
from games.errors import Invalid, NotFound
from games.models import Game, GameResult, Status

from .conftest import key, viewer

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def heard() -> Iterator[list[tuple[str, dict[str, Any]]]]:
    """Every lifecycle signal sent, in order, with its arguments."""
    log: list[tuple[str, dict[str, Any]]] = []
    names = ["game_started", "turn_started", "round_ended", "game_finished"]
    receivers = {}
    for name in names:

        def receive(sender: Any, _name: str = name, **kwargs: Any) -> None:
            kwargs.pop("signal", None)
            log.append((_name, kwargs))

        receivers[name] = receive
        getattr(signals, name).connect(receive, weak=False)
    yield log
    for name in names:
        getattr(signals, name).disconnect(receivers[name])


def act(game: Game, user: Any, name: str) -> dict[str, Any]:
    game.refresh_from_db()
    return services.act(
        game.public_id, viewer(user), name, {"expected_seq": game.seq, "key": key()}
    )


def test_a_game_is_announced_from_start_to_finish_after_each_commit(
    alice: Any, bob: Any, heard: list[tuple[str, dict[str, Any]]]
) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    assert heard == []
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    game.refresh_from_db()

    assert [name for name, _ in heard] == ["game_started", "turn_started"]
    turn = heard[1][1]
    assert turn["gid"] == game.public_id and turn["turn_number"] == 0 and turn["bot"] is False
    mover = alice if turn["seat"] == 0 else bob
    other = bob if mover is alice else alice
    act(game, mover, "draw")
    assert heard[-1][0] == "turn_started" and heard[-1][1]["turn_number"] == 1

    act(game, other, "resign")

    names = [name for name, _ in heard]
    assert names[-2:] == ["round_ended", "game_finished"]
    ended = heard[-2][1]
    assert ended["reason"] == "resigned" and list(ended["winners"]) == [turn["seat"]]
    results = heard[-1][1]["results"]
    assert [(r.seat, r.place) for r in results] == sorted(
        [(turn["seat"], 1), (1 - turn["seat"], 2)]
    )


def test_nothing_is_announced_when_the_transaction_rolls_back(
    duel: Game, alice: Any, heard: list[tuple[str, dict[str, Any]]]
) -> None:
    with pytest.raises(RuntimeError), transaction.atomic():
        act(duel, alice, "resign")
        raise RuntimeError("the commit never happens")

    duel.refresh_from_db()
    assert heard == [] and duel.status == Status.PLAYING
    assert not GameResult.objects.filter(game=duel).exists()


def test_the_final_event_writes_one_result_row_per_seat(duel: Game, alice: Any, bob: Any) -> None:
    act(duel, bob, "resign")

    rows = list(GameResult.objects.filter(game=duel).order_by("seat"))
    assert [(r.seat, r.user, r.place, r.resigned) for r in rows] == [
        (0, alice, 1, False),
        (1, bob, 2, True),
    ]
    duel.refresh_from_db()
    assert [r.total for r in rows] == duel.state["totals"]
    assert all(r.finished == duel.finished for r in rows)
    assert [r.tiles_left for r in rows] == [len(rack) for rack in duel.state["racks"]]
    assert rows[0].details["rounds_won"] == 1 and rows[1].details["rounds_won"] == 0


def test_an_operator_ends_a_stuck_game_with_a_reason(duel: Game, alice: Any) -> None:
    assert services.end_game(duel.public_id, "  seat 1 left   for good ") is True

    duel.refresh_from_db()
    last = event_from_dict(duel.events.order_by("-seq").first().payload)
    assert duel.status == Status.FINISHED and last.kind == "GameEnded"
    assert last.note == "seat 1 left for good"
    assert GameResult.objects.filter(game=duel).count() == 2
    assert services.end_game(duel.public_id, "again") is False
    with pytest.raises(Invalid):
        services.end_game(duel.public_id, "   ")
    with pytest.raises(NotFound):
        services.end_game("no-such-game", "stuck")


def test_a_waiting_game_is_not_ended(alice: Any) -> None:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})

    assert services.end_game(game.public_id, "stuck") is False
    assert Game.objects.get(pk=game.pk).status == Status.WAITING


def test_the_migration_backfills_results_of_games_finished_before(
    duel: Game, alice: Any, bob: Any
) -> None:
    # Each draws first: the fair-play marks (an aborted game) came after that migration.
    for _ in range(2):
        duel.refresh_from_db()
        act(duel, {0: alice, 1: bob}[state_from_record(duel.state).turn], "draw")
    act(duel, alice, "resign")
    written = list(GameResult.objects.filter(game=duel).order_by("seat").values())
    GameResult.objects.all().delete()
    migration = importlib.import_module(
        "games.migrations.0006_backfill_results_and_notice_settings"
    )

    migration.backfill_results(django_apps, None)
    migration.backfill_results(django_apps, None)  # a second run adds nothing

    again = list(GameResult.objects.filter(game=duel).order_by("seat").values())
    strip = [{k: v for k, v in row.items() if k != "id"} for row in written]
    assert [{k: v for k, v in row.items() if k != "id"} for row in again] == strip
