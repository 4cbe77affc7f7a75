"""The text blocks of a test page, cut as the extractor cuts them (parse, clean, segment)."""

from __future__ import annotations

from webferret.extract import blocks as B


def blocks_of(page: str) -> list[B.Block]:
    root = B.parse(page)
    assert root is not None
    B.clean(root)
    return B.segment(root)
