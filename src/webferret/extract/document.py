"""Bytes and a content type in, an `Extracted` page out. Pure: no network, no event loop."""

from __future__ import annotations

import json

import trafilatura
from charset_normalizer import from_bytes

from webferret.extract.types import Extracted, ExtractOptions
from webferret.models import ErrorCode, FerretError


def decode(body: bytes, declared: str | None) -> str:
    """Decode with the declared charset when it works, else detect."""
    if declared:
        try:
            return body.decode(declared)
        except (LookupError, UnicodeDecodeError):
            pass
    best = from_bytes(body).best()
    return str(best) if best is not None else body.decode("utf-8", errors="replace")


def extract_document(
    body: bytes, *, url: str, content_type: str | None, options: ExtractOptions
) -> Extracted:
    """Extract the main content and metadata of one document."""
    mime = (content_type or "text/html").split(";")[0].strip().lower()
    if mime in ("text/html", "application/xhtml+xml"):
        return _html(decode(body, None), url, options)
    if mime == "application/json" or mime.endswith("+json"):
        text = json.dumps(json.loads(body), indent=2, ensure_ascii=False)
        return Extracted(content_type=mime, content=f"```json\n{text}\n```", word_count=len(text.split()))
    if mime.startswith("text/"):
        text = decode(body, None)
        return Extracted(content_type=mime, content=text, word_count=len(text.split()))
    raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"cannot read content of type {mime} at {url}")


def _html(html: str, url: str, options: ExtractOptions) -> Extracted:
    output = "markdown" if options.format == "markdown" else "txt"
    content = trafilatura.extract(html, url=url, output_format=output, include_links=False) or ""
    meta = trafilatura.extract_metadata(html, default_url=url)
    return Extracted(
        content_type="text/html",
        title=meta.title if meta else None,
        byline=meta.author if meta else None,
        site_name=meta.sitename if meta else None,
        published=meta.date if meta else None,
        description=meta.description if meta else None,
        language=meta.language if meta else None,
        format=options.format,
        content=content,
        markdown=content,
        word_count=len(content.split()),
    )
