"""How a socket is kept alive: the board's ping and its answer, the web process's beat, and the
flags by which a consumer and the web process share them (rummi_site/web.py, docs/deploy.md
"Sockets").

A socket must carry a frame every minute or so, or idle proxies and load balancers close it, and
each end must see a dead connection. Two ways, chosen by the socket's hello:

* **The beat** (every board that records nothing from a ping, and the notice, tournament and
  waiting sockets, under rummi_site.web): the web process writes ``BEAT`` to a socket that has
  sent nothing for its ping interval (55 s), and the socket's client sends nothing at all. The
  hello says ``ping_s: 0`` and ``silent_s``: a board that has heard no frame for ``silent_s``
  gives its socket up and opens another. The server sees a dead client by TCP itself: a beat
  left unacknowledged for ``DEAD_AFTER_S`` closes the connection (``TCP_USER_TIMEOUT``). A beat
  is one write of a frame built once; a ping was a wake of the process, a frame read and parsed
  and a pong written (about 0.13 ms of CPU: 10,000 open boards pinging every 50 s cost the two
  web processes some 27 ms of CPU a second with no move made, benchmarks/bench_sockets.py).
* **The ping** (a seat at a table with stand-ins, whose pings record that the player is there,
  and any board where the web process does not beat, such as plain daphne): the board sends
  ``PING`` every ``ping_s`` (``PRESENCE_EVERY_S``, 25 s, or ``EVERY_S``, 50 s) and gives the
  socket up when the last one had no frame back. A consumer that needs nothing from a ping sets
  ``scope[ANSWER_KEY]["answer_pings"]`` and the web process answers it with ``PONG`` itself, at
  most one each ``ANSWER_EVERY_S``: faster ones still reach the consumer, whose flood limit
  counts them.
"""

from __future__ import annotations

PING = '{"type":"ping"}'
# How often a board pings: a seat at a table with stand-ins, and every other board.
PRESENCE_EVERY_S = 25
EVERY_S = 50
PONG = '{"type":"pong"}'
# The web process's frame to a socket that has sent nothing for BEAT_EVERY_S seconds (its ping
# interval, rummi_site/web.py): once a minute, inside the 60 s idle timeout of common load
# balancers.
BEAT = '{"type":"beat"}'
BEAT_EVERY_S = 55
# A client that heard nothing for this many beat intervals, and this many seconds more, gives
# its socket up: one beat lost on the way is not a dead socket, two are.
SILENT_BEATS = 2
SILENT_SLACK_S = 10
# A beat (or any frame) the client's TCP has not acknowledged for this long closes the socket.
DEAD_AFTER_S = 30
# In a websocket's scope (set by rummi_site.web): a dict shared with the daphne protocol; its
# ``beat_s`` says the web process beats quiet sockets that often.
ANSWER_KEY = "rummi.pings"
ANSWER_EVERY_S = 1.0


def answer_here(scope: dict[str, object]) -> float | None:
    """Let the web process answer this socket's pings; the seconds between its beats on a quiet
    socket, or None outside rummi_site.web (no beat: the client must ping)."""
    flags = scope.get(ANSWER_KEY)
    if not isinstance(flags, dict):
        return None
    flags["answer_pings"] = True
    beat_s = flags.get("beat_s")
    return float(beat_s) if isinstance(beat_s, (int, float)) and beat_s > 0 else None


def keep_alive(beat_s: float | None) -> dict[str, float]:
    """What a board's hello says about keeping its socket alive, given ``answer_here``'s
    answer: no ping and when to give up when the web process beats, else how often to ping.

    >>> keep_alive(55.0), keep_alive(None)
    ({'ping_s': 0, 'silent_s': 120.0}, {'ping_s': 50})
    """
    if beat_s is None:
        return {"ping_s": EVERY_S}
    return {"ping_s": 0, "silent_s": SILENT_BEATS * beat_s + SILENT_SLACK_S}
