"""Two workers pairing the same round at once make one round (the tournament row is locked
while pairing, and a round's number is unique)."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.db import connection

from tournaments import services
from tournaments.models import Round, Table, TableSeat

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.mark.parametrize("workers", [2, 4])
def test_racing_workers_pair_one_round(make_tournament: Any, queue: Any, workers: int) -> None:
    t = make_tournament(bots=8, table_size=4)
    type(t).objects.filter(pk=t.pk).update(state="running")
    barrier = threading.Barrier(workers)

    def pair() -> bool:
        try:
            barrier.wait()
            return services.advance(t.pk) is not None
        finally:
            connection.close()

    with ThreadPoolExecutor(max_workers=workers) as pool:
        made = [job.result() for job in [pool.submit(pair) for _ in range(workers)]]

    assert made.count(True) == 1
    assert Round.objects.filter(tournament=t).count() == 1
    assert Table.objects.filter(round__tournament=t).count() == 2
    assert TableSeat.objects.filter(table__round__tournament=t).count() == 8
