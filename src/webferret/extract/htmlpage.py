"""HTML in, `Extracted` out: metadata, main content as Markdown (and text), links, page type, quality."""

from __future__ import annotations

import re

from lxml import etree, html

from webferret.extract import classify, wikipedia
from webferret.extract.links import main_targets, page_links
from webferret.extract.markdown import collect_code_blocks, to_markdown, to_text
from webferret.extract.metadata import Metadata, base_url, extract_metadata
from webferret.extract.selector import MainContent, choose_main
from webferret.extract.types import Extracted, ExtractOptions
from webferret.models import ErrorCode, FerretError, Link

_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_LINK_TARGET = re.compile(r"\]\([^)]*\)")


def parse_html(text: str, url: str | None) -> html.HtmlElement:
    """An lxml document; an empty or unparseable document is `empty_content`."""
    text = _XML_DECLARATION.sub("", text, count=1)
    if not text.strip():
        raise FerretError(ErrorCode.EMPTY_CONTENT, f"the HTML document at {url or 'input'} is empty")
    try:
        return html.document_fromstring(text)
    except (etree.ParserError, ValueError) as exc:
        raise FerretError(
            ErrorCode.EMPTY_CONTENT, f"no HTML could be parsed at {url or 'input'}: {exc}"
        ) from None


def _main(tree: html.HtmlElement, url: str | None) -> MainContent | None:
    if wikipedia.is_mobile_html(tree):
        return MainContent(element=wikipedia.prepare(tree), source="wikipedia")
    return choose_main(tree, url)


def extract_html(text: str, url: str | None, options: ExtractOptions) -> Extracted:
    """Extract one HTML page (pure; may take tens of milliseconds on a large page)."""
    tree = parse_html(text, url)
    meta = extract_metadata(tree, url)
    base = base_url(tree, url)
    codes = collect_code_blocks(tree)
    main = _main(tree, url)
    element = main.element if main is not None else None
    targets = main_targets(element, base)
    markdown = to_markdown(element, base, codes=codes) if element is not None else ""
    plain = to_text(element, codes=codes) if element is not None and options.format == "text" else ""
    words = len((plain or _LINK_TARGET.sub("]", markdown)).split())
    signals = classify.Signals(
        url=url,
        title=meta.title,
        ld_types=tuple(meta.ld_types),
        og_type=meta.og_type,
        words=words,
        links_in_main=len(targets),
        repetition=classify.repetition(tree),
    )
    vetoed = classify.veto(tree, signals, plain or markdown)
    return _extracted(meta, markdown, plain, options, signals, vetoed, main, page_links(tree, base, targets))


def _extracted(
    meta: Metadata,
    markdown: str,
    plain: str,
    options: ExtractOptions,
    signals: classify.Signals,
    vetoed: str | None,
    main: MainContent | None,
    links: list[Link],
) -> Extracted:
    extra: dict[str, object] = {"selector": main.source if main else None}
    if vetoed:
        extra["quality_veto"] = vetoed
    return Extracted(
        content_type="text/html",
        title=meta.title,
        byline=meta.byline,
        site_name=meta.site_name,
        published=meta.published,
        modified=meta.modified,
        description=meta.description,
        language=meta.language,
        canonical_url=meta.canonical_url,
        image=meta.image,
        og_type=meta.og_type,
        page_type="article" if main and main.source == "wikipedia" else classify.page_type(signals),
        quality=classify.quality(signals, vetoed),
        word_count=signals.words,
        format=options.format,
        content=plain if options.format == "text" else markdown,
        markdown=markdown,
        links=links,
        jsonld=meta.jsonld,
        extra=extra,
    )
