"""Content inside a <noscript> or <button> that holds the page is read; small ones stay dropped;
code in a <figure> is read."""

from __future__ import annotations

import pytest
from lxml import html

from webferret.extract.codeblocks import code_text
from webferret.extract.document import extract_document
from webferret.extract.htmlpage import extract_html, parse_html
from webferret.extract.main_content import cut
from webferret.extract.types import ExtractOptions

POSTS = "".join(
    f'<div class="post"><span class="author">user{i}</span><p>Reply number {i}: the resolver reads '
    f"the file in order, and the first nameserver that answers wins, so put the local one first.</p></div>"
    for i in range(14)
)


def _block_texts(page: str) -> str:
    """What the block classifier is given to read (the blocks of the parsed page)."""
    found = cut(page, None, parse_html(page, None), known=("", ""))
    assert found is not None
    return " ".join(block.text for block in found[0])


def _extract(page: str) -> str:
    options = ExtractOptions(format="text")
    return extract_document(
        page.encode(), url="https://forum.example/t/1", content_type="text/html", options=options
    ).content


def test_a_page_served_inside_noscript_is_read() -> None:
    page = (
        "<html><head><title>Resolver order</title></head><body>"
        '<div id="app">Loading</div>'
        f"<noscript><h1>Resolver order</h1>{POSTS}</noscript></body></html>"
    )
    assert "Reply number 0" in _block_texts(page) and "Reply number 13" in _block_texts(page)
    text = _extract(page)
    assert "Reply number 0" in text and "Reply number 13" in text


def test_a_button_the_markup_never_closed_gives_its_page_back() -> None:
    page = (
        "<html><head><title>Tides</title></head><body><header><button class=menu>Menu"
        f"<main><h1>Tides</h1>{POSTS}</main></header></body></html>"
    )
    assert "Reply number 3" in _block_texts(page) and "Reply number 3" in _extract(page)


def test_small_noscript_and_buttons_stay_dropped() -> None:
    page = (
        "<html><body><noscript><p>Please enable JavaScript to use this site.</p></noscript>"
        "<button><h3>Shipping and returns</h3></button>"
        f"<article>{POSTS}</article></body></html>"
    )
    tree = parse_html(page, None)
    assert len(tree.findall(".//noscript")) == 1 and len(tree.findall(".//button")) == 1
    text = _extract(page)
    assert "enable JavaScript" not in text and "Shipping and returns" not in text
    assert "Reply number 2" in text


STARLIGHT = (
    '<div class="expressive-code"><figure class="frame not-content"><figcaption class="header">'
    '<span class="title">src/main.rs</span></figcaption><pre data-language="rust"><code>'
    '<div class="ec-line"><div class="code">fn main() {</div></div>'
    '<div class="ec-line"><div class="code"><span class="indent">    </span>println!("hi");</div></div>'
    '<div class="ec-line"><div class="code">}</div></div></code></pre></figure></div>'
)


def test_code_in_a_figure_is_kept_line_by_line_with_its_caption() -> None:
    prose = " ".join(f"Create the project, then open its main file and read line {n}." for n in range(12))
    page = (
        '<html><head><title>Start</title><meta property="og:type" content="article"></head><body><article>'
        f"<h1>Start a project</h1><p>{prose}</p>{STARLIGHT}<p>{prose.replace('Create', 'Build')}</p>"
        "</article></body></html>"
    )
    content = extract_html(page, "https://docs.example/start", ExtractOptions()).content
    assert '```rust\nfn main() {\n    println!("hi");\n}\n```' in content  # trafilatura drops figures
    assert "src/main.rs" in content


@pytest.mark.parametrize(
    ("snippet", "code"),
    [
        ("<pre>x<br>y</pre>", "x\ny"),
        ("<pre><div>a</div>\n<div>b</div>\n</pre>", "a\nb\n"),  # a line break of its own: not twice
        ('<pre><div class="l"><div>a</div></div><div class="l"><div>  b</div></div></pre>', "a\n  b"),
        ("<pre><div>a</div><div></div><div>b</div></pre>", "a\n\nb"),  # an empty line's element
        (
            '<pre><div class="l"><div>a</div></div><div class="l"><div></div></div><div>b</div></pre>',
            "a\n\nb",
        ),
        ("<pre><div>a</div><div></div><div></div><div>b</div></pre>", "a\n\n\nb"),
        # Shiki's line spans, drawn as blocks by the page's CSS, with and without line breaks of their own
        (
            '<pre><code><span class="line"><span>a</span></span>'
            '<span class="line"><span>b</span></span></code></pre>',
            "a\nb",
        ),
        (
            '<pre><code><span class="line">a</span>\n<span class="line"></span>\n'
            '<span class="line">b</span></code></pre>',
            "a\n\nb",
        ),
        (
            '<pre><code><span class="line">a</span><span class="line"></span>'
            '<span class="line">b</span></code></pre>',
            "a\n\nb",
        ),
        (
            '<pre><code><span class="line"><span class="cl">a\n</span></span>'
            '<span class="line"><span class="cl">b\n</span></span></code></pre>',
            "a\nb\n",
        ),
        (
            '<pre><code><span data-line="">a</span><span data-line="">b</span></code></pre>',
            "a\nb",
        ),  # rehype-pretty-code
        ('<pre><code><span class="lines">a</span><span>b</span></code></pre>', "ab"),  # not a line's class
    ],
)
def test_code_lines_in_elements_of_their_own(snippet: str, code: str) -> None:
    assert code_text(html.fragment_fromstring(snippet)) == code
