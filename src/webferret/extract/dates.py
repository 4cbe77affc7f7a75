"""Dates a page's markup states, read as `YYYY-MM-DD`: ISO-like digits or a month in words, never digits
in an order that leaves the month in doubt; the publication's day in the site's own time; a change that
cannot precede the publication.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta
from typing import Any
from urllib.parse import urlsplit

_DATE = re.compile(r"(\d{4})[-/.]?(\d{2})[-/.]?(\d{2})")
_MONTHS = (
    "january", "february", "march", "april", "may", "june", "july", "august", "september", "october",
    "november", "december",
)  # fmt: skip
_DAY = r"(\d{1,2})(?:st|nd|rd|th)?"
# a date a page's markup writes in words, as its visible text does: "Dec 16, 2025", "16 December 2025",
# "Tue, 15 Nov 2022 08:12:31 GMT", "Dec 19th 2025", "2023 Jan 7" (PubMed's citation dates)
_WORDY_DATES = (
    (re.compile(rf"\b([a-z]{{3,9}})\.? {_DAY},? (\d{{4}})(?!\d)", re.I), (3, 1, 2)),
    (re.compile(rf"\b{_DAY}\.? ([a-z]{{3,9}})\.?,? (\d{{4}})(?!\d)", re.I), (3, 2, 1)),
    (re.compile(r"\b(\d{4}) ([a-z]{3,9})\.? (\d{1,2})(?!\d)", re.I), (1, 2, 3)),
)
_SHORT_DATE = re.compile(r"\b(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})\b")  # 2019/1/22: year first, one-digit parts


def _month(word: str) -> int | None:
    """1-12 for an English month's name or its abbreviation ("Sept" too), else None."""
    word = word.lower()
    return next((n for n, name in enumerate(_MONTHS, 1) if len(word) >= 3 and name.startswith(word)), None)


def _date_parts(text: str) -> tuple[int, int, int] | None:
    """Year, month and day of the first date `text` states: ISO-like digits, else a year-first date of
    one-digit parts, else a date with its month in words. A date of digits alone in another order
    (05/03/2021) says no month for sure and is none."""
    match = _DATE.search(text) or _SHORT_DATE.search(text)
    if match:
        year, month, day = (int(part) for part in match.groups())
        return year, month, day
    for pattern, (year_at, month_at, day_at) in _WORDY_DATES:
        for found in pattern.finditer(text):
            month = _month(found.group(month_at))
            if month is not None:
                return int(found.group(year_at)), month, int(found.group(day_at))
    return None


def iso_date(value: Any) -> str | None:
    """`YYYY-MM-DD` from a date string (ISO-like, or with its month in words), or None when it is not
    a plausible date."""
    text = " ".join(value.split()) if isinstance(value, str) else None
    parts = _date_parts(text) if text else None
    if parts is None:
        return None
    year, month, day = parts
    try:
        date = datetime(year, month, day, tzinfo=UTC)
    except ValueError:
        return None
    if year < 1990 or date > latest_date(datetime.now(UTC)):
        return None
    return date.strftime("%Y-%m-%d")


def latest_date(now: datetime) -> datetime:
    """The latest date a page may state: `AHEAD` after `now`. A page is not published nor changed
    later than it is read: a date months ahead is a scheduled post's, an event's or a template's
    (a course's "Register by May 31" `<time>`), not the page's."""
    return now + AHEAD


AHEAD = timedelta(days=2)
"""How far ahead of this clock a page's date may be: its site's day is up to 14 hours ahead of UTC
(UTC+14), and either clock may be a little off."""


def local_day(value: Any, url: str | None) -> str | None:
    """`iso_date(value)` on the site's own day: a UTC time ("2025-12-19T02:41:41+00:00", WordPress's
    meta tag) is often a day after (or before) the one the site dates the post by, which its address
    states (`/2025/12/18/`, a WordPress permalink): a day apart, the address's day. A date alone, or a
    time stated with the site's own offset ("2025-12-19T07:00:00-05:00"), is that day already: an
    address a day apart dates something else (a daily roundup of the day before)."""
    date = iso_date(value)
    own = url_day(url) if date and _UTC.search(value) else None
    return own if own and date and _days_apart(date, own) == 1 else date


def url_day(url: str | None) -> str | None:
    """The day a page's address states (`/2025/12/18/`, a WordPress permalink), or None."""
    found = _URL_DAY.search(urlsplit(url).path) if url else None
    try:
        return datetime(*(int(part) for part in found.groups())).strftime("%Y-%m-%d") if found else None
    except ValueError:
        return None


def _days_apart(first: str, second: str) -> int:
    return abs((datetime.fromisoformat(first) - datetime.fromisoformat(second)).days)


_URL_DAY = re.compile(r"/((?:19|20)\d\d)/(\d\d)/(\d\d)(?:/|$)")
# a time of day stated in UTC: "02:41:41+00:00", "02:41Z", "08:12:31 GMT", "03:05:46 GMT+0000" (a script's)
_UTC = re.compile(
    r"\d:\d\d(?::\d\d(?:[.,]\d+)?)?\s*(?:z|(?:gmt|utc)?\s*[+-]00(?::?00)?|gmt|utc)(?:\s*\([^)]*\))?\s*$", re.I
)


def after_publication(modified: str | None, published: str | None, url: str | None = None) -> str | None:
    """The modified date, unless it is earlier than the publication's: a page is not changed before it
    is out, so one of the two dates the markup states is wrong, and the change is not answered. But a
    change the day before a publication moved to its address's day (`local_day`: a UTC time, a day
    off the site's own) was made that day too: it is dated so."""
    if not (modified and published and modified < published):
        return modified
    return published if url_day(url) == published and _days_apart(modified, published) == 1 else None
