"""The Celery app. Workers and beat start with `celery -A rummi_site worker|beat`."""

from __future__ import annotations

import os
from pathlib import Path

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "rummi_site.settings")

app = Celery("rummi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


def _make_broker_folders() -> None:
    """The filesystem transport expects its folders to exist before the first message."""
    options = app.conf.broker_transport_options or {}
    for key in ("data_folder_in", "data_folder_out", "processed_folder", "control_folder"):
        if key in options:
            Path(options[key]).mkdir(parents=True, exist_ok=True)


@app.on_after_configure.connect
def _on_after_configure(sender: Celery, **kwargs: object) -> None:
    if str(sender.conf.broker_url).startswith("filesystem://"):
        _make_broker_folders()
