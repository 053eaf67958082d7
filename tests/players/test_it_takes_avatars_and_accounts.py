"""Avatars and the account page (docs/design.md "Players"): what Pillow may decode, crops
without metadata, old files removed; the display name, the data download, deletion."""

from __future__ import annotations

import io
import struct
import zlib
from pathlib import Path
from typing import Any

import pytest
from django.core.files.storage import default_storage
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from games import services
from games.engine.state import replay, state_to_record
from games.models import Game, GameResult, Seat, Status
from players.models import PlayerProfile

from .conftest import make_users, play_out, viewer

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


def chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def bomb() -> bytes:
    """A 1 KB PNG whose header declares 50,000 x 50,000 pixels."""
    header = struct.pack(">IIBBBBB", 50_000, 50_000, 8, 2, 0, 0, 0)
    body = chunk(b"IHDR", header) + chunk(b"tEXt", b"pad\0" + b"x" * 900)
    body += chunk(b"IDAT", zlib.compress(b"\0" * 1000)) + chunk(b"IEND", b"")
    return b"\x89PNG\r\n\x1a\n" + body


def photo(fmt: str = "JPEG", size: tuple[int, int] = (400, 300)) -> bytes:
    image = Image.new("RGB", size, (200, 40, 40))
    out = io.BytesIO()
    extra: dict[str, Any] = {}
    if fmt == "JPEG":
        exif = Image.Exif()
        exif[0x8825] = {2: (52.0, 30.0, 0.0)}  # a GPS position
        exif[0x010F] = "PhoneMaker"
        extra["exif"] = exif
    image.save(out, fmt, **extra)
    return out.getvalue()


def upload(client: Client, data: bytes, name: str = "me.jpg") -> Any:
    return client.post("/account/avatar", {"avatar": SimpleUploadedFile(name, data)})


@pytest.fixture
def ann_client(django_user_model: Any) -> tuple[Any, Client]:
    (ann,) = make_users(django_user_model, "ann")
    client = Client()
    client.force_login(ann)
    return ann, client


def test_a_1kb_png_declaring_50000_square_is_refused(ann_client: Any) -> None:
    ann, client = ann_client
    data = bomb()
    assert 900 < len(data) <= 1100

    answer = upload(client, data, "bomb.png")

    assert answer.status_code == 400 and "too large to decode" in answer.content.decode()
    assert not PlayerProfile.of(ann).avatar_256


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (b"this is not an image at all", "not an image"),
        (photo("BMP", (10, 10)), "PNG, JPEG, WebP or GIF"),
        (photo("PNG", (5000, 10)), "at most 4096 px"),
        (b"\0" * (2 * 1024 * 1024 + 10), "at most 2 MB"),
    ],
)
def test_non_images_other_formats_and_sizes_are_refused(
    ann_client: Any, data: bytes, message: str
) -> None:
    _, client = ann_client

    answer = upload(client, data)

    assert answer.status_code == 400 and message in answer.content.decode()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP", "GIF"])
def test_an_avatar_is_stored_as_square_crops_without_metadata(ann_client: Any, fmt: str) -> None:
    ann, client = ann_client

    assert upload(client, photo(fmt)).status_code == 302

    profile = PlayerProfile.of(ann)
    for name, size in ((profile.avatar_256, 256), (profile.avatar_64, 64)):
        with default_storage.open(name) as stored:
            data = stored.read()
        image = Image.open(io.BytesIO(data))
        assert image.size == (size, size) and image.format == "PNG"
        assert not image.getexif() and b"PhoneMaker" not in data and not image.text
    assert profile.avatar_256 in Client().get("/@/ann/").content.decode()


def test_a_new_avatar_removes_the_old_files(ann_client: Any) -> None:
    ann, client = ann_client
    upload(client, photo())
    old = PlayerProfile.of(ann)

    upload(client, photo("PNG"))

    new = PlayerProfile.of(ann)
    assert new.avatar_256 != old.avatar_256
    assert not default_storage.exists(old.avatar_256) and not default_storage.exists(old.avatar_64)
    assert default_storage.exists(new.avatar_64)


def test_the_default_avatar_is_drawn_from_the_initials(ann_client: Any) -> None:
    ann, client = ann_client
    client.post("/account/profile", {"display_name": "Ann Lee", "bio": ""})

    answer = Client().get("/@/ann/avatar.svg")

    assert answer["Content-Type"] == "image/svg+xml" and b">AL</text>" in answer.content


def test_a_display_name_is_unique_and_follows_its_rules(
    ann_client: Any, django_user_model: Any
) -> None:
    ann, client = ann_client
    (ben,) = make_users(django_user_model, "ben")
    other = Client()
    other.force_login(ben)

    assert client.post("/account/profile", {"display_name": "Tile Queen"}).status_code == 302
    taken = other.post("/account/profile", {"display_name": "tile queen"})
    bad = other.post("/account/profile", {"display_name": "<b>"})

    assert taken.status_code == 409 and "taken" in taken.content.decode()
    assert bad.status_code == 400 and "3 to 24 letters" in bad.content.decode()
    assert "Tile Queen" in Client().get("/@/ann/").content.decode()


def test_the_data_download_and_deletion(
    django_user_model: Any, django_capture_on_commit_callbacks: Any, ann_client: Any
) -> None:
    ann, client = ann_client
    (ben,) = make_users(django_user_model, "ben")
    game = play_out(django_capture_on_commit_callbacks, [ann, ben], [1])
    upload(client, photo())
    files = [PlayerProfile.of(ann).avatar_256, PlayerProfile.of(ann).avatar_64]

    data = client.get("/account/data.json").json()
    assert data["games"][0]["game"] == game.public_id and data["trophies"]

    refused = client.post("/account/delete", {"confirm": "bob"})
    done = client.post("/account/delete", {"confirm": "ann"})

    assert refused.status_code == 400 and done.status_code == 302
    assert not django_user_model.objects.filter(username="ann").exists()
    assert GameResult.objects.get(game=game, seat=0).name == "deleted player"
    assert Seat.objects.get(game=game, index=0).name == "deleted player"
    assert not any(default_storage.exists(f) for f in files)
    assert Client().get(f"/g/{game.public_id}/replay/").status_code == 200


def test_a_deleted_account_resigns_its_games_and_leaves_its_waiting_tables(
    django_user_model: Any, django_capture_on_commit_callbacks: Any, ann_client: Any
) -> None:
    """Nobody waits out a gone player's clock: deleting an account resigns the games it is
    playing (live and correspondence), through the event log like any resignation, and leaves
    the tables waiting for players: its seat opens again beside a person already seated, and a
    table it sat at alone is deleted."""
    ann, client = ann_client
    ben, cleo, dan = make_users(django_user_model, "ben", "cleo", "dan")
    live = play_out(django_capture_on_commit_callbacks, [ann, ben], [], rated=False)
    by_post = play_out(
        django_capture_on_commit_callbacks,
        [cleo, ann, dan],
        [],
        rated=False,
        options={"days": 3},
    )
    by_post_options = {"mode": "parlor", "days": 3}
    with_ben = services.create_game(viewer(ben), {**by_post_options, "players": 3})
    services.join_game(viewer(ann), with_ben.seats.get(index=1).invite_token)
    alone = services.create_game(viewer(ann), {**by_post_options, "players": 2})
    assert live.status == by_post.status == Status.PLAYING

    with django_capture_on_commit_callbacks(execute=True):
        assert client.post("/account/delete", {"confirm": "ann"}).status_code == 302

    live.refresh_from_db()
    assert live.status == Status.FINISHED  # ben, alone at the table, wins
    assert GameResult.objects.get(game=live, seat=1).place == 1
    by_post.refresh_from_db()  # two people left: the game goes on without her
    assert by_post.status == Status.PLAYING
    assert by_post.events.filter(kind="PlayerResigned").count() == 1
    for game in (live, by_post):  # the log is the truth: its replay is the cached state
        events = [e.payload for e in game.events.order_by("seq")]
        assert state_to_record(replay(events)) == game.state
    seat = Seat.objects.get(game=with_ben, index=1)
    assert seat.is_open and seat.user_id is None and seat.name == ""
    assert Game.objects.get(pk=with_ben.pk).status == Status.WAITING
    assert not Game.objects.filter(pk=alone.pk).exists()


def test_the_drawn_avatar_is_asked_again_and_changes_with_the_name(ann_client: Any) -> None:
    """Kept an hour (max-age=3600), the drawn avatar showed the old initials that long after a
    name change or an upload: now the browser keeps it but asks again each time (no-cache),
    and gets a 304 while it is the same, the new drawing once it is not."""
    ann, client = ann_client
    client.post("/account/profile", {"display_name": "Ann Lee", "bio": ""})
    first = Client().get("/@/ann/avatar.svg")
    assert first["Cache-Control"] == "no-cache" and first["ETag"]
    same = Client().get("/@/ann/avatar.svg", headers={"If-None-Match": first["ETag"]})
    assert same.status_code == 304 and same["ETag"] == first["ETag"] and not same.content

    client.post("/account/profile", {"display_name": "Bea Cole", "bio": ""})
    changed = Client().get("/@/ann/avatar.svg", headers={"If-None-Match": first["ETag"]})
    assert changed.status_code == 200 and b">BC</text>" in changed.content
    assert changed["ETag"] != first["ETag"]

    upload(client, photo("PNG"))
    moved = Client().get("/@/ann/avatar.svg", headers={"If-None-Match": changed["ETag"]})
    assert moved.status_code == 302 and moved["Cache-Control"] == "no-cache"
    assert moved["Location"].endswith(".png")
