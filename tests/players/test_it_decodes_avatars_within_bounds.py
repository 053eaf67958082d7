"""Avatar decoding is bounded (issue 30; players/avatars.py): a large JPEG is read reduced and
still cropped, a large PNG (which cannot be read reduced) is refused from its header, and
uploads past the decoders' bound wait, then get a 503 with a sentence. The memory figure is
benchmarks/bench_avatars.py's."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from PIL import Image

from players import avatars
from players.models import PlayerProfile

from .conftest import make_users

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _media(settings: Any, tmp_path: Path) -> None:
    settings.MEDIA_ROOT = tmp_path / "media"


@pytest.fixture
def ann_client(django_user_model: Any) -> tuple[Any, Client]:
    (ann,) = make_users(django_user_model, "ann")
    client = Client()
    client.force_login(ann)
    return ann, client


def encoded(fmt: str, size: tuple[int, int]) -> bytes:
    out = io.BytesIO()
    Image.linear_gradient("L").resize(size).convert("RGB").save(out, fmt)
    return out.getvalue()


def upload(client: Client, data: bytes) -> Any:
    return client.post("/account/avatar", {"avatar": SimpleUploadedFile("me", data)})


def test_a_16_megapixel_jpeg_is_read_reduced_and_cropped(ann_client: Any, monkeypatch: Any) -> None:
    ann, client = ann_client
    data = encoded("JPEG", (4000, 4000))
    loaded: list[tuple[int, int]] = []
    load = Image.Image.load

    def noting(image: Image.Image) -> Any:
        result = load(image)
        loaded.append(image.size)
        return result

    monkeypatch.setattr(Image.Image, "load", noting)

    answer = upload(client, data)

    assert answer.status_code == 302
    assert PlayerProfile.of(ann).avatar_256
    # libjpeg's DCT scaling read it at a quarter of its side, not 4000 x 4000.
    assert max(max(size) for size in loaded) == 1000


def test_a_png_too_large_to_decode_whole_is_refused_unread(ann_client: Any) -> None:
    _, client = ann_client

    answer = upload(client, encoded("PNG", (2500, 2500)))

    assert answer.status_code == 400 and "2500 x 2500 pixels" in answer.content.decode()


def test_uploads_past_the_decoders_bound_wait_and_are_refused(
    ann_client: Any, monkeypatch: Any
) -> None:
    _, client = ann_client
    monkeypatch.setattr(avatars, "DECODING_WAIT_S", 0.05)
    held = [avatars._decoding.acquire() for _ in range(avatars.DECODING_AT_ONCE)]
    try:
        busy = upload(client, encoded("PNG", (40, 40)))
    finally:
        for _ in held:
            avatars._decoding.release()
    after = upload(client, encoded("PNG", (40, 40)))

    assert busy.status_code == 503 and "Too many avatars" in busy.content.decode()
    assert after.status_code == 302
