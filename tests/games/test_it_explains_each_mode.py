"""Each mode's guide (games/modes.py GUIDES) says which of the new-game form's options it uses:
those it does not use change nothing in the game it makes, those it uses change something; the
form sends on only the used ones, and the pages show every mode's summary."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils.html import escape

from games.forms import NewGameForm
from games.models import Mode
from games.modes import GUIDES, setup_from

# A value other than the mode's default for each option the form has.
OTHER = {"clock": 120, "days": 3, "target": 500, "rounds": "one", "tiles": "rush", "opening": 10}


def _setup(mode: str, **options: Any) -> Any:
    players = 2
    return setup_from({"mode": mode, "players": players, **options})


@pytest.mark.parametrize("mode", Mode.values)
def test_the_options_a_mode_does_not_use_change_nothing(mode: str) -> None:
    unused = [name for name in OTHER if name not in GUIDES[mode].options]
    assert unused, mode  # every mode fixes something
    for name in unused:
        if name == "days" and mode != Mode.SANDBOX:
            continue
        if name == "days":  # Sandbox refuses a correspondence clock outright
            with pytest.raises(Exception, match="no clock"):
                _setup(mode, days=3)
            continue
        assert _setup(mode, **{name: OTHER[name]}) == _setup(mode), (mode, name)


@pytest.mark.parametrize("mode", Mode.values)
def test_the_options_a_mode_uses_change_its_game(mode: str) -> None:
    for name in GUIDES[mode].options:
        if name == "players":
            continue
        assert _setup(mode, **{name: OTHER[name]}) != _setup(mode), (mode, name)


def _page(**changes: str) -> dict[str, str]:
    data = {"name": "Dora", "mode": "parlor", "players": "2", "clock": "60", "target": "200"}
    data |= {f"seat{i}": "human" for i in range(1, 6)}
    return data | changes


@pytest.mark.parametrize(
    ("mode", "sent", "dropped"),
    [
        ("blitz", {"clock": "120", "target": "100"}, "clock"),
        ("sandbox", {"target": "500", "days": ""}, "target"),
        ("lan", {"target": "500", "clock": ""}, "target"),
        ("rush", {"target": "500", "tiles": "large"}, "tiles"),
        ("parlor", {"opening": "10"}, "opening"),
    ],
)
def test_the_form_sends_only_the_options_the_mode_uses(
    mode: str, sent: dict[str, str], dropped: str
) -> None:
    form = NewGameForm(_page(mode=mode, **sent))

    assert form.is_valid(), form.errors
    options = form.options()
    assert dropped not in options
    assert set(options) - {"mode", "players", "listed", "seats"} <= set(GUIDES[mode].options)
    setup_from(options)


def test_sandbox_takes_its_opening_from_the_form_or_the_tile_set() -> None:
    form = NewGameForm(_page(mode="sandbox", tiles="rush", opening="0"))
    assert form.is_valid(), form.errors
    assert form.options()["opening"] == 0
    assert setup_from(form.options()).config["rules"]["opening"] == 0
    form = NewGameForm(_page(mode="sandbox", tiles="rush", opening=""))
    assert form.is_valid(), form.errors
    assert "opening" not in form.options()
    assert setup_from(form.options()).config["rules"]["opening"] == 21


def test_lan_rules_may_be_played_without_a_clock() -> None:
    form = NewGameForm(_page(mode="lan", clock=""))

    assert form.is_valid(), form.errors
    assert setup_from(form.options()).clock_seconds is None


@pytest.mark.django_db
@pytest.mark.parametrize("name", ["home", "how_to_play"])
def test_the_pages_give_every_modes_summary(name: str) -> None:
    page = Client().get(reverse(name)).content.decode()

    for mode, guide in GUIDES.items():
        assert escape(guide.summary) in page
        assert Mode(mode).label in page


@pytest.mark.django_db
@pytest.mark.parametrize("name", sorted(GUIDES))
def test_how_to_play_gives_each_modes_player_count_once(name: str) -> None:
    """Blitz's fixed settings already say "2-4 players": the page does not say it again."""
    guide = GUIDES[name]
    page = Client().get(reverse("how_to_play")).content.decode()
    start = page.index(f'id="mode-{name}"')
    section = page[start : page.index("</section>", start)]
    players = guide.players
    count = f"{players[0]} players" if len(players) == 1 else f"{players[0]}-{players[-1]} players"
    assert section.count(count) == 1, section
