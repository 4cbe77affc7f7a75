"""A page that closes `<body>` and `<html>` before its content is read on, as a browser reads it
(`extract.endtags`)."""

from __future__ import annotations

from child import passes

from webferret.extract import blocks
from webferret.extract.document import extract_document
from webferret.extract.endtags import read_on
from webferret.extract.htmlpage import parse_html
from webferret.extract.types import ExtractOptions
from webferret.fetch.blocks import visible_text

PARAGRAPHS = [
    "Outsourcing a department means a company hands one of its functions to an outside firm.",
    "A professional employer organization becomes the co-employer of the company's staff.",
    "An administrative services organization runs payroll and benefits but employs nobody.",
    "The right choice depends on the size of the company and on how much control it keeps.",
]
HEADER = (
    "<!DOCTYPE html><html><head><title>Types of outsourcing</title></head><body>"
    "<header><nav><a href='/'>Home</a> <a href='/blog'>Blog</a></nav></header>"
)


def _late_page(closing: str = "</body>\n</html>\n") -> str:
    """A theme that closes the document after its header, then prints the post."""
    article = "".join(f"<p>{text}</p>" for text in PARAGRAPHS)
    return f"{HEADER}{closing}<div class='post'><h1>Types of outsourcing</h1>{article}</div>"


def _markdown(page: str) -> str:
    options = ExtractOptions(format="markdown")
    doc = extract_document(
        page.encode(), url="https://example.org/blog/types", content_type="text/html", options=options
    )
    return doc.content


def test_a_page_that_ends_where_it_should_is_left_as_it_is() -> None:
    page = "<html><body><p>Text.</p></body>\n</html>\n<!-- served in 12 ms -->\n"
    assert read_on(page) is page
    assert read_on(page.encode()) == page.encode()
    assert read_on("<p>no end tags at all</p>") == "<p>no end tags at all</p>"


def test_markup_after_the_end_tags_drops_them() -> None:
    page = "<html><body><p>a</p></BODY> </Html ><div>b</div></body></html>"
    assert read_on(page) == "<html><body><p>a</p> <div>b</div>"
    assert read_on(page.encode()) == b"<html><body><p>a</p> <div>b</div>"


def test_the_post_after_an_early_end_of_the_document_is_read() -> None:
    markdown = _markdown(_late_page())
    for text in PARAGRAPHS:
        assert text in markdown
    assert "Home" not in markdown


def test_what_follows_an_early_end_of_the_body_lands_in_the_body() -> None:
    for tree in (parse_html(_late_page(closing="</body>"), None), blocks.parse(_late_page())):
        assert tree is not None
        body = tree.find("body")
        assert body is not None
        assert PARAGRAPHS[0] in body.text_content()
    assert PARAGRAPHS[0] in _markdown(_late_page(closing="</body>"))


def test_the_fetch_verdicts_see_the_late_text() -> None:
    text = visible_text(_late_page().encode())
    assert PARAGRAPHS[-1] in text


def test_a_hostile_tail_of_comments_is_read_once() -> None:
    """Forty comments and a letter after `</html>`: a pattern that backtracks over the comments takes
    2^40 steps (the first version: 0.16 s at twenty). Run in a child, so a regression fails rather than
    hangs the suite."""
    code = (
        "from webferret.extract.endtags import read_on\n"
        "tail = '<!-- c -->' * 40\n"
        "page = '<html><body>a</body></html>' + tail\n"
        "assert read_on(page) is page\n"
        "assert read_on(page + 'x') == '<html><body>a' + tail + 'x'\n"
        "assert read_on((page + '<!-- open').encode()) == ('<html><body>a' + tail + '<!-- open').encode()\n"
    )
    passes(code)
