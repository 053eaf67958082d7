"""The new-game and join forms: bounded fields, errors shown on the page with a 400."""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.test import Client

from games.engine.errors import InvalidInput
from games.forms import JoinForm, NewGameForm
from games.models import Game, Mode, Status
from games.modes import PLAYERS, players_allowed, setup_from

from .conftest import client_for, viewer


def page(**changes: str) -> dict[str, str]:
    """What the home page's form sends as it is first shown, with ``changes``."""
    data = {
        "name": "Dora",
        "mode": "parlor",
        "players": "2",
        **{f"seat{i}": "human" for i in range(1, 6)},
        "clock": "60",
        "days": "",
        "target": "200",
        "listed": "on",
    }
    data.update(changes)
    return data


def test_the_page_as_sent_gives_the_services_options() -> None:
    form = NewGameForm(page(players="3", seat1="bot:strong", seat2="human", seat3="bot:master"))

    assert form.is_valid(), form.errors
    assert form.options() == {
        "mode": "parlor",
        "players": 3,
        "listed": True,
        "seats": ["bot:strong", "human"],  # seat3 is hidden on the page for 3 players
        "clock": 60,
        "target": 200,
    }
    assert form.cleaned_data["name"] == "Dora"


def test_blank_choices_take_the_modes_defaults() -> None:
    data = page(mode="sandbox", clock="", target="", tiles="large", players="4")
    del data["listed"]
    form = NewGameForm(data)

    assert form.is_valid(), form.errors
    options = form.options()
    assert options == {
        "mode": "sandbox",
        "players": 4,
        "listed": False,
        "seats": ["human"] * 3,
        "tiles": "large",
    }
    assert setup_from(options).config["rules"]["name"] == "large"


def test_correspondence_blitz_and_one_round_options_pass_through() -> None:
    form = NewGameForm(page(mode="blitz", days="3", rounds="one", target="100"))

    assert form.is_valid(), form.errors
    options = form.options()
    assert (options["days"], options["rounds"], options["target"]) == (3, "one", 100)
    setup = setup_from(options)
    assert setup.correspondence_days == 3 and setup.config["match"]["kind"] == "single"


@pytest.mark.parametrize("mode", Mode.values)
def test_the_players_allowed_are_those_setup_accepts(mode: str) -> None:
    for players in PLAYERS:
        try:
            setup_from({"mode": mode, "players": players})
            accepted = True
        except InvalidInput:
            accepted = False
        assert accepted == (players in players_allowed(mode)), (mode, players)


BOUNDS = [
    ("players", "1", "players"),
    ("players", "7", "players"),
    ("players", "-2", "players"),
    ("players", "two", "players"),
    ("players", "", "players"),
    ("players", "2.0", "players"),
    ("mode", "chess", "mode"),
    ("mode", "", "mode"),
    ("clock", "45", "clock"),
    ("clock", "0", "clock"),
    ("days", "2", "days"),
    ("target", "49", "target"),
    ("target", "501", "target"),
    ("target", "250", "target"),
    ("target", "1e3", "target"),
    ("rounds", "two", "rounds"),
    ("tiles", "huge", "tiles"),
    ("opening", "61", "opening"),
    ("opening", "-1", "opening"),
    ("opening", "twenty", "opening"),
    ("opening", "2.5", "opening"),
    ("seat1", "bot:grandmaster", "seat1"),
    ("seat1", "bot:", "seat1"),
    ("seat1", "robot", "seat1"),
    ("seat5", "bot:Strong", "seat5"),
    ("name", "D" * 25, "name"),
    ("name", "Do\x00ra", "name"),
]


@pytest.mark.parametrize(("field", "value", "flagged"), BOUNDS)
def test_each_bound_is_a_form_error(field: str, value: str, flagged: str) -> None:
    form = NewGameForm(page(**{field: value}))

    assert not form.is_valid()
    assert list(form.errors) == [flagged]


@pytest.mark.parametrize(
    ("mode", "players", "says"),
    [
        ("rush", "3", "Rummy Rush is played by 2 players."),
        ("blitz", "5", "Blitz is played by 2 to 4 players."),
        ("blitz", "6", "Blitz is played by 2 to 4 players."),
    ],
)
def test_players_are_bounded_by_the_mode(mode: str, players: str, says: str) -> None:
    form = NewGameForm(page(mode=mode, players=players))

    assert not form.is_valid()
    assert form.errors["players"] == [says]


def test_a_name_of_24_characters_is_the_longest() -> None:
    assert NewGameForm(page(name="D" * 24)).is_valid()
    assert JoinForm({"name": "D" * 24}).is_valid()
    assert not JoinForm({"name": "D" * 25}).is_valid()


@pytest.mark.django_db
def test_the_page_creates_the_game_and_goes_to_it() -> None:
    guest = Client()
    answer = guest.post("/games/new", page(players="3", seat1="bot:casual"))

    game = Game.objects.get()
    assert answer.status_code == 302 and answer["Location"] == game.get_absolute_url()
    assert game.players == 3 and game.clock_seconds == 60 and game.listed
    kinds = [(s.kind, s.bot_strength) for s in game.seats.all()]
    assert kinds == [("human", ""), ("bot", "casual"), ("human", "")]
    assert game.seats.get(index=0).name == "Dora"


@pytest.mark.django_db
def test_millions_of_players_are_a_quick_form_error() -> None:
    started = time.perf_counter()
    answer = Client().post("/games/new", page(players="4000000"))
    elapsed = time.perf_counter() - started

    assert answer.status_code == 400
    assert "Players: Select a valid choice. 4000000 is not one of" in answer.content.decode()
    assert not Game.objects.exists()
    assert elapsed < 2


@pytest.mark.django_db
def test_an_invalid_form_comes_back_with_its_errors_and_values(alice: Any) -> None:
    answer = client_for(alice).post(
        "/games/new", page(mode="blitz", players="5", seat1="bot:strong", target="999")
    )

    assert answer.status_code == 400
    html = answer.content.decode()
    assert 'role="alert"' in html
    assert "Players: Blitz is played by 2 to 4 players." in html
    assert "Target score: Choose a target of 50, 100, 150, 200, 300, 500 points." in html
    assert '<option value="blitz" selected>' in html  # what was chosen is kept
    assert '<option value="bot:strong" selected>' in html
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_hostile_values_are_refused_and_escaped() -> None:
    hostile = page(
        mode="<script>alert(1)</script>",
        name="x" * 100_000,
        seat1="bot:strong'; DROP TABLE games_game; --",
    )
    answer = Client().post("/games/new", hostile)

    assert answer.status_code == 400
    html = answer.content.decode()
    assert "<script>alert(1)</script>" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "Your name: Ensure this value has at most 24 characters (it has 100000)." in html
    assert "Seat 2: Select a valid choice." in html
    assert not Game.objects.exists()


@pytest.mark.django_db
def test_the_home_page_keeps_the_field_names_the_script_reads(alice: Any) -> None:
    html = Client().get("/").content.decode()

    for name in ["name", "mode", "players", "clock", "days", "target", "listed"]:
        assert f'name="{name}"' in html
    for i in range(1, 6):
        assert f'<label class="seat" data-seat="{i}">Seat {i + 1} <select name="seat{i}"' in html
    assert 'id="players"' in html and 'id="mode"' in html
    assert 'maxlength="24"' in html


@pytest.mark.django_db
def test_joining_with_too_long_a_name_is_a_form_error(alice: Any) -> None:
    from games import services

    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    link = game.seats.get(index=1).invite_url

    answer = Client().post(link, {"name": "D" * 25})
    assert answer.status_code == 400
    assert "Your name: Ensure this value has at most 24 characters" in answer.content.decode()
    answer = Client().post(
        link, {"name": "Do\x00ra"}
    )  # refused at the edge: rummi_site/untrusted.py
    assert answer.status_code == 400 and "NUL character (U+0000)" in answer.content.decode()
    game.refresh_from_db()
    assert game.status == Status.WAITING

    answer = Client().post(link, {"name": "Dora"})
    assert answer.status_code == 302 and answer["Location"] == game.get_absolute_url()


def test_the_target_is_chosen_from_the_targets_the_rules_allow() -> None:
    """Found on 2026-12-08: a number field stepping by 50 offered 250, 350, 400 and 450, each
    refused once sent; a choice offers only what is allowed."""
    html = NewGameForm()["target"].as_widget()
    offered = re.findall(r'<option value="(\d+)"', html)
    assert offered == ["50", "100", "150", "200", "300", "500"]
    assert '<option value="200" selected>' in html
