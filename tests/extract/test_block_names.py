"""The flags that class, id and role names give a block (`extract.blocks`): plain names anywhere in
the names, the short ones only as words."""

from __future__ import annotations

import pytest
from lxml import html

from webferret.extract import blocks as B


def _flags(attributes: str) -> int:
    page = f"<html><body><div {attributes}><p>Some words here.</p></div></body></html>"
    tree = html.document_fromstring(page)
    (block,) = B.segment(tree)
    return block.flags


@pytest.mark.parametrize(
    ("attributes", "flag"),
    [
        ('class="site-Footer"', B.F_BOILER),
        ('id="post-body"', B.F_CONTENT),
        ('class="wp-Comments-area"', B.F_COMMENT),
        ('class="product-price"', B.F_SHOP | B.F_CONTENT),
        ('role="navigation"', B.F_NAV | B.F_BOILER),
        ('role="contentinfo"', B.F_NAV | B.F_CONTENT),
        ('class="top ad"', B.F_BOILER),
        ('class="ads-slot"', B.F_BOILER),
        ('class="hashtags"', B.F_BOILER),
        ('class="docs"', B.F_CONTENT),
        ('class="documentation"', B.F_CONTENT),
    ],
)
def test_a_name_gives_its_flags(attributes: str, flag: int) -> None:
    assert _flags(attributes) & (B.F_BOILER | B.F_CONTENT | B.F_COMMENT | B.F_SHOP | B.F_NAV) == flag


@pytest.mark.parametrize(
    "attributes", ['class="loaded"', 'class="shadow"', 'id="tagline2x"', 'class="doctor"']
)
def test_a_word_inside_another_gives_nothing(attributes: str) -> None:
    """`ad`, `tag` and `doc` count as words only: "loaded", "shadow", "doctor" are none of them."""
    assert _flags(attributes) & (B.F_BOILER | B.F_CONTENT) == 0


def test_a_name_that_says_two_things_gives_both() -> None:
    """ "sidebarticle": the boiler name and the content name overlap; both flags."""
    assert _flags('class="sidebarticle"') & (B.F_BOILER | B.F_CONTENT) == B.F_BOILER | B.F_CONTENT
