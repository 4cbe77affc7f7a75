"""The human page view says each thing once: no title heading or standfirst repeated from the header."""

from __future__ import annotations

from webferret.models import Page
from webferret.present.pages import render_page

STANDFIRST = "There are more ways to play than ever before. Here is how to choose."


def page(content: str, description: str | None = STANDFIRST) -> Page:
    return Page(
        url="https://ex.org/a",
        final_url="https://ex.org/a",
        ok=True,
        title="So Many Ways to Play",
        description=description,
        content=content,
    )


def test_a_body_opening_with_the_title_and_standfirst_shows_them_once() -> None:
    text = render_page(page(f"# So Many Ways to Play\n\n## {STANDFIRST}\n\nGaming used to be simple."))
    assert text.count("So Many Ways to Play") == 1  # the header's title; the body's H1 is dropped
    assert text.count(STANDFIRST) == 1  # in the body; the header does not quote it again
    assert text.startswith("# So Many Ways to Play\nhttps://ex.org/a")
    assert text.endswith("Gaming used to be simple.")


def test_other_bodies_keep_their_first_heading_and_the_quoted_description() -> None:
    text = render_page(page("# Chapter one\n\nGaming used to be simple."))
    assert "# Chapter one" in text
    assert f"> {STANDFIRST}" in text
