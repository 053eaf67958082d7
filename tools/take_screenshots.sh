#!/usr/bin/env bash
# Take the committed screenshots of every page (docs/screenshots/walk-*.png), signed out and in,
# at 1280 and 390 px: the page walk of tests/browser/test_it_walks_every_page.py, told by
# RUMMI_SCREENSHOTS=1 to write them there instead of var/screenshots/. Needs make venv and make axe.
set -euo pipefail
cd "$(dirname "$0")/.."
RUMMI_SCREENSHOTS=1 exec .venv/bin/python -m pytest -p no:cacheprovider -p no:xdist -q \
    tests/browser/test_it_walks_every_page.py "$@"
