"""Avatars (docs/design.md "Players"): an upload is checked and decoded with Pillow, cropped
square, re-encoded as PNG at 256 and 64 px (which drops every piece of metadata, a photo's
GPS position included) and stored in Django's default storage; the old files go.

Refused, each with its own message: more than :data:`MAX_BYTES`; not a PNG, JPEG, WebP or
GIF (of a GIF, the first frame is taken); a declared size past :data:`MAX_PIXELS` for a JPEG or
:data:`MAX_FULL_PIXELS` for the others (a decompression bomb: checked from the header, before
anything is decoded) or a side past :data:`MAX_SIDE`; a file that does not decode.

Decoding is bounded in memory (README.md, "Limits and hostile input"): a JPEG is decoded in
reduced form (libjpeg's DCT scaling, Pillow's draft mode, to no less than :data:`DECODED_SIDE`
on a side: a 16-megapixel photo is read as 1 megapixel), the other formats, which cannot be
read reduced, have a lower pixel cap, and the image is shrunk before it is converted and
cropped. At most :data:`DECODING_AT_ONCE` uploads decode at a time in a process; past a wait of
:data:`DECODING_WAIT_S` an upload is refused with 503 ``avatar_busy``.
benchmarks/bench_avatars.py measures six at once.
"""

from __future__ import annotations

import io
import secrets
import threading
import warnings
from typing import IO

from django.core.files.base import ContentFile
from django.core.files.storage import default_storage
from PIL import Image, ImageOps, UnidentifiedImageError

from games.errors import Invalid, Unavailable

from .models import PlayerProfile

MAX_BYTES = 2 * 1024 * 1024
MAX_SIDE = 4096
MAX_PIXELS = 16_000_000  # a JPEG, decoded reduced
MAX_FULL_PIXELS = 4_200_000  # a PNG, WebP or GIF, decoded whole (2048 x 2048 fits)
FORMATS = {"PNG", "JPEG", "WEBP", "GIF"}
SIZES = (256, 64)
# Twice the largest crop: the image is shrunk to this before it is converted and cropped.
DECODED_SIDE = 2 * max(SIZES)
DECODING_AT_ONCE = 2
DECODING_WAIT_S = 10.0
_decoding = threading.BoundedSemaphore(DECODING_AT_ONCE)


def _decode(data: bytes) -> Image.Image:
    if len(data) > MAX_BYTES:
        raise Invalid("avatar_too_big", "An avatar may be at most 2 MB.")
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error", Image.DecompressionBombWarning)
            image = Image.open(io.BytesIO(data))
            if image.format not in FORMATS:
                raise Invalid("avatar_format", "An avatar is a PNG, JPEG, WebP or GIF image.")
            width, height = image.size
            if width * height > (MAX_PIXELS if image.format == "JPEG" else MAX_FULL_PIXELS):
                raise Invalid(
                    "avatar_bomb",
                    f"That image declares {width} x {height} pixels, far more than an avatar "
                    "needs; it is refused unread.",
                )
            if max(width, height) > MAX_SIDE:
                raise Invalid(
                    "avatar_dimensions", f"An avatar may be at most {MAX_SIDE} px on a side."
                )
            image.seek(0)  # a GIF's first frame
            if image.format == "JPEG":
                image.draft("RGB", (DECODED_SIDE, DECODED_SIDE))
            image.load()
    except (Image.DecompressionBombError, Image.DecompressionBombWarning):
        raise Invalid("avatar_bomb", "That image is too large to decode safely.") from None
    except (UnidentifiedImageError, OSError, SyntaxError, ValueError):
        raise Invalid("avatar_not_image", "That file is not an image that can be read.") from None
    return image


def crops(data: bytes) -> dict[int, bytes]:
    """The square PNG crops of an upload, by size; raises :class:`Invalid` when refused, and
    :class:`Unavailable` when other uploads held the decoders too long."""
    if not _decoding.acquire(timeout=DECODING_WAIT_S):
        raise Unavailable(
            "avatar_busy", "Too many avatars are being read right now; try again in a minute."
        )
    try:
        return _crops(data)
    finally:
        _decoding.release()


def _crops(data: bytes) -> dict[int, bytes]:
    image = _decode(data)
    image = ImageOps.exif_transpose(image)
    image.thumbnail((DECODED_SIDE, DECODED_SIDE), Image.Resampling.LANCZOS, reducing_gap=3.0)
    image = image.convert("RGBA")
    made = {}
    for size in SIZES:
        square = ImageOps.fit(image, (size, size), Image.Resampling.LANCZOS)
        out = io.BytesIO()
        square.save(out, "PNG", optimize=True)  # a new file: no EXIF, no text chunks
        made[size] = out.getvalue()
    return made


def set_avatar(profile: PlayerProfile, upload: IO[bytes]) -> None:
    """Store the new crops, then remove the files they replace."""
    data = upload.read(MAX_BYTES + 1)
    made = crops(data)
    old = [profile.avatar_256, profile.avatar_64]
    stem = f"avatars/{profile.user_id}-{secrets.token_hex(6)}"
    profile.avatar_256 = default_storage.save(f"{stem}-256.png", ContentFile(made[256]))
    profile.avatar_64 = default_storage.save(f"{stem}-64.png", ContentFile(made[64]))
    profile.save(update_fields=["avatar_256", "avatar_64"])
    remove_files(old)


def remove_files(names: list[str]) -> None:
    for name in names:
        if name and default_storage.exists(name):
            default_storage.delete(name)
