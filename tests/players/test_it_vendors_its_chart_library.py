"""The rating chart's library is vendored (static/vendor/chartjs/): the pinned build with its
licence, the same version package.json pins, so the site needs no npm at run time."""

from __future__ import annotations

import hashlib
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
VENDOR = ROOT / "static" / "vendor" / "chartjs"


def test_the_vendored_build_is_the_pinned_release_with_its_licence() -> None:
    build = (VENDOR / "chart.umd.min.js").read_bytes()
    pinned = json.loads((ROOT / "package.json").read_text())["devDependencies"]["chart.js"]
    header = re.search(rb"Chart\.js v(\S+)", build[:200])
    assert header and header.group(1).decode() == pinned
    readme = (VENDOR / "README.md").read_text()
    assert f"Chart.js {pinned}" in readme
    assert hashlib.sha256(build).hexdigest() in readme
    assert "MIT License" in (VENDOR / "LICENSE.md").read_text()
    installed = ROOT / "node_modules" / "chart.js" / "dist" / "chart.umd.min.js"
    if installed.exists():  # after `npm ci`: byte for byte the package's own build
        assert installed.read_bytes() == build
