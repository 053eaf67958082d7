"""Result rows stored before ``details`` (docs/design.md "Results"): migration 0015 moves each
family's own counts out of the old columns into ``details`` (Rummikub's ten, Rummy 45's seven
without its constant rounds), keeps the common columns, and runs backwards to the same rows."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

BEFORE = ("games", "0015_fair_play")
AFTER = ("games", "0016_result_details")
COMMON = ("place", "total", "went_out", "tiles_left", "resigned", "turns", "average_turn_seconds")
RUMMIKUB_COUNTS = {
    "rounds_won": 2,
    "rounds_won_out": 1,
    "rounds_won_blocked": 1,
    "melds_laid": 9,
    "tiles_played": 23,
    "jokers_played": 1,
    "jokers_held": 2,
    "openings": 2,
    "opening_points": 71,
    "biggest_turn": 8,
}
R45_COUNTS = {
    "melds_laid": 4,
    "tiles_played": 15,
    "jokers_played": 1,
    "jokers_held": 0,
    "openings": 1,
    "opening_points": 45,
    "biggest_turn": 9,
}
# How Rummy 45 filled the columns it had no rounds for: from the winner, and 0.
R45_ROUNDS = {"rounds_won": 1, "rounds_won_out": 1, "rounds_won_blocked": 0}


def migrate(target: tuple[str, str]) -> Any:
    """Migrate to ``target``; the apps (historical models) of that state."""
    executor = MigrationExecutor(connection)
    executor.migrate([target])
    return MigrationExecutor(connection).loader.project_state(target).apps


def latest() -> list[tuple[str, str]]:
    return list(MigrationExecutor(connection).loader.graph.leaf_nodes())


def _store_old_rows(apps: Any, user_id: int) -> dict[str, dict[str, Any]]:
    """A finished Rummikub game and a finished Rummy 45 game, one result row each, as the
    columns held them before 0015; the rows' fields by family."""
    Game = apps.get_model("games", "Game")
    GameResult = apps.get_model("games", "GameResult")
    now = timezone.now()
    rows = {
        "rummikub": {
            "place": 1,
            "total": 57,
            "went_out": True,
            "tiles_left": 0,
            "resigned": False,
            "turns": 31,
            "average_turn_seconds": 6.5,
            **RUMMIKUB_COUNTS,
        },
        "r45": {
            "place": 1,
            "total": 140,
            "went_out": True,
            "tiles_left": 0,
            "resigned": False,
            "turns": 12,
            "average_turn_seconds": None,
            **R45_COUNTS,
            **R45_ROUNDS,
        },
    }
    for family, mode in (("rummikub", "parlor"), ("r45", "r45")):
        game = Game.objects.create(
            public_id=f"mig-{family}",
            family=family,
            mode=mode,
            players=2,
            status="finished",
            seed="0" * 64,
            finished=now,
        )
        GameResult.objects.create(
            game=game, seat=0, user_id=user_id, name="ann", finished=now, **rows[family]
        )
    return rows


@pytest.mark.django_db(transaction=True)
def test_old_result_rows_move_into_details_and_back(django_user_model: Any) -> None:
    ann = django_user_model.objects.create_user(username="ann", password="pw")
    try:
        stored = _store_old_rows(migrate(BEFORE), ann.pk)

        after = migrate(AFTER).get_model("games", "GameResult")
        moved = {r.game.family: r for r in after.objects.select_related("game")}
        assert moved["rummikub"].details == RUMMIKUB_COUNTS
        assert moved["r45"].details == R45_COUNTS  # its constant rounds are gone
        for family, row in moved.items():
            assert {k: getattr(row, k) for k in COMMON} == {k: stored[family][k] for k in COMMON}
            assert (row.user_id, row.name) == (ann.pk, "ann")
        assert not {f.name for f in after._meta.fields} & set(RUMMIKUB_COUNTS)

        back = migrate(BEFORE).get_model("games", "GameResult")
        restored = {r.game.family: r for r in back.objects.select_related("game")}
        for family, row in restored.items():
            assert {k: getattr(row, k) for k in stored[family]} == stored[family]
    finally:
        migrate_all = MigrationExecutor(connection)
        migrate_all.migrate(latest())
