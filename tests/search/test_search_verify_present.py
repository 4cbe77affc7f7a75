"""Verification decisions on page values, and the human/JSON views of a search result."""

from __future__ import annotations

from webferret.models import ErrorCode, ErrorInfo, Hit, Page, Source
from webferret.search.present import render_result, result_data
from webferret.search.types import EngineReport, SearchOptions, SearchResult, Unreachable
from webferret.search.verify import apply_page, unreadable, vetoed
from webferret.tokens import estimate_tokens


def failed(code: ErrorCode) -> Page:
    return Page.failed("https://x.org/", ErrorInfo(code=code, message="m"))


def test_dead_and_unreadable_pages_are_not_listed() -> None:
    assert unreadable(failed(ErrorCode.DNS_FAILURE)) and unreadable(failed(ErrorCode.HTTP_ERROR))
    for code in (ErrorCode.NEEDS_JAVASCRIPT, ErrorCode.TOO_LARGE, ErrorCode.EMPTY_CONTENT):
        assert unreadable(failed(code))  # it exists, but an agent could not read it: a spare instead
    assert not unreadable(Page(url="https://x.org/", ok=True, content="hello"))


def test_a_page_read_as_something_else_is_not_listed() -> None:
    """An empty JavaScript shell the browser did not render (the extractor's veto on a page that
    read), as the soft 404 and the walls the simulated web serves (test_search_unreachable)."""
    shell = Page(
        url="https://x.org/", ok=True, content="Loading", meta={"extract": {"quality_veto": "empty_shell"}}
    )
    error = vetoed(shell)
    assert unreadable(shell) and error is not None and error.code == ErrorCode.EMPTY_CONTENT
    assert "JavaScript app shell" in error.message and error.message.endswith("https://x.org/")
    assert vetoed(Page(url="https://x.org/", ok=True, content="hello", meta={"extract": {}})) is None


def test_apply_page_counts_tokens_and_keeps_the_handle() -> None:
    hit = Hit(url="https://x.org/", sources=[Source(engine="e", rank=1)])
    page = Page(url="https://x.org/", ok=True, content="one two three four", handle="x.org~abc")
    checked = apply_page(hit, page)
    assert (checked.reachable, checked.tokens, checked.handle) == (
        True,
        estimate_tokens(page.content),
        "x.org~abc",
    )
    assert apply_page(hit, failed(ErrorCode.CONNECT_FAILED)).reachable is False
    titled = page.model_copy(update={"title": "Article 13"})
    assert apply_page(hit, titled).title == "Article 13"  # the engine gave none: the page's
    assert apply_page(hit.model_copy(update={"title": "Engine's"}), titled).title == "Engine's"


def sample() -> SearchResult:
    hit = Hit(
        url="https://x.org/a",
        title="A page",
        snippet="about a",
        published="2024-01-06T12:00:00+00:00",
        score=0.03,
        sources=[Source(engine="searxng", rank=1)],
        reachable=True,
        tokens=120,
        handle="x.org~1",
    )
    return SearchResult(
        query="q",
        results=[hit],
        engines=[
            EngineReport(name="searxng", ok=True, count=2, elapsed_ms=5),
            EngineReport(
                name="brave", ok=False, error=ErrorInfo(code=ErrorCode.RATE_LIMITED, message="HTTP 429")
            ),
        ],
        unreachable=[
            Unreachable(url="https://x.org/dead", error=ErrorInfo(code=ErrorCode.HTTP_ERROR, message="404"))
        ],
        candidates=2,
        verified=True,
    )


def test_human_view() -> None:
    lines = render_result(sample()).splitlines()
    assert (
        lines[0] == '1 result of 2 candidates (1 unreachable (1 http_error)) for "q" '
        "· engines: searxng 2, brave failed"
    )
    assert lines[2:5] == ["* https://x.org/a — A page (120 tokens · x.org~1)", "  2024-01-06", "  about a"]
    assert "  brave: rate_limited: HTTP 429" in lines


def test_human_view_counts_where_every_candidate_went() -> None:
    """15 candidates for 10 results: not '10 of 15 results (1 unreachable)', which hid 4 spares."""
    result = sample().model_copy(update={"candidates": 15, "not_needed": 4})
    head = render_result(result).splitlines()[0]
    assert head.startswith('1 result of 15 candidates (1 unreachable (1 http_error), 4 not needed) for "q"')


def test_human_view_names_a_failed_engine_once() -> None:
    result = sample()
    error = ErrorInfo(
        code=ErrorCode.CONNECT_FAILED, message="brave: cannot reach https://search.brave.example"
    )
    result.engines[1] = EngineReport(name="brave", ok=False, error=error)
    assert (
        "  brave: connect_failed: cannot reach https://search.brave.example"
        in render_result(result).splitlines()
    )


def test_json_view() -> None:
    data = result_data(sample())
    assert data["query"] == "q"
    assert data["results"][0]["sources"] == [{"engine": "searxng", "rank": 1}]
    assert data["results"][0]["handle"] == "x.org~1"
    assert data["engines"][1]["error"]["code"] == "rate_limited"
    assert data["unreachable"][0]["url"] == "https://x.org/dead"


def test_options_from_settings_and_overrides() -> None:
    from webferret.config import load_settings

    options = SearchOptions.from_settings(load_settings(results=5), engines=["a", "b"], verify=False)
    assert (options.results, options.engines, options.verify) == (5, ("a", "b"), False)


def test_cli_help_names_every_engine() -> None:
    from webferret.cli.cmd_search import ENGINE_NAMES
    from webferret.search.engines import registry

    assert sorted(ENGINE_NAMES) == sorted(registry())


def test_cli_help_says_which_ddgs_engines_the_installed_ddgs_disables() -> None:
    from ddgs.engines import ENGINES

    from webferret.cli.cmd_search import DDGS_DISABLED
    from webferret.search.engines.ddgs_text import BACKENDS

    disabled = {name for name, (backend, _) in BACKENDS.items() if backend not in ENGINES["text"]}
    assert set(DDGS_DISABLED) == disabled
