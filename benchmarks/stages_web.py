"""Run a web process and stamp each socket move's stages: where a move's time goes between the
harness sending it and its last viewer's frame.

Used by bench_live.py (and so bench_sockets.py) when ``RUMMI_BENCH_LIVE_STAGES`` is set. Every
stamp is ``time.perf_counter()`` (the system's monotonic clock on Linux, the same in every
process, so the harness's own stamps line up with these):

- ``moves``: per act message's key, ``[gid, read, consumer, thread_start, thread_end, answered]``:
  autobahn handed the frame to daphne; the game's consumer began ``receive``; the service call
  began and ended on the act thread; the answer was written (after the group send).
- ``frames``: per ``(gid, seq)`` the last time a consumer of this process wrote the frame to
  its socket, and when the first consumer got the group message.

Usage: python benchmarks/stages_web.py OUT MODULE [ARGS ...]; OUT is written at exit as JSON.
"""

from __future__ import annotations

import functools
import re
import time
from typing import Any

try:  # imported as part of the package (tests), or run as a script beside profile_web.py
    from benchmarks.profile_web import run_module, save_json_at_exit
except ImportError:  # pragma: no cover - a script's folder is first on the import path
    from profile_web import run_module, save_json_at_exit  # type: ignore[no-redef]

KEY = re.compile(r'"key": ?"([0-9a-f]{32})"')
SEQ = re.compile(r'"seq": ?(\d+)')

_moves: dict[str, list[Any]] = {}
# (gid, seq) -> [first group message in, last frame written]
_frames: dict[tuple[str, int], list[float]] = {}
_patched = False


def key_of(text: str | bytes) -> str | None:
    """The act message's key, if ``text`` is one.

    >>> key_of('{"type": "act", "key": "' + "a" * 32 + '"}')
    'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa'
    >>> key_of(b'{"type": "ping"}') is None
    True
    """
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    if '"act"' not in text:
        return None
    found = KEY.search(text)
    return found.group(1) if found else None


def _patch_consumer() -> None:
    """Wrap the game consumer's receive, its service call and its group frames (imported on the
    first message, once the site's application is loaded)."""
    from games import consumers

    cls = consumers.GameConsumer
    receive, update, act = cls.receive, cls.game_update, consumers.act

    @functools.wraps(receive)
    async def timed_receive(self: Any, text_data: str | None = None, **kw: Any) -> None:
        key = key_of(text_data or "")
        if key is None:
            await receive(self, text_data=text_data, **kw)
            return
        stamps = _moves.setdefault(key, [None, None, None, None, None, None])
        stamps[0], stamps[2] = self.gid, time.perf_counter()
        await receive(self, text_data=text_data, **kw)
        stamps[5] = time.perf_counter()

    def timed_act(gid: str, viewer: Any, action: str, body: dict[str, Any]) -> Any:
        stamps = _moves.get(str(body.get("key")))
        if stamps is not None:
            stamps[3] = time.perf_counter()
        try:
            return act(gid, viewer, action, body)
        finally:
            if stamps is not None:
                stamps[4] = time.perf_counter()

    @functools.wraps(update)
    async def timed_update(self: Any, message: dict[str, Any]) -> None:
        got = time.perf_counter()
        texts = message.get("frames") or {}
        text = next(iter(texts.values()), None) if texts else None
        found = SEQ.search(text) if isinstance(text, str) else None
        await update(self, message)
        if found is None or texts.get(getattr(self, "viewer_key", None)) is None:
            return
        slot = _frames.setdefault((self.gid, int(found.group(1))), [got, 0.0])
        slot[0] = min(slot[0], got)
        slot[1] = max(slot[1], time.perf_counter())

    cls.receive = timed_receive  # type: ignore[method-assign]
    cls.game_update = timed_update  # type: ignore[method-assign]
    consumers.act = timed_act


def install(out: str) -> None:
    """Stamp the moves from now on; write them to ``out`` at exit."""
    from daphne.ws_protocol import WebSocketProtocol

    on_message = WebSocketProtocol.onMessage

    def timed_on_message(self: Any, payload: bytes, isBinary: bool) -> Any:  # noqa: N803
        global _patched
        if not _patched:
            _patched = True
            _patch_consumer()
        key = key_of(payload) if not isBinary else None
        if key is not None:
            _moves[key] = [None, time.perf_counter(), None, None, None, None]
        return on_message(self, payload, isBinary)

    WebSocketProtocol.onMessage = timed_on_message  # type: ignore[method-assign]

    save_json_at_exit(out, lambda: {"moves": _moves, "frames": frame_rows()})


def frame_rows() -> list[list[Any]]:
    """The frames' stamps as rows: [gid, seq, first group message in, last frame written]."""
    return [[gid, seq, *slot] for (gid, seq), slot in _frames.items()]


def main() -> None:
    run_module("stages_web.py", install)


if __name__ == "__main__":
    main()
