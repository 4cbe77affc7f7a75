"""A Retry-After header read once for the whole tool: a page's error status (`fetch.fetcher`) and an
engine's rate limit (`search.runner`) say when to come back in either of its two forms (RFC 9110,
10.2.3): delta-seconds (`120`) or an HTTP date (`Wed, 21 Oct 2026 07:28:00 GMT`)."""

from __future__ import annotations

import math
from datetime import UTC, datetime
from email.utils import parsedate_to_datetime


def retry_after_seconds(value: str | None) -> float | None:
    """The seconds a Retry-After `value` asks to wait (a date past is 0), or None when it is absent
    or says neither a number of seconds nor a date with its zone."""
    value = (value or "").strip()
    if not value:
        return None
    try:
        seconds = float(value)  # (a server's `1.5` too; the RFC's are whole)
    except ValueError:
        pass
    else:
        return max(0.0, seconds) if math.isfinite(seconds) else None
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError, IndexError):
        return None
    if when.tzinfo is None:
        return None
    return max(0.0, (when - datetime.now(UTC)).total_seconds())
