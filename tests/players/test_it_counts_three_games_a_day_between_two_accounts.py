"""Two accounts count at most 3 games finished together in any 24 h in their figures, win counts
and trophies (docs/fair-play.md "Games between the same players"): a second account resigning
after one move each game no longer farms wins and their trophies for the first, rated or not."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.test import Client

from games.models import Game, GameResult
from games.services import fairness
from players.models import TrophyAward
from players.stats import counted_of, totals

from .conftest import make_users, play_out

pytestmark = pytest.mark.django_db


def farm(capture: Any, users: list[Any], games: int, rated: bool = False) -> list[Game]:
    """``games`` games of ``users``, seat 0 winning each: every other seat draws once, then
    resigns."""
    return [play_out(capture, users, list(range(1, len(users))), rated=rated) for _ in range(games)]


def wins(user: Any) -> int:
    return counted_of(user.pk).filter(place=1).count()


def test_a_fourth_game_together_in_24_h_counts_for_neither_and_earns_nothing(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    played = farm(django_capture_on_commit_callbacks, [ann, ben], 5)
    marks = [
        sorted(set(GameResult.objects.filter(game=g).values_list("repeat_pair", flat=True)))
        for g in played
    ]
    assert marks == [[False]] * 3 + [[True]] * 2
    assert wins(ann) == 3 and totals(ann.pk)["games"] == 3 and totals(ben.pk)["games"] == 3
    # Trophies come from the first three only.
    assert set(TrophyAward.objects.filter(user=ann).values_list("game_id", flat=True)) <= {
        g.pk for g in played[:3]
    }
    # The lists still show the games, marked.
    row = GameResult.objects.get(game=played[3], user=ann)
    assert row.fair_play == "not counted (a 4th game together in 24 h)"
    client = Client()
    page = client.get(f"/@/{ann.username}/games/").content.decode()
    assert "not counted (a 4th game together in 24 h)" in page


def test_ten_farmed_wins_in_a_day_give_no_ten_wins_trophy(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben, cat = make_users(django_user_model, "ann", "ben", "cat")
    farm(django_capture_on_commit_callbacks, [ann, ben], 6)
    farm(django_capture_on_commit_callbacks, [ann, cat], 6)
    # Two second accounts: 3 counted wins each, not 12.
    assert wins(ann) == 6
    assert not TrophyAward.objects.filter(user=ann, key="wins_10").exists()
    # A rated farm is held the same (the ratings' own pair limit makes it unrated too).
    dan, eve = make_users(django_user_model, "dan", "eve")
    farm(django_capture_on_commit_callbacks, [dan, eve], 4, rated=True)
    assert wins(dan) == 3


def test_a_pair_counts_again_once_its_oldest_counted_game_is_a_day_old(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    first = farm(django_capture_on_commit_callbacks, [ann, ben], 3)
    # The first game a day and a minute old: the next game together counts.
    a_day_ago = first[0].finished - timedelta(hours=24, minutes=1)
    Game.objects.filter(pk=first[0].pk).update(finished=a_day_ago)
    GameResult.objects.filter(game=first[0]).update(finished=a_day_ago)
    (fourth,) = farm(django_capture_on_commit_callbacks, [ann, ben], 1)
    assert not GameResult.objects.filter(game=fourth, repeat_pair=True).exists()
    (fifth,) = farm(django_capture_on_commit_callbacks, [ann, ben], 1)
    assert not GameResult.objects.filter(game=fifth, repeat_pair=False).exists()
    assert wins(ann) == 4


def test_other_people_and_tables_of_more_are_counted_by_pairs(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben, cat = make_users(django_user_model, "ann", "ben", "cat")
    farm(django_capture_on_commit_callbacks, [ann, ben], 3)
    # Ann and Cat are a new pair; Ben and Cat too, but Ann and Ben at the same table are not.
    (with_cat,) = farm(django_capture_on_commit_callbacks, [ann, cat], 1)
    (three,) = farm(django_capture_on_commit_callbacks, [cat, ann, ben], 1)
    assert not GameResult.objects.filter(game=with_cat, repeat_pair=True).exists()
    assert not GameResult.objects.filter(game=three, repeat_pair=False).exists()
    assert wins(cat) == 0 and wins(ann) == 4


def test_rewriting_the_marks_is_stable_and_takes_back_farmed_trophies(
    django_user_model: Any, django_capture_on_commit_callbacks: Any
) -> None:
    ann, ben = make_users(django_user_model, "ann", "ben")
    played = farm(django_capture_on_commit_callbacks, [ann, ben], 4)
    assert not any(fairness.refresh(g) for g in played)  # the same marks from the log
    # A game finished before the rule (no mark) that gave a trophy: taken back by an operator.
    GameResult.objects.filter(game=played[3]).update(repeat_pair=False)
    TrophyAward.objects.create(
        user=ann, key="wins_10", game=played[3], seq=played[3].seq, earned=played[3].finished
    )
    call_command("awardtrophies", "--take-back")
    assert GameResult.objects.filter(game=played[3], repeat_pair=True).count() == 2
    assert not TrophyAward.objects.filter(user=ann, key="wins_10").exists()
