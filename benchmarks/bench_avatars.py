"""Memory and time of six avatar uploads decoded at once (players/avatars.py), issue 30's case: a
16-megapixel JPEG of about 1 MB, which took daphne from 175 to 1,299 MB when six accounts
uploaded it together.

Each variant runs in a fresh process (production settings, SQLite of its own) that makes the
JPEG, notes its resident memory, then has six threads make the crops of the same upload at once
while a sampler reads /proc/self/status; reported: the peak growth of resident memory (target:
under 200 MB) and the seconds for all six. ``bounded`` is players.avatars.crops (a JPEG decoded
reduced, at most two at a time); ``whole`` decodes the photo at full size as the code did before,
for comparison.
"""

from __future__ import annotations

import io
import json
import sys
import threading
import time
from typing import Any

from .bench_players import run_driver

UPLOADS = 6
SIDE = 4000


def main() -> dict[str, Any]:
    results = {variant: run_driver("benchmarks.bench_avatars", variant) for variant in VARIANTS}
    results["target_mb"] = 200
    results["bounded_within_target"] = results["bounded"]["rss_growth_mb"] < 200
    return results


def photo() -> bytes:
    """A 4000 x 4000 JPEG of about 1 MB: smooth colour fields, as a photo compresses."""
    from PIL import Image

    blobs = Image.effect_noise((100, 100), 80).resize((SIDE, SIDE), Image.Resampling.BICUBIC)
    ramp = Image.linear_gradient("L").resize((SIDE, SIDE))
    image = Image.merge("RGB", (blobs, ramp, blobs.transpose(Image.Transpose.ROTATE_90)))
    out = io.BytesIO()
    image.save(out, "JPEG", quality=75)
    return out.getvalue()


def rss_mb() -> float:
    with open("/proc/self/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def whole(data: bytes) -> dict[int, bytes]:
    """The crops as made before the bound: the photo decoded at full size, then converted."""
    from PIL import Image, ImageOps

    image = Image.open(io.BytesIO(data))
    image.load()
    image = ImageOps.exif_transpose(image).convert("RGBA")
    made = {}
    for size in (256, 64):
        out = io.BytesIO()
        ImageOps.fit(image, (size, size), Image.Resampling.LANCZOS).save(out, "PNG")
        made[size] = out.getvalue()
    return made


def measure(variant: str) -> dict[str, Any]:
    import os

    import django

    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")
    django.setup()
    from players import avatars

    make = avatars.crops if variant == "bounded" else whole
    data = photo()
    make(data)  # warm: Pillow's plugins and buffers, the first time
    baseline = rss_mb()
    peak = baseline
    done = threading.Event()

    def sample() -> None:
        nonlocal peak
        while not done.is_set():
            peak = max(peak, rss_mb())
            time.sleep(0.005)

    sampler = threading.Thread(target=sample)
    sampler.start()
    started = time.perf_counter()
    uploads = [threading.Thread(target=make, args=(data,)) for _ in range(UPLOADS)]
    for upload in uploads:
        upload.start()
    for upload in uploads:
        upload.join()
    seconds = time.perf_counter() - started
    done.set()
    sampler.join()
    return {
        "upload_bytes": len(data),
        "pixels": SIDE * SIDE,
        "uploads_at_once": UPLOADS,
        "rss_before_mb": round(baseline, 1),
        "rss_growth_mb": round(peak - baseline, 1),
        "seconds_for_all": round(seconds, 3),
    }


VARIANTS = ("bounded", "whole")

if __name__ == "__main__":
    print(json.dumps(measure(sys.argv[1])))
