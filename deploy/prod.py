"""`make prod`: the production layout of docs/deploy.md on this machine, as one command.

    python deploy/prod.py [--dir var/prod] [--bind 127.0.0.1] [--https-port 8443]
                          [--http-port 8080] [--web-ports 8001,8002] [--render-only]

On PostgreSQL and Redis (``DATABASE_URL`` and ``REDIS_URL``, which `make prod` defaults to the
local servers), under supervisord (deploy/supervisord-prod.conf): two daphne web processes,
two Celery workers, beat, and nginx in front (deploy/nginx-prod.conf.in) ending TLS, spreading
requests and game sockets over both web processes, serving static files and avatars.

What it makes once and keeps in ``--dir``: a ``SECRET_KEY`` (``secret_key``, unless the
environment sets one) and a self-signed certificate for the bind address and ``localhost``
(``tls/``, unless ``RUMMI_TLS_CERT`` and ``RUMMI_TLS_KEY`` name real ones). The site runs with
``RUMMI_DEBUG=0`` at ``https://<bind>:<https-port>/``. `make prod` migrates, collects static
files and loads the puzzles before this starts the processes; the fault tests
(tests/faults/test_it_survives_faults_behind_the_proxy.py) start the same configuration with
``--render-only`` and their own ports.

Bad input stops it with one line, ``prod: <what is wrong>``, and exit status 1.
"""

from __future__ import annotations

import argparse
import os
import pwd
import secrets
import shutil
import subprocess
import sys
from collections.abc import Mapping
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DEPLOY = ROOT / "deploy"
NGINX = "/usr/sbin/nginx"


def fail(message: str) -> None:
    print(f"prod: {message}", file=sys.stderr)
    raise SystemExit(1)


def port(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if not 1 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"not a port: {text!r}")
    return value


def ports(text: str) -> list[int]:
    found = [port(part) for part in text.split(",")]
    if len(found) != 2:
        raise argparse.ArgumentTypeError("two web ports, such as 8001,8002")
    return found


def secret_key(folder: Path, base: Mapping[str, str]) -> str:
    """The environment's SECRET_KEY, or one made the first time and kept in the folder."""
    if base.get("SECRET_KEY"):
        return base["SECRET_KEY"]
    path = folder / "secret_key"
    if not path.exists():
        path.touch(mode=0o600)
        path.write_text(secrets.token_urlsafe(50))
    return path.read_text().strip()


def certificate(folder: Path, bind: str, base: Mapping[str, str]) -> tuple[str, str]:
    """RUMMI_TLS_CERT and RUMMI_TLS_KEY, or a self-signed pair made once under tls/."""
    cert, key = base.get("RUMMI_TLS_CERT", ""), base.get("RUMMI_TLS_KEY", "")
    if cert or key:
        if not (cert and key and Path(cert).is_file() and Path(key).is_file()):
            fail("RUMMI_TLS_CERT and RUMMI_TLS_KEY must both name existing files")
        return cert, key
    tls = folder / "tls"
    tls.mkdir(exist_ok=True)
    cert_path, key_path = tls / "cert.pem", tls / "key.pem"
    if not (cert_path.exists() and key_path.exists()):
        if not shutil.which("openssl"):
            fail("openssl is needed to make a self-signed certificate (or set RUMMI_TLS_CERT)")
        names = "DNS:localhost,IP:127.0.0.1" + (f",IP:{bind}" if bind != "127.0.0.1" else "")
        subprocess.run(
            ["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "825"]
            + ["-subj", "/CN=rummi-local", "-addext", f"subjectAltName={names}"]
            + ["-keyout", str(key_path), "-out", str(cert_path)],
            check=True,
            capture_output=True,
        )
        key_path.chmod(0o600)
    return str(cert_path), str(key_path)


def render_nginx(
    folder: Path, args: argparse.Namespace, cert: str, key: str, base: Mapping[str, str]
) -> Path:
    for sub in ("body", "proxy", "fastcgi", "uwsgi", "scgi"):
        (folder / "nginx-tmp" / sub).mkdir(parents=True, exist_ok=True)
    user = ""
    if os.geteuid() == 0:
        # nginx's workers drop root for nobody: they need the temp folders, and read static
        # files and avatars (world-readable, as the site writes them).
        nobody = pwd.getpwnam("nobody")
        for path in (folder / "nginx-tmp", *(folder / "nginx-tmp").iterdir()):
            os.chown(path, nobody.pw_uid, nobody.pw_gid)
        user = "user nobody nogroup;"
    media = base.get("RUMMI_MEDIA_ROOT") or str(ROOT / "var" / "media")
    values = {
        "DIR": str(folder),
        "USER": user,
        "BIND": args.bind,
        "HTTP": str(args.http_port),
        "HTTPS": str(args.https_port),
        "WEB1": str(args.web_ports[0]),
        "WEB2": str(args.web_ports[1]),
        "CERT": cert,
        "KEY": key,
        "STATIC": str(ROOT / "var" / "static"),
        "MEDIA": media.rstrip("/"),
    }
    text = (DEPLOY / "nginx-prod.conf.in").read_text()
    for name, value in values.items():
        text = text.replace(f"@{name}@", value)
    out = folder / "nginx.conf"
    out.write_text(text)
    return out


def environment(
    folder: Path, args: argparse.Namespace, cert: str, key: str, base: Mapping[str, str]
) -> dict[str, str]:
    """What every process gets (docs/deploy.md, "The environment")."""
    env = dict(base)
    for name in ("DATABASE_URL", "REDIS_URL"):
        if not env.get(name):
            fail(f"{name} must be set (make prod sets the local servers' by default)")
    origin = f"https://{args.bind}:{args.https_port}"
    origins = [origin, f"https://localhost:{args.https_port}"]
    env.update(
        {
            "RUMMI_DEBUG": env.get("RUMMI_DEBUG") or "0",
            "SECRET_KEY": secret_key(folder, base),
            "RUMMI_ALLOWED_HOSTS": env.get("RUMMI_ALLOWED_HOSTS")
            or ",".join(dict.fromkeys([args.bind, "127.0.0.1", "localhost"])),
            "RUMMI_CSRF_TRUSTED_ORIGINS": env.get("RUMMI_CSRF_TRUSTED_ORIGINS")
            or ",".join(origins),
            "RUMMI_SITE_URL": env.get("RUMMI_SITE_URL") or origin,
            "RUMMI_PROD_DIR": str(folder),
            "RUMMI_PYTHON": sys.executable,
            "RUMMI_NGINX": args.nginx,
            "RUMMI_WEB1_PORT": str(args.web_ports[0]),
            "RUMMI_WEB2_PORT": str(args.web_ports[1]),
            "RUMMI_WORKER_CONCURRENCY": env.get("RUMMI_WORKER_CONCURRENCY") or "2",
            "RUMMI_TLS_CERT_PATH": cert,
            "RUMMI_TLS_KEY_PATH": key,
        }
    )
    env.pop("RUMMI_FRAME_RELAY_URL", None)  # the embedded mode's relay: Redis carries frames
    env.pop("RUMMI_FRAME_RELAY_SECRET", None)
    return env


def prepare(
    args: argparse.Namespace, base: Mapping[str, str] | None = None
) -> tuple[Path, dict[str, str]]:
    """Render the proxy's configuration; the environment for supervisord (from ``base``, this
    process's environment by default)."""
    base = dict(os.environ if base is None else base)
    if not Path(args.nginx).exists():
        fail(f"nginx is needed at {args.nginx}: run 'make nginx' as root, or apt-get install nginx")
    folder = Path(args.dir).resolve()
    (folder / "log").mkdir(parents=True, exist_ok=True)
    cert, key = certificate(folder, args.bind, base)
    render_nginx(folder, args, cert, key, base)
    env = environment(folder, args, cert, key, base)
    checked = subprocess.run(
        [args.nginx, "-t", "-q", "-c", str(folder / "nginx.conf")], capture_output=True, text=True
    )
    if checked.returncode:
        fail(f"nginx refuses {folder / 'nginx.conf'}: {checked.stderr.strip()}")
    return folder, env


def create_database(url: str) -> None:
    """Create DATABASE_URL's database when its server has none of that name."""
    from urllib.parse import urlsplit, urlunsplit

    import psycopg
    from psycopg import sql

    parts = urlsplit(url)
    name = parts.path.lstrip("/")
    if not name:
        fail("DATABASE_URL names no database")
    server = urlunsplit(parts._replace(path="/postgres"))
    try:
        with psycopg.connect(server, autocommit=True, connect_timeout=5) as conn:
            if conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone():
                return
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
            print(f"prod: created the database {name}")
    except psycopg.Error as error:
        fail(f"cannot reach PostgreSQL at {parts.hostname}:{parts.port or 5432}: {error}")


def set_up(env: dict[str, str]) -> None:
    """Once per release (docs/deploy.md, "The processes"): migrate, collect the static files,
    load the shipped puzzles."""
    create_database(env["DATABASE_URL"])
    manage = [sys.executable, str(ROOT / "manage.py")]
    for command in (["migrate", "--no-input"], ["collectstatic", "--no-input", "-v", "0"]):
        if subprocess.run(manage + command, env=env, cwd=ROOT).returncode:
            fail(f"manage.py {command[0]} failed (above)")
    puzzles = subprocess.run(
        manage + ["help", "loadpuzzles"], env=env, cwd=ROOT, capture_output=True
    )
    if (
        puzzles.returncode == 0
        and subprocess.run(manage + ["loadpuzzles"], env=env, cwd=ROOT).returncode
    ):
        fail("manage.py loadpuzzles failed (above)")


def parser() -> argparse.ArgumentParser:
    parse = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parse.add_argument("--dir", default=str(ROOT / "var" / "prod"))
    parse.add_argument("--bind", default="127.0.0.1")
    parse.add_argument("--https-port", type=port, default=8443)
    parse.add_argument("--http-port", type=port, default=8080)
    parse.add_argument("--web-ports", type=ports, default=[8001, 8002])
    parse.add_argument("--nginx", default=NGINX)
    parse.add_argument(
        "--render-only", action="store_true", help="write the configuration, start nothing"
    )
    return parse


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["ctl"]:
        # supervisorctl for the running layout: `python deploy/prod.py ctl status` (it reads
        # the same configuration, whose every %(ENV_...)s must be set).
        folder = Path(os.environ.get("RUMMI_PROD_DIR") or ROOT / "var" / "prod").resolve()
        env = {**os.environ, "RUMMI_PROD_DIR": str(folder)}
        for name in ("RUMMI_PYTHON", "RUMMI_NGINX"):
            env.setdefault(name, "-")
        for name in ("RUMMI_WEB1_PORT", "RUMMI_WEB2_PORT", "RUMMI_WORKER_CONCURRENCY"):
            env.setdefault(name, "0")
        ctl = Path(sys.executable).with_name("supervisorctl")
        conf = str(DEPLOY / "supervisord-prod.conf")
        os.execve(str(ctl), [str(ctl), "-c", conf, *argv[1:]], env)
    args = parser().parse_args(argv)
    folder, env = prepare(args)
    conf = DEPLOY / "supervisord-prod.conf"
    if args.render_only:
        print(folder / "nginx.conf")
        return
    set_up(env)
    print(
        f"Rummi on https://{args.bind}:{args.https_port}/ (self-signed unless RUMMI_TLS_CERT), "
        f"health at /health/; logs in {folder / 'log'}; Ctrl-C stops all"
    )
    supervisord = Path(sys.executable).with_name("supervisord")
    os.chdir(ROOT)
    os.execve(str(supervisord), [str(supervisord), "-c", str(conf)], env)


if __name__ == "__main__":
    main()
