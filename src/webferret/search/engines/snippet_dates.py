"""The date a results page writes before a result's snippet: Brave's `3 days ago - It was designed...`
and `January 20, 2025 - If you are...`. Read, it is the result's date (what `--time` filters on and the
views show), and the snippet goes on without it."""

from __future__ import annotations

import re
from datetime import datetime, timedelta

_LEAD = re.compile(r"(?P<date>[\w ,.]{3,30}?) [-–—·] ")
_AGO = re.compile(r"(?P<count>\d{1,4}|an?) (?P<unit>minute|hour|day|week|month|year)s? ago", re.IGNORECASE)
_DAYS = {"minute": 1 / 1440, "hour": 1 / 24, "day": 1, "week": 7, "month": 30, "year": 365}
_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%b. %d, %Y")


def leading_date(snippet: str, now: datetime) -> tuple[str | None, str]:
    """The ISO date (`2025-01-20`) `snippet` opens with, and the snippet after it; (None, `snippet`)
    when it opens with none. A date `N days ago` counts back from `now` (a month as 30 days)."""
    found = _LEAD.match(snippet)
    date = _read(found.group("date"), now) if found else None
    return (date, snippet[found.end() :]) if found and date else (None, snippet)


def _read(text: str, now: datetime) -> str | None:
    ago = _AGO.fullmatch(text)
    if ago:
        count = ago.group("count").lower()
        days = (1 if count in ("a", "an") else int(count)) * _DAYS[ago.group("unit").lower()]
        return (now - timedelta(days=days)).date().isoformat()
    for form in _FORMATS:
        try:
            return datetime.strptime(text, form).date().isoformat()
        except ValueError:
            continue
    return None
