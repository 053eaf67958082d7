"""Browser fixtures: Debian's Chromium through Playwright, and two servers to point it at.

``harness`` serves the repository with ``python -m http.server`` for the board's dev harness
(static/games/dev/), which fakes the game service in the page. ``site`` runs the real site
under daphne (HTTP and websockets) on a fresh SQLite file, with the test-only endpoints of
``site_urls.py``. Neither uses pytest-django's database: the browser talks to another process.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
# Screenshots land in var/screenshots/ (untracked) unless RUMMI_SCREENSHOTS=1 asks for the
# committed ones in docs/screenshots/ to be made again: a test run leaves the tree clean.
SHOTS = ROOT / ("docs" if os.environ.get("RUMMI_SCREENSHOTS") == "1" else "var") / "screenshots"
DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
# The words (runs of non-space text) inside the elements a selector matches that the page
# broke over two lines or more: ``page.evaluate(BROKEN_WORDS, selector)``.
BROKEN_WORDS = """(selector) => {
  const broken = [];
  for (const root of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      for (const match of node.textContent.matchAll(/\\S+/g)) {
        const range = document.createRange();
        range.setStart(node, match.index);
        range.setEnd(node, match.index + match[0].length);
        const lines = new Set([...range.getClientRects()].map((r) => Math.round(r.top)));
        if (lines.size > 1) broken.push(match[0]);
      }
    }
  }
  return broken;
}"""
# A failed test's pages are photographed here (always var/: never the committed ones).
FAILED = ROOT / "var" / "screenshots"
# RUMMI_BROWSER_TRACE=1: every page's Playwright trace (screenshots, DOM snapshots, network)
# is kept for a failed test in var/traces/ (open with `playwright show-trace <file>`).
TRACE = os.environ.get("RUMMI_BROWSER_TRACE") == "1"
# The log file of the running site (the ``site`` fixture's daphne), for failed tests' reports.
SITE_LOG: list[Path] = []


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    if Path(CHROMIUM).exists():
        return
    skip = pytest.mark.skip(reason=f"no Chromium at {CHROMIUM}")
    for item in items:
        if item.get_closest_marker("browser"):
            item.add_marker(skip)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for(url: str, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if process.poll() is not None:
            raise RuntimeError(f"the server for {url} exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=1):
                return
        except OSError:
            time.sleep(0.1)
    raise RuntimeError(f"{url} did not answer within {seconds} s")


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


@pytest.fixture(scope="session")
def playwright_browser() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield browser
        browser.close()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]) -> Iterator[None]:
    """Keep each phase's report on the test, for the fixtures that leave evidence of a failure;
    a failed test that ran against the site gets the tail of the site's log in its report."""
    outcome = yield
    report = outcome.get_result()
    setattr(item, f"report_{report.when}", report)
    if report.failed and "site" in getattr(item, "fixturenames", ()) and SITE_LOG:
        report.sections.append(("the site's log (tail)", SITE_LOG[-1].read_text()[-6000:]))
    heard = getattr(item, "pages_heard", None)
    if report.failed and heard:
        report.sections.append(("the pages' console errors and failed requests", "\n".join(heard)))


@pytest.fixture
def new_page(playwright_browser: Any, request: pytest.FixtureRequest) -> Iterator[Any]:
    """Open pages in fresh contexts; page errors fail the test. A failed test leaves a
    screenshot of each page it opened in var/screenshots/failed-<test>-<n>.png (and, with
    RUMMI_BROWSER_TRACE=1, a trace of each in var/traces/)."""
    contexts = []
    errors: list[str] = []
    # What the pages said went wrong, for a failed test's report (a module that did not load
    # leaves a board empty without a page error).
    heard: list[str] = []
    request.node.pages_heard = heard

    def make(viewport: dict[str, int] = DESKTOP, touch: bool = False) -> Any:
        context = playwright_browser.new_context(
            viewport=viewport, has_touch=touch, is_mobile=touch, device_scale_factor=1
        )
        if TRACE:
            context.tracing.start(screenshots=True, snapshots=True)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(10_000)
        page.on("pageerror", lambda error: errors.append(str(error)))
        n = len(contexts) - 1
        page.on(
            "console",
            lambda m: (
                heard.append(f"page {n} console {m.type}: {m.text}")
                if m.type in ("error", "warning")
                else None
            ),
        )
        page.on(
            "requestfailed",
            lambda r: heard.append(f"page {n} request failed: {r.method} {r.url}: {r.failure}"),
        )
        return page

    yield make
    report = getattr(request.node, "report_call", None)
    failed = report is not None and report.failed
    name = request.node.name.replace("/", "-")
    for n, context in enumerate(contexts):
        if failed:
            leave_evidence(context, f"{name}-{n}")
        context.close()
    assert not errors, errors


def leave_evidence(context: Any, name: str) -> None:
    """Screenshots (and the trace) of a failed test's pages; a page already gone is passed."""
    FAILED.mkdir(parents=True, exist_ok=True)
    for i, page in enumerate(context.pages):
        try:
            page.screenshot(path=str(FAILED / f"failed-{name}-{i}.png"))
        except Exception as error:  # a closed or crashed page: the report still stands
            print(f"no screenshot of {name}-{i}: {error}")
    if TRACE:
        traces = ROOT / "var" / "traces"
        traces.mkdir(parents=True, exist_ok=True)
        context.tracing.stop(path=str(traces / f"{name}.zip"))


@pytest.fixture(scope="session")
def harness() -> Iterator[str]:
    """The base URL of the dev harness page, served from the repository root."""
    port = free_port()
    process = subprocess.Popen(
        [sys.executable, "-m", "http.server", str(port), "--bind", "127.0.0.1"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/static/games/dev/index.html", process)
        yield f"http://127.0.0.1:{port}/static/games/dev/index.html"
    finally:
        stop(process)


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory, collected_static: Path) -> Iterator[str]:
    """The real site under daphne on a fresh database; yields its base URL.

    As under ``make run``: DEBUG off, and the static files collected under hashed names and
    served by the site (rummi_site/staticfiles.py), so the pages tested load what users get.
    """
    folder = tmp_path_factory.mktemp("site")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.browser.site_settings",
        "RUMMI_BROWSER_DB": str(folder / "db.sqlite3"),
        "RUMMI_STATIC_ROOT": str(collected_static),
        "PYTHONPATH": str(ROOT),
        # The site is not under coverage: its bots think with the compiled solver when its
        # build is current (games/engine/native.py), as `make run` does, even in the pure pass.
        "RUMMI_PURE_PYTHON": "",
    }
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "--no-input", "-v", "0"],
        cwd=ROOT,
        env=env,
        check=True,
    )
    port = free_port()
    SITE_LOG.append(folder / "daphne.log")
    log = SITE_LOG[-1].open("wb")
    process = subprocess.Popen(
        [sys.executable, "-m", "rummi_site.web", "-b", "127.0.0.1", "-p", str(port)]
        + ["rummi_site.asgi:application"],
        cwd=ROOT,
        env=env,
        stdout=log,
        stderr=subprocess.STDOUT,
    )
    try:
        wait_for(f"http://127.0.0.1:{port}/", process)
        yield f"http://127.0.0.1:{port}"
    finally:
        stop(process)
        log.close()


def shoot(page: Any, name: str) -> None:
    """Save a screenshot of the page once its tiles have stopped moving."""
    from .helpers import settle

    SHOTS.mkdir(parents=True, exist_ok=True)
    settle(page)
    page.screenshot(path=str(SHOTS / name))


def call(url: str, body: dict[str, Any] | None = None) -> Any:
    """POST JSON to a test endpoint of the site and return its JSON answer."""
    data = json.dumps(body or {}).encode()
    request = urllib.request.Request(url, data=data, headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=20) as response:
        return json.loads(response.read())
