"""Retrieval glue: search hits, pages and a page's links as retrieval records, and views of them.

A `Record` is what a retrieval pipeline wants: `id, source, text or handle, score, metadata, inline`.
Short text stays inline; a page longer than `inline_tokens` is referenced by its store handle
(read it back with `Ferret.open(handle, page)` or `webferret open HANDLE`) instead of being copied.

    records = glue.from_hits(result.results) + glue.from_page(page)
    docs = glue.to_langchain(records)            # needs the `langchain` extra
    nodes = glue.to_llamaindex(records)          # needs the `llamaindex` extra
    blocks = glue.to_search_results(records)     # Anthropic `search_result` content blocks

Every converter here is pure: spooling a page into the store is the caller's `spool` function.
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from webferret.arguments import check_count, check_switch
from webferret.models import ErrorCode, FerretError, Hit, Page, validation_problem
from webferret.tokens import content_tokens

INLINE_TOKENS = 2000

Spool = Callable[[Page], str]
"""Stores a page and answers its handle, e.g. `lambda page: ferret.store.put(page).handle`."""


class Record(BaseModel):
    """One retrieval record. Exactly one of `text` (inline) and `handle` (spooled) carries the body."""

    model_config = ConfigDict(frozen=True)

    id: str
    source: str = Field(description="the URL the text comes from")
    text: str | None = None
    handle: str | None = Field(default=None, description="store handle of the spooled body")
    score: float | None = None
    metadata: dict[str, Any] = Field(default_factory=dict)
    inline: bool = True


NO_URL = "stdin"  # the source of a page read with no URL (`webferret extract -`)


def record_id(kind: str, source: str, extra: str = "") -> str:
    digest = hashlib.sha256(f"{kind}\0{source}\0{extra}".encode()).hexdigest()[:16]
    return f"{kind}:{digest}"


def _clean(metadata: Mapping[str, Any]) -> dict[str, Any]:
    return {key: value for key, value in metadata.items() if value not in (None, "", [], {})}


def _engines(hit: Hit) -> list[str]:
    """The engines that found `hit`: a metasearch instance's upstream engines (SearXNG's `bing`,
    `google`, kept in `extra.engines`) in its place, beside the engines webferret asked itself."""
    upstream = hit.extra.get("engines")
    upstream = [str(name) for name in upstream] if isinstance(upstream, list) else []
    asked = [source.engine for source in hit.sources if not (upstream and source.engine == "searxng")]
    return list(dict.fromkeys([*asked, *upstream]))


def from_hits(hits: Iterable[Hit | Mapping[str, Any]]) -> list[Record]:
    """One record per search hit: the snippet inline, the rest as metadata."""
    records = []
    for hit in _hits(hits):
        metadata = {
            "kind": "search_hit",
            "title": hit.title,
            "url": hit.url,
            "published": hit.published,
            "engines": _engines(hit),
            "reachable": hit.reachable,
            "tokens": hit.tokens,
            "handle": hit.handle,
        }
        records.append(
            Record(
                id=record_id("hit", hit.url),
                source=hit.url,
                text=hit.snippet,
                score=hit.score,
                metadata=_clean(metadata),
            )
        )
    return records


def _hits(hits: object) -> list[Hit]:
    """`hits` as `Hit`s (a dict read as one); anything else is `invalid_argument` naming it, where it
    was a pydantic error from inside (a `SearchResult` given whole, a dict missing its URL)."""
    wanted = "hits: a list of Hits (a search's result.results) or of dicts of them"
    checked = []
    for number, item in enumerate(_listed(hits, wanted, (Hit, Mapping)), start=1):
        try:
            checked.append(item if isinstance(item, Hit) else Hit.model_validate(item))
        except ValidationError as exc:
            error = exc.errors()[0]
            field = ".".join(map(str, error["loc"])) or "hit"
            message = f"hits: item {number}: {field}: {validation_problem(error)}"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message) from None
    return checked


def _listed(items: object, wanted: str, kinds: tuple[type, ...]) -> list[Any]:
    """`items` as a list, each one of `kinds`; one item alone (a model, a dict, a string), no list
    at all or an item of another kind is `invalid_argument` saying what is `wanted`."""
    if isinstance(items, str | bytes | Mapping | BaseModel) or not isinstance(items, Iterable):
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{wanted}, not {type(items).__name__}")
    listed = list(items)
    for number, item in enumerate(listed, start=1):
        if not isinstance(item, kinds):
            message = f"{wanted}, not {type(item).__name__} (item {number})"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    return listed


def from_page(page: Page, *, inline_tokens: int = INLINE_TOKENS, spool: Spool | None = None) -> list[Record]:
    """A page as one record: inline when short, else by handle (spooled first when it has none).

    A failed page gives no record. A long page without a handle and without `spool` stays inline, as
    does a page with no URL (`extract -`), whose source is `stdin`.
    """
    check_count("inline_tokens", inline_tokens, least=0)
    if spool is not None and not callable(spool):
        message = f"spool: a function from a page to its store handle, not {type(spool).__name__}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    _check_page(page)
    if not page.ok:
        return []
    source = page.final_url or page.url or NO_URL
    tokens = content_tokens(page)
    metadata = _clean(
        {
            "kind": "page",
            "title": page.title,
            "url": source,
            "site_name": page.site_name,
            "byline": page.byline,
            "published": page.published,
            "language": page.language,
            "page_type": page.page_type,
            "tokens": tokens,
            "handle": page.handle,
        }
    )
    base = {"id": record_id("page", source), "source": source, "score": page.quality}
    if tokens <= inline_tokens:
        return [Record(text=page.content, metadata=metadata, **base)]
    spooled = spool is not None and source != NO_URL  # the store keeps pages by their URL
    handle = page.handle or (_spooled(spool, page) if spooled else None)
    if handle is None:
        return [Record(text=page.content, metadata=metadata, **base)]
    metadata["handle"] = handle
    return [Record(handle=handle, inline=False, metadata=metadata, **base)]


def _spooled(spool: Spool, page: Page) -> str:
    """The handle `spool` stored `page` under; what is no handle (an `async def` spool's coroutine,
    a `StoredPage` for its handle) is `invalid_argument` saying what `spool` must answer."""
    handle = spool(page)
    if not isinstance(handle, str):
        if inspect.isawaitable(handle) and hasattr(handle, "close"):
            handle.close()  # never awaited: no "coroutine was never awaited" warning after the error
        message = (
            f"spool: a function answering the page's store handle (a string, such as "
            f"`lambda page: ferret.store.put(page).handle`), not one answering {type(handle).__name__}"
        )
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    return handle


def _check_page(page: Page) -> None:
    if not isinstance(page, Page):
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"page: a Page from a fetch, not {type(page).__name__}")


def from_links(page: Page) -> list[Record]:
    """A page's outgoing links as records (anchor text inline), for crawling or citation pipelines.
    A page read without `extract_options(links=True)` (`--links`) has none; the links of a page with
    no URL (`extract -`) are `from` `stdin`, as its own record's source is."""
    _check_page(page)
    origin = page.final_url or page.url or NO_URL
    records = []
    for rank, link in enumerate(page.links or [], start=1):
        metadata = {"kind": "link", "from": origin, "in_main": link.in_main, "rank": rank}
        records.append(
            Record(id=record_id("link", link.url, origin), source=link.url, text=link.text, metadata=metadata)
        )
    return records


def _records(records: object) -> list[Record]:
    """`records` as a list of `Record`s; anything else (a page, one record alone) is
    `invalid_argument` naming it, where it was an AttributeError from inside."""
    return _listed(records, "records: a list of Records (from from_hits, from_page, from_links)", (Record,))


def _body(record: Record) -> str:
    if record.text is not None:
        return record.text
    return f"[stored as {record.handle}: read it with `webferret open {record.handle}`]"


def _optional(module: str, extra: str) -> Any:
    try:
        return importlib.import_module(module)
    except ImportError:
        raise ImportError(
            f"this adapter needs the optional extra '{extra}': pip install 'webferret[{extra}]'"
            f" (or: uv add 'webferret[{extra}]'); {module} is not installed"
        ) from None


def to_langchain(records: Iterable[Record]) -> list[Any]:
    """LangChain `Document`s (`page_content`, `metadata` with source, score, handle)."""
    records = _records(records)
    documents = _optional("langchain_core.documents", "langchain")
    return [documents.Document(page_content=_body(r), metadata=_flat_metadata(r), id=r.id) for r in records]


def to_llamaindex(records: Iterable[Record]) -> list[Any]:
    """LlamaIndex `Document`s (`text`, `metadata`, `id_`)."""
    records = _records(records)
    core = _optional("llama_index.core", "llamaindex")
    return [core.Document(text=_body(r), metadata=_flat_metadata(r), id_=r.id) for r in records]


def _flat_metadata(record: Record) -> dict[str, Any]:
    """Metadata of scalars only, as vector stores take it (a hit's engines joined: `bing, google`)."""
    extra = _clean({"score": record.score, "handle": record.handle})
    flat = {
        key: ", ".join(map(str, value)) if isinstance(value, list | tuple) else value
        for key, value in record.metadata.items()
    }
    return {**flat, **extra, "source": record.source, "inline": record.inline}


def to_search_results(records: Iterable[Record], *, citations: bool = True) -> list[dict[str, Any]]:
    """Anthropic `search_result` content blocks (for tool results or user turns), with citations."""
    check_switch("citations", citations)
    blocks = []
    for record in _records(records):
        title = str(record.metadata.get("title") or record.source)
        blocks.append(
            {
                "type": "search_result",
                "source": record.source,
                "title": title,
                "content": [{"type": "text", "text": _body(record).strip() or title}],
                "citations": {"enabled": citations},
            }
        )
    return blocks
