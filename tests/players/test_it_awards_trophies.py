"""Trophies (docs/design.md "Trophies"): at least 25 in code, awarded once from
``game_finished``, backfilled by ``manage.py awardtrophies`` to exactly what live awards gave."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.management import call_command

from games import services
from games.engine.tiles import CLASSIC
from games.models import Game
from games.signals import game_finished
from players.models import TrophyAward
from players.moments import _freed_a_joker
from players.trophies import TROPHIES

from .conftest import make_users, play_out, viewer

pytestmark = pytest.mark.django_db


def held() -> list[tuple[Any, ...]]:
    return sorted(TrophyAward.objects.values_list("user_id", "key", "game_id", "seq", "earned"))


def test_there_are_at_least_25_trophies_each_with_its_parts() -> None:
    assert len(TROPHIES) >= 25
    for key, trophy in TROPHIES.items():
        assert trophy.key == key and trophy.name and trophy.description and trophy.icon
        assert trophy.category in ("play", "puzzles", "tournaments")
    assert {f"beat_{s}" for s in ("beginner", "casual", "strong", "master")} <= set(TROPHIES)


def test_a_win_earns_the_first_win_once_even_if_the_signal_comes_twice(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    award = TrophyAward.objects.get(user=ann, key="first_win")
    assert award.game_id == game.pk and award.seq == game.seq
    before = held()

    game_finished.send(Game, gid=game.public_id, results=list(game.results.all()))
    play_out(django_capture_on_commit_callbacks, [ann, ben], [1])

    assert TrophyAward.objects.filter(user=ann, key="first_win").count() == 1
    assert not TrophyAward.objects.filter(user=ben, key="first_win").exists()
    assert set(held()) >= set(before)


def test_beating_a_bot_earns_its_strength(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    (ann,) = make_users(django_user_model, "ann")
    with django_capture_on_commit_callbacks(execute=True):
        game = services.create_game(
            viewer(ann), {"mode": "parlor", "players": 2, "seats": ["bot:strong"]}
        )
        game.refresh_from_db()
        services.end_game(game.public_id, "test: bot resigns")  # blocked: lowest rack wins
    game.refresh_from_db()
    ann_won = game.results.get(seat=0).place < game.results.get(seat=1).place

    assert TrophyAward.objects.filter(user=ann, key="beat_strong").exists() == ann_won
    assert not TrophyAward.objects.filter(key="beat_master").exists()


def test_the_backfill_equals_the_live_awards_and_runs_once(
    django_user_model: Any, django_capture_on_commit_callbacks: Any, capsys: Any
) -> None:
    users = make_users(django_user_model, "ann", "ben", "cid", "dan", "eve", "fay", "gus")
    capture = django_capture_on_commit_callbacks
    # Ann's 11 games against four others in turn: two accounts count 3 games a day together
    # (docs/fair-play.md "Games between the same players").
    for n in range(11):
        play_out(capture, [users[0], users[1 + n % 4]], [n % 2], rated=n % 3 == 0)
    play_out(capture, [users[0], users[5], users[6]], [2, 1], options={"days": 1})
    live = held()
    assert ("games_10" in {k for _, k, *_ in live}) and len(live) >= 6
    TrophyAward.objects.all().delete()

    call_command("awardtrophies")
    first = capsys.readouterr().out.strip().splitlines()
    call_command("awardtrophies")
    second = capsys.readouterr().out.strip().splitlines()

    assert held() == live
    assert first[-1] == f"awarded {len(live)} trophies" and len(first) == len(live) + 1
    assert any(line.startswith("ann: First win (first_win) in game ") for line in first)
    assert second == ["awarded 0 trophies"]


def tile(colour: int, number: int, copy: int = 0) -> int:
    """A classic set's tile id: colour by colour, number by number, copy by copy."""
    return colour * 26 + (number - 1) * 2 + copy


def test_a_joker_freed_and_laid_again_is_seen() -> None:
    kinds = CLASSIC.tiles
    joker = 104
    assert kinds[joker].is_joker
    run = (tile(0, 5), joker, tile(0, 7))
    nines = (tile(1, 9), tile(2, 9))

    freed = ((tile(0, 5), tile(0, 6), tile(0, 7)), (joker, *nines))
    kept = (run, (tile(1, 9), tile(2, 9), tile(3, 9)))

    assert _freed_a_joker((run,), freed, {tile(0, 6), *nines}, kinds)
    assert not _freed_a_joker((run,), kept, {tile(1, 9), tile(2, 9), tile(3, 9)}, kinds)
