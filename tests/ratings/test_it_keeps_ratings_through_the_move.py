"""Rating and RatingChange moved from the players app to the ratings app in Django's state
only (docs/design.md "Ratings"): a rating stored before the move is the ratings app's after
it, in the same table, and the move runs backwards too."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from ratings import services
from ratings.models import Rating, RatingChange

BEFORE = [("players", "0002_trophy_link"), ("ratings", None)]


def migrate(targets: list[tuple[str, str | None]]) -> MigrationExecutor:
    executor = MigrationExecutor(connection)
    executor.migrate(targets)
    return MigrationExecutor(connection)  # a fresh loader sees what is applied now


def latest() -> list[tuple[str, str | None]]:
    return list(MigrationExecutor(connection).loader.graph.leaf_nodes())


@pytest.mark.django_db(transaction=True)
def test_a_rating_stored_before_the_move_is_the_ratings_apps_after_it(
    django_user_model: Any,
) -> None:
    ann = django_user_model.objects.create_user(username="ann", password="pw")
    try:
        executor = migrate(BEFORE)
        old = executor.loader.project_state(("players", "0002_trophy_link")).apps
        old.get_model("players", "Rating").objects.create(
            user_id=ann.pk,
            pool="r45",
            mu=27.0,
            sigma=3.0,
            shown=1234,
            games=11,
            updated=timezone.now(),
        )
    finally:
        migrate(latest())

    (moved,) = Rating.objects.filter(user=ann)
    assert (moved.pool, moved.shown, moved.games) == ("r45", 1234, 11)
    assert services.rating_of(ann.pk, "r45") == 1234
    assert Rating._meta.db_table == "players_rating"
    assert RatingChange._meta.db_table == "players_ratingchange"
