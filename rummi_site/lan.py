"""How `make run` starts the site: on which address it listens, which addresses it answers to,
and what it prints, so that other devices on a local network can play (README, "Playing on a
local network").

``make run`` listens on 127.0.0.1: this machine only. ``make run HOST=0.0.0.0`` listens on every
interface, and ``make run HOST=192.168.1.23`` on that one address of the machine. The site then
answers to the machine's IPv4 addresses (``RUMMI_ALLOWED_HOSTS``) and takes their pages' forms
and game sockets (``RUMMI_CSRF_TRUSTED_ORIGINS``; the socket check is rummi_site/origins.py),
and the start-up lines name each address to share, with its interface. A variable already set
in the environment is kept as it is.

>>> env = hosting_env("0.0.0.0", 8000, {}, [("wlan0", "192.168.1.23")])
>>> env["RUMMI_ALLOWED_HOSTS"]
'127.0.0.1,localhost,[::1],192.168.1.23'
>>> env["RUMMI_CSRF_TRUSTED_ORIGINS"], env["RUMMI_FRAME_RELAY_URL"]
('http://192.168.1.23:8000', 'http://127.0.0.1:8000')
>>> "RUMMI_CSRF_TRUSTED_ORIGINS" in hosting_env("127.0.0.1", 8000, {}, [("wlan0", "192.168.1.23")])
False

Run as ``python -m rummi_site.lan --host H --port P -- COMMAND...``: it prints the lines and
replaces itself with COMMAND (supervisord, for `make run`) in that environment, or exits with
status 2 and one line when the address is not one of this machine's.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import secrets
import socket
import sys
from collections.abc import Mapping, Sequence

import psutil

# Django's default for the embedded site (rummi_site/settings.py): the loopback names.
LOOPBACK_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
EVERY_INTERFACE = ("0.0.0.0", "::")


def interface_addresses() -> list[tuple[str, str]]:
    """(interface, IPv4 address) of every interface that is up, loopback left out."""
    stats = psutil.net_if_stats()
    found = []
    for name, addresses in sorted(psutil.net_if_addrs().items()):
        if name in stats and not stats[name].isup:
            continue
        for address in addresses:
            if (
                address.family == socket.AF_INET
                and not ipaddress.ip_address(address.address).is_loopback
            ):
                found.append((name, address.address))
    return found


def is_loopback(host: str) -> bool:
    return host == "localhost" or ipaddress.ip_address(host).is_loopback


def shared_addresses(host: str, interfaces: Sequence[tuple[str, str]]) -> list[tuple[str, str]]:
    """The (interface, address) pairs other devices reach the site at when it listens on
    ``host``: every interface's for 0.0.0.0, that one for a LAN address, none for loopback.

    >>> shared_addresses("0.0.0.0", [("eth0", "10.0.0.5"), ("wlan0", "192.168.1.23")])
    [('eth0', '10.0.0.5'), ('wlan0', '192.168.1.23')]
    >>> shared_addresses("192.168.1.23", [("eth0", "10.0.0.5"), ("wlan0", "192.168.1.23")])
    [('wlan0', '192.168.1.23')]
    >>> shared_addresses("127.0.0.1", [("wlan0", "192.168.1.23")])
    []
    """
    if host in EVERY_INTERFACE:
        return list(interfaces)
    if is_loopback(host):
        return []
    return [(name, address) for name, address in interfaces if address == host]


def check_host(host: str, interfaces: Sequence[tuple[str, str]]) -> str | None:
    """Why the site cannot listen on ``host``, or None.

    >>> check_host("10.9.9.9", [("wlan0", "192.168.1.23")])
    'HOST=10.9.9.9 is not an address of this machine; its addresses: 192.168.1.23 (wlan0), ...'
    >>> check_host("my.box", [])
    'HOST=my.box is not an IP address: use 127.0.0.1 (this machine only), 0.0.0.0 ...'
    >>> check_host("0.0.0.0", []) is None and check_host("127.0.0.1", []) is None
    True
    """
    if host in EVERY_INTERFACE or host == "localhost":
        return None
    try:
        loopback = is_loopback(host)
    except ValueError:
        return (
            f"HOST={host} is not an IP address: use 127.0.0.1 (this machine only), "
            "0.0.0.0 (every interface) or one of its addresses."
        )
    if loopback or shared_addresses(host, interfaces):
        return None
    known = ", ".join(f"{address} ({name})" for name, address in interfaces) or "none"
    return (
        f"HOST={host} is not an address of this machine; its addresses: {known}, "
        "or 0.0.0.0 for all of them."
    )


def hosting_env(
    host: str, port: int, env: Mapping[str, str], interfaces: Sequence[tuple[str, str]]
) -> dict[str, str]:
    """The variables `make run` gives supervisord (deploy/supervisord.conf) for ``host``."""
    shared = [address for _, address in shared_addresses(host, interfaces)]
    # The worker relays frames to the web process (README): over loopback when it listens there.
    relay_host = "127.0.0.1" if host in EVERY_INTERFACE or host == "localhost" else host
    out = {
        "RUMMI_HOST": host,
        "RUMMI_PORT": str(port),
        "RUMMI_FRAME_RELAY_URL": env.get("RUMMI_FRAME_RELAY_URL") or f"http://{relay_host}:{port}",
        # Fresh for each run, never derived from SECRET_KEY (rummi_site/settings.py).
        "RUMMI_FRAME_RELAY_SECRET": secrets.token_hex(32),
    }
    if shared and not env.get("RUMMI_ALLOWED_HOSTS"):
        out["RUMMI_ALLOWED_HOSTS"] = ",".join(LOOPBACK_HOSTS + shared)
    if shared and not env.get("RUMMI_CSRF_TRUSTED_ORIGINS"):
        out["RUMMI_CSRF_TRUSTED_ORIGINS"] = ",".join(f"http://{a}:{port}" for a in shared)
    return out


def banner(host: str, port: int, interfaces: Sequence[tuple[str, str]]) -> str:
    """What `make run` prints as it starts.

    >>> print(banner("0.0.0.0", 8000, [("wlan0", "192.168.1.23")]))
    Rummi on http://127.0.0.1:8000/ and to other devices on your network at:
      http://192.168.1.23:8000/   (wlan0)
    Open that address on this machine too, so the invite links you copy carry it.
    Worker and beat log to var/log/; Ctrl-C stops all.
    """
    shared = shared_addresses(host, interfaces)
    local = "127.0.0.1" if host in EVERY_INTERFACE else host
    if not shared:
        lines = [f"Rummi on http://{local}:{port}/ (this machine only)"]
    else:
        if is_loopback(local) or host == "localhost":
            lines = [f"Rummi on http://{local}:{port}/ and to other devices on your network at:"]
        else:
            lines = ["Rummi on your network at:"]
        width = max(len(f"http://{address}:{port}/") for _, address in shared)
        lines += [
            f"  {f'http://{address}:{port}/':<{width}}   ({name})" for name, address in shared
        ]
        which = "one of those addresses" if len(shared) > 1 else "that address"
        lines.append(f"Open {which} on this machine too, so the invite links you copy carry it.")
    lines.append("Worker and beat log to var/log/; Ctrl-C stops all.")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m rummi_site.lan", description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args(argv)
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    interfaces = interface_addresses()
    problem = check_host(args.host, interfaces)
    if problem is not None:
        print(f"make run: {problem}", file=sys.stderr)
        raise SystemExit(2)
    env = hosting_env(args.host, args.port, os.environ, interfaces)
    print(banner(args.host, args.port, interfaces), flush=True)
    if command:
        os.execvpe(command[0], command, {**os.environ, **env})


if __name__ == "__main__":
    main()
