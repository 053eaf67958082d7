"""Logging helpers for settings.LOGGING."""

from __future__ import annotations

import logging.handlers
from pathlib import Path
from typing import IO, Any

from django.core.exceptions import BadRequest, SuspiciousOperation
from django.http.multipartparser import MultiPartParserError


class FolderMakingRotatingFileHandler(logging.handlers.RotatingFileHandler):
    """A rotating log file whose folder is created when the file is first opened."""

    def _open(self) -> IO[Any]:
        Path(self.baseFilename).parent.mkdir(parents=True, exist_ok=True)
        return super()._open()


CLIENT_FAULTS = (SuspiciousOperation, MultiPartParserError, BadRequest)


class ClientFaultOnOneLine(logging.Filter):
    """A request refused with a 4xx for what it sent is logged as one warning line (what, and
    the method and path), without the traceback Django attaches to it."""

    def filter(self, record: logging.LogRecord) -> bool:
        if not record.exc_info or not isinstance(record.exc_info[1], CLIENT_FAULTS):
            return True
        if getattr(record, "status_code", 400) >= 500:
            return True
        request: Any = getattr(record, "request", None)
        line = record.getMessage()
        if request is not None and getattr(request, "path", "") not in line:
            path = str(request.path)
            shown = path if len(path) <= 200 else f"{path[:200]}... ({len(path)} characters)"
            line = f"{line} ({request.method} {shown!r})"
        record.msg, record.args = line, ()
        record.exc_info, record.exc_text = None, None
        if record.levelno > logging.WARNING:
            record.levelno, record.levelname = logging.WARNING, "WARNING"
        return True
