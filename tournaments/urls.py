from __future__ import annotations

from django.urls import path
from django.views.decorators.http import require_safe

from . import views

urlpatterns = [
    path("tournaments/", views.tournament_list, name="tournaments"),
    path("tournaments/how-they-work/", views.help_page, name="tournaments_help"),
    # The page is also what join and withdraw answer with (their refusals), so it takes GET (and
    # HEAD) only at its own address.
    path("tournaments/<int:tid>/", require_safe(views.tournament_page), name="tournament"),
    path("tournaments/<int:tid>/join", views.join, name="tournament_join"),
    path("tournaments/<int:tid>/withdraw", views.withdraw, name="tournament_withdraw"),
    path(
        "tournaments/<int:tid>/standings.json",
        views.standings_json,
        name="tournament_standings_json",
    ),
    path(
        "tournaments/<int:tid>/standings.csv", views.standings_csv, name="tournament_standings_csv"
    ),
    path(
        "tournaments/<int:tid>/pairings.json", views.pairings_json, name="tournament_pairings_json"
    ),
    path("tournaments/<int:tid>/pairings.csv", views.pairings_csv, name="tournament_pairings_csv"),
    path("api/tournaments/mine", views.my_tables, name="tournament_my_tables"),
]
