"""Logging helpers for settings.LOGGING."""

from __future__ import annotations

import logging.handlers
from pathlib import Path
from typing import IO, Any


class FolderMakingRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log file whose folder is created when the file is first opened."""

    def _open(self) -> IO[Any]:
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()
