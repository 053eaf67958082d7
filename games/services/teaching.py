"""The rules page's teaching replays (docs/rules-45.md "Teaching replays"): for each of four
Rummy 45 rules, a short bot game shipped with the site as an exported record (a fresh install
has no games to show), and the replay steps around the moment the rule is used.

The records live in ``games/teaching/`` (``r45-<rule>.json``, the shape of
``/g/<id>/record.json`` plus a ``teaching`` block). ``write_records`` plays them again: for
each rule, seeded bot games of the engine's own bots, each bot seeing only its own view, and
the first game in which the rule's event happens is kept. The same seeds give the same files,
so ``python manage.py teachingrecords`` rewrites them byte for byte until the engine or its
bots change (then it writes the new first games, and the suite says the files are stale).

>>> [lesson.slug for lesson in LESSONS]
['train-break', 'joker-borrow', 'stitched-one', 'board-game']
"""

from __future__ import annotations

import hashlib
import json
import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..engine.errors import IllegalMove, InvalidInput
from ..engine.r45.family import R45
from ..engine.r45.state import TILES, to_act
from ..engine.r45.views import CODES

FOLDER = Path(__file__).resolve().parent.parent / "teaching"
NAMES = ("Ana", "Ben", "Cora", "Dan")
# The teaching window: this many steps before the rule's moment and after it.
BEFORE, AFTER = 5, 3
MAX_ATTEMPTS = 400
MAX_ACTIONS = 5000


def _codes(tiles: Sequence[int]) -> str:
    return " ".join(CODES[t] for t in tiles)


def _train_break(event: Mapping[str, Any], names: Sequence[str]) -> str:
    who, tiles = names[event["seat"]], event["tiles"]
    later = f", and every discard after it ({_codes(tiles[1:])})" if len(tiles) > 1 else ""
    return (
        f"{who} has displayed on an earlier turn, so may break the train: {who} takes the "
        f"discard {CODES[tiles[0]]}{later}, and must use {CODES[tiles[0]]} at once in a new "
        "meld with at least 2 tiles of their own."
    )


def _joker_borrow(event: Mapping[str, Any], names: Sequence[str]) -> str:
    given = _codes(event["given"])
    return (
        f"{names[event['seat']]} puts {given} in the joker's place in a displayed meld "
        f"(now {_codes(event['tiles'])}) and takes the joker, which must go straight into a "
        "new display in the same move, never into a stitch."
    )


def _stitched_one(event: Mapping[str, Any], names: Sequence[str]) -> str:
    who, code = names[event["seat"]], CODES[event["tile"]]
    if event["taken_back"]:
        side = "13" if event["end"] == "high" else "2"
        return (
            f"{who} stitches {code} onto the {event['end']} end of a run: a 1 stitched to a "
            f"run's end is taken back, so it goes face down to {who}'s take-back pile (25 "
            f"points at the end) and the run's {side} is turned over: that end is closed."
        )
    return (
        f"{who} stitches {code} onto a set of 1s: it stays in the set like any other tile and "
        f"counts for {who}."
    )


def _board_game(event: Mapping[str, Any], names: Sequence[str]) -> str:
    return (
        f"{names[event['seat']]} never displayed and goes out on the board: after taking, "
        f"one discard ({CODES[event['tile']]}) and the 14 tiles left make a "
        f"{event['combination']} combination, worth {event['points']} points."
    )


@dataclass(frozen=True)
class Lesson:
    """One rule taught by a replay: what it is called, where the rules page explains it, the
    bots that play its game, which event is its moment and the sentence that says what
    happens there."""

    slug: str
    title: str
    anchor: str  # the rules page's element id for the rule
    summary: str  # the rule in a sentence, above the replay
    players: int
    strengths: tuple[str, ...]
    is_moment: Callable[[Mapping[str, Any]], bool]
    explain: Callable[[Mapping[str, Any], Sequence[str]], str]

    @property
    def names(self) -> tuple[str, ...]:
        return NAMES[: self.players]

    @property
    def path(self) -> Path:
        return FOLDER / f"r45-{self.slug}.json"


def _is_stitched_one(event: Mapping[str, Any]) -> bool:
    return (
        event["kind"] == "Stitched"
        and TILES[event["tile"]].number == 1
        and bool(event["taken_back"])
    )


LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "train-break",
        "Breaking the train",
        "r45-turn",
        "A player who has displayed on an earlier turn may take the train from any discard after "
        "the locomotive: that first tile goes at once into a new meld with at least 2 tiles of "
        "their own, and every later discard comes along.",
        2,
        ("hard", "hard"),
        lambda e: e["kind"] == "TrainBroken",
        _train_break,
    ),
    Lesson(
        "joker-borrow",
        "Borrowing a joker",
        "r45-stitching",
        "Whoever holds the tile a joker stands for in a run may put it in the joker's place and "
        "take the joker (a set gives its joker to whoever completes it to 4 real tiles); the "
        "joker goes straight into a new display.",
        2,
        ("hard", "hard"),
        lambda e: e["kind"] == "JokerBorrowed",
        _joker_borrow,
    ),
    Lesson(
        "stitched-one",
        "A stitched 1 taken back",
        "r45-stitching",
        "A 1 stitched onto the end of a run is taken back: it goes face down to the stitcher's "
        "take-back pile, worth 25 at the end, and the run's end tile is turned over, closing "
        "that end.",
        2,
        ("hard", "hard"),
        _is_stitched_one,
        _stitched_one,
    ),
    Lesson(
        "board-game",
        "A game won on the board",
        "r45-winning",
        "A player who has never displayed may go out on the board: after taking, they discard "
        "one tile and the 14 left make a combination (doubles, monocolor, majors, bicolor, "
        "mozaic, minors or a normal game).",
        2,
        ("expert", "hard"),
        lambda e: e["kind"] == "WentOutOnBoard",
        _board_game,
    ),
)
BY_SLUG = {lesson.slug: lesson for lesson in LESSONS}


def play(lesson: Lesson, attempt: int) -> tuple[bytes, list[dict[str, Any]]]:
    """One seeded bot game for ``lesson``: its seed and its events as dicts. A bot's refused
    choice is replaced by the family's fallback, as the site's bot turns do."""
    seed = hashlib.sha256(f"rummi teaching {lesson.slug} {attempt}".encode()).digest()
    rng = random.Random(f"{lesson.slug} {attempt}")
    state, events = R45.new_game(R45.setup("r45", {"players": lesson.players}), seed)
    log = list(events)
    for _ in range(MAX_ACTIONS):
        if state.finished:
            break
        seat = to_act(state)[0]
        action = R45.bot_action(R45.view_for(state, seat), rng, lesson.strengths[seat])
        try:
            state, new = R45.apply(state, action, seed)
        except (IllegalMove, InvalidInput):
            state, new = R45.apply(state, R45.fallback_action(state, seat), seed)
        log.extend(new)
    return seed, [e.to_dict() for e in log]


def find_record(lesson: Lesson) -> dict[str, Any]:
    """The first seeded game (attempt 0, 1, ...) that ends and has the lesson's moment."""
    for attempt in range(MAX_ATTEMPTS):
        seed, events = play(lesson, attempt)
        if events[-1]["kind"] != "GameEnded":
            continue
        moment = next((i for i, e in enumerate(events) if lesson.is_moment(e)), None)
        if moment is None:
            continue
        return {
            "game": f"teach-r45-{lesson.slug}",
            "mode": "r45",
            "commitment": events[0]["commitment"],
            "seed": seed.hex(),
            "events": events,
            "stand_ins": [],
            "teaching": {
                "rule": lesson.slug,
                "title": lesson.title,
                "names": list(lesson.names),
                "strengths": list(lesson.strengths),
                "attempt": attempt,
                "moment": moment,
            },
        }
    raise ValueError(f"no game of {MAX_ATTEMPTS} shows {lesson.slug}")


def record_text(record: Mapping[str, Any]) -> str:
    """A record as its file holds it: one event a line, so a diff reads event by event."""
    head = {k: v for k, v in record.items() if k != "events"}
    lines = ",\n".join("    " + json.dumps(e, sort_keys=True) for e in record["events"])
    body = json.dumps(head, indent=2, sort_keys=True)[:-2]
    return body + ',\n  "events": [\n' + lines + "\n  ]\n}\n"


def write_records(slugs: Sequence[str] = ()) -> list[Path]:
    """Play and write the records of ``slugs`` (all when empty); the paths written."""
    written = []
    for lesson in LESSONS:
        if slugs and lesson.slug not in slugs:
            continue
        lesson.path.parent.mkdir(parents=True, exist_ok=True)
        lesson.path.write_text(record_text(find_record(lesson)))
        written.append(lesson.path)
    return written


def load(lesson: Lesson) -> dict[str, Any]:
    record: dict[str, Any] = json.loads(lesson.path.read_text())
    return record


def teaching_steps(lesson: Lesson) -> tuple[list[dict[str, Any]], int]:
    """The replay steps around the lesson's moment, in the replay page's shape (every board
    shown: the game is over and played by bots), and the index of the moment among them; the
    moment's step carries the ``lesson`` sentence."""
    record = load(lesson)
    events, moment = record["events"], record["teaching"]["moment"]
    names = record["teaching"]["names"]
    first, last = max(1, moment - BEFORE), min(len(events) - 1, moment + AFTER)
    state = R45.replay([events[0]])
    steps = []
    for seq, payload in enumerate(events[1 : last + 1], start=1):
        state = R45.evolve(state, R45.event_from_dict(payload))
        if seq < first:
            continue
        step = R45.replay_step(state, True)
        note = step.pop("note", "")
        for seat, rack in enumerate(step["racks"]):
            rack["name"] = names[seat]
        step = {"seq": seq, "text": R45.describe(payload, names) + note, **step}
        if seq == moment:
            step["lesson"] = lesson.explain(payload, names)
        steps.append(step)
    return steps, moment - first
