"""The Celery app. Workers and beat start with `celery -A rummi_site worker|beat`."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from celery import Celery
from django.conf import settings

from rummi_site.boot import settings_or_exit

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")

app = Celery("rummi_site")
# Read when the app is first configured (not at import): ``django_settings`` below.
app.config_from_object("rummi_site.celery:django_settings", namespace="CELERY")
app.autodiscover_tasks()


def __getattr__(name: str) -> Any:
    """``django_settings``: Django's settings, loaded through ``settings_or_exit`` so that a
    worker or beat started with a bad environment stops with one line."""
    if name != "django_settings":
        raise AttributeError(name)
    settings_or_exit()
    return settings


def _make_broker_folders() -> None:
    """The filesystem transport expects its folders to exist before the first message."""
    options = app.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if key in options:
            Path(options[key]).mkdir(parents=True, exist_ok=True)


def _atomic_filesystem_put() -> None:
    """Make kombu's filesystem transport publish each message atomically.

    Its ``_put`` creates the message file, then locks and writes it, while ``_get`` moves and
    reads files without the lock: a worker could read a message still empty and die with
    "Unrecoverable error: JSONDecodeError" (seen under the clock bench, where every timeout
    publishes the next one). Here the message is written under a name the queue does not list
    and renamed into place, so a reader sees a whole message or none.
    """
    import os
    import uuid
    from time import monotonic

    from kombu.exceptions import ChannelError
    from kombu.transport import filesystem
    from kombu.utils.encoding import str_to_bytes
    from kombu.utils.json import dumps

    def _put(self: filesystem.Channel, queue: str, payload: object, **kwargs: object) -> None:
        name = f"{int(round(monotonic() * 1000))}_{uuid.uuid4()}.{queue}.msg"
        final = os.path.join(self.data_folder_out, name)
        partial = os.path.join(self.data_folder_out, f".{uuid.uuid4()}.partial")
        try:
            with open(partial, "wb") as f:
                f.write(str_to_bytes(dumps(payload)))
            os.replace(partial, final)
        except OSError as exc:
            raise ChannelError(f"Cannot add file {final!r} to directory") from exc

    filesystem.Channel._put = _put


_atomic_filesystem_put()


def _detached_redis_channel_raises_a_connection_error() -> None:
    """Keep a worker alive when Redis goes away while it holds a message (docs/deploy.md,
    "Failure modes").

    When the broker connection breaks, celery's consumer first ``collect()``s the connection:
    that closes each channel (a channel waiting in BRPOP fails at once, Redis being down) and
    then detaches the transport from its connection (``transport.client = None``). Then it
    ``close()``s the connection, which closes the failed channel a second time. That close
    hands back the messages the worker still holds unacknowledged (a task whose ETA or
    countdown has not come, such as a bot turn's pause or a queued timeout; or a task running
    in another pool process) and needs a new Redis client, whose address kombu 5.7 reads from
    the detached ``transport.client``: ``AttributeError: 'NoneType' object has no attribute
    'hostname'``. That is neither a connection nor a channel error, so celery's cleanup lets
    it through and the worker exits ("Unrecoverable error"). The ack of a task that was
    running across the restart takes the same path when the task finishes. Only a channel
    polling while it holds a message gets there, which with ``task_acks_late`` and a
    prefetch of one is any worker holding an ETA task or running a task in one of several
    pool processes. No kombu or celery release fixes it (both 5.7.0, the newest, have it),
    and no setting avoids it short of giving up late acknowledgement.

    Here a channel whose transport was detached raises redis-py's ``ConnectionError`` instead
    of building a client from nothing: kombu's cleanup ignores that, the ack is logged as
    failed ("Couldn't ack"), and the consumer reconnects. What the worker held stays in
    Redis's unacked set if Redis kept its data (handed back after the visibility timeout, an
    hour), or is gone with a Redis that did not; either way the beat sweeps queue every lost
    timeout and bot turn again by its turn number within seconds.
    """
    try:
        import redis
        from kombu.transport import redis as kombu_redis
    except ImportError:  # pragma: no cover - redis-py is a dependency
        return
    original = kombu_redis.Channel._connparams
    if getattr(original, "rummi_detached_check", False):
        return

    def _connparams(self: kombu_redis.Channel, asynchronous: bool = False) -> Any:
        if self.connection.client is None:
            raise redis.exceptions.ConnectionError(
                "this broker channel's connection is closed (Redis went away); "
                "the worker reconnects on a new one"
            )
        return original(self, asynchronous)

    _connparams.rummi_detached_check = True  # type: ignore[attr-defined]
    kombu_redis.Channel._connparams = _connparams


_detached_redis_channel_raises_a_connection_error()


@app.on_after_configure.connect
def _on_after_configure(sender: Celery, **kwargs: object) -> None:
    if str(sender.conf.broker_url).startswith("filesystem://"):
        _make_broker_folders()
