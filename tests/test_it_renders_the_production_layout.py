"""deploy/prod.py (`make prod`, docs/deploy.md "make prod") renders a proxy configuration nginx
accepts, with both web processes upstream and the sockets' Upgrade headers passed on, and the
environment of a production site: debug off, a kept secret key, the proxy's origin trusted."""

from __future__ import annotations

import importlib.util
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[1]
NGINX = "/usr/sbin/nginx"


def prod() -> Any:
    spec = importlib.util.spec_from_file_location("deploy_prod", ROOT / "deploy" / "prod.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def render(tmp_path: Path, **base: str) -> tuple[Path, dict[str, str]]:
    module = prod()
    args = module.parser().parse_args(
        ["--dir", str(tmp_path / "prod"), "--https-port", "9443", "--http-port", "9080"]
        + ["--web-ports", "9001,9002", "--render-only", "--nginx", NGINX]
    )
    env = {"DATABASE_URL": "postgres://u@127.0.0.1:5432/x", "REDIS_URL": "redis://h:1/0", **base}
    folder, rendered = module.prepare(args, env)
    return folder, rendered


@pytest.mark.skipif(not Path(NGINX).exists(), reason=f"needs nginx at {NGINX} (make nginx)")
def test_nginx_accepts_the_rendered_proxy_and_it_spreads_and_upgrades(tmp_path: Path) -> None:
    folder, env = render(tmp_path)
    conf = (folder / "nginx.conf").read_text()
    checked = subprocess.run([NGINX, "-t", "-c", str(folder / "nginx.conf")], capture_output=True)
    assert checked.returncode == 0, checked.stderr
    upstream = conf.split("upstream rummi {")[1].split("}")[0]
    assert "127.0.0.1:9001" in upstream and "127.0.0.1:9002" in upstream
    sockets = conf.split("location /ws/ {")[1].split("}")[0]
    assert "proxy_set_header Upgrade $http_upgrade;" in sockets
    assert "proxy_set_header Connection $connection_upgrade;" in sockets
    assert "listen 127.0.0.1:9443 ssl;" in conf
    unfilled = [line for line in conf.splitlines() if re.search(r"@[A-Z0-9]+@", line.split("#")[0])]
    assert unfilled == []
    assert Path(env["RUMMI_TLS_CERT_PATH"]).exists()


@pytest.mark.skipif(not Path(NGINX).exists(), reason=f"needs nginx at {NGINX} (make nginx)")
def test_the_environment_is_a_production_sites_and_its_secret_is_kept(tmp_path: Path) -> None:
    _, env = render(tmp_path)
    assert env["RUMMI_DEBUG"] == "0"
    assert "https://127.0.0.1:9443" in env["RUMMI_CSRF_TRUSTED_ORIGINS"].split(",")
    assert env["RUMMI_SITE_URL"] == "https://127.0.0.1:9443"
    assert len(env["SECRET_KEY"]) >= 50
    _, again = render(tmp_path)
    assert again["SECRET_KEY"] == env["SECRET_KEY"]  # made once, kept
    _, given = render(tmp_path, SECRET_KEY="k" * 60)
    assert given["SECRET_KEY"] == "k" * 60


def test_a_missing_database_url_stops_it_with_one_line(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(ROOT / "deploy" / "prod.py"),
            "--dir",
            str(tmp_path / "p"),
            "--render-only",
            "--nginx",
            "/bin/true",
        ],
        env={"PATH": "/usr/bin:/bin"},
        capture_output=True,
        text=True,
    )
    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == [
        "prod: DATABASE_URL must be set (make prod sets the local servers' by default)"
    ]
