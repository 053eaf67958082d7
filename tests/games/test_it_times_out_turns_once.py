"""Turn clocks: enforced exactly once, keyed on the turn number, even across restarts."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone

from games import services, tasks
from games.engine.state import state_from_record
from games.models import Game

from .conftest import key, viewer

pytestmark = pytest.mark.django_db


def live_duel(alice: Any, bob: Any, **options: Any) -> Game:
    """A started duel of alice and bob; for a second one at once, two fresh accounts in their
    place (a person plays one live game at a time, docs/fair-play.md)."""
    if services.live_game_of(viewer(alice)) or services.live_game_of(viewer(bob)):
        users = type(alice).objects
        n = users.count()
        alice = users.create_user(f"{alice.username}-{n}", password="x")
        bob = users.create_user(f"{bob.username}-{n}", password="x")
    game = services.create_game(viewer(alice), {"mode": "blitz", "players": 2, **options})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    return Game.objects.get(pk=game.pk)


def expire(game: Game, seconds: float = 5) -> None:
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() - timedelta(seconds=seconds))


def timeouts(game: Game) -> int:
    return game.events.filter(kind="TurnTimedOut").count()


def test_a_new_turn_gets_the_modes_clock(alice: Any, bob: Any) -> None:
    game = live_duel(alice, bob)
    left = (game.deadline - timezone.now()).total_seconds()
    assert 28 < left <= 30
    days = live_duel(alice, bob, mode="parlor", days=3)
    assert timedelta(days=3) - (days.deadline - timezone.now()) < timedelta(seconds=5)


def test_a_duplicate_task_and_the_sweeper_give_exactly_one_timeout(alice: Any, bob: Any) -> None:
    game = live_duel(alice, bob)
    turn = game.turn_number
    mover = state_from_record(game.state).turn
    expire(game)
    assert tasks.turn_timeout(game.public_id, turn) is True
    assert tasks.turn_timeout(game.public_id, turn) is False
    assert tasks.sweep_timeouts() == 0
    game.refresh_from_db()
    assert timeouts(game) == 1
    state = state_from_record(game.state)
    assert len(state.racks[mover]) == 14 + 3 and state.turn != mover
    assert game.deadline > timezone.now()


def test_the_sweeper_catches_a_timeout_missed_while_no_worker_ran(alice: Any, bob: Any) -> None:
    games = [live_duel(alice, bob) for _ in range(3)]
    for game in games[:2]:
        expire(game)
    assert tasks.sweep_timeouts() == 2
    assert tasks.sweep_timeouts() == 0
    assert [timeouts(Game.objects.get(pk=g.pk)) for g in games] == [1, 1, 0]


def test_an_early_or_stale_task_does_nothing(alice: Any, bob: Any) -> None:
    game = live_duel(alice, bob)
    assert tasks.turn_timeout(game.public_id, game.turn_number) is False  # 30 s left
    assert tasks.turn_timeout(game.public_id, game.turn_number + 7) is False
    assert tasks.turn_timeout("nope", 0) is False
    expire(game, seconds=0.1)  # inside the 250 ms grace
    assert tasks.turn_timeout(game.public_id, game.turn_number) is False
    assert timeouts(Game.objects.get(pk=game.pk)) == 0


def test_a_move_just_before_the_deadline_is_never_timed_out(alice: Any, bob: Any) -> None:
    game = live_duel(alice, bob)
    turn, seat = game.turn_number, state_from_record(game.state).turn
    Game.objects.filter(pk=game.pk).update(deadline=timezone.now() + timedelta(milliseconds=50))
    services.act(
        game.public_id, viewer([alice, bob][seat]), "draw", {"expected_seq": game.seq, "key": key()}
    )
    expire(game, seconds=10)  # even once the old deadline is long past
    assert tasks.turn_timeout(game.public_id, turn) is False
    game.refresh_from_db()
    assert timeouts(game) == 0 and game.turn_number == turn + 1


def test_a_restart_gives_live_turns_a_grace_and_leaves_correspondence_alone(
    alice: Any, bob: Any
) -> None:
    live = live_duel(alice, bob)
    post = live_duel(alice, bob, mode="parlor", days=1)
    expire(live, seconds=120)
    expire(post, seconds=120)
    graced = services.grant_restart_grace()
    assert [(gid, turn) for gid, turn, _ in graced] == [(live.public_id, live.turn_number)]
    live.refresh_from_db()
    post.refresh_from_db()
    assert 14 < (live.deadline - timezone.now()).total_seconds() <= 15
    assert post.deadline < timezone.now()
    assert tasks.sweep_timeouts() == 1  # only the correspondence turn
    assert timeouts(post) == 1 and timeouts(live) == 0


def test_sandbox_games_have_no_clock(alice: Any, bob: Any) -> None:
    game = live_duel(alice, bob, mode="sandbox")
    assert game.deadline is None
    assert tasks.sweep_timeouts() == 0


def test_a_timeout_with_a_short_pool_draws_what_is_left(alice: Any, bob: Any) -> None:
    game = live_duel(alice, bob, mode="lan")
    mover = state_from_record(game.state).turn
    expire(game)
    tasks.sweep_timeouts()
    game.refresh_from_db()
    assert len(state_from_record(game.state).racks[mover]) == 15  # LAN rules: one tile


def test_a_timeout_task_follows_a_deadline_the_restart_grace_moved(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = live_duel(alice, bob)
    old = timezone.now() - timedelta(seconds=1)
    Game.objects.filter(pk=game.pk).update(deadline=old)
    [(gid, turn, until)] = services.grant_restart_grace()
    queued: list[tuple[Any, Any]] = []
    monkeypatch.setattr(
        tasks.turn_timeout, "apply_async", lambda args, eta: queued.append((args, eta))
    )
    # The task queued for the old deadline fires inside the grace: it waits for the new one.
    assert tasks.turn_timeout(gid, turn, old.isoformat()) is False
    assert queued == [((gid, turn, until.isoformat()), until + services.TIMEOUT_GRACE)]
    # The task queued for the new deadline, if early, does not queue itself again.
    assert tasks.turn_timeout(gid, turn, until.isoformat()) is False
    assert len(queued) == 1
    assert timeouts(Game.objects.get(pk=game.pk)) == 0


def test_one_failing_game_does_not_stop_the_sweep(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    games = [live_duel(alice, bob) for _ in range(3)]
    for game in games:
        expire(game)
    broken = games[0].public_id
    real_timeout = services.timeout

    def flaky(gid: str, turn: int) -> bool:
        if gid == broken:
            raise RuntimeError("database went away")
        return real_timeout(gid, turn)

    monkeypatch.setattr(services, "timeout", flaky)
    assert tasks.sweep_timeouts() == 2
    assert [timeouts(Game.objects.get(pk=g.pk)) for g in games] == [0, 1, 1]
    assert f"game {broken}" in caplog.text


def queued_timeouts(monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, Any]]:
    queued: list[tuple[Any, Any]] = []
    monkeypatch.setattr(
        tasks.turn_timeout, "apply_async", lambda args, eta: queued.append((args, eta))
    )
    return queued


def draw_after_commit(game: Game, players: list[Any], capture: Any) -> None:
    """The mover draws; what the move queues after its commit runs, as in production."""
    seat = state_from_record(game.state).turn
    body = {"expected_seq": game.seq, "key": key()}
    with capture(execute=True) as callbacks:
        services.act(game.public_id, viewer(players[seat]), "draw", body)
    assert callbacks  # the move's after-commit work ran


def test_a_move_leaves_a_long_clock_to_the_sweeper(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    game = live_duel(alice, bob)
    queued = queued_timeouts(monkeypatch)
    draw_after_commit(game, [alice, bob], capture)
    game.refresh_from_db()
    assert (game.deadline - timezone.now()).total_seconds() > 28
    assert queued == []  # no broker message for a clock 30 s away
    assert tasks.sweep_timeouts() == 0
    assert queued == []  # nor from a sweep while it is still far off


def test_a_sweep_queues_the_timeouts_due_before_the_next_sweeps(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    soon, later, gone = (live_duel(alice, bob) for _ in range(3))
    post = live_duel(alice, bob, mode="parlor", days=1)
    now = timezone.now()
    Game.objects.filter(pk=soon.pk).update(deadline=now + timedelta(seconds=1.5))
    Game.objects.filter(pk=later.pk).update(deadline=now + timedelta(seconds=6))
    Game.objects.filter(pk=post.pk).update(deadline=now + timedelta(seconds=1))
    expire(gone)
    queued = queued_timeouts(monkeypatch)
    assert tasks.sweep_timeouts() == 1  # the expired one, applied at once
    soon.refresh_from_db()
    assert queued == [
        ((soon.public_id, soon.turn_number, soon.deadline.isoformat()),
         soon.deadline + services.TIMEOUT_GRACE)
    ]  # fmt: skip
    assert [timeouts(Game.objects.get(pk=g.pk)) for g in (soon, later, post, gone)] == [0, 0, 0, 1]


def test_a_clock_shorter_than_the_sweep_lookahead_is_queued_by_the_move(
    alice: Any, bob: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    capture = django_capture_on_commit_callbacks
    game = live_duel(alice, bob)
    Game.objects.filter(pk=game.pk).update(clock_seconds=1)
    queued = queued_timeouts(monkeypatch)
    draw_after_commit(game, [alice, bob], capture)
    game.refresh_from_db()
    assert queued == [
        ((game.public_id, game.turn_number, game.deadline.isoformat()),
         game.deadline + services.TIMEOUT_GRACE)
    ]  # fmt: skip
