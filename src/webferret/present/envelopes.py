"""The JSON envelope of each command's answer: what `--json` prints and the HTTP API answers.

One builder per answer, so the two faces cannot drift apart: `ok`, `data` (the command's schema in
`schemas/`) and `meta` (counts) are decided here, and only written out by the face.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from webferret.models import Envelope, FetchedPages, Page

if TYPE_CHECKING:
    from pydantic import BaseModel

    from webferret.crawler import CrawlResult
    from webferret.search.types import SearchResult
    from webferret.site_map import SiteMap
    from webferret.store.types import OpenedPage, Passage


def pages_envelope(pages: Sequence[Page], meta: dict[str, Any] | None = None) -> Envelope:
    """`fetch` and `extract`: ok when every page was read (and the call was not interrupted);
    `meta` is added to the counts (`interrupted`, `unfinished` after Ctrl-C)."""
    counts = {"count": len(pages), "failed": sum(not page.ok for page in pages)} | (meta or {})
    ok = all(page.ok for page in pages) and not counts.get("interrupted")
    return Envelope(ok=ok, data=FetchedPages(pages=list(pages)).model_dump(mode="json"), meta=counts)


def search_envelope(result: SearchResult, read: Sequence[OpenedPage] | None = None) -> Envelope:
    """`search`: ok when the engines answered; `read`, the pages `--read` read (None: not asked)."""
    from webferret.search.present import result_data

    data = result_data(result, read)
    meta = {
        "count": len(result.results),
        "candidates": result.candidates,
        "not_needed": result.not_needed,
        "verified": result.verified,
    }
    return Envelope(ok=result.answered, data=data, error=result.error, meta=meta)


def passages_envelope(query: str, passages: Sequence[Passage]) -> Envelope:
    """`find`: the passages that match `query`, best first (none is still an answer)."""
    from webferret.store.types import FoundPassages

    data = FoundPassages(query=query, passages=list(passages)).model_dump(mode="json")
    return Envelope(ok=True, data=data, meta={"count": len(passages)})


def map_envelope(result: SiteMap) -> Envelope:
    """`map`: ok unless the start page failed and nothing was listed."""
    ok = bool(result.urls) or result.start_error is None
    return Envelope(ok=ok, data=result.model_dump(mode="json"), meta={"count": len(result.urls)})


def crawl_envelope(result: CrawlResult, meta: dict[str, Any] | None = None) -> Envelope:
    """`crawl`: ok when at least one page was read (and the call was not interrupted); `meta` is
    added to the counts (`interrupted`, `unfinished` after Ctrl-C)."""
    read = sum(page.ok for page in result.pages)
    counts = {"count": len(result.pages), "failed": len(result.pages) - read, **(meta or {})}
    ok = read > 0 and not counts.get("interrupted")
    return Envelope(ok=ok, data=result.model_dump(mode="json"), meta=counts)


def data_envelope(answer: BaseModel) -> Envelope:
    """An answer that is one model (`open`, its outline or diff, `store list`)."""
    return Envelope(ok=True, data=answer.model_dump(mode="json"))


def error_envelope(code: str, message: str) -> Envelope:
    """A request-level error (a usage error, a handle not stored...)."""
    from webferret.models import ErrorInfo

    return Envelope(ok=False, error=ErrorInfo(code=code, message=message))  # type: ignore[arg-type]
