"""A Rummy 45 board reaches only its own seat while the game runs: not the other players, nor
spectators, in the API, the events, the socket frames or the page's source."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games import live
from games.engine.r45.events import event_from_dict
from games.engine.r45.family import R45
from games.engine.r45.state import state_from_record
from games.models import Game

from ..conftest import client_for

pytestmark = pytest.mark.django_db


def racks(game: Game) -> list[list[int]]:
    game.refresh_from_db()
    assert game.state is not None
    return [list(rack) for rack in game.state["racks"]]


def test_the_api_shows_each_seat_its_own_board_only(
    r45_duel: Game, alice: Any, bob: Any, outsider: Any
) -> None:
    alice_rack, bob_rack = racks(r45_duel)
    url = f"/api/games/{r45_duel.public_id}/"
    mine = client_for(alice).get(url).json()["view"]
    assert mine["rack"] == alice_rack and mine["racks"] is None
    assert mine["rack_counts"] == [len(alice_rack), len(bob_rack)]
    theirs = client_for(bob).get(url).json()["view"]
    assert theirs["rack"] == bob_rack
    spectator = client_for(outsider).get(url).json()["view"]
    assert spectator["rack"] == [] and spectator["seat"] is None
    events = client_for(bob).get(url + "events?after=0").json()["events"]
    dealt = next(e["event"] for e in events if e["event"]["kind"] == "Dealt")
    assert dealt["racks"][0] == [] and dealt["racks"][1] == bob_rack
    assert dealt["stock"] == len(r45_duel.state["stock"])  # a count, not the order


def test_the_page_source_holds_only_the_viewers_tiles(
    r45_duel: Game, alice: Any, outsider: Any
) -> None:
    alice_rack, bob_rack = racks(r45_duel)
    page = client_for(alice).get(r45_duel.get_absolute_url())
    assert page.status_code == 200
    html = page.content.decode()
    boot = json.loads(
        html.split('id="bootstrap" type="application/json">')[1].split("</script>")[0]
    )
    assert boot["view"]["rack"] == alice_rack
    assert boot["view"]["racks"] is None and "stock_order" not in boot["view"]
    assert isinstance(boot["view"]["stock"], int)
    watched = client_for(outsider).get(r45_duel.get_absolute_url()).content.decode()
    spectator = json.loads(
        watched.split('id="bootstrap" type="application/json">')[1].split("</script>")[0]
    )
    assert spectator["view"]["rack"] == [] and bob_rack != []


def test_each_socket_frame_holds_only_its_viewers_tiles(r45_duel: Game) -> None:
    r45_duel.refresh_from_db()
    state = state_from_record(r45_duel.state)
    numbered = [(row.seq, event_from_dict(row.payload)) for row in r45_duel.events.all()]
    frames = live.frames_by_viewer(R45, state, r45_duel.seq, numbered, {"status": "playing"})
    assert set(frames) == {"0", "1", "spectator"}
    for viewer, frame in frames.items():
        dealt = next(e["event"] for e in frame["events"] if e["event"]["kind"] == "Dealt")
        for seat in (0, 1):
            own = viewer == str(seat)
            assert (dealt["racks"][seat] == list(state.racks[seat])) is own
            assert (frame["view"]["rack"] == list(state.racks[seat])) is own
        assert isinstance(dealt["stock"], int)
