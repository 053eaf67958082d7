"""The board's ping on a socket and its answer, and the flag by which a consumer lets the web
process answer it without waking the consumer (rummi_site/web.py, docs/deploy.md "Sockets").

Every open board sends ``PING`` and gets ``PONG`` back (static/kit/client.js), as often as the
game socket's hello says (``ping_s``): every ``PRESENCE_EVERY_S`` (25 s) from a seat whose pings
record that the player is there (a table with stand-ins, which stand in after 60 s unheard),
every ``EVERY_S`` (50 s) from any other board. A ping keeps idle proxies from closing the socket
and lets the board see a dead socket (no answer to its last ping: it reconnects); daphne's own
protocol ping would come after 55 s without a message anyway (rummi_site/web.py). Through the
consumer, an answer cost the web process about 0.35 ms of CPU (10,000 open boards at 25 s: 400 a
second, 140 ms of CPU a second over both processes, benchmarks/bench_sockets.py). A consumer
that needs nothing from a ping (no presence to record) sets ``scope[ANSWER_KEY]["answer_pings"]``
and the web process answers the socket's pings itself, at most one each ``ANSWER_EVERY_S``:
faster ones still reach the consumer, whose flood limit counts them.
"""

from __future__ import annotations

PING = '{"type":"ping"}'
# How often a board pings: a seat at a table with stand-ins, and every other board.
PRESENCE_EVERY_S = 25
EVERY_S = 50
PONG = '{"type":"pong"}'
# In a websocket's scope (set by rummi_site.web): a dict shared with the daphne protocol.
ANSWER_KEY = "rummi.pings"
ANSWER_EVERY_S = 1.0


def answer_here(scope: dict[str, object]) -> None:
    """Let the web process answer this socket's pings (a no-op outside rummi_site.web)."""
    flags = scope.get(ANSWER_KEY)
    if isinstance(flags, dict):
        flags["answer_pings"] = True
