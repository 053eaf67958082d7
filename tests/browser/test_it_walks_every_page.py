"""A walk over every page of the site, signed out and signed in, at 1280 and 390 px wide
(issue 18): nothing scrolls sideways, the console shows no error and axe-core finds no serious
or critical violation. Each page's screenshot is saved (conftest.SHOTS; RUMMI_SCREENSHOTS=1,
as tools/take_screenshots.sh sets, writes the committed ones in docs/screenshots/).

Its states (issue 28) are built through services, once for every walk: a rated game's end with
the rating change, profiles after one and several games, the waiting side of a correspondence
game, a tournament game's end, a rematch offer waiting and one lapsed; last, signed in, the
table toast of a tournament that starts while the page is open (it arrives on /ws/me/).

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


# A correspondence deal with the rival (seat 1) to move: the walker sees the waiting side.
WALKER_RACK = "R1 R2 R3 B5 B6 B7 K9 Y9 R9 Y11 K12 B13 Y2 K4".split()
RIVAL_RACK = "K1 K2 K3 Y5 Y6 Y7 B9 R10 R11 B12 Y13 K5 B2 R4".split()


@pytest.fixture(scope="module")
def tables(site: str) -> Iterator[dict[str, str]]:
    """The games the walk visits: one in play against a bot, one between two people, one
    finished, one waiting for a player, a rated one finished, a correspondence one on the
    rival's move, a tournament's finished, two rematch offers (one waiting, one lapsed); and
    the puzzles loaded."""
    call(site + "/__test__/puzzles")
    bot = call(
        site + "/__test__/games",
        {"players": ["walker"], "options": {"players": 2, "seats": ["bot:beginner"]}},
    )
    duel = call(site + "/__test__/games", {"players": ["walker", "rival"]})
    done = call(site + "/__test__/games", {"players": ["walker", "rival"]})
    call(site + f"/__test__/resign/{done['gid']}/rival")
    waiting = call(site + "/__test__/games", {"players": ["walker"], "options": {"players": 2}})
    # Profiles with a rating chart: after one rated game, and after several.
    for winner, loser, count in (("onegame", "onefoe", 1), ("several", "severalfoe", 4)):
        for _ in range(count):
            rated = call(
                site + "/__test__/games", {"players": [winner, loser], "options": {"rated": True}}
            )
            call(site + f"/__test__/resign/{rated['gid']}/{loser}")
    cup = call(
        site + "/__test__/tournament",
        {"name": "Walk Cup", "description": "A walk.", "players": ["walker"], "bots": 3},
    )
    # A rated game's end, won by the walker: the scorecard carries both rating changes.
    rated = call(
        site + "/__test__/games", {"players": ["walker", "ratedfoe"], "options": {"rated": True}}
    )
    call(site + f"/__test__/resign/{rated['gid']}/ratedfoe")
    # A correspondence game, three days a move, on the rival's move.
    post = call(
        site + "/__test__/games",
        {
            "players": ["walker", "rival"],
            "options": {"days": 3},
            "racks": [WALKER_RACK, RIVAL_RACK],
            "first": 1,
        },
    )
    # A tournament game's end: the way back leads to the tournament.
    final = call(
        site + "/__test__/tournament",
        {"name": "Final Cup", "players": ["walker", "cupfoe"], "start": True},
    )
    (table,) = final["games"]
    call(site + f"/__test__/resign/{table}/cupfoe")
    # Rematch offers of finished games: one waiting for the rival, one that lapsed.
    offers = {}
    for which in ("waiting", "lapsed"):
        over = call(site + "/__test__/games", {"players": ["walker", "rival"]})
        call(site + f"/__test__/resign/{over['gid']}/rival")
        offers[which] = call(site + f"/__test__/rematch/{over['gid']}/walker")["url"]
        offers[f"{which}-of"] = over["gid"]
    assert call(site + f"/__test__/rematch/{offers['lapsed-of']}/lapse")["lapsed"]
    yield {
        "tournament": cup["url"],
        "bot": bot["url"],
        "duel": duel["url"],
        "done": done["url"],
        "replay": done["url"] + "replay/",
        "verify": done["url"] + "verify/",
        "waiting": waiting["url"],
        "join": waiting["invites"][0],
        "rated-over": rated["url"],
        "correspondence": post["url"],
        "tournament-over": f"/g/{table}/",
        "rematch-waiting": offers["waiting"],
        "rematch-lapsed": offers["lapsed"],
    }


SIGNED_OUT = [
    ("home", "/"),
    ("how-to-play", "/how-to-play/"),
    ("teaching-replay", "/how-to-play/r45/stitched-one/"),
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
    ("profile-one-game", "/@/onegame/"),
    ("profile-several-games", "/@/several/"),
    ("profile-several-games-list", "/@/several/games/"),
    ("rematch-waiting", "rematch-waiting"),
    ("410-rematch-lapsed", "rematch-lapsed"),
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
    ("game-over-rated", "rated-over"),
    ("game-over-tournament", "tournament-over"),
    ("correspondence-their-move", "correspondence"),
    ("waiting", "waiting"),
    ("rematch-waiting", "rematch-waiting"),
    ("410-rematch-lapsed", "rematch-lapsed"),
    ("replay", "replay"),
    ("verify", "verify"),
    ("account", "/account/"),
    ("profile", "/@/walker/"),
    ("profile-one-game", "/@/onegame/"),
    ("profile-several-games", "/@/several/"),
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


def _look(page: Any, name: str, tag: str) -> list[str]:
    """What is wrong with the page as it stands (sideways scroll, serious axe violations);
    its screenshot is saved."""
    width = page.viewport_size["width"]
    page.wait_for_timeout(150)
    problems = []
    wide = page.evaluate("document.documentElement.scrollWidth")
    if wide > page.evaluate("innerWidth"):
        problems.append(f"{name} at {width}: scrolls sideways ({wide} px)")
    page.add_script_tag(path=str(AXE))
    problems += [f"{name} at {width}: axe {v}" for v in page.evaluate(SERIOUS)]
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"walk-{tag}-{name}-{width}.png"))
    return problems


def _walk(
    page: Any, site: str, where: dict[str, str], pages: list[tuple[str, str]], tag: str
) -> None:
    width = page.viewport_size["width"]
    console: list[str] = []

    def heard(m: Any) -> None:
        # A board asks for the game's rating changes and does without them on a 404 (a game
        # the ratings do not know): the browser still logs the 404, which is not an error here.
        ratings = "/api/ratings/game/" in (m.location or {}).get("url", "") and "404" in m.text
        if m.type == "error" and not ratings:
            console.append(f"{m.type}: {m.text}")

    page.on("console", heard)
    problems: list[str] = []
    for name, path in pages:
        target = where.get(path) or path
        url = target if target.startswith("http") else site + target
        console.clear()
        status = page.goto(url).status
        page.wait_for_load_state("networkidle")
        if page.locator("#rummi").count():
            page.wait_for_selector("#rummi.rummi")
        if name.startswith("game-over"):
            page.wait_for_selector(".rm-end:not([hidden]) .rm-end-links")
        if name == "game-over-rated":
            # The winner's rating change is in view, at 390 px too (before any scroll).
            box = page.locator(".rm-end:not([hidden]) .rm-rating.up").bounding_box()
            if box["x"] + box["width"] > width:
                problems.append(f"{name} at {width}: the rating change is out of view")
        if name == "game-over-tournament":
            page.wait_for_selector(".rm-end:not([hidden]) .rm-home[href^='/tournaments/']")
        if name == "correspondence-their-move":
            page.wait_for_function("/ left/.test(document.querySelector('.rm-status').textContent)")
        if name.startswith("profile-") and page.locator("[data-rating-chart]").count():
            page.wait_for_selector("[data-rating-chart][data-drawn]")
        if name == "puzzle":
            page.wait_for_selector("#puzzle-board .rummi, .rm-puzzle", state="attached")
        problems += _look(page, name, tag)
        # An error page's own status is logged as a failed load: that one is the point.
        own = f"the server responded with a status of {status}"
        mine = status >= 400 and name.split("-")[0] == str(status)
        errors = [c for c in console if not (mine and own in c)]
        problems += [f"{name} at {width}: console {c}" for c in errors]
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


@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["1280", "390"])
def test_the_table_toast_reaches_a_page_loaded_before_the_start(
    new_page: Any, site: str, tables: dict[str, str], viewport: dict[str, int]
) -> None:
    """A tournament starts while the player's page is open: its table call comes on the
    player's own socket (/ws/me/) as a toast."""
    page = new_page(viewport=viewport, touch=viewport is PHONE)
    page.goto(site + "/__test__/login/walker/?next=/leaderboard/")
    page.wait_for_function("document.documentElement.dataset.notices === 'open'")
    width = viewport["width"]
    cup = call(
        site + "/__test__/tournament",
        {"name": f"Toast Cup {width}", "players": ["walker", f"toastfoe{width}"], "start": True},
    )
    toast = page.locator(".tournament-toast")
    toast.wait_for()
    assert f"Toast Cup {width}, round 1: your table 1 is ready." in toast.inner_text()
    assert toast.locator("a").get_attribute("href") == f"/g/{cup['games'][0]}/"
    problems = _look(page, "table-toast", "in")
    # The table is over before the next test: the walker has one live game at a time.
    call(site + f"/__test__/resign/{cup['games'][0]}/toastfoe{width}")
    assert not problems, "\n".join(problems)


def test_a_page_open_on_a_rematch_offer_hears_it_lapse(new_page: Any, site: str) -> None:
    """The offer lapses while its page is open: the page says so, with the way back, and the
    address answers the same afterwards."""
    over = call(site + "/__test__/games", {"players": ["walker", "rival"]})
    call(site + f"/__test__/resign/{over['gid']}/rival")
    offer = call(site + f"/__test__/rematch/{over['gid']}/walker")
    page = new_page()
    page.goto(site + f"/__test__/login/walker/?next={offer['url']}")
    assert "The offer is open for 10 minutes, until" in page.locator(".rematch-expiry").inner_text()
    page.wait_for_function("document.documentElement.dataset.live === 'open'")

    assert call(site + f"/__test__/rematch/{over['gid']}/lapse")["lapsed"] == [offer["gid"]]

    note = page.locator(".lapsed-note")
    note.wait_for()
    assert "The rematch offer lapsed" in note.inner_text()
    assert note.locator("a").get_attribute("href") == f"/g/{over['gid']}/"
    assert page.locator(".rematch-card").count() == 0
    problems = _look(page, "rematch-lapsing", "in")
    assert not problems, "\n".join(problems)
    assert page.goto(site + offer["url"]).status == 410
