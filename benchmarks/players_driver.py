"""The players benchmark's own process (benchmarks/bench_players.py runs it): a fresh SQLite
database seeded with a player of 1,000 finished games and 10,000 rated players, then the
profile and the leaderboard rendered through Django's test client, timed, queries counted.

Prints one JSON object on stdout.
"""

from __future__ import annotations

import json
import os
import statistics
import sys
import time
from datetime import timedelta

import django

GAMES = 1000
PLAYERS = 10_000
RUNS = 15


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.db import connection
    from django.test import Client
    from django.utils import timezone

    from games.models import Game, GameResult, Mode, Seat, SeatKind, Status
    from players.models import TrophyAward
    from players.trophies import TROPHIES
    from ratings.models import Pool, Rating, RatingChange

    call_command("migrate", verbosity=0)
    call_command("collectstatic", interactive=False, verbosity=0)  # the pages' hashed names
    users = get_user_model()
    me = users.objects.create_user("bench", password="x")
    rival = users.objects.create_user("rival", password="x")
    now = timezone.now()
    modes = [Mode.PARLOR, Mode.BLITZ, Mode.RUSH, Mode.LAN]
    games = Game.objects.bulk_create(
        Game(
            mode=modes[n % 4],
            config={"rules": {}, "match": {"kind": "target", "target": 200}},
            players=2,
            status=Status.FINISHED,
            rated=True,
            seed="0" * 64,
            seq=100,
            finished=now - timedelta(minutes=GAMES - n),
        )
        for n in range(GAMES)
    )
    seats, results, changes = [], [], []
    for n, game in enumerate(games):
        for index, user in enumerate((me, rival)):
            place = 1 if (n + index) % 3 else 2
            seats.append(
                Seat(
                    game=game,
                    index=index,
                    user=user,
                    name=user.username,
                    joined=game.finished,
                    invite_token=f"b{game.pk}-{index}",
                )
            )
            results.append(
                GameResult(
                    game=game,
                    seat=index,
                    user=user,
                    kind=SeatKind.HUMAN,
                    name=user.username,
                    finished=game.finished,
                    place=place,
                    total=10 * place,
                    went_out=place == 1,
                    tiles_left=3,
                    resigned=False,
                    turns=12,
                    average_turn_seconds=8.5,
                    details={
                        "rounds_won": 1,
                        "rounds_won_out": 1,
                        "rounds_won_blocked": 0,
                        "melds_laid": 5,
                        "tiles_played": 14,
                        "jokers_played": 1,
                        "jokers_held": 1,
                        "openings": 1,
                        "opening_points": 31,
                        "biggest_turn": 6,
                    },
                )
            )
        changes.append(
            RatingChange(
                game=game,
                user=me,
                pool=Pool.LIVE_DUEL,
                seat=0,
                place=1,
                mu_before=25,
                sigma_before=8,
                mu_after=25,
                sigma_after=8,
                shown_before=1000 + n,
                shown_after=1001 + n,
                finished=game.finished,
            )
        )
    Seat.objects.bulk_create(seats, batch_size=500)
    GameResult.objects.bulk_create(results, batch_size=500)
    RatingChange.objects.bulk_create(changes, batch_size=500)
    Rating.objects.create(
        user=me, pool=Pool.LIVE_DUEL, mu=30, sigma=2, shown=1960, games=GAMES, updated=now
    )
    TrophyAward.objects.bulk_create(
        TrophyAward(user=me, key=key, earned=now, game=games[n], seq=5, seen=True)
        for n, key in enumerate(list(TROPHIES)[:20])
    )
    many = users.objects.bulk_create(
        users(username=f"p{n:05d}", password="!") for n in range(PLAYERS)
    )
    Rating.objects.bulk_create(
        (
            Rating(
                user=u,
                pool=Pool.LIVE_DUEL,
                mu=25 + (n % 97) / 10,
                sigma=2,
                shown=1000 + n % 997,
                games=12,
                updated=now,
            )
            for n, u in enumerate(many)
        ),
        batch_size=1000,
    )

    client = Client()

    def timed(url: str) -> dict[str, float | int]:
        first = client.get(url, secure=True)
        assert first.status_code == 200, (first.status_code, first.content[:300])
        queries: list[str] = []

        def count(execute, sql, params, many, context):  # type: ignore[no-untyped-def]
            queries.append(sql)
            return execute(sql, params, many, context)

        with connection.execute_wrapper(count):
            client.get(url, secure=True)
        times = []
        for _ in range(RUNS):
            started = time.perf_counter()
            client.get(url, secure=True)
            times.append((time.perf_counter() - started) * 1000)
        return {
            "median_ms": round(statistics.median(times), 1),
            "worst_ms": round(max(times), 1),
            "queries": len(queries),
        }

    json.dump(
        {
            "profile_1000_games": {**timed("/@/bench/"), "target_ms": 150},
            "games_page_1000_games": timed("/@/bench/games/?page=20"),
            "leaderboard_10000_players": {**timed("/leaderboard/"), "target_ms": 100},
        },
        sys.stdout,
    )


if __name__ == "__main__":
    main()
