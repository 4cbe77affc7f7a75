"""Retrieval glue: records from hits, pages and links; LangChain, LlamaIndex and search_result views."""

from __future__ import annotations

import gc
import importlib.util
import warnings
from collections.abc import Callable

import pytest

from webferret import glue
from webferret.models import ErrorCode, ErrorInfo, Hit, Link, Page, Source
from webferret.search.types import SearchResult

LONG = "word " * 5000


def _page(content: str = "Short body.", handle: str | None = None) -> Page:
    return Page(
        url="https://docs.example/a",
        final_url="https://docs.example/a/",
        ok=True,
        title="A page",
        content=content,
        handle=handle,
        quality=0.8,
        links=[Link(url="https://docs.example/b", text="B", in_main=True)],
    )


def test_hits_become_inline_records_with_provenance() -> None:
    hits = [
        Hit(
            url="https://a.example/",
            title="A",
            snippet="alpha",
            score=0.03,
            sources=[Source(engine="x", rank=1)],
        ),
        {"url": "https://b.example/", "title": "B", "snippet": "beta", "score": 0.01},
    ]
    records = glue.from_hits(hits)
    assert [r.text for r in records] == ["alpha", "beta"]
    assert records[0].metadata["engines"] == ["x"] and records[0].score == 0.03
    assert records[0].inline and records[0].handle is None
    assert records[0].id != records[1].id
    assert glue.from_hits(hits)[0].id == records[0].id  # stable
    searx = Hit(
        url="https://c.example/",
        title="C",
        sources=[Source(engine="searxng", rank=1), Source(engine="wikipedia", rank=2)],
        extra={"engines": ["bing", "google"]},
    )  # a SearXNG instance's upstream engines stand for it (it was "searxng" alone)
    assert glue.from_hits([searx])[0].metadata["engines"] == ["wikipedia", "bing", "google"]


def test_short_page_stays_inline_and_long_page_is_spooled() -> None:
    (short,) = glue.from_page(_page())
    assert short.inline and short.text == "Short body." and short.source == "https://docs.example/a/"
    spooled: list[Page] = []

    def spool(page: Page) -> str:
        spooled.append(page)
        return "docs.example~0123456789ab"

    (long,) = glue.from_page(_page(LONG), spool=spool)
    assert not long.inline and long.text is None and long.handle == "docs.example~0123456789ab"
    assert len(spooled) == 1
    (stored,) = glue.from_page(_page(LONG, handle="docs.example~aaaaaaaaaaaa"), spool=spool)
    assert stored.handle == "docs.example~aaaaaaaaaaaa" and len(spooled) == 1  # already stored: no spool
    failed = Page.failed("https://x.example/", ErrorInfo(code=ErrorCode.TIMEOUT, message="slow"))
    assert glue.from_page(failed) == []


def test_links_become_records() -> None:
    (link,) = glue.from_links(_page())
    assert link.source == "https://docs.example/b" and link.text == "B"
    assert link.metadata == {"kind": "link", "from": "https://docs.example/a/", "in_main": True, "rank": 1}


def test_search_result_blocks() -> None:
    records = glue.from_hits([Hit(url="https://a.example/", title="A", snippet="alpha")])
    records += glue.from_page(_page(LONG, handle="docs.example~aaaaaaaaaaaa"))
    blocks = glue.to_search_results(records)
    assert blocks[0] == {
        "type": "search_result",
        "source": "https://a.example/",
        "title": "A",
        "content": [{"type": "text", "text": "alpha"}],
        "citations": {"enabled": True},
    }
    assert "docs.example~aaaaaaaaaaaa" in blocks[1]["content"][0]["text"]


@pytest.mark.skipif(importlib.util.find_spec("langchain_core") is not None, reason="langchain installed")
def test_missing_extra_says_how_to_install() -> None:
    with pytest.raises(ImportError, match=r"webferret\[langchain\]"):
        glue.to_langchain(glue.from_page(_page()))


@pytest.mark.skipif(importlib.util.find_spec("llama_index") is not None, reason="llama-index installed")
def test_missing_llamaindex_extra_says_how_to_install() -> None:
    with pytest.raises(ImportError, match=r"webferret\[llamaindex\]"):
        glue.to_llamaindex(glue.from_page(_page()))


def test_langchain_documents() -> None:
    pytest.importorskip("langchain_core", reason="the langchain extra is not installed")
    (doc,) = glue.to_langchain(glue.from_page(_page()))
    assert doc.page_content == "Short body."
    assert doc.metadata["source"] == "https://docs.example/a/" and doc.metadata["title"] == "A page"


def test_llamaindex_documents() -> None:
    pytest.importorskip("llama_index.core", reason="the llamaindex extra is not installed")
    (doc,) = glue.to_llamaindex(glue.from_page(_page()))
    assert doc.text == "Short body." and doc.metadata["source"] == "https://docs.example/a/"


def test_adapter_metadata_is_flat_for_vector_stores() -> None:
    hit = Hit(url="https://a.example/x", title="T", snippet="s", sources=[Source(engine="bing", rank=1)])
    hit = hit.model_copy(update={"sources": [*hit.sources, Source(engine="google", rank=2)]})
    (record,) = glue.from_hits([hit])
    flat = glue._flat_metadata(record)
    assert flat["engines"] == "bing, google"
    assert all(value is None or isinstance(value, str | int | float) for value in flat.values())
    assert record.metadata["engines"] == ["bing", "google"]  # the record itself keeps the list


def test_a_page_with_no_url_is_a_record_from_stdin_kept_inline() -> None:
    page = Page(url=None, ok=True, content=LONG, fetched_via="file")
    spooled: list[Page] = []
    (record,) = glue.from_page(page, inline_tokens=10, spool=lambda p: spooled.append(p) or "x~y")
    assert record.source == "stdin" and record.inline and record.text == LONG and spooled == []


def test_a_blank_snippet_gives_the_title_as_its_text() -> None:
    (block,) = glue.to_search_results(
        glue.from_hits([Hit(url="https://a.example/", title="A", snippet="  ")])
    )
    assert block["content"] == [{"type": "text", "text": "A"}]


def test_a_negative_inline_budget_is_refused() -> None:
    from webferret.models import FerretError

    with pytest.raises(FerretError) as refused:
        glue.from_page(Page(url="https://a.example/", ok=True, content="Ferrets."), inline_tokens=-1)
    assert refused.value.code == ErrorCode.INVALID_ARGUMENT and "inline_tokens" in refused.value.message


def test_a_page_that_is_no_page_is_refused() -> None:
    """`from_page(None)` was an AttributeError from inside."""
    from webferret.models import ErrorCode, FerretError

    with pytest.raises(FerretError) as info:
        glue.from_page(None)  # type: ignore[arg-type]
    assert info.value.code == ErrorCode.INVALID_ARGUMENT and "page: a Page" in info.value.message


def test_the_links_of_a_page_with_no_url_come_from_stdin() -> None:
    """They said `from: None`, a value vector stores refuse in flat metadata (the page's own record
    says `stdin`)."""
    link = Link(url="https://docs.example/b", text="B", in_main=True)
    page = Page(url=None, ok=True, content="Short body.", fetched_via="file", links=[link])
    (record,) = glue.from_links(page)
    assert record.metadata["from"] == "stdin" == glue.from_page(page)[0].source
    assert all(value is not None for value in glue._flat_metadata(record).values())


def test_links_of_what_is_no_page_are_refused() -> None:
    from webferret.models import FerretError

    with pytest.raises(FerretError) as info:
        glue.from_links("https://docs.example/a")  # type: ignore[arg-type]
    assert info.value.code == ErrorCode.INVALID_ARGUMENT and "page: a Page" in info.value.message


@pytest.mark.parametrize(
    ("call", "named"),
    [
        (lambda: glue.from_hits(SearchResult(query="q")), "hits: a list of Hits"),  # was a ValidationError
        (lambda: glue.from_hits({"url": "https://a.example/"}), "hits: a list of Hits"),
        (lambda: glue.from_hits(None), "hits: a list of Hits"),  # was a TypeError
        (lambda: glue.from_hits([_page()]), "not Page (item 1)"),
        (lambda: glue.from_hits([{"title": "no URL"}]), "hits: item 1: url: Field required"),
        (lambda: glue.to_search_results([_page()]), "records: a list of Records"),  # an AttributeError
        (lambda: glue.to_search_results(glue.from_page(_page())[0]), "not Record"),
        (lambda: glue.to_search_results(glue.from_page(_page()), citations="no"), "citations"),
        (lambda: glue.to_langchain([_page()]), "records: a list of Records"),
        (lambda: glue.to_llamaindex("text"), "records: a list of Records"),
        (lambda: glue.from_page(_page(LONG), spool="x"), "spool: a function"),
        (lambda: glue.from_page(_page(LONG), spool=lambda page: 5), "not one answering int"),
    ],
)
def test_wrong_arguments_of_the_converters_are_refused_by_name(
    call: Callable[[], object], named: str
) -> None:
    """What is no list of hits or records, a `citations` that is no bool and a `spool` that answers
    no handle were pydantic errors, a TypeError or an AttributeError from inside, or (`citations="no"`)
    a block the API refuses; each is `invalid_argument` naming the argument."""
    from webferret.models import FerretError

    with pytest.raises(FerretError) as refused:
        call()
    assert refused.value.code == ErrorCode.INVALID_ARGUMENT and named in refused.value.message


def test_an_async_spool_is_refused_without_leaving_its_coroutine_unawaited() -> None:
    from webferret.models import FerretError

    async def spool(page: Page) -> str:
        return "docs.example~0123456789ab"

    with warnings.catch_warnings():
        warnings.simplefilter("error")  # "coroutine ... was never awaited" would be a RuntimeWarning
        with pytest.raises(FerretError, match="not one answering coroutine"):
            glue.from_page(_page(LONG), spool=spool)  # type: ignore[arg-type]
        gc.collect()
