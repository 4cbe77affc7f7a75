"""A page nested deeper than libxml2's default limit (about 255 elements: page builders, old forums'
unclosed tags) is parsed whole, not cut off where the limit struck."""

from __future__ import annotations

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

WORDS = "Ferrets dig long tunnels under the old barn and keep their food in a dry chamber there. "


def test_an_article_inside_six_hundred_wrappers_is_read() -> None:
    body = "<div>" * 600 + f"<article><h1>Burrows</h1><p>{WORDS * 6}</p><p>{WORDS * 5}</p></article>"
    html = f"<html><head><title>Burrows</title></head><body>{body}{'</div>' * 600}</body></html>"
    page = extract_document(
        html.encode(), url="https://deep.example/", content_type="text/html", options=ExtractOptions()
    )
    assert page.content.count("Ferrets dig") == 11
