"""Seed 002's family game night: the site started as `make run HOST=0.0.0.0` starts it, and a
second device on the network plays the host.

The host machine and the second device are each a network namespace (iproute2, as root), joined
by a veth pair, each with its own headless Chromium: the device reaches the site only over that
link, at an address that `make run` found among the host's interfaces (rummi_site/lan.py). The
link is made inside the namespaces, so this machine's own network never changes: Chromium fails
the requests it has in flight when it sees an interface or address come or go (ERR_NETWORK_CHANGED),
which had left another browser test's board without its modules. Without namespaces (not root,
no ``ip``) the second browser runs here and reaches the site at the machine's LAN address
instead. The host makes a LAN-rules game with an invite link, the other
device joins by that link, and the one whose turn it is draws; the other sees it over its
socket. Every module either page loads has a hashed name (rummi_site/staticfiles.py).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from rummi_site.lan import interface_addresses

from .conftest import CHROMIUM, CHROMIUM_ARGS, free_port, shoot

pytestmark = [pytest.mark.browser, pytest.mark.slow]
ROOT = Path(__file__).resolve().parents[2]
HASHED_MODULE = re.compile(r"/static/.+\.[0-9a-f]{12}\.js$")


@dataclass
class Device:
    """Where the second device's browser runs, the address it reaches the site at, and where
    the site and the host's browser run (a command prefix; none: here, with the tests' own)."""

    chromium: str
    address: str
    how: str
    host_prefix: tuple[str, ...] = ()
    host_chromium: str | None = None


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


def in_namespace(folder: Path, name: str) -> str:
    """A Chromium that runs in namespace ``name`` (Playwright talks to it over inherited pipes,
    which ``ip netns exec`` keeps)."""
    wrapper = folder / f"chromium-in-{name}"
    wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {name} {CHROMIUM} "$@"\n')
    wrapper.chmod(0o755)
    return str(wrapper)


@pytest.fixture(scope="module")
def device(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Device]:
    """Two namespaces, the host and the second device, with a veth link between them, or
    failing that this machine's LAN address."""
    tag = f"{os.getpid() % 100000}"
    host, name, host_end, ns_end = f"rummi-host-{tag}", f"rummi-lan-{tag}", "lan0", "wlan0"
    subnet = f"10.{200 + os.getpid() % 50}.{os.getpid() // 50 % 250}"
    if os.geteuid() != 0 or shutil.which("ip") is None:
        yield _lan_address_fallback("not root or no iproute2")
        return
    ours = interface_addresses()
    made: list[str] = []
    try:
        for namespace in (host, name):
            ip("netns", "add", namespace)
            made.append(namespace)
    except subprocess.CalledProcessError as error:
        for namespace in made:
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)
        yield _lan_address_fallback(error.stderr.strip())
        return
    try:
        # Made in the host's namespace, its peer put straight into the device's: no link or
        # address of this machine's namespace comes or goes.
        veth = ["link", "add", host_end, "type", "veth", "peer", "name", ns_end, "netns", name]
        ip("netns", "exec", host, "ip", *veth)
        for namespace, end, address in ((host, host_end, 1), (name, ns_end, 2)):
            for command in (
                ["addr", "add", f"{subnet}.{address}/30", "dev", end],
                ["link", "set", end, "up"],
                ["link", "set", "lo", "up"],
            ):
                ip("netns", "exec", namespace, "ip", *command)
        assert interface_addresses() == ours, "this machine's own interfaces are left as they were"
        folder = tmp_path_factory.mktemp("device")
        yield Device(
            in_namespace(folder, name),
            f"{subnet}.1",
            f"namespaces {host} and {name} over veth",
            ("ip", "netns", "exec", host),
            in_namespace(folder, host),
        )
    finally:
        for namespace in (name, host):  # their links go with them
            subprocess.run(["ip", "netns", "del", namespace], capture_output=True)


def _lan_address_fallback(why: str) -> Device:
    addresses = interface_addresses()
    if not addresses:
        pytest.skip(f"no network namespace ({why}) and no LAN address")
    return Device(CHROMIUM, addresses[0][1], f"this machine's LAN address ({why})")


@pytest.fixture(scope="module")
def lan_site(
    device: Device, tmp_path_factory: pytest.TempPathFactory, collected_static: Path
) -> Iterator[str]:
    """The site as `make run HOST=0.0.0.0` starts it: rummi_site.lan, then supervisord with
    deploy/supervisord.conf (web, worker, beat), in a copy of the layout it expects; yields the
    address it printed for the second device."""
    folder = tmp_path_factory.mktemp("lan-site")
    (folder / "deploy").mkdir()
    shutil.copy(ROOT / "deploy" / "supervisord.conf", folder / "deploy" / "supervisord.conf")
    (folder / ".venv").symlink_to(Path(sys.prefix))
    (folder / "var" / "log").mkdir(parents=True)
    port = free_port()
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(("RUMMI_ALLOWED", "RUMMI_CSRF", "RUMMI_DEBUG", "RUMMI_HTTPS"))
        and k not in ("DATABASE_URL", "REDIS_URL", "RUMMI_FRAME_RELAY_URL")
    }
    env.update(
        PYTHONPATH=str(ROOT),
        DJANGO_SETTINGS_MODULE="rummi_site.settings",
        RUMMI_SQLITE_PATH=str(folder / "site.sqlite3"),
        RUMMI_CELERY_DIR=str(folder / "broker"),
        RUMMI_STATIC_ROOT=str(collected_static),
        RUMMI_PURE_PYTHON="",
    )
    subprocess.run(
        [sys.executable, "manage.py", "migrate", "-v", "0"], cwd=ROOT, env=env, check=True
    )
    log = folder / "make-run.out"
    with log.open("wb") as out:
        process = subprocess.Popen(
            [*device.host_prefix, sys.executable, "-m", "rummi_site.lan"]
            + ["--host", "0.0.0.0", "--port", str(port)]
            + [
                "--",
                str(Path(sys.prefix) / "bin" / "supervisord"),
                "-c",
                "deploy/supervisord.conf",
            ],
            cwd=folder,
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )
    url = f"http://{device.address}:{port}"
    try:
        _wait_for(url + "/", process, log, device.host_prefix)
        assert f"{url}/" in log.read_text(), "make run prints the address to share"
        yield url
    finally:
        if process.poll() is None:
            os.kill(process.pid, signal.SIGINT)
            try:
                process.wait(15)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()


def _answers(url: str, prefix: tuple[str, ...]) -> bool:
    """``url`` answers 200, asked from where the site runs (``prefix``: its namespace)."""
    if prefix:
        ask = "import sys, urllib.request; urllib.request.urlopen(sys.argv[1], timeout=2)"
        return (
            subprocess.run(
                [*prefix, sys.executable, "-c", ask, url], capture_output=True
            ).returncode
            == 0
        )
    try:
        with urllib.request.urlopen(url, timeout=2) as reply:
            return bool(reply.status == 200)
    except OSError:
        return False


def _wait_for(
    url: str,
    process: subprocess.Popen[bytes],
    log: Path,
    prefix: tuple[str, ...],
    seconds: float = 90,
) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if process.poll() is not None:
            raise AssertionError(f"make run exited with {process.returncode}:\n{log.read_text()}")
        if _answers(url, prefix):
            return
        time.sleep(0.2)
    raise AssertionError(f"{url} did not answer within {seconds} s:\n{log.read_text()[-3000:]}")


@pytest.fixture
def second_device(device: Device, playwright_browser: Any) -> Iterator[Any]:
    """A browser on the second device (in the namespace when there is one), started by the
    same Playwright as the host's."""
    browser = playwright_browser.browser_type.launch(
        executable_path=device.chromium, args=CHROMIUM_ARGS
    )
    yield browser
    browser.close()


@pytest.fixture
def host_page(device: Device, playwright_browser: Any, new_page: Any) -> Iterator[Any]:
    """A page of the host's browser: in the host's namespace when there is one (where the
    site is), else the tests' own; its page errors fail the test."""
    if device.host_chromium is None:
        yield new_page()
        return
    browser = playwright_browser.browser_type.launch(
        executable_path=device.host_chromium, args=CHROMIUM_ARGS
    )
    errors: list[str] = []
    page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
    page.set_default_timeout(10_000)
    page.on("pageerror", lambda error: errors.append(str(error)))
    yield page
    browser.close()
    assert not errors, errors


def loaded_modules(page: Any) -> list[str]:
    return page.evaluate(
        """performance.getEntriesByType("resource")
            .map((e) => e.name).filter((n) => n.endsWith(".js"))"""
    )


def test_a_second_device_joins_by_invite_link_and_plays_the_host(
    device: Device, lan_site: str, host_page: Any, second_device: Any
) -> None:
    print(f"second device: {device.how}; site at {lan_site}")
    host = host_page
    host.goto(lan_site + "/")
    form = host.locator("form#new-game")
    form.locator("input[name=name]").fill("Host")
    form.locator("select[name=mode]").select_option("lan")
    form.locator("select[name=players]").select_option("2")
    form.locator("select[name=seat1]").select_option("human")
    form.get_by_role("button", name="Create game").click()
    invite = host.locator("input.invite").first
    invite.wait_for()
    link = invite.input_value()
    assert link.startswith(lan_site + "/"), link

    errors: list[str] = []
    guest = second_device.new_context(viewport={"width": 1280, "height": 800}).new_page()
    guest.set_default_timeout(20_000)
    guest.on("pageerror", lambda error: errors.append(str(error)))
    guest.goto(link)
    guest.locator("input[name=name]").fill("Guest")
    guest.get_by_role("button", name="Take my seat").click()

    for page in (host, guest):
        page.wait_for_selector("#rummi[data-ready]", timeout=30_000)
        page.wait_for_function("rummi.client.socket !== null && rummi.client.seq > 0")
    seq = guest.evaluate("rummi.client.seq")
    assert host.evaluate("rummi.client.seq") == seq

    mover, other = (host, guest) if host.evaluate("rummi.board.myTurn") else (guest, host)
    mover.locator("[data-act=draw]").click()
    # The other side hears the draw over its socket (no polling: the in-memory layer and the
    # socket of the web process), and it is its turn.
    other.wait_for_function(f"rummi.client.seq > {seq} && rummi.board.myTurn", timeout=20_000)
    other.locator(".rm-turn", has_text="Your turn").wait_for()

    for page in (host, guest):
        modules = loaded_modules(page)
        assert modules and all(HASHED_MODULE.search(m) for m in modules), modules
    assert not errors, errors
    shoot(guest, "lan-second-device-1280.png")
