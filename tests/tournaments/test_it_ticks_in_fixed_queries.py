"""Beat's tournament tick (every 5 s) costs the same few queries however many tournaments are
running: only those with a next step (an arena, or a round all done) are looked at further."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from tournaments import services
from tournaments.models import Round, RoundState, State, Tournament


def running(count: int, round_state: str = RoundState.PLAYING) -> list[Tournament]:
    made = []
    for n in range(count):
        t = Tournament.objects.create(
            name=f"Busy cup {n}",
            mode="lan",
            state=State.RUNNING,
            table_size=2,
            rounds=3,
            starts_at=timezone.now() - timedelta(hours=1),
            clock_seconds=60,
        )
        Round.objects.create(tournament=t, number=1, state=round_state)
        made.append(t)
    return made


def queries_of_a_tick() -> int:
    with CaptureQueriesContext(connection) as queries:
        services.tick()
    return len(queries.captured_queries)


def test_a_tick_over_rounds_in_play_costs_the_same_for_2_or_20_tournaments(db: Any) -> None:
    running(2)
    few = queries_of_a_tick()
    running(18)
    assert queries_of_a_tick() == few <= 3


def test_a_tournament_whose_round_is_done_still_goes_on(db: Any, monkeypatch: Any) -> None:
    """The one query picks the tournament whose round is done; advance then takes it on."""
    (busy,) = running(1)
    (ready,) = running(1, RoundState.DONE)
    stepped: list[int] = []
    monkeypatch.setattr(services, "advance", lambda pk: stepped.append(pk))
    services.tick()
    assert stepped == [ready.pk] and busy.pk not in stepped
