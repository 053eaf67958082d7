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


@app.on_after_configure.connect
def _on_after_configure(sender: Celery, **kwargs: object) -> None:
    if str(sender.conf.broker_url).startswith("filesystem://"):
        _make_broker_folders()
