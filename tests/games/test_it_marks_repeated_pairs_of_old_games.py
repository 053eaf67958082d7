"""Games finished before ``GameResult.repeat_pair``: migration 0019 marks them by the rule the
result writer now applies (docs/fair-play.md "Games between the same players"), in the order they
finished: two accounts count 3 games together in any 24 h; aborted games and absent seats do not
count, and a pair counts again once its oldest counted game is a day old."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import timezone

from .test_it_moves_result_counts_into_details import latest, migrate

BEFORE = ("games", "0018_seat_resigned")
AFTER = ("games", "0019_result_repeat_pair")


@pytest.mark.django_db(transaction=True)
def test_old_games_past_three_a_day_together_are_marked(django_user_model: Any) -> None:
    ann = django_user_model.objects.create_user(username="ann", password="pw")
    ben = django_user_model.objects.create_user(username="ben", password="pw")
    cat = django_user_model.objects.create_user(username="cat", password="pw")
    try:
        apps = migrate(BEFORE)
        Game = apps.get_model("games", "Game")
        GameResult = apps.get_model("games", "GameResult")
        start = timezone.now() - timedelta(days=3)
        games: list[str] = []

        def finished(hours: float, people: list[Any], marks: dict[int, Any] | None = None) -> None:
            when = start + timedelta(hours=hours)
            gid = f"mig-{len(games)}"
            game = Game.objects.create(
                public_id=gid, players=len(people), status="finished", seed="0" * 64, finished=when
            )
            for seat, user in enumerate(people):
                GameResult.objects.create(
                    game=game,
                    seat=seat,
                    user_id=user.pk,
                    name=user.username,
                    finished=when,
                    place=seat + 1,
                    total=0,
                    went_out=False,
                    tiles_left=0,
                    resigned=seat > 0,
                    turns=2,
                    **(marks or {}).get(seat, {}),
                )
            games.append(gid)

        finished(0, [ann, ben])  # 0: counted
        finished(1, [ann, ben], {0: {"aborted": True}, 1: {"aborted": True}})  # 1: aborted
        finished(2, [ann, ben], {1: {"absent": True}})  # 2: Ben absent: no pair
        finished(3, [ann, ben])  # 3: counted (2nd)
        finished(4, [ann, ben])  # 4: counted (3rd)
        finished(5, [ann, ben])  # 5: a 4th in 24 h
        finished(6, [ann, cat])  # 6: another pair
        finished(7, [ben, ann, cat])  # 7: Ann and Ben again
        finished(24.5, [ann, ben])  # 8: the first counted is a day old: counted
        finished(25, [ann, ben])  # 9: three in the window again (3, 4, 8)

        after = migrate(AFTER).get_model("games", "GameResult")
        marked = {
            gid: sorted(
                set(after.objects.filter(game__public_id=gid).values_list("repeat_pair", flat=True))
            )
            for gid in games
        }
        repeats = [gid for gid, marks in marked.items() if marks == [True]]
        assert repeats == ["mig-5", "mig-7", "mig-9"]
        assert all(marks in ([True], [False]) for marks in marked.values())
    finally:
        MigrationExecutor(connection).migrate(latest())
