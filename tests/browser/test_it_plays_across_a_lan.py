"""Seed 002's family game night: the site started as `make run HOST=0.0.0.0` starts it, and a
second device on the network plays the host.

The second device is a network namespace of its own, joined to this machine by a veth pair
(iproute2, as root), with its own headless Chromium: it reaches the site only over that link,
at an address that `make run` found among the machine's interfaces (rummi_site/lan.py). Without
namespaces (not root, no ``ip``) the second browser runs here and reaches the site at the
machine's LAN address instead. The host makes a LAN-rules game with an invite link, the other
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
    """Where the second device's browser runs and the address it reaches the site at."""

    chromium: str
    address: str
    how: str


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, text=True)


@pytest.fixture(scope="module")
def device(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Device]:
    """A namespace with a veth link to this machine, or failing that this machine's LAN address."""
    tag = f"{os.getpid() % 100000}"
    name, host_end, ns_end = f"rummi-lan-{tag}", f"rlh{tag}", f"rln{tag}"
    subnet = f"10.{200 + os.getpid() % 50}.{os.getpid() // 50 % 250}"
    if os.geteuid() != 0 or shutil.which("ip") is None:
        yield _lan_address_fallback("not root or no iproute2")
        return
    try:
        ip("netns", "add", name)
    except subprocess.CalledProcessError as error:
        yield _lan_address_fallback(error.stderr.strip())
        return
    try:
        ip("link", "add", host_end, "type", "veth", "peer", "name", ns_end)
        ip("link", "set", ns_end, "netns", name)
        ip("addr", "add", f"{subnet}.1/30", "dev", host_end)
        ip("link", "set", host_end, "up")
        for command in (
            ["addr", "add", f"{subnet}.2/30", "dev", ns_end],
            ["link", "set", ns_end, "up"],
            ["link", "set", "lo", "up"],
        ):
            ip("netns", "exec", name, "ip", *command)
        # Playwright talks to Chromium over inherited pipes, which `ip netns exec` keeps.
        wrapper = tmp_path_factory.mktemp("device") / "chromium-in-namespace"
        wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {name} {CHROMIUM} "$@"\n')
        wrapper.chmod(0o755)
        yield Device(str(wrapper), f"{subnet}.1", f"namespace {name} over veth")
    finally:
        subprocess.run(["ip", "netns", "del", name], capture_output=True)
        subprocess.run(["ip", "link", "del", host_end], capture_output=True)


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
            [sys.executable, "-m", "rummi_site.lan", "--host", "0.0.0.0", "--port", str(port)]
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
        _wait_for(url + "/", process, log)
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


def _wait_for(url: str, process: subprocess.Popen[bytes], log: Path, seconds: float = 90) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if process.poll() is not None:
            raise AssertionError(f"make run exited with {process.returncode}:\n{log.read_text()}")
        try:
            with urllib.request.urlopen(url, timeout=2) as reply:
                if reply.status == 200:
                    return
        except OSError:
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


def loaded_modules(page: Any) -> list[str]:
    return page.evaluate(
        """performance.getEntriesByType("resource")
            .map((e) => e.name).filter((n) => n.endsWith(".js"))"""
    )


def test_a_second_device_joins_by_invite_link_and_plays_the_host(
    device: Device, lan_site: str, new_page: Any, second_device: Any
) -> None:
    print(f"second device: {device.how}; site at {lan_site}")
    host = new_page()
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
