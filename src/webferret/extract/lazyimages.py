"""An image a script loads late, given the address it will show, once, right after parsing.

A page that loads its pictures lazily writes the real address in `data-src` (`data-lazy-src`,
`data-original`, `data-srcset`) and a blank in `src`: a one-pixel `data:` GIF, or nothing; a
responsive picture may have only a `srcset`. Every reader took `src`, so the picture read as its alt
text, or was lost. Its `src` is now the first real address it names, so that all readers (the
Markdown, the clean HTML) show the same picture.
"""

from __future__ import annotations

from lxml import html

from webferret.extract import hints

_LATE = ("data-src", "data-lazy-src", "data-original")
_SETS = ("srcset", "data-srcset", "data-lazy-srcset")
_WORDS = tuple(hints.word(name) for name in ("data-src", "data-lazy", "data-original", "srcset"))


def has_late_images(page: str) -> bool:
    return hints.holds_any(page, _WORDS)


def settle_images(tree: html.HtmlElement) -> None:
    """Give, in place, each `<img>` without a real `src` the first address it names elsewhere."""
    for image in tree.iter("img"):
        if _real(image.get("src")):
            continue
        named = [image.get(name) for name in _LATE] + [_first_candidate(image.get(name)) for name in _SETS]
        source = next((address for address in named if _real(address)), None)
        if source is not None:
            image.set("src", source.strip())


def _real(address: str | None) -> bool:
    address = (address or "").strip()
    return bool(address) and not address.lower().startswith(("data:", "about:", "javascript:"))


def _first_candidate(srcset: str | None) -> str | None:
    """The address of a `srcset`'s first candidate (`a.png 1x, b.png 2x`: `a.png`)."""
    words = (srcset or "").split()
    return words[0].rstrip(",") if words else None
