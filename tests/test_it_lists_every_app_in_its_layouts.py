"""The layouts stay true: README's "Layout" and docs/design.md's "Layout" list every top-level
app (a package with an apps.py), and docs/design.md "Layers and the import rule" draws the
layers in the order rummi_site/layers.py declares."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from rummi_site.layers import LAYERS

ROOT = Path(__file__).resolve().parent.parent


def apps() -> set[str]:
    return {p.parent.name for p in ROOT.glob("*/apps.py")}


def section(text: str, title: str) -> str:
    """The body of the ``## title`` section."""
    found = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    assert found, f"no section {title!r}"
    return found.group(1)


def blocks(body: str) -> list[str]:
    return re.findall(r"^```\w*\n(.*?)^```", body, re.S | re.M)


def listed(layout: str) -> set[str]:
    """The top-level folders a layout block names at the start of a line ("games/ ...")."""
    return {m.group(1) for m in re.finditer(r"^([a-z_]\w*)/", layout, re.M)}


@pytest.mark.parametrize("document", ["README.md", "docs/design.md"])
def test_every_app_is_in_the_layout(document: str) -> None:
    (layout, *_) = blocks(section((ROOT / document).read_text(), "Layout"))

    missing = apps() - listed(layout)

    assert missing == set(), f"{document} 'Layout' leaves out {sorted(missing)}"


def test_it_sees_an_app_left_out() -> None:
    layout = "rummi_site/   settings\ngames/        engine/\n  models.py\ndocs/\n"

    assert {"games", "puzzles"} - listed(layout) == {"puzzles"}
    assert "engine" not in listed(layout), "a folder inside an app is not a top-level one"


def drawn_layers(design: str) -> list[tuple[str, ...]]:
    """The apps' layers as the design draws them, lowest first: the diagram that names games."""
    body = section(design, "Layers and the import rule")
    (diagram,) = [b for b in blocks(body) if re.search(r"^games\s{2,}", b, re.M)]
    names = [re.split(r"\s{2,}", line)[0].strip() for line in diagram.splitlines()]
    return [tuple(app.strip() for app in row.split(",")) for row in names if row.strip("^ ")]


def test_the_design_draws_the_declared_order() -> None:
    drawn = drawn_layers((ROOT / "docs/design.md").read_text())

    assert drawn == list(LAYERS)
