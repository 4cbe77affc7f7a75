"""A page's or a search result's one-line fields are clipped: a hostile page's 180 KB `<title>` or
an engine's 200 KB snippet cannot flood every answer that names it."""

from __future__ import annotations

from webferret.models import MAX_CHARS, Hit, Page, clipped


def test_clipped_cuts_at_a_space_near_the_end_and_marks_it() -> None:
    assert clipped("short", 10) == "short"
    assert clipped(None, 10) is None
    assert clipped("ferrets play " * 10, 30) == "ferrets play ferrets play…"
    assert clipped("x" * 50, 10) == "x" * 9 + "…"


def test_page_and_hit_fields_are_clipped_where_they_are_made() -> None:
    page = Page(url="https://a.example/", title="Big " * 45_000, site_name="S" * 100_000, byline="b" * 999)
    assert len(page.title or "") <= MAX_CHARS["title"] and (page.title or "").endswith("Big…")
    assert len(page.site_name or "") == MAX_CHARS["site_name"]
    assert len(page.byline or "") == MAX_CHARS["byline"]
    assert Page(url="https://a.example/", title="Burrows").title == "Burrows"
    hit = Hit(url="https://a.example/", title="t" * 200_000, snippet="s " * 100_000)
    assert len(hit.title) == MAX_CHARS["title"] and len(hit.snippet) <= MAX_CHARS["snippet"]
