"""A walk over every page of the site, signed out and signed in, at 1280 and 390 px wide
(issue 18): nothing scrolls sideways, the console shows no error and axe-core finds no serious
or critical violation. Each page's screenshot is saved (conftest.SHOTS; RUMMI_SCREENSHOTS=1,
as tools/take_screenshots.sh sets, writes the committed ones in docs/screenshots/).

axe-core comes from npm at the version package-lock.json pins (``make axe``)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from .conftest import DESKTOP, PHONE, ROOT, SHOTS, call

pytestmark = pytest.mark.browser

AXE = ROOT / "node_modules" / "axe-core" / "axe.min.js"
SERIOUS = """async () => {
  const found = await axe.run(document, { resultTypes: ["violations"] });
  return found.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.id} (${v.impact}): ${
      v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(", ")}`);
}"""


@pytest.fixture(scope="module")
def tables(site: str) -> Iterator[dict[str, str]]:
    """The games the walk visits: one in play against a bot, one between two people, one
    finished, one waiting for a player; and the puzzles loaded."""
    call(site + "/__test__/puzzles")
    bot = call(
        site + "/__test__/games",
        {"players": ["walker"], "options": {"players": 2, "seats": ["bot:beginner"]}},
    )
    duel = call(site + "/__test__/games", {"players": ["walker", "rival"]})
    done = call(site + "/__test__/games", {"players": ["walker", "rival"]})
    call(site + f"/__test__/resign/{done['gid']}/rival")
    waiting = call(site + "/__test__/games", {"players": ["walker"], "options": {"players": 2}})
    cup = call(
        site + "/__test__/tournament",
        {"name": "Walk Cup", "description": "A walk.", "players": ["walker"], "bots": 3},
    )
    yield {
        "tournament": cup["url"],
        "bot": bot["url"],
        "duel": duel["url"],
        "done": done["url"],
        "replay": done["url"] + "replay/",
        "verify": done["url"] + "verify/",
        "waiting": waiting["url"],
        "join": waiting["invites"][0],
    }


SIGNED_OUT = [
    ("home", "/"),
    ("how-to-play", "/how-to-play/"),
    ("trainer", "/puzzles/"),
    ("puzzle", "/puzzles/next/"),
    ("daily", "/puzzles/daily/"),
    ("archive", "/puzzles/daily/archive/"),
    ("editor", "/puzzles/editor/"),
    ("shared-puzzle", "shared"),
    ("sign-in", "/accounts/login/"),
    ("sign-up", "/accounts/signup/"),
    ("password-reset", "/accounts/password/reset/"),
    ("join", "join"),
    ("spectate", "duel"),
    ("replay", "replay"),
    ("verify", "verify"),
    ("leaderboard", "/leaderboard/"),
    ("tournaments", "/tournaments/"),
    ("tournament", "tournament"),
    ("tournaments-help", "/tournaments/how-they-work/"),
    ("profile", "/@/walker/"),
    ("profile-games", "/@/walker/games/"),
    ("404", "/__test__/error/404"),
    ("403", "/__test__/error/403"),
    ("500", "/__test__/error/500"),
]
SIGNED_IN = [
    ("home", "/"),
    ("settings", "/accounts/preferences/"),
    ("email", "/accounts/email/"),
    ("password-change", "/accounts/password/change/"),
    ("trainer", "/puzzles/"),
    ("puzzle", "/puzzles/next/"),
    ("daily", "/puzzles/daily/"),
    ("editor", "/puzzles/editor/"),
    ("game-vs-bot", "bot"),
    ("game", "duel"),
    ("game-over", "done"),
    ("waiting", "waiting"),
    ("replay", "replay"),
    ("verify", "verify"),
    ("account", "/account/"),
    ("profile", "/@/walker/"),
    ("leaderboard", "/leaderboard/"),
    ("tournaments", "/tournaments/"),
    ("tournament", "tournament"),
]


def _shared_puzzle(page: Any, site: str) -> str:
    """Make a puzzle in the editor and save it: the address of its shared page."""
    page.goto(site + "/puzzles/editor/")
    page.wait_for_selector("#pz-editor[data-ready]")
    page.click(".ed-advanced summary")  # the text form, folded under the visual editor
    page.fill("#editor-table", "R7 K7 Y7\nB4 B5 B6")
    page.fill("#editor-rack", "B7 Y4")
    page.click("button[value=save]")
    page.wait_for_url("**/puzzles/s/**")
    return str(page.url)


def _walk(
    page: Any, site: str, where: dict[str, str], pages: list[tuple[str, str]], tag: str
) -> None:
    width = page.viewport_size["width"]
    console: list[str] = []
    page.on(
        "console", lambda m: console.append(f"{m.type}: {m.text}") if m.type == "error" else None
    )
    problems: list[str] = []
    for name, path in pages:
        target = where.get(path) or path
        url = target if target.startswith("http") else site + target
        console.clear()
        status = page.goto(url).status
        page.wait_for_load_state("networkidle")
        if page.locator("#rummi").count():
            page.wait_for_selector("#rummi.rummi")
        if name == "game-over":
            page.wait_for_selector(".rm-end:not([hidden]) .rm-end-links")
        if name == "puzzle":
            page.wait_for_selector("#puzzle-board .rummi, .rm-puzzle", state="attached")
        page.wait_for_timeout(150)
        wide = page.evaluate("document.documentElement.scrollWidth")
        if wide > page.evaluate("innerWidth"):
            problems.append(f"{name} at {width}: scrolls sideways ({wide} px)")
        page.add_script_tag(path=str(AXE))
        problems += [f"{name} at {width}: axe {v}" for v in page.evaluate(SERIOUS)]
        # An error page's own status is logged as a failed load: that one is the point.
        own = f"the server responded with a status of {status}"
        errors = [c for c in console if not (status >= 400 and name == str(status) and own in c)]
        problems += [f"{name} at {width}: console {c}" for c in errors]
        SHOTS.mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(SHOTS / f"walk-{tag}-{name}-{width}.png"))
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_every_page_signed_out(
    new_page: Any, site: str, tables: dict[str, str], viewport: dict[str, int]
) -> None:
    assert AXE.exists(), "axe-core is missing: run make axe"
    page = new_page(viewport=viewport, touch=viewport is PHONE)
    where = {**tables, "shared": _shared_puzzle(page, site)}
    _walk(page, site, where, SIGNED_OUT, "out")


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_every_page_signed_in(
    new_page: Any, site: str, tables: dict[str, str], viewport: dict[str, int]
) -> None:
    assert AXE.exists(), "axe-core is missing: run make axe"
    page = new_page(viewport=viewport, touch=viewport is PHONE)
    page.goto(site + "/__test__/login/walker/")
    _walk(page, site, tables, SIGNED_IN, "in")
