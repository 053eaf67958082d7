"""A tournament's settings are honoured or refused (docs/fair-play.md "Tournament settings"):
the organiser's form refuses a setting the mode fixes, with a sentence, and an accepted
tournament's tables play exactly the clock, days and match its page states. Each mode."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client

from tournaments import services
from tournaments.models import Table, Tournament

from .conftest import add_tournament

pytestmark = pytest.mark.django_db


def add(organiser: Client, name: str, mode: str, **fields: Any) -> Any:
    return add_tournament(organiser, **{"name": name, "mode": mode, "rounds": 1, **fields})


@pytest.mark.parametrize(
    ("mode", "fields", "sentence"),
    [
        ("rush", {"clock_seconds": 30}, "Rummy Rush is always played at 60 s a turn"),
        ("rush", {"clock_seconds": 120}, "Rummy Rush is always played at 60 s a turn"),
        ("blitz", {"clock_seconds": 60}, "Blitz is always played at 30 s a turn"),
        ("rush", {"target_score": 100}, "Rummy Rush has no target score (a table plays 3 rounds)"),
        ("lan", {"target_score": 100}, "LAN rules has no target score (a table plays one game)"),
        ("r45", {"target_score": 300}, "Rummy 45 has no target score"),
        ("r45", {"clock_seconds": "", "correspondence_days": 3}, "Rummy 45 tournaments are live"),
        ("parlor", {"clock_seconds": 45}, "A live clock is 30, 60 or 120 seconds a turn"),
        ("parlor", {"target_score": 250}, "A Parlor League table cannot be made: target must be"),
        ("rush", {"table_size": 4}, "Rummy Rush is for two: use 2 per table."),
        ("sandbox", {"clock_seconds": ""}, "sandbox is not one of the available choices"),
    ],
)
def test_the_console_refuses_a_setting_the_mode_fixes(
    organiser: Client, mode: str, fields: dict[str, Any], sentence: str
) -> None:
    answer = add(organiser, "Refused", mode, **fields)

    assert answer.status_code == 200
    assert sentence in answer.content.decode()
    assert not Tournament.objects.filter(name="Refused").exists()


@pytest.mark.parametrize(
    ("mode", "fields", "shown"),
    [
        (
            "parlor",
            {"clock_seconds": 120, "target_score": 100},
            "120 s a turn · games to 100 points",
        ),
        ("parlor", {"clock_seconds": "", "correspondence_days": 3}, "3 days a move · games to 200"),
        ("blitz", {"clock_seconds": 30, "target_score": 50}, "30 s a turn · games to 50 points"),
        ("rush", {"clock_seconds": 60}, "60 s a turn · games of 3 rounds"),
        (
            "rush",
            {"clock_seconds": "", "correspondence_days": 1},
            "1 day a move · games of 3 rounds",
        ),
        ("lan", {"clock_seconds": 30}, "30 s a turn · one-round games"),
        ("r45", {"clock_seconds": 120}, "120 s a turn · single games"),
    ],
)
def test_an_accepted_tournaments_tables_play_what_its_page_states(
    organiser: Client, queue: Any, mode: str, fields: dict[str, Any], shown: str
) -> None:
    assert add(organiser, "Accepted", mode, **fields).status_code == 302
    t = Tournament.objects.get(name="Accepted")
    for _ in range(2):
        services.add_player(None, t, bot="beginner")
    services.start(None, t.pk)

    page = Client().get(t.get_absolute_url()).content.decode()
    (table,) = Table.objects.filter(round__tournament=t).select_related("game")
    game = table.game
    assert shown in page
    assert game.clock_label == t.clock_label and f"· {game.clock_label} ·" in page
    assert (game.clock_seconds, game.correspondence_days) == (
        t.clock_seconds,
        t.correspondence_days,
    )
    kind = game.config.get("match", {"kind": "single"})["kind"]
    if kind == "target":
        assert f"games to {game.config['match']['target']} points" in page
    else:
        assert kind == ("rounds" if mode == "rush" else "single")
