"""The names benchmark's own process (benchmarks/bench_names.py runs it): a fresh SQLite
database with 10,000 accounts (half with a display name), then games/names.py's check of a new
name against all of them, timed cold (every skeleton computed) and warm (skeletons cached).

Prints one JSON object on stdout.
"""

from __future__ import annotations

import json
import os
import statistics
import time

import django

ACCOUNTS = 10_000
RUNS = 15


def main() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command

    from games import names
    from players.models import PlayerProfile

    call_command("migrate", verbosity=0)
    users = get_user_model().objects.bulk_create(
        get_user_model()(username=f"player{n}", password="!") for n in range(ACCOUNTS)
    )
    users = list(get_user_model().objects.order_by("pk"))
    PlayerProfile.objects.bulk_create(
        PlayerProfile(user=u, display_name=f"Shown name {n}", display_name_key=f"shown name {n}")
        for n, u in enumerate(users)
        if n % 2 == 0
    )
    names.name_key.cache_clear()
    started = time.perf_counter()
    names.check_name("a fresh name")
    cold = time.perf_counter() - started
    warm = []
    for run in range(RUNS):
        started = time.perf_counter()
        names.check_name(f"another name {run}")
        warm.append(time.perf_counter() - started)
    print(
        json.dumps(
            {
                "accounts": ACCOUNTS,
                "names_compared": ACCOUNTS + ACCOUNTS // 2,
                "check_cold_ms": round(cold * 1000, 1),
                "check_warm_median_ms": round(statistics.median(warm) * 1000, 1),
                "target_warm_ms": 100,
            }
        )
    )


if __name__ == "__main__":
    main()
