"""Hostile input (issue 17): every JSON POST of docs/api.md and of the puzzles API, and the
game socket, answer malformed bodies with a 4xx and a sentence, never a 5xx, and the game stays
whole: tiles conserved, its log replaying to its cache (tests/games/conftest.py checks that)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import re
import string
from pathlib import Path
from typing import Any
from urllib.parse import quote

import pytest
from django.test import Client
from django.urls import Resolver404, URLPattern, URLResolver, get_resolver, resolve
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import consumers, services
from games.engine.state import state_from_record
from games.models import Game, Seat
from games.routing import websocket_urlpatterns
from puzzles.generator import read_fixture
from puzzles.management.commands.loadpuzzles import DEFAULT_FILE, load
from puzzles.models import Puzzle

from .conftest import key, viewer
from .test_it_pushes_frames_without_leaking_racks import closing, cookie_of, socket

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
    # NUL (U+0000), which PostgreSQL cannot hold in text: in a value, a key, deep in a list.
    b'{"name": "a\\u0000b", "key": "abcdefgh\\u0000"}',
    b'{"key\\u0000": "abcdefgh", "expected_seq": 1}',
    b'{"table": [["R7", "K7", "Y7\\u0000"]], "settings": {"felt\\u0000": 1}}',
    b'{"move": {"action": "Discard", "tile": 1, "end": "\\u0000"}}',
    # A tile code whose digits Python will not read as a number (4,300 digits or more).
    b'{"table": [["R' + b"7" * 5000 + b'", "R8", "R9"]], "rack": ["R' + b"1" * 5000 + b'"]}',
]

# The crafted bodies the one JSON reader itself refuses (too big, deep, long numbers, non-finite
# numbers, bad Unicode, NUL, not an object).
UNREADABLE = [CRAFTED[i] for i in (0, 1, 2, 3, 4, 5, 6, 7, 8, 11, 14, 15, 17, 20, 21, 22, 23)]

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
        answer = client.post(url, body, content_type=JSON)
        assert answer["Content-Type"].startswith(JSON), (url, body[:80])
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


# Issue 30: the NUL character (U+0000) anywhere text comes in, the Rummy 45 move's fields of
# the wrong type and a tile code too long to read. Each was a 500 on PostgreSQL (the NUL) or on
# both databases; this file runs on both (CI's PostgreSQL leg sets DATABASE_URL).

JSON = "application/json"
NUL_ADDRESSES = [
    "/api/games/a%00b/",
    "/api/games/a%00b/events",
    "/api/games/a%00b/hint",
    "/api/games/{gid}/a%00b",
    "/g/a%00b/",
    "/g/a%00b/replay/",
    "/g/a%00b/record.json",
    "/g/a%00b/verify/",
    "/g/a%00b/replay/1/puzzle",
    "/join/a%00b/",
    "/@/a%00b/",
    "/@/a%00b/games/",
    "/@/a%00b/avatar.svg",
    "/accounts/unsubscribe/a%00b/",
    "/accounts/password/reset/key/1-a%00b/",
    "/puzzles/s/a%00b/",
    "/puzzles/a%00b/",
    "/puzzles/?mode=a%00b",
    "/puzzles/api/trainer?mode=a%00b",
    "/leaderboard/?page=1%00",
    "/api/games/{gid}/events?after=a%00b",
    "/?a%00b=1",
    "/admin/auth/user/?username=a%00b",
    "/media/a%00b.png",
]
NUL_POSTS = ["/api/join/a%00b", "/api/games/a%00b/draw", "/g/a%00b/rematch", "/join/a%00b/"]


def refused_for_nul(answer: Any) -> bool:
    """A 400 saying why: JSON with the reader's sentence, or the site's page with it."""
    if answer.status_code != 400:
        return False
    if answer["Content-Type"].startswith(JSON):
        return answer.json()["error"] == "nul_character" and "NUL" in answer.json()["message"]
    return "NUL character (U+0000)" in answer.content.decode()


def test_a_nul_in_an_address_is_a_400_with_a_sentence(duel: Game, admin_user: Any) -> None:
    gid = duel.public_id
    signed_in, staff = Client(), Client()
    signed_in.force_login(duel.seats.get(index=0).user)
    staff.force_login(admin_user)
    answers = []
    for client in (Client(), signed_in, staff):
        answers += [(url, client.get(url.format(gid=gid))) for url in NUL_ADDRESSES]
        answers += [
            (url, client.post(url.format(gid=gid), b"{}", content_type=JSON)) for url in NUL_POSTS
        ]

    assert [(url, a.status_code) for url, a in answers if not refused_for_nul(a)] == []


def test_no_path_parameter_takes_a_nul() -> None:
    """Every URL with a parameter of the site's own apps (and the game socket's) matches no
    value holding a NUL: the game socket, outside Django's middleware, relies on it."""

    def patterns(resolver: URLResolver, prefix: str = "") -> list[tuple[str, str]]:
        found = []
        for item in resolver.url_patterns:
            route = prefix + str(item.pattern)
            if isinstance(item, URLResolver):
                if not route.startswith("admin/"):
                    found += patterns(item, route)
            elif "<" in route and isinstance(item, URLPattern):
                found.append((route, item.lookup_str))
        return found

    routes = [r for r, view in patterns(get_resolver()) if not view.startswith("allauth.")]
    assert len(routes) > 20
    assert [r for r in routes if "<str:" in r or "<path:" in r] == []
    filled = [re.sub(r"<int:\w+>", "1", re.sub(r"<\w+:\w+>", "a\x00b", r)) for r in routes]
    matched = []
    for path in filled:
        with contextlib.suppress(Resolver404):
            matched.append((path, resolve("/" + path).url_name))
    assert matched == []
    socket_route = str(websocket_urlpatterns[0].pattern)
    assert "<segment:gid>" in socket_route


def test_a_socket_path_holding_a_nul_is_closed_as_unknown(duel: Game) -> None:
    client = Client()
    client.force_login(duel.seats.get(index=0).user)

    assert asyncio.run(closing(socket("a\x00b", cookie_of(client)))) == ("closed", 4404)


def nul_forms(duel: Game) -> list[tuple[str, dict[str, str]]]:
    nul = "a\x00b"
    invite = duel.seats.get(index=1).invite_token
    return [
        ("/games/new", {"name": nul, "mode": "parlor", "players": "2"}),
        (f"/join/{invite}/", {"name": nul}),
        ("/account/profile", {"display_name": nul, "bio": nul}),
        ("/account/board", {"felt": nul, "back": "plain", "sort": nul}),
        ("/account/delete", {"confirm": nul}),
        ("/puzzles/editor/", {"table": "R1 R2 R3", "rack": nul}),
        ("/accounts/preferences/", {"email_turn_notices": nul}),
        ("/accounts/login/", {"login": nul, "password": nul}),
        ("/accounts/signup/", {"username": nul, "email": "n@example.com", "password1": nul}),
        ("/accounts/password/reset/", {"email": f"{nul}@example.com"}),
        (f"/g/{duel.public_id}/rematch", {nul: "1"}),
        ("/admin/login/", {"username": nul, "password": nul}),
    ]


def test_a_nul_in_a_form_field_is_a_400_with_a_sentence(duel: Game) -> None:
    signed_in = Client()
    signed_in.force_login(duel.seats.get(index=0).user)
    answers = []
    for client in (Client(), signed_in):
        for url, fields in nul_forms(duel):
            answers.append((url, client.post(url, fields)))
            encoded = "&".join(f"{quote(k)}={quote(v)}" for k, v in fields.items())
            form = "application/x-www-form-urlencoded"
            answers.append((url, client.post(url, encoded, content_type=form)))

    assert [(url, a.status_code) for url, a in answers if not refused_for_nul(a)] == []


def test_nul_in_names_and_keys_is_refused_and_stores_nothing(duel: Game) -> None:
    """Through the API as a guest and as a player: a name or an idempotency key with a NUL is
    a 400, and no game, seat or receipt holds one."""
    alice = Client()
    alice.force_login(duel.seats.get(index=0).user)
    guest = Client()
    url = f"/api/games/{duel.public_id}/draw"
    answers = [
        guest.post("/api/games/", {"mode": "parlor", "players": 2, "name": "Ann\x00"}, JSON),
        alice.post(url, {"key": "abcdefgh\x00ij", "expected_seq": duel.seq}, JSON),
        alice.post(url, {"key": "abcdefghij", "expected_seq": duel.seq, "x\x00": 1}, JSON),
    ]
    # A correspondence game: alice plays one live game (the duel) at a time.
    other = services.create_game(
        viewer(duel.seats.get(index=0).user), {"mode": "parlor", "days": 3}
    )
    token = other.seats.get(index=1).invite_token
    answers.append(guest.post(f"/api/join/{token}", {"name": "B\x00b"}, JSON))

    assert [a.status_code for a in answers] == [400] * 4
    assert all(a.json()["error"] == "nul_character" for a in answers)
    assert Game.objects.get(pk=duel.pk).seq == duel.seq
    assert Game.objects.count() == 2
    assert not any("\x00" in name for name in Seat.objects.values_list("name", flat=True))


@pytest.mark.parametrize("bad", ["abcdefgh\x07", "abc\ndefgh", "abcdéfgh", "abcdefgh\u202e"])
def test_an_idempotency_key_is_printable_ascii(duel: Game, bad: str) -> None:
    alice = Client()
    alice.force_login(duel.seats.get(index=0).user)

    answer = alice.post(
        f"/api/games/{duel.public_id}/draw", {"key": bad, "expected_seq": duel.seq}, JSON
    )

    assert answer.status_code == 400 and answer.json()["error"] == "bad_key"
    assert Game.objects.get(pk=duel.pk).seq == duel.seq


def test_a_session_cookie_holding_a_nul_is_no_session() -> None:
    client = Client()
    client.cookies["sessionid"] = "abcdefgh\x00ijklmnop"

    answer = client.get("/")

    assert answer.status_code == 200 and not answer.wsgi_request.user.is_authenticated


def test_a_form_upload_to_the_json_api_is_a_400(duel: Game) -> None:
    """Multipart bodies are read by the CSRF check as a form; the JSON reader says so."""
    client = Client(enforce_csrf_checks=True)
    client.force_login(duel.seats.get(index=0).user)
    client.get(duel.get_absolute_url())
    token = client.cookies["csrftoken"].value

    answer = client.post(
        f"/api/games/{duel.public_id}/draw", {"key": "abcdefgh"}, HTTP_X_CSRFTOKEN=token
    )

    assert answer.status_code == 400 and answer.json()["error"] == "bad_json"


@pytest.mark.parametrize("length", ["abc", "1e3", "-"])
def test_a_content_length_that_is_not_a_number_is_a_400(duel: Game, length: str) -> None:
    """Django reads the header again for the body: that was a 500 (ValueError)."""
    client = Client()
    client.force_login(duel.seats.get(index=0).user)

    answer = client.post(
        f"/api/games/{duel.public_id}/draw",
        data=b"{}",
        content_type="application/json",
        CONTENT_LENGTH=length,
    )

    assert answer.status_code == 400
    assert answer.json() == {
        "error": "bad_length",
        "message": "The Content-Length header is not a whole number.",
    }


# Rummy 45 moves whose fields have the wrong type: the action named by a list or an object
# (unhashable: a 500 before), and each field of each action given a value of another shape.
R45_BAD_MOVES: list[Any] = [
    {"action": ["Draw"]},
    {"action": {"Draw": 1}},
    {"action": 7},
    {"action": None},
    {"action": "Discard", "tile": [1]},
    {"action": "Discard", "tile": {"a": 1}},
    {"action": "Discard", "tile": True},
    {"action": "Discard", "tile": "4"},
    {"action": "Stitch", "tile": 4, "meld": 0, "end": ["low"]},
    {"action": "Display", "melds": [[1, [2], 3]]},
    {"action": "Display", "melds": {"a": 1}},
    {"action": "Display", "melds": [{"a": 1}]},
    {"action": "AnnounceDoubles", "sizes": [["big"]]},
    {"action": "AnnounceDoubles", "sizes": [{"big": 1}]},
    {"action": "TakeDiscard", "on_board": "yes"},
    {"action": "AnswerExchange", "give": [3]},
    {"action": "Borrow", "meld": 0, "give": [[4]], "melds": [[1, 2, 3]]},
    {"action": "OfferExchange", "to": {"seat": 1}, "give": 3},
    [1, 2],
    "Draw",
]


@pytest.fixture
def r45_duel(alice: Any, bob: Any) -> Game:
    game = services.create_game(viewer(alice), {"mode": "r45", "players": 2})
    services.join_game(viewer(bob), game.seats.get(index=1).invite_token)
    return Game.objects.get(pk=game.pk)


def test_a_rummy45_move_of_the_wrong_shape_is_a_400(r45_duel: Game) -> None:
    client = Client()
    client.force_login(r45_duel.seats.get(index=0).user)
    url = f"/api/games/{r45_duel.public_id}/r45"
    answers = [
        client.post(url, {"move": move, "key": key(), "expected_seq": r45_duel.seq}, JSON)
        for move in R45_BAD_MOVES
    ]

    assert [a.status_code for a in answers] == [400] * len(R45_BAD_MOVES)
    assert all(a.json()["error"] == "bad_action" and a.json()["message"] for a in answers)
    assert Game.objects.get(pk=r45_duel.pk).seq == r45_duel.seq


def test_a_rummy45_move_of_the_wrong_shape_on_the_socket_is_an_error_frame(
    r45_duel: Game,
) -> None:
    client = Client()
    client.force_login(r45_duel.seats.get(index=0).user)

    async def scenario() -> list[dict[str, Any]]:
        sock = socket(r45_duel.public_id, cookie_of(client))
        connected, _ = await sock.connect()
        assert connected
        await sock.receive_json_from(timeout=10)  # hello
        answers = []
        for move in R45_BAD_MOVES:
            act = {"type": "act", "action": "r45", "move": move, "key": key()}
            await sock.send_json_to({**act, "expected_seq": r45_duel.seq})
            answers.append(await sock.receive_json_from(timeout=10))
        await sock.send_to(text_data='{"type":"ping"}')
        answers.append(await sock.receive_json_from(timeout=10))
        await sock.disconnect()
        return answers

    answers = asyncio.run(scenario())

    assert answers[-1] == {"type": "pong"}
    assert [(a["status"], a["error"]) for a in answers[:-1]] == [(400, "bad_action")] * len(
        R45_BAD_MOVES
    )


LONG_TILE = "R" + "7" * 5000


def test_a_tile_code_of_5000_digits_is_refused_by_the_puzzles(
    table: tuple[Game, Client, Puzzle],
) -> None:
    _, client, puzzle = table
    bodies = [
        ("/puzzles/api/editor", {"table": [[LONG_TILE, "R8", "R9"]], "rack": ["R1"]}),
        ("/puzzles/api/editor", {"table": [["R7", "R8", "R9"]], "rack": [LONG_TILE]}),
        ("/puzzles/api/editor", {"table": [[LONG_TILE]], "rack": ["R1"], "save": True}),
        (f"/puzzles/api/{puzzle.slug}/submit", {"table": [[LONG_TILE, "R8", "R9"]]}),
    ]
    assert client.post(f"/puzzles/api/{puzzle.slug}/attempt", {}, JSON).status_code < 300
    answers = [client.post(url, body, JSON) for url, body in bodies]
    page = client.post("/puzzles/editor/", {"table": LONG_TILE, "rack": LONG_TILE})
    short = client.post("/puzzles/editor/", {"table": "R7 R8 R9", "rack": "R" + "1" * 80})

    assert [a.status_code for a in answers] == [400] * 4, [a.json() for a in answers]
    assert all("unknown tile 'R7777" in a.json()["message"] for a in answers)
    assert all(len(a.json()["message"]) < 200 for a in answers)
    assert page.status_code == 400 and short.status_code == 400
    assert "unknown tile" in short.content.decode()
