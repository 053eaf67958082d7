"""Beat's bot and stand-in sweeps run one query whatever the number of running games (issue
#27): they read the columns the event writer keeps (``Game.acting``, ``stand_in_seat``,
``moved``), not each game's state. benchmarks/bench_sweeps.py times them at 5,000 games."""

from __future__ import annotations

import importlib
from datetime import timedelta
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone

from games import services
from games.engine.families import family_named
from games.models import Game, Seat

from .conftest import key, viewer

pytestmark = pytest.mark.django_db
User = get_user_model()


def bot_games(count: int, monkeypatch: pytest.MonkeyPatch) -> list[Game]:
    """``count`` games against a bot whose turn it is, their bot tasks lost, last moved a
    minute ago; and as many where it is the person's turn (never due)."""
    from games import tasks

    monkeypatch.setattr(tasks.bot_turn, "apply_async", lambda *a, **k: None)
    made = []
    for n in range(2 * count):
        user = User.objects.create_user(f"host{n}-{count}")
        game = services.create_game(
            viewer(user), {"mode": "sandbox", "players": 2, "seats": ["bot:casual"]}
        )
        game.refresh_from_db()
        bots_turn = n < count
        if bots_turn and game.state["turn"] == 0:
            services.act(
                game.public_id, viewer(user), "draw", {"expected_seq": game.seq, "key": key()}
            )
        elif not bots_turn and game.state["turn"] == 1:
            services.play_bot_turn(game.public_id, game.turn_number)
        game.refresh_from_db()
        assert game.state["turn"] == (1 if bots_turn else 0)
        made.append(game)
    Game.objects.filter(pk__in=[g.pk for g in made]).update(
        moved=timezone.now() - timedelta(minutes=1)
    )
    return made


@pytest.mark.parametrize("count", [1, 6])
def test_the_bot_sweep_finds_every_due_game_in_one_query(
    count: int, monkeypatch: pytest.MonkeyPatch, django_assert_num_queries: Any
) -> None:
    games = bot_games(count, monkeypatch)
    due = [g for g in games if g.state["turn"] == 1]
    assert len(due) == count

    with django_assert_num_queries(1):
        found = services.due_bot_turns()

    assert sorted(found) == sorted((g.public_id, g.turn_number) for g in due)
    # Within the pause and its grace nothing is due: the column says when the game moved.
    Game.objects.update(moved=timezone.now())
    assert services.due_bot_turns() == []


def stand_in_tables(count: int) -> list[Game]:
    made = []
    for n in range(count):
        a = User.objects.create_user(f"a{n}-{count}")
        b = User.objects.create_user(f"b{n}-{count}")
        seats = [{"user_id": a.pk, "name": a.username}, {"user_id": b.pk, "name": b.username}]
        mode = "r45" if n % 2 else "lan"  # both families' tables
        made.append(services.create_seated_game({"mode": mode, "clock": 60}, seats, stand_in=True))
    return made


@pytest.mark.parametrize("count", [1, 6])
def test_the_stand_in_sweep_finds_every_gone_player_in_one_query(
    count: int, django_assert_num_queries: Any
) -> None:
    tables = stand_in_tables(count)
    later = timezone.now() + timedelta(minutes=5)
    # Whose turn a stand-in may play, as the family says (Rummy 45: not in its setup).
    expected = []
    for game in tables:
        game.refresh_from_db()
        family = family_named(game.family)
        if family.turn(family.state_from_record(game.state)).stand_in_seat is not None:
            expected.append((game.public_id, game.turn_number))

    with django_assert_num_queries(1):
        found = services.due_stand_ins(later)

    assert sorted(found) == sorted(expected)
    assert any(g.family == "rummikub" for g in tables)
    # Heard from a moment ago: nobody is gone.
    Seat.objects.update(last_seen=later)
    assert services.due_stand_ins(later) == []


def test_the_migration_fills_the_columns_of_running_games_from_their_state(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from django.apps import apps

    migration = importlib.import_module("games.migrations.0017_sweep_columns")
    games = bot_games(2, monkeypatch) + stand_in_tables(2)
    written = {
        g.pk: (g.acting, g.stand_in_seat, g.moved)
        for g in Game.objects.filter(pk__in=[g.pk for g in games])
    }
    for game in Game.objects.all():
        last = game.events.get(seq=game.seq).created
        written[game.pk] = (*written[game.pk][:2], last)
    Game.objects.update(acting=0, stand_in_seat=None, moved=None)

    migration.fill(apps, None)

    filled = {g.pk: (g.acting, g.stand_in_seat, g.moved) for g in Game.objects.all()}
    assert filled == written
    assert any(acting for acting, _, _ in filled.values())
