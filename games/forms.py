"""The HTML forms of the games pages: a new game (home page) and joining by an invite link.

Each field is bounded (a choice, a number in a range, text of a maximum length), so a hostile
value is a quick form error before anything else runs. What a valid form gives is what
``services.create_game`` takes (the options of ``modes.setup_from``), which still checks how
the options go together.
"""

from __future__ import annotations

from typing import Any

from django import forms

from .identity import NAME_MAX
from .models import Mode
from .modes import (
    BOT_STRENGTHS,
    CORRESPONDENCE_DAYS,
    GUIDES,
    LIVE_CLOCKS,
    PLAYERS,
    TARGET_SCORES,
    TILE_SETS,
    players_allowed,
)

OTHER_SEATS = max(PLAYERS) - 1  # seat1..seat5: the creator takes seat 0
TILE_SET_LABELS = {
    "classic": "Classic: 106 tiles, 1-13",
    "large": "Large: 160 tiles, 1-13",
    "rush": "Rush: 1-9, opening 21",
}
SEAT_CHOICES = [("human", "Invite a person")] + [
    (f"bot:{strength}", f"{strength.title()} bot") for strength in BOT_STRENGTHS
]


def name_field() -> forms.CharField:
    """A display name as the table shows it (services.clean_name folds its spaces; the name
    rules of games/names.py refuse what it may not hold)."""
    return forms.CharField(
        label="Your name",
        max_length=NAME_MAX,
        required=False,  # a signed-in player plays under their username, a guest may have one
        strip=False,  # the name rules see every character typed (games/names.py)
        widget=forms.TextInput(
            attrs={"maxlength": NAME_MAX, "placeholder": "Name shown at the table"}
        ),
    )


class NewGameForm(forms.Form):
    name = name_field()
    mode = forms.ChoiceField(choices=Mode.choices, widget=forms.Select(attrs={"id": "mode"}))
    players = forms.TypedChoiceField(
        choices=[(n, str(n)) for n in PLAYERS],
        coerce=int,
        initial=2,
        widget=forms.Select(attrs={"id": "players"}),
    )
    clock = forms.TypedChoiceField(
        label="Turn clock",
        # "No clock" is the LAN rules' default; the page offers it in that mode only.
        choices=[(c, f"{c} seconds") for c in LIVE_CLOCKS] + [("", "No clock")],
        coerce=int,
        required=False,
        empty_value=None,
        initial=60,
    )
    days = forms.TypedChoiceField(
        label="Correspondence",
        choices=[("", "No, play live")]
        + [(d, f"{d} day{'s' if d > 1 else ''} a move") for d in CORRESPONDENCE_DAYS],
        coerce=int,
        required=False,
        empty_value=None,
    )
    # A choice of the targets the rules allow (a number field's arrows offered 250 or 450, which
    # the server then refused).
    target = forms.TypedChoiceField(
        label="Target score",
        choices=[(t, f"{t} points") for t in TARGET_SCORES],
        coerce=int,
        required=False,
        empty_value=None,
        initial=200,
        error_messages={
            "invalid_choice": "Choose a target of "
            + ", ".join(map(str, TARGET_SCORES))
            + " points."
        },
    )
    rounds = forms.ChoiceField(
        label="Length", choices=[("", "Play to the target"), ("one", "One round")], required=False
    )
    tiles = forms.ChoiceField(
        label="Tile set",
        choices=[("", "Classic (large for 5-6)")] + [(t, TILE_SET_LABELS[t]) for t in TILE_SETS],
        required=False,
    )
    # Sandbox: the points a player's first meld must reach; blank, the tile set's own.
    opening = forms.IntegerField(
        label="Opening meld (points)",
        min_value=0,
        max_value=60,
        required=False,
        widget=forms.NumberInput(attrs={"placeholder": "set's own: 30, Rush 21"}),
    )
    listed = forms.BooleanField(label="List in the lobby", required=False, initial=True)
    # Signed in: a table of bots only, to watch (services.watch_bots).
    watch = forms.ChoiceField(
        label="Who plays",
        choices=[("", "I play, in seat 1")]
        + [(s, f"Only {s.title()} bots: I watch") for s in BOT_STRENGTHS],
        required=False,
        widget=forms.Select(attrs={"id": "watch"}),
    )
    rated = forms.BooleanField(
        label="Rated (signed-in players only; no hints)", required=False, initial=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for i in range(1, OTHER_SEATS + 1):
            self.fields[f"seat{i}"] = forms.ChoiceField(
                label=f"Seat {i + 1}", choices=SEAT_CHOICES, required=False, initial="human"
            )

    def seat_fields(self) -> list[tuple[int, forms.BoundField]]:
        """(1, seat1) ... (5, seat5), for the template's seat pickers."""
        return [(i, self[f"seat{i}"]) for i in range(1, OTHER_SEATS + 1)]

    def clean_target(self) -> int | None:
        target = self.cleaned_data.get("target")
        if target is not None and target not in TARGET_SCORES:
            raise forms.ValidationError(
                "Choose a target of " + ", ".join(map(str, TARGET_SCORES)) + " points."
            )
        return target

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        mode, players = data.get("mode"), data.get("players")
        if mode and players:
            allowed = players_allowed(mode)
            if players not in allowed:
                label = Mode(mode).label
                count = f"{allowed[0]}" if len(allowed) == 1 else f"{allowed[0]} to {allowed[-1]}"
                self.add_error("players", f"{label} is played by {count} players.")
        return data

    def options(self) -> dict[str, Any]:
        """The options of ``services.create_game``; what is left blank takes the mode's
        default there."""
        data = self.cleaned_data
        players = data["players"]
        if data.get("watch"):
            # Every seat a bot: no invitations, no rating, not listed.
            watched: dict[str, Any] = {"mode": data["mode"], "players": players}
            watched["watch"] = data["watch"]
            for name in GUIDES[data["mode"]].options:
                if name not in ("players", "days") and data[name] not in (None, ""):
                    watched[name] = data[name]
            return watched
        options: dict[str, Any] = {
            "mode": data["mode"],
            "players": players,
            "listed": data["listed"],
            # The page sends every picker; those past the number of players are hidden.
            "seats": [data[f"seat{i}"] or "human" for i in range(1, players)],
        }
        if data["rated"]:
            options["rated"] = True
        # Only the options the mode uses (modes.GUIDES): the page hides the others, and a value
        # left in a hidden field is not sent on to a mode that would ignore it.
        for name in GUIDES[data["mode"]].options:
            if name != "players" and data[name] not in (None, ""):
                options[name] = data[name]
        return options


class JoinForm(forms.Form):
    name = name_field()


class RematchForm(forms.Form):
    """Ask for or accept a rematch (the waiting room's button): no fields, the CSRF token."""
