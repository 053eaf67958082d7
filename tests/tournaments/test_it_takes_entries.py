"""Joining and withdrawing: the registration window, entry conditions, late joins until half
the rounds, a full tournament; clear refusals, never a half-made entry."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games.engine.rules import Rules
from games.models import Game, GameResult
from players import account
from tournaments import services
from tournaments.models import Entry, Round, RoundState

pytestmark = pytest.mark.django_db


def signed_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_a_player_joins_and_withdraws_from_the_page(alice: Any, make_tournament: Any) -> None:
    t = make_tournament()
    client = signed_in(alice)
    page = client.get(t.get_absolute_url()).content.decode()
    assert "Join" in page and "starts" in page

    assert client.post(reverse("tournament_join", args=[t.pk])).status_code == 302
    entry = Entry.objects.get(tournament=t, user=alice)
    assert "You are in" in client.get(t.get_absolute_url()).content.decode()
    assert client.post(reverse("tournament_join", args=[t.pk])).status_code == 302
    assert Entry.objects.filter(tournament=t, user=alice).count() == 1, "joining twice is one entry"

    client.post(reverse("tournament_withdraw", args=[t.pk]))
    entry.refresh_from_db()
    assert entry.withdrawn
    assert t.actions.filter(verb="withdrew", detail="alice").exists()


def test_guests_are_sent_to_sign_in(make_tournament: Any) -> None:
    t = make_tournament()
    answer = Client().post(reverse("tournament_join", args=[t.pk]))
    assert answer.status_code == 302 and reverse("account_login") in answer["Location"]
    with pytest.raises(Exception, match="Sign in"):
        services.join(type("Anon", (), {"is_authenticated": False})(), t.pk)


def test_entry_conditions_and_a_full_tournament_are_refused_with_reasons(
    alice: Any, bob: Any, carol: Any, make_tournament: Any
) -> None:
    t = make_tournament(min_games=1)
    answer = signed_in(alice).post(reverse("tournament_join", args=[t.pk]))
    assert answer.status_code == 403
    assert "needs 1 finished games; you have 0" in answer.content.decode()
    assert not Entry.objects.filter(tournament=t).exists()

    full = make_tournament(max_players=2)
    signed_in(alice).post(reverse("tournament_join", args=[full.pk]))
    signed_in(bob).post(reverse("tournament_join", args=[full.pk]))
    answer = signed_in(carol).post(reverse("tournament_join", args=[full.pk]))
    assert answer.status_code == 409 and "The tournament is full." in answer.content.decode()

    rated = make_tournament(min_rating=1600)
    answer = signed_in(alice).post(reverse("tournament_join", args=[rated.pk]))
    assert answer.status_code == 403 and "ratings from 1600" in answer.content.decode()


def test_registration_closes_and_late_joining_ends_at_half_the_rounds(
    alice: Any, bob: Any, make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(bots=4, rounds=4)
    services.set_registration(None, t, False)
    answer = signed_in(alice).post(reverse("tournament_join", args=[t.pk]))
    assert answer.status_code == 409 and "Registration is closed." in answer.content.decode()
    services.set_registration(None, t, True)

    services.start(None, t.pk)
    entry = services.join(alice, t.pk)
    assert entry.joined_round == 1, "a late join counts from the round in play"
    assert t.actions.filter(verb="late join", public=True).exists()

    Round.objects.filter(tournament=t).update(state=RoundState.DONE)
    Round.objects.create(tournament=t, number=2, state=RoundState.DONE)
    answer = signed_in(bob).post(reverse("tournament_join", args=[t.pk]))
    assert answer.status_code == 409
    assert "half the rounds" in answer.content.decode()


def test_a_missing_tournament_is_a_404(alice: Any) -> None:
    assert Client().get("/tournaments/999/").status_code == 404
    assert signed_in(alice).post("/tournaments/999/join").status_code == 404
    assert Client().get("/tournaments/999/standings.json").status_code == 404


def test_the_lists_and_downloads(alice: Any, make_tournament: Any, queue: Any) -> None:
    t = make_tournament(bots=3, name="Spring open")
    services.join(alice, t.pk)
    services.start(None, t.pk)
    listing = Client().get(reverse("tournaments")).content.decode()
    assert "Spring open" in listing and "Running" in listing

    data = Client().get(reverse("tournament_standings_json", args=[t.pk])).json()
    assert {r["player"] for r in data["standings"]} >= {"alice"}
    pairings = Client().get(reverse("tournament_pairings_json", args=[t.pk])).json()
    (rnd,) = pairings["rounds"]
    assert len(rnd["tables"]) == 2 and all(len(tb["players"]) == 2 for tb in rnd["tables"])
    csv = Client().get(reverse("tournament_standings_csv", args=[t.pk]))
    assert csv["Content-Type"].startswith("text/csv")
    assert csv.content.decode().splitlines()[0] == (
        "rank,player,points,score,buchholz,sonneborn_berger,byes,note"
    )
    rows = Client().get(reverse("tournament_pairings_csv", args=[t.pk])).content.decode()
    assert len(rows.splitlines()) == 1 + 4

    mine = signed_in(alice).get(reverse("tournament_my_tables")).json()["tables"]
    assert (
        len(mine) == 1
        and mine[0]["url"] == Game.objects.get(public_id=mine[0]["game"]).get_absolute_url()
    )
    page = signed_in(alice).get(t.get_absolute_url()).content.decode()
    assert "Go to your table" in page and "notices.js" in page
    assert "notices.js" not in Client().get(t.get_absolute_url()).content.decode()


def test_no_unfinished_table_shows_a_rack_on_the_page(
    alice: Any, make_tournament: Any, queue: Any
) -> None:
    t = make_tournament(bots=3)
    services.join(alice, t.pk)
    services.start(None, t.pk)
    page = Client().get(t.get_absolute_url()).content.decode()
    frame = Client().get(reverse("tournament_standings_json", args=[t.pk])).content.decode()
    assert "rack" not in frame and "pool" not in frame
    for game in Game.objects.filter(tournament_table__round__tournament=t):
        tiles = Rules.from_dict(game.config["rules"]).tile_set.tiles
        for rack in game.state["racks"]:
            codes = " ".join(str(tiles[i]) for i in rack[:3])
            assert codes not in page and codes not in frame
    assert GameResult.objects.count() == 0, "no table has finished: nothing is shown of one"


def test_people_link_to_their_profiles_and_bots_and_deleted_players_do_not(
    alice: Any, bob: Any, make_tournament: Any, queue: Any
) -> None:
    """Issue 19: on the page, in the standings, at the tables and on a bye, a person's name
    links to their profile after their avatar; a bot's, and a deleted player's, is text."""
    t = make_tournament(bots=1)
    services.join(alice, t.pk)
    services.join(bob, t.pk)
    services.start(None, t.pk)  # three players at tables of two: one table and one bye

    def sections() -> tuple[str, str]:
        page = Client().get(t.get_absolute_url()).content.decode()
        standings = page.split('id="standings"')[1].split("</table>")[0]
        rounds = page.split('id="rounds"')[1].split("</section>")[0]
        return standings, rounds

    standings, rounds = sections()
    for name in ("alice", "bob"):
        link = (
            f'<a class="player-link" href="/@/{name}/"><img class="avatar tiny" '
            f'src="/@/{name}/avatar.svg"'
        )
        assert link in standings and link in rounds
    bot = Entry.objects.get(tournament=t, user=None).name
    assert bot in standings and bot in rounds
    assert standings.count("<a ") == 2 and rounds.count('class="player-link"') == 2
    data = Client().get(reverse("tournament_pairings_json", args=[t.pk])).json()
    (rnd,) = data["rounds"]
    seen = [(s["name"], s["username"]) for tb in rnd["tables"] for s in tb["seats"]]
    seen += [(b["name"], b["username"]) for b in rnd["bye_players"]]
    assert sorted(seen, key=str) == sorted(
        [("alice", "alice"), ("bob", "bob"), (bot, None)], key=str
    )

    account.delete_account(bob)
    standings, rounds = sections()
    assert "deleted player" in standings and "deleted player" in rounds
    assert "/@/bob/" not in standings + rounds and standings.count("<a ") == 1
    frame = Client().get(reverse("tournament_standings_json", args=[t.pk])).json()
    gone = next(r for r in frame["standings"] if r["player"] == "deleted player")
    assert gone["username"] is None and gone["profile"] is None
    gone_entry = Entry.objects.get(tournament=t, name="deleted player")
    assert gone_entry.withdrawn, "nobody is behind it: it is paired no more"
