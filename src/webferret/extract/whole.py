"""Documents read whole (Word, OpenDocument and EPUB texts): from the HTML their reader builds to an
`Extracted`, rendered by the page Markdown writer, with no main-content choice."""

from __future__ import annotations

from typing import Any

from lxml import html

from webferret.extract.links import main_targets, page_links
from webferret.extract.markdown import to_markdown, to_text
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.words import count_words
from webferret.models import ErrorCode, FerretError


def whole_document(
    root: html.HtmlElement,
    url: str | None,
    options: ExtractOptions,
    *,
    what: str,
    content_type: str,
    fields: dict[str, Any],
    extra: dict[str, Any],
    labels: int = 0,
) -> Extracted:
    """`root` rendered as Markdown (or text) with `fields` (title, byline, dates...) and its links;
    `empty_content` naming `what` when it has no text. `labels`: the words of the headings and labels
    the reader wrote (a deck's `Slide 2`, `Notes:`), no words of the document's, not counted."""
    text = options.format == "text"
    content = to_text(root) if text else to_markdown(root, url)
    words = count_words(content)
    if not words:
        raise FerretError(ErrorCode.EMPTY_CONTENT, f"{what} has no text")
    return Extracted(
        content_type=content_type,
        **fields,
        page_type="other",
        format="text" if text else "markdown",
        content=content.strip() + "\n",
        word_count=words - labels,
        links=page_links(root, url, main_targets(root, url)),
        extra=extra,
    )


def first_heading(root: html.HtmlElement) -> str:
    """The text of the document's first `h1` or `h2`, on one line ("" when it has none)."""
    return next((" ".join(h.text_content().split()) for h in root.iter("h1", "h2")), "")
