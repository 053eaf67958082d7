"""What a finished game did to each seat's rating, as players read it (docs/design.md
"Ratings"): ``+12`` or ``−8`` (a real minus sign) for a rated seat, and for a seat that was not
rated, the word "unrated" with the reason why, never ``+0``: "unrated (aborted)" and "unrated
(absent)" say it in the cell itself (docs/fair-play.md).

The numbers are the game's ``RatingChange`` rows, written once by ``ratings.rate_game``; the
reasons follow the rules that function applies, and the limit of rated games between the same
players (docs/fair-play.md "Rated games between the same players"), which starts a game
unrated.

>>> signed(12), signed(-8), signed(0)
('+12', '−8', '±0')
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from games.errors import NotFound
from games.models import Game, GameResult, SeatKind, Status
from ratings.models import RatingChange
from ratings.services import pair_limit_reasons, pool_of

MINUS = "\u2212"


def signed(delta: int) -> str:
    """A change as shown: a plus or a real minus sign (a rated draw is ``±0``)."""
    if delta > 0:
        return f"+{delta}"
    if delta < 0:
        return f"{MINUS}{-delta}"
    return "\u00b10"


def _game_reason(game: Game, limited: dict[int, str]) -> str | None:
    """Why no seat of the game is rated, or None when its seats may be; ``limited``: the
    reasons of the games a pair's limit of rated games made unrated (ratings'
    ``pair_limit_reasons``), by game id."""
    if pool_of(game) is None:
        return f"unrated: {game.get_mode_display()} is never rated"
    if game.pk in limited:
        return limited[game.pk]
    if not game.rated:
        return "unrated: casual game"
    return None


def _seat_reason(result: GameResult, shared_account: bool) -> str:
    if result.kind == SeatKind.BOT:
        return "unrated: a bot's rating is fixed"
    if not result.user_id:
        return "unrated: guests are not rated"
    if shared_account:
        return "unrated: one account sat in two seats"
    return "unrated: no rating change was recorded for this game"


def _seat(
    result: GameResult,
    change: RatingChange | None,
    reason: str | None,
    shared: bool,
    table: list[GameResult] | None = None,
) -> dict[str, Any]:
    found = _change(result, change, reason, shared, table)
    # How the seat was played, for the lists: "played by a stand-in for N turns" (docs/fair-play.md)
    found["fair_play"] = result.fair_play
    return found


def _change(
    result: GameResult,
    change: RatingChange | None,
    reason: str | None,
    shared: bool,
    table: list[GameResult] | None,
) -> dict[str, Any]:
    if change is not None:
        delta = change.shown_after - change.shown_before
        return {
            "seat": result.seat,
            "rated": True,
            "delta": delta,
            "shown": signed(delta),
            "before": change.shown_before,
            "after": change.shown_after,
            "reason": None,
        }
    fair = _fair_play_reason(result, table)
    return {
        "seat": result.seat,
        "rated": False,
        "delta": None,
        "shown": fair or "unrated",
        "before": None,
        "after": None,
        "reason": fair or reason or _seat_reason(result, shared),
    }


def _fair_play_reason(result: GameResult, table: list[GameResult] | None) -> str | None:
    """An aborted game, an absent seat, or a seat whose every opponent was absent (a forfeit,
    told where the ``table``'s rows are at hand), is never rated (docs/fair-play.md)."""
    if result.aborted:
        return "unrated (aborted)"
    if result.absent:
        return "unrated (absent)"
    if table and all(other.absent for other in table if other.seat != result.seat):
        return "unrated (forfeit)"
    return None


def game_changes(gid: str) -> list[dict[str, Any]]:
    """Each seat's change in finished game ``gid``, by seat; NotFound for no such game or a
    game not over."""
    game = Game.objects.filter(public_id=gid).first()
    if game is None:
        raise NotFound("no_game", "There is no such game.")
    if game.status != Status.FINISHED:
        raise NotFound("not_over", "The game is not over: its rating changes come at its end.")
    results = list(GameResult.objects.filter(game=game).order_by("seat"))
    changes = {c.seat: c for c in RatingChange.objects.filter(game=game)}
    reason = _game_reason(game, pair_limit_reasons([game.pk]))
    users = [r.user_id for r in results if r.kind == SeatKind.HUMAN and r.user_id]
    shared = len(set(users)) != len(users)
    return [_seat(r, changes.get(r.seat), reason, shared, results) for r in results]


def user_changes(user_id: int, results: Iterable[GameResult]) -> dict[int, dict[str, Any]]:
    """The user's change in each of these games (their result rows), by game id, in one
    query: ``{"shown": "+12" | "unrated", "rated": bool, "reason": str | None}``."""
    results = list(results)
    changes = {
        c.game_id: c
        for c in RatingChange.objects.filter(
            user_id=user_id, game_id__in=[r.game_id for r in results]
        )
    }
    limited = pair_limit_reasons(r.game_id for r in results)
    found = {}
    for result in results:
        reason = _game_reason(result.game, limited)
        found[result.game_id] = _seat(result, changes.get(result.game_id), reason, False)
    return found


def seat_change(game: Game, seat: int) -> dict[str, Any] | None:
    """One seat's change in a finished game (a games list's row), or None before the end."""
    if game.status != Status.FINISHED:
        return None
    result = GameResult.objects.filter(game=game, seat=seat).first()
    if result is None:
        return None
    change = RatingChange.objects.filter(game=game, seat=seat).first()
    return _seat(result, change, _game_reason(game, pair_limit_reasons([game.pk])), False)
