"""The rules page's teaching replays (docs/rules-45.md "Teaching replays"): four bot games
shipped in games/teaching/, each replaying with the family's ``replay`` to its recorded end and
holding its rule's moment, each the file ``manage.py teachingrecords`` writes, and each shown
on its own page around that moment, linked from the rules page."""

from __future__ import annotations

import html
import json
from pathlib import Path
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine.r45.audit import audit_record
from games.engine.r45.family import R45
from games.services import teaching
from games.services.teaching import BEFORE, LESSONS, find_record, record_text, teaching_steps

MOMENTS = {
    "train-break": "TrainBroken",
    "joker-borrow": "JokerBorrowed",
    "stitched-one": "Stitched",
    "board-game": "WentOutOnBoard",
}
LESSON_IDS = [lesson.slug for lesson in LESSONS]


def test_there_is_one_lesson_a_rule_of_the_issue() -> None:
    assert list(MOMENTS) == LESSON_IDS
    assert all(lesson.path.is_file() for lesson in LESSONS)


@pytest.mark.parametrize("lesson", LESSONS, ids=LESSON_IDS)
def test_a_shipped_record_replays_to_its_end_and_holds_its_moment(lesson: Any) -> None:
    record = json.loads(lesson.path.read_text())
    events, moment = record["events"], record["teaching"]["moment"]
    state = R45.replay(events)
    assert state.finished and state.reason == events[-1]["reason"]
    assert list(state.scores) == events[-1]["scores"]
    assert events[moment]["kind"] == MOMENTS[lesson.slug]
    assert [i for i, e in enumerate(events) if lesson.is_moment(e)][0] == moment
    _, check = audit_record(record)
    assert check["commitment_matches"] and check["deals_match"]


def test_the_stitched_one_is_a_1_taken_back_and_the_board_game_is_won() -> None:
    stitched = json.loads(teaching.BY_SLUG["stitched-one"].path.read_text())
    event = stitched["events"][stitched["teaching"]["moment"]]
    assert event["taken_back"] and R45.replay(stitched["events"][:1]).players == 2
    board = json.loads(teaching.BY_SLUG["board-game"].path.read_text())
    seat = board["events"][board["teaching"]["moment"]]["seat"]
    assert board["events"][-1]["reason"] == "on_board" and board["events"][-1]["winner"] == seat


@pytest.mark.parametrize("lesson", LESSONS, ids=LESSON_IDS)
def test_a_shipped_record_is_what_the_generator_writes(lesson: Any) -> None:
    assert lesson.path.read_text() == record_text(find_record(lesson))


def test_the_command_writes_the_records_it_is_asked_for(
    tmp_path: Path, monkeypatch: Any, capsys: Any
) -> None:
    monkeypatch.setattr(teaching, "FOLDER", tmp_path)
    call_command("teachingrecords", "train-break")
    assert [p.name for p in tmp_path.iterdir()] == ["r45-train-break.json"]
    shipped = Path(teaching.__file__).parent.parent / "teaching" / "r45-train-break.json"
    assert (tmp_path / "r45-train-break.json").read_text() == shipped.read_text()
    assert "wrote r45-train-break.json" in capsys.readouterr().out
    with pytest.raises(CommandError, match="unknown rule 'nope'"):
        call_command("teachingrecords", "nope")


@pytest.mark.parametrize("lesson", LESSONS, ids=LESSON_IDS)
def test_the_steps_open_a_few_before_the_moment_and_end_a_few_after(lesson: Any) -> None:
    steps, moment = teaching_steps(lesson)
    assert 1 <= moment <= BEFORE
    assert "lesson" in steps[moment]
    assert [s for s in steps if "lesson" in s] == [steps[moment]]
    assert 1 <= len(steps) - moment - 1 <= teaching.AFTER
    assert [s["seq"] for s in steps] == list(range(steps[0]["seq"], steps[-1]["seq"] + 1))
    assert all(rack["tiles"] for step in steps for rack in step["racks"] if rack["count"])
    # The tiles left to draw are Rummy 45's stock, which the viewer names (not the pool).
    assert all(step["pile"] == "stock" for step in steps)


@pytest.mark.django_db
@pytest.mark.parametrize("lesson", LESSONS, ids=LESSON_IDS)
def test_each_teaching_replay_page_shows_its_moment(client: Any, lesson: Any) -> None:
    response = client.get(f"/how-to-play/r45/{lesson.slug}/")
    assert response.status_code == 200
    page = html.unescape(response.content.decode())
    steps, moment = teaching_steps(lesson)
    assert steps[moment]["lesson"] in page
    assert lesson.title in page and lesson.summary in page
    assert f'href="/how-to-play/#{lesson.anchor}"' in page
    following = LESSONS[(LESSONS.index(lesson) + 1) % len(LESSONS)]
    assert f'href="/how-to-play/r45/{following.slug}/" data-next' in page
    assert 'id="replay-steps"' in page and "games/replay" in page


@pytest.mark.django_db
def test_the_moments_say_what_happens(client: Any) -> None:
    pages = {
        slug: html.unescape(client.get(f"/how-to-play/r45/{slug}/").content.decode())
        for slug in MOMENTS
    }
    assert "may break the train" in pages["train-break"]
    assert "takes the joker" in pages["joker-borrow"]
    assert "take-back pile" in pages["stitched-one"]
    assert "goes out on the board" in pages["board-game"]


@pytest.mark.django_db
def test_an_unknown_rule_is_a_404_that_names_the_rules_there_are(client: Any) -> None:
    response = client.get("/how-to-play/r45/juggling/")
    assert response.status_code == 404
    page = html.unescape(response.content.decode())
    assert "There is no teaching replay called 'juggling'" in page
    assert all(slug in page for slug in MOMENTS)


@pytest.mark.django_db
def test_the_rules_page_links_each_teaching_replay(client: Any) -> None:
    page = client.get("/how-to-play/").content.decode()
    section = page.partition('id="rummy45"')[2].partition('id="fair"')[0]
    for slug in MOMENTS:
        assert f'href="/how-to-play/r45/{slug}/"' in section
    for lesson in LESSONS:
        assert f'id="{lesson.anchor}"' in section
