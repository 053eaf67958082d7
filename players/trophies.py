"""Trophies: defined here in code (key, name, description, icon, rule), stored once earned
(docs/design.md "Trophies").

A game's trophies are awarded from ``game_finished`` (players/receivers.py) to each signed-in
seat, and a tournament's from ``tournament_finished`` to its signed-in entrants;
:func:`backfill` (``manage.py awardtrophies``) walks the whole history in the order games and
tournaments finished and awards what is missing. Both read only stored rows (results, events,
earlier results of the same player up to this game, a tournament's final standings), so a
backfill gives exactly what live awards gave. An award is unique per player and trophy and is
never taken back.

>>> len(TROPHIES) >= 25
True
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Q, QuerySet, Sum
from django.urls import reverse

from games import services as games
from games.models import Game, GameEvent, GameResult, Mode, SeatKind, Status
from puzzles import services as puzzles
from tournaments import services as tournaments

from .models import TrophyAward
from .moments import MOMENTS, GameMoments, SeatMoments
from .stats import counted, detail


@dataclass
class Context:
    """One signed-in seat's finished game, and the player's record up to it (included)."""

    game: Game
    result: GameResult
    table: list[GameResult]
    seat: SeatMoments
    match: GameMoments
    played: int
    won: int
    melds: int

    def count(self, key: str) -> int:
        """The seat's own count ``key`` from its result row's ``details``; 0 where its family
        does not count it (docs/design.md "Results")."""
        return int(self.result.details.get(key, 0))

    @property
    def won_it(self) -> bool:
        return self.result.place == 1 and len(self.table) > 1

    def beat_bot(self, strength: str) -> bool:
        return any(
            r.kind == SeatKind.BOT and r.bot_strength == strength and r.place > self.result.place
            for r in self.table
        )


Rule = Callable[[Context], "int | bool | None"]


@dataclass(frozen=True)
class Trophy:
    key: str
    name: str
    description: str
    icon: str
    category: str
    rule: Rule | None = None  # a game rule; None for puzzle trophies (see puzzle_rules)


def _target_win(c: Context) -> bool:
    match = (c.game.config or {}).get("match") or {}
    return (
        c.game.mode == Mode.PARLOR
        and match.get("kind") == "target"
        and c.won_it
        and c.result.total >= int(match.get("target", 0))
    )


PLAY: list[Trophy] = [
    Trophy("first_win", "First win", "Win a game.", "🏆", "play", lambda c: c.won_it),
    Trophy(
        "full_rack",
        "All at once",
        "Go out by laying your whole rack in one turn.",
        "🎴",
        "play",
        lambda c: c.seat.full_rack,
    ),
    Trophy(
        "ten_tiles",
        "Ten in a turn",
        "Lay 10 or more tiles in one turn.",
        "🔟",
        "play",
        lambda c: c.seat.big_turn,
    ),
    Trophy(
        "joker_freed",
        "Joker thief",
        "Free a joker from the table and lay it again in the same turn.",
        "🃏",
        "play",
        lambda c: c.seat.joker_freed,
    ),
    Trophy(
        "opening_50",
        "Grand opening",
        "Make an opening worth 50 or more.",
        "🚪",
        "play",
        lambda c: c.seat.opening_50,
    ),
    Trophy(
        "parlor_target",
        "League champion",
        "Win a Parlor League match by reaching its target.",
        "🎯",
        "play",
        _target_win,
    ),
    *[
        Trophy(
            f"beat_{strength}",
            f"Beat the {strength} bot",
            f"Finish ahead of a {strength} bot.",
            icon,
            "play",
            (lambda s: lambda c: c.beat_bot(s))(strength),
        )
        for strength, icon in (
            ("beginner", "🤖"),
            ("casual", "🦾"),
            ("strong", "🧠"),
            ("master", "👑"),
        )
    ],
    # The counts are reached or passed: a game that earns nothing (a stand-in's part of it)
    # leaves the trophy to the next one.
    Trophy("games_10", "Regular", "Finish 10 games.", "🔁", "play", lambda c: c.played >= 10),
    Trophy("games_100", "Centurion", "Finish 100 games.", "💯", "play", lambda c: c.played >= 100),
    Trophy(
        "wins_10", "Ten wins", "Win 10 games.", "🥇", "play", lambda c: c.won_it and c.won >= 10
    ),
    Trophy(
        "wins_50", "Fifty wins", "Win 50 games.", "🎖️", "play", lambda c: c.won_it and c.won >= 50
    ),
    Trophy(
        "melds_100",
        "Meld maker",
        "Lay 100 melds over all your games.",
        "🧱",
        "play",
        lambda c: c.melds >= 100,
    ),
    Trophy(
        "both_jokers",
        "Double joker",
        "Lay two or more jokers in one game.",
        "🎭",
        "play",
        lambda c: c.count("jokers_played") >= 2,
    ),
    Trophy(
        "clean_sweep",
        "Clean sweep",
        "Win every round of a match of three rounds or more.",
        "🧹",
        "play",
        lambda c: c.match.rounds >= 3 and c.count("rounds_won") == c.match.rounds,
    ),
    Trophy(
        "blocked_win",
        "Lowest rack",
        "Win a round that ended blocked, with the lowest rack.",
        "🧊",
        "play",
        lambda c: c.count("rounds_won_blocked") > 0,
    ),
    Trophy(
        "six_table",
        "Full table",
        "Win a game of six players.",
        "🪑",
        "play",
        lambda c: c.won_it and len(c.table) == 6,
    ),
    Trophy(
        "rush_win",
        "Rush hour",
        "Win a game of Rummy Rush.",
        "⚡",
        "play",
        lambda c: c.won_it and c.game.mode == Mode.RUSH,
    ),
    Trophy(
        "blitz_win",
        "Blitzed",
        "Win a Blitz game.",
        "⏱️",
        "play",
        lambda c: c.won_it and c.game.mode == Mode.BLITZ,
    ),
    Trophy(
        "correspondence_win",
        "Pen pal",
        "Win a correspondence game.",
        "✉️",
        "play",
        lambda c: c.won_it and bool(c.game.correspondence_days),
    ),
    Trophy(
        "rated_game",
        "On the ladder",
        "Finish a rated game.",
        "📈",
        "play",
        lambda c: c.game.rated,
    ),
    Trophy(
        "no_tiles_left",
        "Bare rack",
        "End a match by going out in its last round.",
        "✨",
        "play",
        lambda c: c.result.went_out,
    ),
]

PUZZLE_LEVELS = (1, 2, 3, 4)
PUZZLES_PER_LEVEL = 5  # as the trainer's ramp asks of each level
PUZZLES: list[Trophy] = [
    *[
        Trophy(
            f"puzzle_level_{level}",
            f"Level {level} done",
            f"Solve {PUZZLES_PER_LEVEL} puzzles of level {level}.",
            "🧩",
            "puzzles",
        )
        for level in PUZZLE_LEVELS
    ],
    Trophy(
        "daily_7", "A week of dailies", "Solve the daily puzzle 7 days running.", "📅", "puzzles"
    ),
    Trophy(
        "daily_30", "A month of dailies", "Solve the daily puzzle 30 days running.", "🗓️", "puzzles"
    ),
    Trophy("streak_20", "On a roll", "Solve 20 puzzles in a row in streak mode.", "🔥", "puzzles"),
]

TOURNAMENT_FIELD = 4  # the podium and the win count in tournaments of at least this many
TOURNAMENTS: list[Trophy] = [
    Trophy(
        "tournament_played",
        "Entrant",
        "Play a tournament to its end without withdrawing.",
        "🎟️",
        "tournaments",
    ),
    Trophy(
        "tournament_podium",
        "On the podium",
        f"Finish in the top three of a tournament of {TOURNAMENT_FIELD} or more players.",
        "🥉",
        "tournaments",
    ),
    Trophy(
        "tournament_win",
        "Tournament champion",
        f"Win a tournament of {TOURNAMENT_FIELD} or more players.",
        "🏅",
        "tournaments",
    ),
]

TROPHIES: dict[str, Trophy] = {t.key: t for t in PLAY + PUZZLES + TOURNAMENTS}

# What a seat a stand-in played some turns for may still earn from that game
# (docs/fair-play.md): a moment of a turn the person played (the stand-in's plays are skipped
# when the moments are read), and the count of games finished. A win, a whole game's count
# (jokers, rounds, melds) or a bot beaten is the stand-in's too, and earns nothing.
OWN_TURN_TROPHIES = frozenset(
    {"full_rack", "ten_tiles", "joker_freed", "opening_50", "games_10", "games_100"}
)


@dataclass(frozen=True)
class Earned:
    user_id: int
    key: str
    game_id: int | None
    seq: int | None
    when: Any
    link: str = ""  # where it was earned when that is not a game (a tournament's page)


def _record_before(result: GameResult) -> dict[str, int]:
    """The player's games, wins and melds up to this game (included), in finish order; an
    aborted game, an absent seat or a game every other seat of was absent counts for nothing
    (docs/fair-play.md)."""
    mine = counted(GameResult.objects.filter(user_id=result.user_id)).filter(
        Q(finished__lt=result.finished) | Q(finished=result.finished, game_id__lte=result.game_id)
    )
    got = mine.aggregate(
        played=Count("pk"), won=Count("pk", filter=Q(place=1)), melds=Sum(detail("melds_laid"))
    )
    return {k: int(v or 0) for k, v in got.items()}


def game_trophies(game: Game) -> Iterator[Earned]:
    """What each signed-in seat of a finished game earned in it (held or not). An aborted game
    earns nothing, nor a game past the 3 a day two of its accounts count together, nor an
    absent seat, nor a seat whose every opponent was absent (a forfeit); a seat a stand-in
    played turns for earns only :data:`OWN_TURN_TROPHIES`, from its own turns
    (docs/fair-play.md)."""
    if game.status != Status.FINISHED:
        return
    table = list(GameResult.objects.filter(game=game).order_by("seat"))
    if any(r.aborted or r.repeat_pair for r in table):
        return
    logged = list(GameEvent.objects.filter(game=game).order_by("seq").values_list("seq", "payload"))
    # The plays a stand-in made are nobody's moment.
    stood = games.stand_in_seqs(game) if any(r.stand_in_turns for r in table) else {}
    skip = frozenset(seq for seqs in stood.values() for seq in seqs)
    # The moments are read from a family's log by that family's reader (players/moments.py);
    # a family without one earns what its result rows show.
    read = MOMENTS.get(game.family)
    found = read(logged, skip) if read is not None else GameMoments()
    for result in table:
        if not result.user_id or result.kind != SeatKind.HUMAN or result.absent:
            continue
        if all(other.absent for other in table if other.seat != result.seat):
            continue  # nobody else came: a forfeit earns nothing (docs/fair-play.md)
        record = _record_before(result)
        context = Context(
            game, result, table, found.seats.get(result.seat, SeatMoments()), found, **record
        )
        rules = PLAY
        if result.stand_in_turns:
            rules = [t for t in PLAY if t.key in OWN_TURN_TROPHIES]
        for trophy in rules:
            hit = trophy.rule(context) if trophy.rule else None
            if hit:
                seq = hit if isinstance(hit, int) and not isinstance(hit, bool) else game.seq
                yield Earned(result.user_id, trophy.key, game.pk, seq, result.finished)


def puzzle_trophies(user_id: int) -> Iterator[Earned]:
    """The puzzle trophies a player's puzzle record shows, as the puzzles app's services give
    it (docs/design.md "Layers and the import rule")."""
    per_level = puzzles.solved_levels(user_id)
    for level in PUZZLE_LEVELS:
        count, last = per_level.get(level, (0, None))
        if count >= PUZZLES_PER_LEVEL:
            yield Earned(user_id, f"puzzle_level_{level}", None, None, last)
    run = puzzles.daily_runs(user_id)
    for days in (7, 30):
        if run["best"] >= days:
            yield Earned(user_id, f"daily_{days}", None, None, run["when"][days])
    rating = puzzles.player_rating(user_id)
    if rating is not None and rating.streak_best >= 20:
        yield Earned(user_id, "streak_20", None, None, rating.streak_started)


def tournament_trophies(tournament_id: int) -> Iterator[Earned]:
    """What the signed-in entrants of a finished tournament earned by its final standings: a
    place for everyone who played it to its end (not withdrawn, ranked), the podium and the win
    in a field of :data:`TOURNAMENT_FIELD` or more entrants not withdrawn (bots count: they are
    opponents).
    Read from the stored tournament through the tournaments app's services, so the backfill
    and the live award (on ``tournament_finished``) give the same."""
    final = tournaments.final_places(tournament_id)
    if final is None:
        return
    link = reverse("tournament", args=[tournament_id])
    for user_id, rank in final.places:
        yield Earned(user_id, "tournament_played", None, None, final.finished, link)
        if final.field >= TOURNAMENT_FIELD and rank <= 3:
            yield Earned(user_id, "tournament_podium", None, None, final.finished, link)
        if final.field >= TOURNAMENT_FIELD and rank == 1:
            yield Earned(user_id, "tournament_win", None, None, final.finished, link)


def award(earned: list[Earned]) -> list[TrophyAward]:
    """Store what is not held yet; return the awards made now."""
    made = []
    with transaction.atomic():
        for item in earned:
            held = TrophyAward.objects.filter(user_id=item.user_id, key=item.key).exists()
            if held or item.when is None:
                continue
            award, created = TrophyAward.objects.get_or_create(
                user_id=item.user_id,
                key=item.key,
                defaults={
                    "earned": item.when,
                    "game_id": item.game_id,
                    "seq": item.seq,
                    "link": item.link,
                },
            )
            if created:
                made.append(award)
    return made


def award_game(game_id: int) -> list[TrophyAward]:
    """The live award of a finished game's trophies (and its players' puzzle trophies)."""
    game = Game.objects.filter(pk=game_id).first()
    if game is None:
        return []
    earned = list(game_trophies(game))
    for user_id in {r.user_id for r in GameResult.objects.filter(game=game) if r.user_id}:
        earned += puzzle_trophies(user_id)
    return award(earned)


def finished_games() -> QuerySet[Game]:
    return Game.objects.filter(status=Status.FINISHED).order_by("finished", "pk")


def take_back() -> list[TrophyAward]:
    """Take back the trophies the stored history no longer gives
    (docs/fair-play.md "Games and trophies from before these rules"): each game's fair-play
    marks are rewritten from its log first, then every award made in a game that its game no
    longer gives (a stand-in's turns, an absent seat, an aborted game), and every tournament
    award its final standings no longer give (an entrant absent from every game), is deleted.
    :func:`backfill` then awards again what the player's own games give. Returns the awards
    taken back."""
    games.refresh_fair_play()
    taken: list[TrophyAward] = []
    awards = list(TrophyAward.objects.exclude(game__isnull=True, link=""))
    by_game: dict[int, list[TrophyAward]] = {}
    for item in awards:
        if item.game_id is not None:
            by_game.setdefault(item.game_id, []).append(item)
    for game in Game.objects.filter(pk__in=list(by_game)):
        still = {(e.user_id, e.key) for e in game_trophies(game)}
        taken += [a for a in by_game[game.pk] if (a.user_id, a.key) not in still]
    tournament_keys = {t.key for t in TOURNAMENTS}
    for tournament_id in tournaments.finished_ids():
        link = reverse("tournament", args=[tournament_id])
        given = [a for a in awards if a.link == link and a.key in tournament_keys]
        if given:
            still = {(e.user_id, e.key) for e in tournament_trophies(tournament_id)}
            taken += [a for a in given if (a.user_id, a.key) not in still]
    TrophyAward.objects.filter(pk__in=[a.pk for a in taken]).delete()
    return taken


def backfill() -> list[TrophyAward]:
    """Award every trophy the whole history shows and nobody holds yet."""
    made = []
    for game in finished_games().iterator():
        made += award(list(game_trophies(game)))
    users = GameResult.objects.filter(user__isnull=False).values_list("user_id", flat=True)
    for user_id in sorted(set(users)):
        made += award(list(puzzle_trophies(user_id)))
    for tournament_id in tournaments.finished_ids():
        made += award(list(tournament_trophies(tournament_id)))
    return made
