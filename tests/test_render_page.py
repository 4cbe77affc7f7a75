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


def test_clip_cuts_a_long_line_at_a_space_not_inside_a_word_or_link() -> None:
    from webferret.models import Page
    from webferret.present.pages import clip_page

    content = "Ferrets sleep a lot. " * 3 + "See [the guide](https://example.org/ferrets/guide) for more."
    clipped = clip_page(Page(url="https://x.org/", ok=True, content=content), 90)
    body, note = clipped.content.split("\n\n")
    assert body.endswith("[the") and len(body) <= 90
    assert note == f"[clipped at {len(body)} of {len(content)} characters]"
    assert clipped.meta["clipped"] == {"at": len(body), "of": len(content)}


def test_clip_inside_a_code_block_closes_the_fence_before_its_note() -> None:
    from webferret.present.pages import clip_page

    content = 'Intro line.\n\n```json\n{\n  "a": 1,\n  "b": 2\n}\n```\n\nAfter the code.'
    clipped = clip_page(Page(url="https://x.org/", ok=True, content=content), 30)
    body, note = clipped.content.rsplit("\n\n", 1)
    assert body.endswith("\n```") and body.count("```") == 2
    assert note.startswith("[clipped at ")


def test_clip_of_html_never_cuts_inside_a_tag() -> None:
    from webferret.present.pages import clip_page

    content = (
        '<p>Ferrets sleep a lot and play the rest. <a href="https://x.org/g" title="the guide">guide</a></p>'
    )
    clipped = clip_page(Page(url="https://x.org/", ok=True, format="html", content=content), 70)
    body = clipped.content.split("\n\n")[0]
    assert body == "<p>Ferrets sleep a lot and play the rest."
    assert clipped.meta["clipped"]["at"] == len(body) + 1  # the space before the tag is trimmed


def test_a_page_the_store_did_not_keep_says_so_in_its_header() -> None:
    kept = page("Body.", description=None)
    lost = kept.model_copy(
        update={"meta": {"store_error": "the page store did not keep this page: disk full"}}
    )
    assert "not stored" not in render_page(kept)
    header = render_page(lost).splitlines()[2]
    assert header.endswith("words · not stored (the page store did not keep this page: disk full)")
