"""The site's apps in their declared order, lowest layer first
(docs/design.md "Layers and the import rule").

A module may import its own app and the apps of lower layers, never an app of a higher layer
nor a sibling in its own layer. Games is the lowest: its engine imports no Django, its services
no app, and every app may use its services, models and signals (games/signals.py is also where
the signals that cross apps live). ``tests/test_it_layers_its_imports.py`` checks every import
of every source file against this order, and that no app code looks a model up by name in the
app registry (``apps.get_model``), which would dodge it.
"""

from __future__ import annotations

LAYERS: tuple[tuple[str, ...], ...] = (
    ("games",),  # the engine, the game services, their adapters (views, api, sockets, tasks)
    ("ratings",),  # openskill pools and ratings: the one copy of the pool rule
    ("puzzles",),  # the trainer, the daily puzzle, puzzle ratings
    ("tournaments", "matchmaking"),  # they make games and seed or match by rating
    ("players",),  # the aggregators: profiles, leaderboards, trophies, account export, deletion
    ("accounts",),  # sign-in and preferences
)


def layer_of(app: str) -> int:
    """The layer number of ``app`` (0 is the lowest); ValueError for an app not declared.

    >>> layer_of("games") < layer_of("ratings") < layer_of("tournaments") < layer_of("players")
    True
    """
    for number, apps in enumerate(LAYERS):
        if app in apps:
            return number
    raise ValueError(f"{app} is in no layer of rummi_site/layers.py")
