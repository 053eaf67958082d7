"""The embedded broker (kombu's filesystem transport) never hands a worker half a message."""

from __future__ import annotations

import threading
from pathlib import Path
from queue import Empty
from typing import Any

from kombu import Connection

import rummi_site.celery  # noqa: F401  (installs the atomic publish)

MESSAGES = 30


def test_a_reader_racing_big_publishes_gets_every_message_whole(tmp_path: Path) -> None:
    folder = str(tmp_path)
    options = {"data_folder_in": folder, "data_folder_out": folder}
    # Big bodies make each write slow, so a reader polling the folder meets files mid-write
    # if the publish is not atomic (kombu's own _put creates the file, then writes it).
    body = "x" * 4_000_000
    with Connection("filesystem://", transport_options=options) as writer_conn:
        writer = writer_conn.default_channel

        def publish() -> None:
            for n in range(MESSAGES):
                writer._put("clocks", {"n": n, "body": body})

        thread = threading.Thread(target=publish)
        with Connection("filesystem://", transport_options=options) as reader_conn:
            reader = reader_conn.default_channel
            got: list[Any] = []
            thread.start()
            while len(got) < MESSAGES:
                try:
                    got.append(reader._get("clocks"))
                except Empty:
                    continue
            thread.join()
    assert [m["n"] for m in got] == list(range(MESSAGES))
    assert all(len(m["body"]) == len(body) for m in got)
