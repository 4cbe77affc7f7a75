"""The date a results page writes before a result's snippet (Brave's `3 days ago - ...`)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from webferret.search.engines.snippet_dates import leading_date

NOW = datetime(2026, 3, 10, 15, 0, tzinfo=UTC)


@pytest.mark.parametrize(
    ("snippet", "date", "rest"),
    [
        ("3 days ago - It was designed at Google.", "2026-03-07", "It was designed at Google."),
        ("an hour ago - Breaking news.", "2026-03-10", "Breaking news."),
        ("16 hours ago - Overnight.", "2026-03-09", "Overnight."),
        ("2 weeks ago - A release.", "2026-02-24", "A release."),
        ("1 year ago · Old post.", "2025-03-10", "Old post."),
        ("January 20, 2025 - If you are interested.", "2025-01-20", "If you are interested."),
        ("Jan 5, 2024 — Notes.", "2024-01-05", "Notes."),
        ("30 Jan 2025 - Figures.", "2025-01-30", "Figures."),
        ("Golang - the language of the cloud.", None, "Golang - the language of the cloud."),
        ("Three days - a short story.", None, "Three days - a short story."),
        ("February 30, 2025 - Not a day.", None, "February 30, 2025 - Not a day."),
        ("No date at all here.", None, "No date at all here."),
    ],
)
def test_a_date_before_the_snippet_is_the_results_date(snippet: str, date: str | None, rest: str) -> None:
    assert leading_date(snippet, NOW) == (date, rest)
