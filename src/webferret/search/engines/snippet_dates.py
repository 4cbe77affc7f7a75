"""The date a results page writes before a result's snippet: Brave's `3 days ago - It was designed...`
and `January 20, 2025 - If you are...`. Read, it is the result's date (what `--time` filters on and the
views show), and the snippet goes on without it."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

_LEAD = re.compile(r"(?P<date>[\w ,.]{3,30}?) [-–—·] ")
_AGO = re.compile(r"(?P<count>\d{1,4}|an?) (?P<unit>minute|hour|day|week|month|year)s? ago", re.IGNORECASE)
_DAYS = {"minute": 1 / 1440, "hour": 1 / 24, "day": 1, "week": 7, "month": 30, "year": 365}
_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%b. %d, %Y")
FIRST_PAGE = date(1991, 8, 6)
"""The web's first page: a date before it opens a snippet of the page's own words (`July 4, 1776 -
The Declaration...`, `3000 years ago - The Bronze Age...`), no results page's date of it."""


def leading_date(snippet: str, now: datetime) -> tuple[str | None, str]:
    """The ISO date (`2025-01-20`) `snippet` opens with, and the snippet after it; (None, `snippet`)
    when it opens with none. A date `N days ago` counts back from `now` (a month as 30 days). A date
    no page can have been published on (before `FIRST_PAGE`, after `now`'s day where it is already
    the next) is the snippet's own words, which stay."""
    found = _LEAD.match(snippet)
    date = _read(found.group("date"), now) if found else None
    return (date, snippet[found.end() :]) if found and date else (None, snippet)


def _read(text: str, now: datetime) -> str | None:
    found = _date(text, now)
    latest = now.date() + timedelta(days=1)
    return found.isoformat() if found is not None and FIRST_PAGE <= found <= latest else None


def _date(text: str, now: datetime) -> date | None:
    ago = _AGO.fullmatch(text)
    if ago:
        count = ago.group("count").lower()
        days = (1 if count in ("a", "an") else int(count)) * _DAYS[ago.group("unit").lower()]
        if days > (now.date() - FIRST_PAGE).days:  # `5000 years ago`: before the year 1 too
            return None
        return (now - timedelta(days=days)).date()
    for form in _FORMATS:
        try:
            return datetime.strptime(text, form).date()
        except ValueError:
            continue
    return None
