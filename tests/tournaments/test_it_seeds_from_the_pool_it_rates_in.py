"""A tournament seeds its entrants by their rating in the pool its games are rated in
(docs/design.md "Ratings", docs/tournaments.md): one rule, the ratings app's, for every mode
and clock, Rummy 45 too. A tournament with its own copy of the pools, or a seek's, would seed
from one pool while its tables are rated in another."""

from __future__ import annotations

from typing import Any

import pytest
from django.utils import timezone

from games.models import Game
from games.modes import mode_info, players_allowed
from ratings import services as ratings
from ratings.models import Pool, Rating
from tournaments import services
from tournaments.models import TOURNAMENT_MODES, Table, TableSeat, Tournament

pytestmark = pytest.mark.django_db

# Every mode a tournament plays, at its smallest and largest table, and by correspondence
# where a mode may be played so.
TABLE_SIZES = {size for size, _ in Tournament._meta.get_field("table_size").choices or []}
CASES = [
    (mode, size, days)
    for mode, _ in TOURNAMENT_MODES
    for size in sorted({min(players_allowed(mode)), max(TABLE_SIZES & set(players_allowed(mode)))})
    for days in ((None,) if mode in ("r45", "rush") else (None, 3))
]


@pytest.mark.parametrize(("mode", "size", "days"), CASES)
def test_the_seeding_reads_the_pool_the_table_is_rated_in(
    alice: Any, make_tournament: Any, queue: Any, mode: str, size: int, days: int | None
) -> None:
    # A different number in every pool, so the pool read is the one seen.
    shown = {pool: 1100 + 37 * n for n, pool in enumerate(Pool.values)}
    for pool, value in shown.items():
        Rating.objects.create(
            user=alice, pool=pool, mu=25, sigma=3, shown=value, games=12, updated=timezone.now()
        )
    t = make_tournament(
        bots=size - 1,
        strength="strong",
        mode=mode,
        table_size=size,
        rounds=1,
        rated=True,
        correspondence_days=days,
        # A clock the mode fixes is the only one it may be given (docs/fair-play.md).
        **({"clock_seconds": fixed} if (fixed := mode_info(mode).fixed_clock) else {}),
    )
    entry = services.join(alice, t.pk)
    services.start(None, t.pk)

    (table,) = Table.objects.filter(round__tournament=t)
    game = Game.objects.get(pk=table.game_id)
    pool = ratings.pool_of(game)
    assert game.rated and game.players == size and pool is not None
    assert services.pool_of(t) == pool
    entry.refresh_from_db()
    assert entry.rating == shown[pool]
    bots = TableSeat.objects.filter(table=table, entry__bot_strength="strong")
    assert {s.entry.rating for s in bots} == {ratings.bot_rating("strong")}
