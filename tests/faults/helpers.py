"""Real servers for the fault tests: daphne, Celery workers and beat, a private redis-server,
and clients that behave like the board (docs/api.md, "Live updates").

The servers run as subprocesses against pytest-django's test database (the tests use
``transactional_db``, so what the test writes is committed and the servers see it, and what the
servers write the test reads back). A :class:`Board` is one viewer: it keeps the last seq it
has, fetches ``/events?after=<seq>`` when a frame skips seqs or its socket had to reconnect,
and reconnects (every 0.2 s) when its socket drops, as the board does.
"""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from django.contrib.sessions.backends.db import SessionStore
from django.db import connection

from games import services
from games.engine.events import event_from_dict
from games.engine.projection import event_for
from games.engine.scoring import MatchFormat
from games.engine.state import replay, state_from_record
from games.identity import GUEST_KEY, GUEST_NAME, Identity
from games.models import Game

ROOT = Path(__file__).resolve().parents[2]
FAULTS = Path(__file__).resolve().parent
HOST = "127.0.0.1"
REDIS_SERVER = "/usr/bin/redis-server"
# A CSRF token is any 32 letters and digits, sent as both the cookie and the header.
CSRF = "faultsfaultsfaultsfaultsfaults42"
# The proxy of `make prod` ends TLS with a self-signed certificate (deploy/prod.py).
UNVERIFIED_TLS = ssl._create_unverified_context()


def on_postgres_and_redis() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith(("postgres://", "postgresql://")) and bool(
        os.environ.get("REDIS_URL")
    )


# The CI leg with PostgreSQL and Redis (.ci/run's second `make test`); each test also starts a
# redis-server of its own, so killing it disturbs nothing else on the machine.
needs_postgres_and_redis = pytest.mark.skipif(
    not on_postgres_and_redis() or not Path(REDIS_SERVER).exists(),
    reason="fault tests with real servers run on the PostgreSQL and Redis leg only "
    f"(DATABASE_URL=postgres://..., REDIS_URL set, {REDIS_SERVER} present)",
)
sqlite_only = pytest.mark.skipif(
    bool(os.environ.get("DATABASE_URL")),
    reason="the SQLite writers test runs on the SQLite leg only (DATABASE_URL unset)",
)


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((HOST, 0))
        return int(sock.getsockname()[1])


def database_env() -> dict[str, str]:
    """The test database, for a server process (as the real-worker clock test builds it)."""
    name = str(connection.settings_dict["NAME"])
    if connection.vendor == "sqlite":
        return {"RUMMI_SQLITE_PATH": name}
    db = connection.settings_dict
    return {"DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{name}"}


def site_env(tmp_path: Path, redis_url: str | None) -> dict[str, str]:
    env = {**os.environ, **database_env(), "PYTHONUNBUFFERED": "1", "RUMMI_RESTART_GRACE": "1"}
    env.pop("RUMMI_FRAME_RELAY_URL", None)
    env["RUMMI_CELERY_DIR"] = str(tmp_path / "broker")
    if redis_url:
        env["REDIS_URL"] = redis_url
    else:
        env.pop("REDIS_URL", None)
    return env


# Processes


@dataclass
class Server:
    """A subprocess in its own session, its output in ``log``; restartable."""

    name: str
    command: list[str]
    env: dict[str, str]
    log: Path
    process: subprocess.Popen[bytes] | None = None

    def start(self) -> Server:
        with self.log.open("ab") as out:
            out.write(f"\n=== start {self.name} at {time.time():.3f}\n".encode())
            out.flush()
            self.process = subprocess.Popen(
                self.command,
                cwd=ROOT,
                env=self.env,
                stdout=out,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        return self

    @property
    def pid(self) -> int:
        assert self.process is not None
        return self.process.pid

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send ``sig`` to the process's group (its own children too) and wait for it."""
        if self.process is None:
            return
        if self.process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.process.pid, sig)
            try:
                self.process.wait(20)
            except subprocess.TimeoutExpired:
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(self.process.pid, signal.SIGKILL)
                self.process.wait(20)

    def tail(self, chars: int = 3000) -> str:
        try:
            return f"--- {self.name} ({self.log})\n" + self.log.read_text(errors="replace")[-chars:]
        except OSError:
            return f"--- {self.name}: no log"


class Servers:
    """The processes a test started; all killed at the end, whatever happens."""

    def __init__(self, tmp_path: Path) -> None:
        self.tmp_path = tmp_path
        self.started: list[Server] = []
        self.layouts: list[Layout] = []

    def add(self, name: str, command: list[str], env: dict[str, str]) -> Server:
        server = Server(name, command, env, self.tmp_path / f"{name}.log")
        self.started.append(server)
        return server.start()

    def daphne(self, name: str, env: dict[str, str], port: int | None = None) -> Web:
        port = port or free_port()
        command = [sys.executable, "-m", "rummi_site.web", "-b", HOST, "-p", str(port)]
        server = self.add(name, command + ["rummi_site.asgi:application"], env)
        web = Web(server, port)
        web.wait_listening()
        return web

    def worker(
        self, name: str, env: dict[str, str], concurrency: int = 0, app: str = "rummi_site"
    ) -> Server:
        """A Celery worker: ``--pool solo`` unless ``concurrency`` asks for that many prefork
        processes (as production runs them). ``app="fault_tasks"`` adds the test's slow task
        (tests/faults/fault_tasks.py)."""
        command = [sys.executable, "-m", "celery", "-A", app, "worker"]
        if concurrency:
            command += ["--pool", "prefork", "--concurrency", str(concurrency)]
        else:
            command += ["--pool", "solo"]
        command += ["--loglevel", "INFO", "-n", f"{name}@%h"]
        if app != "rummi_site":
            env = {**env, "PYTHONPATH": os.pathsep.join([str(FAULTS), str(ROOT)])}
        return self.add(name, command, env)

    def beat(self, env: dict[str, str]) -> Server:
        command = [sys.executable, "-m", "celery", "-A", "rummi_site", "beat", "--loglevel"]
        command += ["INFO", "--schedule", str(self.tmp_path / "beat-schedule")]
        return self.add("beat", command, env)

    def redis(self, port: int | None = None) -> Redis:
        port = port or free_port()
        command = [REDIS_SERVER, "--port", str(port), "--bind", HOST, "--save", ""]
        command += ["--appendonly", "no", "--dir", str(self.tmp_path)]
        redis = Redis(self.add("redis", command, dict(os.environ)), port)
        redis.wait_up()
        return redis

    def logs(self) -> str:
        return "\n".join(server.tail() for server in self.started)

    def stop_all(self) -> None:
        for layout in self.layouts:
            layout.stop()
        for server in reversed(self.started):
            server.kill(signal.SIGTERM if server.name.startswith("web") else signal.SIGKILL)


@contextlib.contextmanager
def servers(tmp_path: Path) -> Iterator[Servers]:
    running = Servers(tmp_path)
    try:
        yield running
    finally:
        running.stop_all()


@dataclass
class Web:
    server: Server
    port: int

    @property
    def origin(self) -> str:
        return f"http://{HOST}:{self.port}"

    def wait_listening(self, seconds: float = 90) -> None:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            if not self.server.alive():
                raise RuntimeError(f"{self.server.name} exited\n{self.server.tail()}")
            with contextlib.suppress(OSError), socket.create_connection((HOST, self.port), 0.5):
                return
            time.sleep(0.05)
        raise RuntimeError(
            f"{self.server.name} did not listen in {seconds} s\n{self.server.tail()}"
        )

    def restart(self) -> float:
        """Start the process again on the same port; the seconds until it listens."""
        started = time.monotonic()
        self.server.start()
        self.wait_listening()
        return time.monotonic() - started


@dataclass
class Redis:
    server: Server
    port: int

    @property
    def url(self) -> str:
        return f"redis://{HOST}:{self.port}/0"

    def pongs(self) -> bool:
        try:
            with socket.create_connection((HOST, self.port), 0.5) as sock:
                sock.sendall(b"PING\r\n")
                return sock.recv(64).startswith(b"+PONG")
        except OSError:
            return False

    def wait_up(self, seconds: float = 30) -> None:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            if self.pongs():
                return
            time.sleep(0.02)
        raise RuntimeError(f"redis-server on {self.port} did not answer\n{self.server.tail()}")


def wait_for_log(server: Server, text: str, seconds: float = 90) -> None:
    until = time.monotonic() + seconds
    while time.monotonic() < until:
        if text in server.log.read_text(errors="replace"):
            return
        if not server.alive():
            break
        time.sleep(0.1)
    raise RuntimeError(f"{server.name} never logged {text!r}\n{server.tail()}")


# Games and players


@dataclass
class Player:
    seat: int
    session: str
    identity: Identity

    @property
    def cookie(self) -> str:
        return f"sessionid={self.session}; csrftoken={CSRF}"


def guest(name: str) -> tuple[str, Identity]:
    """A stored guest session, as the site makes one: its cookie value and the viewer."""
    session = SessionStore()
    session[GUEST_KEY] = secrets.token_urlsafe(24)
    session[GUEST_NAME] = name
    session.create()
    assert session.session_key is not None
    return session.session_key, Identity(guest_key=session[GUEST_KEY], name=name)


def started_game(mode: str = "parlor", players: int = 2, target: int | None = 1000) -> Any:
    """A started game seated by guests: (the game, its players by seat, a spectator's session).

    ``target`` raises the match's target past what the form offers, so a game that only draws
    goes on for thousands of moves (as ``manage.py benchsetup`` does).
    """
    sessions = [guest(f"Fault {seat}") for seat in range(players)]
    game = services.create_game(sessions[0][1], {"mode": mode, "players": players})
    if target is not None:
        config = {**game.config, "match": MatchFormat("target", target=target).to_dict()}
        Game.objects.filter(pk=game.pk).update(config=config)
    for seat, (_, identity) in enumerate(sessions[1:], start=1):
        services.join_game(identity, game.seats.get(index=seat).invite_token)
    game = Game.objects.get(pk=game.pk)
    players_by_seat = [Player(s, session, ident) for s, (session, ident) in enumerate(sessions)]
    return game, players_by_seat, guest("Fault watcher")[0]


def assert_log_is_true(gid: str) -> Game:
    """Seqs 1..seq without gaps, and the log replays to exactly the cached state."""
    game = Game.objects.get(public_id=gid)
    rows = list(game.events.order_by("seq"))
    assert [e.seq for e in rows] == list(range(1, game.seq + 1))
    assert replay([e.payload for e in rows]) == state_from_record(game.state), gid
    return game


def projected_events(gid: str, after: int, seat: int | None) -> list[dict[str, Any]]:
    """What ``GET /events?after=`` must answer for ``seat``, read from the log directly."""
    game = Game.objects.get(public_id=gid)
    return [
        {"seq": e.seq, "event": event_for(event_from_dict(e.payload), seat)}
        for e in game.events.filter(seq__gt=after).order_by("seq")
    ]


# HTTP


def request(
    port: int,
    method: str,
    path: str,
    cookie: str,
    body: dict[str, Any] | None = None,
    tls: bool = False,
) -> tuple[int, Any]:
    """One request on a fresh connection: (status, JSON answer or None). Raises OSError when
    the server cannot be reached or drops the connection. ``tls``: HTTPS (the proxy of `make
    prod`), sending the page's Origin as a browser does (Django's CSRF check wants it there)."""
    conn: http.client.HTTPConnection
    headers = {"Cookie": cookie, "X-CSRFToken": CSRF}
    if tls:
        conn = http.client.HTTPSConnection(HOST, port, timeout=20, context=UNVERIFIED_TLS)
        headers["Origin"] = f"https://{HOST}:{port}"
    else:
        conn = http.client.HTTPConnection(HOST, port, timeout=20)
    try:
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        conn.request(method, path, body=data, headers=headers)
        answer = conn.getresponse()
        raw = answer.read()
        try:
            parsed = json.loads(raw)
        except ValueError:
            parsed = None
        return answer.status, parsed
    except http.client.HTTPException as error:
        raise ConnectionError(str(error)) from error
    finally:
        conn.close()


@dataclass
class Move:
    """A move as a client makes it: POSTed, and POSTed again with the same key on a 5xx or a
    connection error (the client's job), until ``patience`` seconds have passed."""

    key: str
    expected_seq: int
    status: int = 0
    answer: Any = None
    attempts: int = 0
    failures: list[str] = field(default_factory=list)
    seconds: float = 0.0
    statuses: list[int] = field(default_factory=list)  # every answer's status, 0: no answer


def move(
    port: int,
    gid: str,
    player: Player,
    expected_seq: int,
    patience: float = 20.0,
    key: str | None = None,
    tls: bool = False,
) -> Move:
    """A draw by ``player``; ``key`` to send again a move whose answer was lost."""
    made = Move(key or uuid.uuid4().hex, expected_seq)
    started = time.monotonic()
    body = {"expected_seq": expected_seq, "key": made.key}
    while True:
        made.attempts += 1
        try:
            made.status, made.answer = request(
                port, "POST", f"/api/games/{gid}/draw", player.cookie, body, tls
            )
        except OSError as error:
            made.status, made.answer = 0, None
            made.failures.append(f"{type(error).__name__}: {error}")
            made.statuses.append(0)
        else:
            made.statuses.append(made.status)
            if made.status < 500:
                break
            made.failures.append(f"{made.status} {made.answer}")
        if time.monotonic() - started > patience:
            break
        time.sleep(0.1)
    made.seconds = time.monotonic() - started
    return made


def events_after(port: int, gid: str, cookie: str, after: int, tls: bool = False) -> dict[str, Any]:
    status, answer = request(port, "GET", f"/api/games/{gid}/events?after={after}", cookie, tls=tls)
    if status != 200:
        raise ConnectionError(f"GET events answered {status}: {answer}")
    return dict(answer)


# The board's socket


class Board:
    """One viewer's live board: a socket that reconnects and catches up from its last seq.

    ``seqs`` lists ``(time, seq)`` each time the board's seq moved on, and how (``frame``,
    ``hello``, ``fetch``); ``hellos`` every hello's seq; ``closes`` when its socket dropped.
    """

    def __init__(self, port: int, gid: str, cookie: str, name: str, tls: bool = False) -> None:
        self.port = port
        self.tls = tls
        self.gid = gid
        self.cookie = cookie
        self.name = name
        self.seq = -1
        self.seqs: list[tuple[float, int, str]] = []
        self.hellos: list[tuple[float, int]] = []
        self.frames: list[dict[str, Any]] = []
        self.fetched: list[tuple[int, dict[str, Any]]] = []
        self.closes: list[float] = []
        self.gaps = 0
        self.errors: list[str] = []
        self.lock = threading.Lock()
        self.stopping = threading.Event()
        self.ws: Any = None
        self.connected = threading.Event()
        self.thread = threading.Thread(target=self._run, name=f"board-{name}", daemon=True)

    def start(self, seconds: float = 60) -> Board:
        self.thread.start()
        if not self.connected.wait(seconds):
            raise RuntimeError(f"board {self.name} did not connect: {self.errors[-3:]}")
        return self

    def stop(self) -> None:
        self.stopping.set()
        ws = self.ws
        if ws is not None:
            with contextlib.suppress(Exception):
                ws.close()
        self.thread.join(15)

    def _advance(self, seq: int, how: str) -> None:
        if seq > self.seq:
            self.seq = seq
            self.seqs.append((time.monotonic(), seq, how))

    def _connect(self) -> Any:
        from websockets.sync.client import connect

        scheme = "https" if self.tls else "http"
        return connect(
            f"{'wss' if self.tls else 'ws'}://{HOST}:{self.port}/ws/games/{self.gid}/",
            origin=f"{scheme}://{HOST}:{self.port}",  # type: ignore[arg-type]
            additional_headers={"Cookie": self.cookie},
            ssl=UNVERIFIED_TLS if self.tls else None,
            proxy=None,
            ping_interval=None,
            open_timeout=20,
            max_size=2**22,
            legacy=True,  # a connection to close ourselves, not a reconnecting iterator
        )

    def _catch_up(self) -> None:
        """GET the events after the last seq (a gap, or a socket that had dropped)."""
        answer = events_after(self.port, self.gid, self.cookie, self.seq, self.tls)
        with self.lock:
            self.fetched.append((self.seq, answer))
            for item in answer["events"]:
                if item["seq"] == self.seq + 1:
                    self._advance(item["seq"], "fetch")
            self._advance(answer["seq"], "fetch")

    def _run(self) -> None:
        while not self.stopping.is_set():
            try:
                ws = self._connect()
            except Exception as error:  # the server is down or restarting: try again soon
                self.errors.append(f"connect: {type(error).__name__}: {error}")
                time.sleep(0.2)
                continue
            self.ws = ws
            try:
                hello = json.loads(ws.recv(timeout=20))
                assert hello["type"] == "hello", hello
                with self.lock:
                    self.hellos.append((time.monotonic(), hello["seq"]))
                    behind = self.seq >= 0 and hello["seq"] > self.seq
                    if self.seq < 0:
                        self._advance(hello["seq"], "hello")
                if behind:
                    self._catch_up()
                    with self.lock:
                        self._advance(hello["seq"], "hello")
                self.connected.set()
                for message in ws:
                    frame = json.loads(message)
                    if frame.get("type") != "update":
                        continue
                    first = frame["events"][0]["seq"] if frame["events"] else frame["seq"]
                    with self.lock:
                        self.frames.append(frame)
                        gap = first > self.seq + 1
                        if not gap:
                            self._advance(frame["seq"], "frame")
                    if gap:
                        self.gaps += 1
                        self._catch_up()
            except Exception as error:
                if not self.stopping.is_set():
                    self.errors.append(f"socket: {type(error).__name__}: {error}")
            finally:
                with contextlib.suppress(Exception):
                    ws.close()
                self.ws = None
            if not self.stopping.is_set():
                self.closes.append(time.monotonic())
                time.sleep(0.2)

    def time_reaching(self, seq: int) -> float | None:
        """When the board first had ``seq`` (or later), or None."""
        with self.lock:
            return next((t for t, s, _ in self.seqs if s >= seq), None)

    def wait_for(self, seq: int, seconds: float) -> bool:
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            if self.seq >= seq:
                return True
            time.sleep(0.02)
        return self.seq >= seq


def boards(web: Web, gid: str, cookies: dict[str, str]) -> dict[str, Board]:
    return {name: Board(web.port, gid, cookie, name).start() for name, cookie in cookies.items()}


def describe(boards_: dict[str, Board]) -> str:
    return "; ".join(
        f"{b.name}: seq {b.seq}, gaps {b.gaps}, closes {len(b.closes)}, errors {b.errors[-3:]}"
        for b in boards_.values()
    )


class SocketMover:
    """A player's own socket for sending moves as "act" messages, as the board does while its
    socket is open (docs/api.md, "Actions on the socket")."""

    def __init__(self, web: Web, gid: str, player: Player) -> None:
        from websockets.sync.client import connect

        tls = web.origin.startswith("https:")
        self.ws = connect(
            f"{'wss' if tls else 'ws'}://{HOST}:{web.port}/ws/games/{gid}/",
            origin=web.origin,  # type: ignore[arg-type]
            additional_headers={"Cookie": player.cookie},
            ssl=UNVERIFIED_TLS if tls else None,
            proxy=None,
            ping_interval=None,
            open_timeout=20,
            max_size=2**22,
            legacy=True,
        )
        hello = json.loads(self.ws.recv(timeout=20))
        assert hello["type"] == "hello", hello

    def draw(self, expected_seq: int, seconds: float = 10.0) -> tuple[str, Any, str]:
        """(the move's key, its answer frame or None, what became of the socket)."""
        key = uuid.uuid4().hex
        act = {"type": "act", "action": "draw", "expected_seq": expected_seq, "key": key}
        until = time.monotonic() + seconds
        try:
            self.ws.send(json.dumps(act))
            while time.monotonic() < until:
                frame = json.loads(self.ws.recv(timeout=max(0.01, until - time.monotonic())))
                if frame.get("type") == "answer" and frame.get("key") == key:
                    return key, frame, "answered"
        except TimeoutError:
            return key, None, f"no answer in {seconds} s"
        except Exception as error:  # the server closed the socket
            return key, None, f"closed: {type(error).__name__}: {error}"
        return key, None, f"no answer in {seconds} s"

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self.ws.close()


# make prod's layout (deploy/prod.py, deploy/supervisord-prod.conf)


def _prod_module() -> Any:
    import importlib.util

    spec = importlib.util.spec_from_file_location("rummi_deploy_prod", ROOT / "deploy" / "prod.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


NGINX = "/usr/sbin/nginx"
# `make faults` (RUMMI_FAULT_SUITE=1) runs it, on its own: its timings would suffer from
# make test's parallel load.
needs_the_production_layout = pytest.mark.skipif(
    os.environ.get("RUMMI_FAULT_SUITE") != "1"
    or not on_postgres_and_redis()
    or not Path(REDIS_SERVER).exists()
    or not Path(NGINX).exists(),
    reason="the fault suite behind the proxy runs under `make faults` (RUMMI_FAULT_SUITE=1), on "
    f"PostgreSQL and Redis, with nginx ({NGINX}: `make nginx`) and {REDIS_SERVER}",
)


@dataclass
class Proxy:
    """The layout's front door: nginx on HTTPS; what ``SocketMover`` and ``Board`` need."""

    port: int

    @property
    def origin(self) -> str:
        return f"https://{HOST}:{self.port}"


@dataclass
class Layout:
    """`make prod`'s processes under supervisord, on the test database and a Redis of the
    test's own, on free ports."""

    supervisord: Server
    env: dict[str, str]
    folder: Path
    proxy: Proxy
    web_ports: list[int]

    def ctl(self, *args: str) -> str:
        ctl = Path(sys.executable).with_name("supervisorctl")
        conf = ROOT / "deploy" / "supervisord-prod.conf"
        done = subprocess.run(
            [str(ctl), "-c", str(conf), *args], env=self.env, capture_output=True, text=True
        )
        return done.stdout

    def pid(self, program: str) -> int:
        text = self.ctl("pid", program).strip()
        return int(text) if text.isdigit() else 0

    def log(self, program: str) -> Path:
        return self.folder / "log" / f"{program}.log"

    def supervisor_log(self) -> str:
        return self.log("supervisord").read_text(errors="replace")

    def logs(self) -> str:
        parts = []
        for name in ("supervisord", "proxy", "web1", "web2", "worker1", "worker2", "beat"):
            try:
                text = self.log(name).read_text(errors="replace")[-2500:]
            except OSError:
                text = "(none)"
            parts.append(f"--- {name}\n{text}")
        return "\n".join(parts)

    def wait_ready(self, seconds: float = 120) -> None:
        """Both web processes listen, both workers are ready, beat sends its sweeps."""
        until = time.monotonic() + seconds
        while time.monotonic() < until:
            if not self.supervisord.alive():
                raise RuntimeError(f"supervisord exited\n{self.logs()}")
            listening = all(_listens(port) for port in self.web_ports)
            texts = [self._text(n) for n in ("worker1", "worker2", "beat")]
            if (
                listening
                and all(" ready." in t for t in texts[:2])
                and "Sending due task sweep-timeouts" in texts[2]
            ):
                return
            time.sleep(0.2)
        raise RuntimeError(f"the layout was not ready in {seconds} s\n{self.logs()}")

    def _text(self, program: str) -> str:
        try:
            return self.log(program).read_text(errors="replace")
        except OSError:
            return ""

    def stop(self) -> None:
        """SIGTERM to supervisord, which stops every program (their process groups), waiting
        for them as long as the configuration says; then whatever is left (each program runs
        in a process group of its own) is killed."""
        pids = [int(p) for p in self.ctl("pid", "all").split() if p.isdigit() and p != "0"]
        process = self.supervisord.process
        if process is not None and process.poll() is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(process.pid, signal.SIGTERM)
            with contextlib.suppress(subprocess.TimeoutExpired):
                process.wait(60)
        for pid in pids:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)


def _listens(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection((HOST, port), 0.3):
        return True
    return False


def prod_layout(
    running: Servers, tmp_path: Path, redis: Redis, extra: dict[str, str] | None = None
) -> Layout:
    """Start deploy/supervisord-prod.conf as `make prod` does (deploy/prod.py renders it), on
    the test database, ``redis`` and free ports; the caller's ``servers`` stops it."""
    prod = _prod_module()
    https, http, web1, web2 = (free_port() for _ in range(4))
    folder = tmp_path / "prod"
    args = prod.parser().parse_args(
        ["--dir", str(folder), "--https-port", str(https), "--http-port", str(http)]
        + ["--web-ports", f"{web1},{web2}", "--render-only"]
    )
    base = {**site_env(tmp_path, redis.url), **(extra or {})}
    folder, env = prod.prepare(args, base)
    supervisord = Path(sys.executable).with_name("supervisord")
    conf = ROOT / "deploy" / "supervisord-prod.conf"
    server = running.add("supervisord", [str(supervisord), "-c", str(conf)], env)
    layout = Layout(server, env, folder, Proxy(https), [web1, web2])
    running.layouts.append(layout)
    layout.wait_ready()
    return layout


def terminate_site_connections() -> int:
    """``pg_terminate_backend`` every connection to the test database (only it) but this
    process's own; wait until they are gone; drop this process's own dead pooled ones."""
    name = connection.settings_dict["NAME"]
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pid, pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = %s AND pid <> pg_backend_pid()",
            [name],
        )
        killed = [pid for pid, _ in cursor.fetchall()]
        until = time.monotonic() + 10
        while killed and time.monotonic() < until:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = ANY(%s)", [killed])
            if cursor.fetchone()[0] == 0:
                break
            time.sleep(0.02)
    pool = getattr(connection, "pool", None)
    if pool is not None:
        pool.check()
    return len(killed)
