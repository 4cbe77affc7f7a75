"""The date a results page writes before a result's snippet: Brave's `3 days ago - It was designed...`
and `January 20, 2025 - If you are...`, in English, German, French or Spanish, as Brave writes them for
a region (`vor 3 Tagen - ...`, `il y a 3 jours - ...`, `20 janv. 2025 - ...`, `20.01.2025 - ...`),
and Google's `30 Jan 2025 ... Succession, ...` (its ellipsis), as a SearXNG instance passes it on.
Read, it is the result's date (what `--time` filters on and the views show), and the snippet goes on
without it."""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta

_LEAD = re.compile(r"(?P<date>[\w ,.]{3,30}?) (?:[-–—·]|\.\.\.|…) ")
_COUNT = r"(?P<count>\d{1,4}|an?|einer|einem|une?|una)"
_AGO = (  # `3 days ago`, `vor 3 Tagen`, `il y a 3 jours`, `hace 3 días`
    re.compile(_COUNT + r" (?P<unit>\w+) ago", re.IGNORECASE),
    re.compile(r"vor " + _COUNT + r" (?P<unit>\w+)", re.IGNORECASE),
    re.compile(r"il y a " + _COUNT + r" (?P<unit>\w+)", re.IGNORECASE),
    re.compile(r"hace " + _COUNT + r" (?P<unit>\w+)", re.IGNORECASE),
)
_UNITS = {  # a unit's words (singular and plural) in each language, and its days
    1 / 1440: "minute minutes minuten minuto minutos",
    1 / 24: "hour hours stunde stunden heure heures hora horas",
    1: "day days tag tagen jour jours día días dia dias",
    7: "week weeks woche wochen semaine semaines semana semanas",
    30: "month months monat monaten mois mes meses",
    365: "year years jahr jahren an ans année années año años",
}
_DAYS = {word: days for days, words in _UNITS.items() for word in words.split()}
_FORMATS = ("%B %d, %Y", "%b %d, %Y", "%d %B %Y", "%d %b %Y", "%b. %d, %Y")
_DAY_MONTH_YEAR = re.compile(r"(?P<day>\d{1,2})\.? (?:de )?(?P<month>[^\W\d_]+)\.?(?: de)? (?P<year>\d{4})")
_NUMERIC = re.compile(r"(?P<day>\d{1,2})\.(?P<month>\d{1,2})\.(?P<year>\d{4})")  # `20.01.2025`
_MONTHS = (  # each month's names and abbreviations in German, French and Spanish (English: `_FORMATS`)
    "januar jan janvier janv enero ene",
    "februar feb février févr fév febrero",
    "märz mär mrz mars marzo mar",
    "april apr avril avr abril abr",
    "mai mayo may",
    "juni jun juin junio",
    "juli jul juillet juil julio",
    "august aug août agosto ago",
    "september sep sept septembre septiembre setiembre",
    "oktober okt octobre oct octubre",
    "november nov novembre noviembre",
    "dezember dez décembre déc diciembre dic",
)
_MONTH = {name: number for number, names in enumerate(_MONTHS, 1) for name in names.split()}
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
    found = _ago(text, now) or _absolute(text)
    latest = now.date() + timedelta(days=1)
    return found.isoformat() if found is not None and FIRST_PAGE <= found <= latest else None


def _ago(text: str, now: datetime) -> date | None:
    """The day `text` (`3 days ago`, `vor einem Monat`) counts back to from `now`, or None."""
    ago = next((found for pattern in _AGO if (found := pattern.fullmatch(text))), None)
    unit = _DAYS.get(ago.group("unit").lower()) if ago else None
    if ago is None or unit is None:
        return None
    count = ago.group("count")
    days = (int(count) if count.isdigit() else 1) * unit
    if days > (now.date() - FIRST_PAGE).days:  # `5000 years ago`: before the year 1 too
        return None
    return (now - timedelta(days=days)).date()


def _absolute(text: str) -> date | None:
    """The day `text` names (`January 20, 2025`, `20. Januar 2025`, `20 janv. 2025`,
    `20 de enero de 2025`, `20.01.2025`), or None."""
    for form in _FORMATS:
        try:
            return datetime.strptime(text, form).date()
        except ValueError:
            continue
    found = _NUMERIC.fullmatch(text)
    if found is not None:
        month: int | None = int(found.group("month"))
    else:
        found = _DAY_MONTH_YEAR.fullmatch(text)
        month = _MONTH.get(found.group("month").lower()) if found else None
    if found is None or month is None:
        return None
    try:
        return date(int(found.group("year")), month, int(found.group("day")))
    except ValueError:  # `30. Februar`
        return None
