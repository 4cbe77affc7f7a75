"""The date a results page writes before a result's snippet (Brave's `3 days ago - ...`)."""

from __future__ import annotations

from datetime import UTC, datetime

import httpx
import pytest
from search_harness import FakeWeb, local

from webferret.search.engines import ddgs_text
from webferret.search.engines.snippet_dates import leading_date
from webferret.search.runner import EngineRunner
from webferret.search.types import EngineQuery

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
        ("30 Jan 2025 ... Succession, best acting.", "2025-01-30", "Succession, best acting."),  # Google's
        ("Jan 30, 2025 … Notes.", "2025-01-30", "Notes."),
        ("Wait ... for it.", None, "Wait ... for it."),
        ("Golang - the language of the cloud.", None, "Golang - the language of the cloud."),
        ("Three days - a short story.", None, "Three days - a short story."),
        ("February 30, 2025 - Not a day.", None, "February 30, 2025 - Not a day."),
        ("No date at all here.", None, "No date at all here."),
    ],
)
def test_a_date_before_the_snippet_is_the_results_date(snippet: str, date: str | None, rest: str) -> None:
    assert leading_date(snippet, NOW) == (date, rest)


@pytest.mark.parametrize(
    ("snippet", "date", "rest"),
    [
        ("vor 3 Tagen - Es wurde bei Google entworfen.", "2026-03-07", "Es wurde bei Google entworfen."),
        ("vor einem Monat - Eine Version.", "2026-02-08", "Eine Version."),
        ("20. Januar 2025 - Wenn Sie sich interessieren.", "2025-01-20", "Wenn Sie sich interessieren."),
        ("20.01.2025 - Zahlen.", "2025-01-20", "Zahlen."),
        ("il y a 3 jours - Il a été conçu.", "2026-03-07", "Il a été conçu."),
        ("il y a un an - Vieux billet.", "2025-03-10", "Vieux billet."),
        ("20 janv. 2025 - Chiffres.", "2025-01-20", "Chiffres."),
        ("1 août 2024 - Notes.", "2024-08-01", "Notes."),
        ("hace 2 semanas - Una versión.", "2026-02-24", "Una versión."),
        ("20 de enero de 2025 - Cifras.", "2025-01-20", "Cifras."),
        ("Vor allem - die Sprache der Cloud.", None, "Vor allem - die Sprache der Cloud."),
        ("Hace calor - un cuento.", None, "Hace calor - un cuento."),
        ("30. Februar 2025 - Kein Tag.", None, "30. Februar 2025 - Kein Tag."),
    ],
)
def test_a_date_in_a_regions_language_is_read(snippet: str, date: str | None, rest: str) -> None:
    """Brave writes a region's dates in its language (`vor 3 Tagen`, `il y a 3 jours`, `20 janv.
    2025`): they were left in the snippet, and the result undated."""
    assert leading_date(snippet, NOW) == (date, rest)


@pytest.mark.parametrize(
    "snippet",
    [
        "July 4, 1776 - The Declaration of Independence was adopted by the Congress.",
        "3000 years ago - The Bronze Age ended in a collapse.",
        "5000 years ago - The first pyramids were planned.",
        "January 1, 2099 - The deadline the treaty sets.",
    ],
)
def test_a_date_no_page_was_published_on_is_the_snippets_own(snippet: str) -> None:
    """A date before the web or after today opens the page's own words: they stay, undated (the
    result was dated 1776 and `--time` left it out; `5000 years ago` was an OverflowError)."""
    assert leading_date(snippet, NOW) == (None, snippet)


def _brave_result(url: str, title: str, snippet: str) -> str:
    return (
        '<div class="snippet" data-type="web"><a href="'
        + url
        + '"><div class="title">'
        + title
        + "</div></a>"
        '<div class="generic-snippet"><div class="content">' + snippet + "</div></div></div>"
    )


async def test_a_snippet_opening_with_thousands_of_years_ago_keeps_the_answer(fake_web: FakeWeb) -> None:
    """Brave's page on loopback, one snippet opening `5000 years ago - ...`: the whole answer was an
    engine error (reading the date overflowed); now each result is listed, the dated one dated."""
    results = _brave_result(
        "https://example.org/pyramids", "Pyramids", "5000 years ago - The first pyramids were planned."
    ) + _brave_result(
        "https://example.org/news",
        "News",
        '<span class="t-secondary">3 days ago -</span> Ferrets won the prize.',
    )
    fake_web.server.canned["/brave/ages"] = (200, f"<html><body>{results}</body></html>", "text/html")
    engine = local(ddgs_text.make_engine("brave"), f"{fake_web.base}/brave/ages")
    async with httpx.AsyncClient() as client:
        answer = await EngineRunner(client, None, min_interval=0).run(
            engine, EngineQuery(text="ages"), timeout=10
        )
    assert [(hit.url, hit.snippet, bool(hit.published)) for hit in answer.hits] == [
        ("https://example.org/pyramids", "5000 years ago - The first pyramids were planned.", False),
        ("https://example.org/news", "Ferrets won the prize.", True),
    ]
