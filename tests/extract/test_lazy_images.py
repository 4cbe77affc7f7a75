"""A picture loaded late by a script reads as the picture, not as its alt text (`extract.lazyimages`)."""

from __future__ import annotations

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

_BLANK = "data:image/gif;base64,R0lGODlhAQABAAAAACw="
_PAGE = (
    "<html><head><title>Pictures</title></head><body><article><h1>Pictures</h1>"
    f'<p>A lazy one <img src="{_BLANK}" data-src="img/lazy.png" alt="Lazy">, one of srcset alone '
    '<img srcset="img/small.png 1x, img/big.png 2x" alt="Set">, one with a real src '
    f'<img src="img/real.png" data-src="img/other.png" alt="Real"> and a blank alone <img src="{_BLANK}" '
    'alt="Blank">, in a paragraph long enough to be the page.</p></article></body></html>'
)


def _content(fmt: str) -> str:
    options = ExtractOptions(whole_page=True, format=fmt)
    return extract_html(_PAGE, "https://example.org/p/", options).content or ""


def test_a_lazy_or_responsive_picture_shows_its_real_address() -> None:
    """WordPress and most themes write the address in `data-src` and a one-pixel GIF in `src`: the
    Markdown read the alt text and the HTML had no picture."""
    markdown = _content("markdown")
    assert "![Lazy](https://example.org/p/img/lazy.png)" in markdown
    assert "![Set](https://example.org/p/img/small.png)" in markdown
    assert "![Real](https://example.org/p/img/real.png)" in markdown
    assert "data:" not in markdown and "Blank" in markdown
    page = _content("html")
    assert (
        'src="https://example.org/p/img/lazy.png"' in page
        and 'src="https://example.org/p/img/small.png"' in page
    )
