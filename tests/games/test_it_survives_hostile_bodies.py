"""Hostile input (issue 17): every JSON POST of docs/api.md and of the puzzles API, and the
game socket, answer malformed bodies with a 4xx and a sentence, never a 5xx, and the game stays
whole: tiles conserved, its log replaying to its cache (tests/games/conftest.py checks that)."""

from __future__ import annotations

import asyncio
import json
import random
import string
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import consumers, services
from games.engine.state import state_from_record
from games.models import Game
from puzzles.generator import read_fixture
from puzzles.management.commands.loadpuzzles import DEFAULT_FILE, load
from puzzles.models import Puzzle

from .conftest import viewer
from .test_it_pushes_frames_without_leaking_racks import cookie_of, socket

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.slow]

# The bodies of the probe, each once, beside what hypothesis makes up.
CRAFTED = [
    b'{"expected_seq": ' + b"9" * 5000 + b', "key": "abcdefgh"}',
    b'{"table": ' + b"[" * 2000 + b"]" * 2000 + b"}",
    b'{"table": [[' + b"[" * 900 + b"1" + b"]" * 900 + b"]]}",
    b'{"expected_seq": Infinity, "key": "abcdefgh"}',
    b'{"expected_seq": -Infinity}',
    b'{"expected_seq": NaN}',
    b'{"expected_seq": 1e400, "key": "abcdefgh"}',
    b'{"key": "\\ud800\\udbff' + b"\\ud800" * 3000 + b'"}',
    b'{"name": "\\udfff"}',
    '{"table": [["R\u00b2", "R\u0661", "R\uff11"]], "rack": ["R\u0661"]}'.encode(),
    b'{"rack": ["R1", "K\xd9\xa1"]}',
    b"\xff\xfe\x00{",
    b'{"players": 4000000, "mode": "parlor"}',
    b'{"players": "4000000", "seats": ' + b'["human", ' * 500 + b'"human"' + b"]" + b"}",
    b"[1, 2, 3]",
    b'"just a string"',
    b"{" + b'"a": 1, ' * 5000 + b'"b": 2}',
    b" " * 40000 + b"{}",
    b'{"table": [[1, 2, 3], [99999999999999, -5, 3.5, true, null, "R7"]]}',
    b'{"expected_seq": true, "key": ["x"], "table": {"a": 1}}',
]

# The crafted bodies the one JSON reader itself refuses (too big, deep, long numbers, non-finite
# numbers, bad Unicode, not an object).
UNREADABLE = [CRAFTED[i] for i in (0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 14, 15, 17)]

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-(10**30), max_value=10**30),
    st.floats(allow_nan=False, allow_infinity=False),
    st.text(max_size=30),
    st.text(alphabet="KBRYJ0123456789\u0661\uff11\u00b2 ", max_size=4),
)
VALUES = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=8), inner, max_size=4)
    ),
    max_leaves=20,
)
FIELDS = [
    "expected_seq",
    "key",
    "table",
    "rack",
    "name",
    "mode",
    "players",
    "seats",
    "save",
    "target",
    "rounds",
    "tiles",
    "clock",
    "days",
    "type",
    "action",
    "seat",
    "choice",
    "settings",
    "adopt",
]
BODIES = st.one_of(
    st.binary(max_size=120),
    st.dictionaries(st.sampled_from(FIELDS), VALUES, max_size=6).map(
        lambda d: json.dumps(d).encode()
    ),
    st.text(alphabet=string.printable + "\u0661\uff11", max_size=80).map(str.encode),
    st.sampled_from(CRAFTED),
)


def statuses_of(client: Client, url: str, bodies: list[bytes]) -> list[int]:
    seen = []
    for body in bodies:
        answer = client.post(url, body, content_type="application/json")
        assert answer["Content-Type"].startswith("application/json"), (url, body[:80])
        if answer.status_code >= 400:
            assert answer.json()["message"], (url, body[:80])
        seen.append(answer.status_code)
    return seen


@pytest.fixture
def table(alice: Any, bob: Any) -> tuple[Game, Client, Puzzle]:
    game = services.create_game(viewer(alice), {"mode": "parlor", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    load(read_fixture(Path(DEFAULT_FILE).read_text())["puzzles"][:3])
    client = Client()
    client.force_login(alice)
    return Game.objects.get(pk=game.pk), client, Puzzle.objects.order_by("level").first()


def mutated(text: str, seed: int) -> str:
    """``text`` with a few characters replaced, dropped or doubled: a seeded garbling."""
    rng = random.Random(seed)
    chars = list(text)
    for _ in range(rng.randint(1, 6)):
        at = rng.randrange(len(chars))
        choice = rng.random()
        if choice < 0.4:
            chars[at] = rng.choice('[]{}",:0123456789e-.\\u١ ')
        elif choice < 0.7:
            del chars[at]
        else:
            chars.insert(at, chars[at] * rng.randint(2, 400))
    return "".join(chars)


def assert_whole(game: Game) -> None:
    game.refresh_from_db()
    state = state_from_record(game.state)
    tiles = list(state.pool) + [t for r in state.racks for t in r]
    tiles += [t for m in state.table for t in m]
    assert sorted(tiles) == list(range(len(state.kinds)))


def test_every_json_post_answers_hostile_bodies_with_a_4xx(
    table: tuple[Game, Client, Puzzle],
) -> None:
    game, client, puzzle = table
    gid = game.public_id
    invite = game.seats.get(index=1).invite_token
    urls = [f"/api/games/{gid}/{action}" for action in ("play", "draw", "pass", "resign", "fly")]
    urls += ["/api/games/", f"/api/join/{invite}", "/puzzles/api/editor"]
    urls += [f"/puzzles/api/{puzzle.slug}/{what}" for what in ("attempt", "submit", "hint")]
    urls += [f"/puzzles/api/{puzzle.slug}/give-up"]
    urls += [f"/api/games/{gid}/{what}" for what in ("rematch", "away")] + ["/api/me/settings"]
    seen: list[int] = []

    @settings(
        max_examples=160,
        deadline=None,
        database=None,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
    )
    @given(st.lists(BODIES, min_size=1, max_size=1))
    def probe(bodies: list[bytes]) -> None:
        for url in urls:
            seen.extend(statuses_of(client, url, bodies))

    for url in urls:
        seen.extend(statuses_of(client, url, CRAFTED))
    # What the JSON reader refuses is refused on every endpoint, whatever fields it reads.
    for body in UNREADABLE:
        for url in urls:
            assert 400 <= statuses_of(client, url, [body])[0] < 500, (url, body[:60])
    probe()

    assert len(seen) >= 2000
    assert [s for s in seen if s >= 500] == []
    assert {400, 413} <= set(seen)
    assert_whole(game)


def test_the_socket_answers_hostile_messages_and_stays_open(
    table: tuple[Game, Client, Puzzle], monkeypatch: pytest.MonkeyPatch
) -> None:
    game, client, _ = table
    monkeypatch.setattr(consumers, "FLOOD_LIMIT", 10_000)
    texts = [body.decode("utf-8", "replace") for body in CRAFTED]
    texts += [
        json.dumps(
            {
                "type": "act",
                "action": "play",
                "expected_seq": game.seq,
                "key": "k" * 9,
                "table": [[1, 2, 3]],
            }
        ),
        '{"type": "act", "action": "draw", "expected_seq": 1e400, "key": "abcdefgh"}',
        '{"type": "act", "action": "\\ud800"}',
    ]
    extra = [mutated(texts[-3], seed) for seed in range(300)]

    async def scenario() -> list[dict[str, Any]]:
        sock = socket(game.public_id, cookie_of(client))
        connected, _ = await sock.connect()
        assert connected
        await sock.receive_json_from(timeout=10)  # hello
        answers = []
        for text in texts + extra:
            await sock.send_to(text_data=text)
            answers.append(await sock.receive_json_from(timeout=10))
        await sock.send_to(text_data='{"type":"ping"}')
        answers.append(await sock.receive_json_from(timeout=10))
        await sock.disconnect()
        return answers

    answers = asyncio.run(scenario())

    assert answers[-1] == {"type": "pong"}
    refused = [a for a in answers[:-1] if a.get("type") in ("error", "answer")]
    assert len(refused) == len(answers) - 1
    assert all(400 <= a.get("status", 400) < 500 for a in refused), [
        a for a in refused if a.get("status", 400) >= 500
    ]
    assert_whole(game)
