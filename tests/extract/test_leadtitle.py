"""A main content that opens with the page's title leaves it out (`extract.leadtitle`)."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import html

from webferret.cli import main
from webferret.extract.htmlpage import extract_html
from webferret.extract.leadtitle import drop_title
from webferret.extract.types import ExtractOptions

STORY = "".join(
    f"<p>The river rose through the night and the town's volunteers stacked sandbags, hour {n}.</p>"
    for n in range(12)
)


def _page(head: str, opening: str, after: str = STORY) -> str:
    return (
        f'<html><head>{head}<meta property="og:type" content="article"></head><body><nav><a href="/">Home</a>'
        f"</nav><article>{opening}{after}</article><footer>Contact the newsroom</footer></body></html>"
    )


def _content(page: str, **options: object) -> str:
    return extract_html(page, "https://news.example/flood", ExtractOptions(**options)).content  # type: ignore[arg-type]


def test_a_headline_that_repeats_the_title_is_the_title_field_only() -> None:
    page = _page(
        '<meta property="og:title" content="Town holds back the flood">', "<h1>Town holds back the flood</h1>"
    )
    extracted = extract_html(page, "https://news.example/flood", ExtractOptions())
    assert extracted.title == "Town holds back the flood"
    assert (
        extracted.content.startswith("The river rose through the night") and "flood" not in extracted.content
    )


def test_a_headline_that_opens_or_closes_the_head_title() -> None:
    for head in (
        "<title>Town holds back the flood | Valley News</title>",
        "<title>Valley News - Town holds back the flood</title>",
    ):
        assert "Town holds back" not in _content(
            _page(head, "<h1><a href='/flood'>Town holds back the flood</a></h1>")
        )
    # under three words, a part of the title is not taken for it ("News" is no headline)
    assert _content(_page("<title>Flood news | Valley</title>", "<h2>Flood news</h2>")).startswith(
        "## Flood news"
    )


def test_the_title_stays_where_it_is_not_the_opening_or_the_whole_content() -> None:
    head = "<title>Town holds back the flood</title>"
    later = _content(
        _page(
            head, "<p>Updated at dawn by the river desk of the paper.</p><h2>Town holds back the flood</h2>"
        )
    )
    assert "## Town holds back the flood" in later
    chosen = _content(_page(head, "<h1>Town holds back the flood</h1>"), selector="article")
    assert chosen.startswith("# Town holds back the flood")  # the caller's scope is read as it is


def test_a_piped_body_opens_with_its_title(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "flood.html"
    path.write_text(_page("<title>Town holds back the flood</title>", "<h1>Town holds back the flood</h1>"))
    for fmt, head in (
        ("markdown", "# Town holds back the flood\n\nThe river"),
        ("text", "Town holds back the flood\n\nThe river"),
    ):
        assert main(["extract", str(path), "--quiet", "--format", fmt]) == 0
        out = capsys.readouterr().out
        assert out.startswith(head) and out.count("holds back") == 1


def test_the_opening_block_is_the_whole_heading_and_never_the_whole_content() -> None:
    def left(fragment: str) -> str:
        element = html.fragment_fromstring(fragment)
        drop_title(element, "Town holds back the flood", None)
        return html.tostring(element, encoding="unicode")

    split = "<div><h1><span>Town holds</span> back the flood</h1><p>The river rose.</p></div>"
    assert left(split) == "<div><p>The river rose.</p></div>"
    assert (
        left("<div><h1>Town holds back the flood</h1></div>")
        == "<div><h1>Town holds back the flood</h1></div>"
    )
    kept_tail = "<div><h1>Town holds back the flood</h1>The river rose.</div>"
    assert left(kept_tail) == "<div>The river rose.</div>"


def test_a_sentence_that_opens_with_the_title_in_code_keeps_it() -> None:
    # a reference page titled by its API name opens "`useState` is a React Hook...": the name is part of
    # the sentence, not a headline on its own
    page = _page(
        '<meta property="og:title" content="useState">',
        "<p><code>useState</code> is a React Hook that lets you add a state variable to your component.</p>",
    )
    assert _content(page).startswith("`useState` is a React Hook")
