"""Tool arguments as models send them."""

import pytest
from pydantic import BaseModel, ValidationError

from webferret.mcp_tools import WebCrawlArgs, WebFetchArgs, WebOpenArgs, WebSearchArgs


def test_engines_as_a_list_or_a_comma_string() -> None:
    assert WebSearchArgs(query="q", engines=["searxng"]).engines == ["searxng"]
    assert WebSearchArgs.model_validate({"query": "q", "engines": "searxng, github"}).engines == [
        "searxng",
        "github",
    ]
    written = WebSearchArgs.model_validate({"query": "q", "engines": ["searxng, GitHub", "Wikipedia"]})
    assert written.engines == ["searxng", "github", "wikipedia"]  # as the CLI and the HTTP API read it
    with pytest.raises(ValidationError):
        WebSearchArgs.model_validate({"query": "q", "engines": 3})


@pytest.mark.parametrize(
    ("model", "arguments"),
    [
        (WebCrawlArgs, {"url": "https://example.org/", "depth": False}),
        (WebSearchArgs, {"query": "q", "results": True}),
        (WebFetchArgs, {"urls": ["https://example.org/"], "max_tokens": True}),
    ],
)
def test_a_count_given_true_or_false_is_refused_not_read_as_one_or_zero(
    model: type[BaseModel], arguments: dict[str, object]
) -> None:
    """pydantic's lax mode read `depth: false` as 0 (the start page alone) and `results: true` as 1."""
    with pytest.raises(ValidationError) as caught:
        model.model_validate(arguments)
    assert "no switch" in str(caught.value)
    switched = WebSearchArgs.model_validate({"query": "q", "verify": False, "results": "5"})
    assert switched.verify is False and switched.results == 5


@pytest.mark.parametrize(
    ("model", "arguments", "field"),
    [
        (WebSearchArgs, {"query": True}, "query"),
        (WebFetchArgs, {"urls": ["https://example.org/"], "format": True}, "format"),
        (WebFetchArgs, {"urls": ["https://example.org/"], "tier": False}, "tier"),
    ],
)
def test_a_text_or_a_choice_given_true_or_false_is_not_asked_for_a_number(
    model: type[BaseModel], arguments: dict[str, object], field: str
) -> None:
    """`query: true` was told "give a number": a text or a choice says what it takes instead."""
    with pytest.raises(ValidationError) as caught:
        model.model_validate(arguments)
    assert caught.value.errors()[0]["loc"] == (field,)
    assert "give a number" not in str(caught.value)


def test_the_fetch_description_continues_a_long_page_at_the_size_it_was_cut_at() -> None:
    """web_fetch's description said `continue with web_open(handle, page=2)`: after a fetch given
    max_tokens=500, that call reads page 2 of pages of the default 4,000 tokens, and the text
    between the first 500 tokens and the 4,001st is never read."""
    from webferret.config import load_settings
    from webferret.mcp_server import tool_list

    (fetch,) = [tool for tool in tool_list(load_settings()) if tool.name == "web_fetch"]
    assert "web_open(handle, page=2, max_tokens=N)" in str(fetch.description)


@pytest.mark.parametrize("view", ["outline", "diff"])
def test_a_view_of_one_document_asked_without_a_handle_says_to_give_it(view: str) -> None:
    """`web_open(outline=true)` was refused as 'it takes a handle and not no handle'."""
    with pytest.raises(ValidationError) as caught:
        WebOpenArgs.model_validate({view: True})
    said = str(caught.value)
    assert f"{view} " in said and ": give its handle" in said and "not no handle" not in said
    with pytest.raises(ValidationError) as clashing:  # another argument given with it is named
        WebOpenArgs.model_validate({view: True, "search": "ferrets"})
    assert "it takes a handle and not search" in str(clashing.value)


def test_the_schemas_name_the_defaults_the_servers_settings_give() -> None:
    """The schemas said `results` defaults to 10, `link_limit` to 20 and `verify` to on whatever the
    server's settings said (WEBFERRET_RESULTS=5 answered 5), and `max_tokens` named no default."""
    from webferret.config import load_settings
    from webferret.mcp_server import tool_list

    settings = load_settings().model_copy(
        update={"results": 5, "link_limit": 7, "verify": False, "max_tokens": 1500}
    )
    described = {
        (tool.name, argument): str(spec.get("description"))
        for tool in tool_list(settings)
        for argument, spec in tool.input_schema["properties"].items()
    }
    assert described["web_search", "results"] == "how many results (default 5)"
    assert described["web_search", "verify"].endswith("(default false)")
    for tool in ("web_fetch", "web_open"):
        assert described[tool, "link_limit"] == "most links listed (implies links) (default 7)"
        assert described[tool, "max_tokens"].endswith("(default 1500)")
    assert described["web_search", "max_tokens"].endswith("(default 1500)")
