"""A link inside a sentence that shows only an image or an icon reads as its name.

`See the map: <a href="/map"><img alt="Map of the beats"></a>, or the report ...`: every reader drops
the image, and trafilatura then puts the text after the emptied link inside it, so the sentence read
`See the map: [, or the report](/map)`: its words tied to the wrong target. Right after parsing, a
link with no text of its own and words after it gets a name to show: its image's alt text, else its
`title` or `aria-label` (`[Map of the beats](/map)`); a link with no name at all is left out, its
words kept. Left as they are: a link with no words before it in its element (a heading's permalink
icon, a card's picture before its title, a photo linking to its full size), a link to a place on
the page (`#...`), and a picture named as the words after it.
"""

from __future__ import annotations

import re

from lxml import html

ON = True
"""False: links left as they are (bench/oof_pipeline.py measures the rule as a variant with it off)."""
_WORD = re.compile(r"\w+")
NAME_WORDS = 12
"""At most this many words of a name: a link's label, not a caption."""


def name_image_links(tree: html.HtmlElement) -> None:
    """Give, in place, each textless link between words its image's or its own name (see the
    module); leave out the ones that have none."""
    if not ON:
        return
    for link in list(tree.iter("a")):
        if not (link.tail or "").strip() or "".join(link.itertext()).strip():
            continue
        if (link.get("href") or "").startswith("#") or not _words_before(link):
            continue  # a heading's permalink icon; a card's picture before its title
        name = _name(link)
        if name and _words(link.tail).startswith(_words(name)):
            continue  # a picture named as the words after it: read as a link, those words say it
        if name:
            link.text = name
        elif link.getparent() is not None:
            if "".join(link.itertext()) and not link.tail[:1].isspace():  # `a<a> </a>b` stays `a b`
                link.tail = " " + link.tail
            link.drop_tree()  # its tail stays where it was


def _words_before(link: html.HtmlElement) -> bool:
    """Whether words come before `link` in its parent: it stands inside a sentence."""
    previous = link.getprevious()
    if previous is None:
        parent = link.getparent()
        return parent is not None and bool((parent.text or "").strip())
    return bool((previous.tail or "").strip() or "".join(previous.itertext()).strip())


def _words(text: str | None) -> str:
    return " ".join(_WORD.findall((text or "").lower()))


def _name(link: html.HtmlElement) -> str:
    names = [image.get("alt") for image in link.iter("img")]
    names += [link.get("title"), link.get("aria-label")]
    for name in names:
        words = " ".join((name or "").split())
        if words and len(words.split()) <= NAME_WORDS:
            return words
    return ""
