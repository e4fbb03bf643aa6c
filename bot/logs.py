"""Structured logging with a request id on every line a command causes.

The id is set once per command (or scheduler scan) in a context variable, so every log record
emitted while handling it carries it, and error messages shown to users can quote it; lines
outside any command carry "-". `configure_logging` runs once, from `python -m bot`.

Log messages quote what users typed, so one line must stay one line: in text mode control
characters in a message (newlines, NUL, escape sequences) are written as `\\n`, `\\x00`...,
and JSON mode escapes them as JSON does. Only a traceback spans several lines.
"""

from __future__ import annotations

import contextvars
import json
import logging
import re
import uuid

request_id: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="-")


def new_request_id() -> str:
    rid = uuid.uuid4().hex[:10]
    request_id.set(rid)
    return rid


class RequestIdFilter(logging.Filter):
    def filter(self, record: logging.LogRecord) -> bool:
        record.request_id = request_id.get()
        return True


CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]")


def escape_controls(text: str) -> str:
    """Control characters as visible escapes, so user text cannot start a new log line."""
    return CONTROL.sub(lambda m: m.group().encode("unicode_escape").decode("ascii"), text)


class TextFormatter(logging.Formatter):
    """`time level logger [request id] message`, the message kept on one line."""

    def __init__(self) -> None:
        super().__init__("%(asctime)s %(levelname)s %(name)s [%(request_id)s] %(message)s")

    def formatMessage(self, record: logging.LogRecord) -> str:
        record.message = escape_controls(record.message)
        return super().formatMessage(record)


class JsonFormatter(logging.Formatter):
    """One JSON object per line, for log collectors."""

    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "time": self.formatTime(record),
            "level": record.levelname,
            "logger": record.name,
            "request_id": getattr(record, "request_id", "-"),
            "message": record.getMessage(),
        }
        if record.exc_info:
            entry["error"] = self.formatException(record.exc_info)
        return json.dumps(entry)


def configure_logging(level: str = "INFO", as_json: bool = False) -> None:
    handler = logging.StreamHandler()
    handler.addFilter(RequestIdFilter())
    handler.setFormatter(JsonFormatter() if as_json else TextFormatter())
    logging.basicConfig(level=level, handlers=[handler], force=True)
