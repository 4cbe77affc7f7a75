"""Each engine's parser on captured real responses, compared with the expected parse stored beside it.

Regenerate an expected file after a deliberate parser change with
`uv run python tests/search/test_search_parsers.py` and review the diff.
"""

from __future__ import annotations

import json
import sys
from datetime import UTC, datetime
from pathlib import Path

import pytest

from webferret.models import ErrorCode, FerretError, Hit
from webferret.search.engines import ddgs_text, github, reddit, searxng, wikipedia
from webferret.search.types import EngineQuery, EngineResponse

EXPECTED = Path(__file__).resolve().parent / "expected"
CAPTURED = datetime(2026, 4, 14, tzinfo=UTC)
"""The clock a results page's `3 days ago` counts back from here (`snippet_dates`; the captures' own
days are not known)."""

CASES = {
    "searxng_severance": (
        "searxng/search_format-json_severance.json",
        lambda body, q: searxng.parse_response(body, q, now=CAPTURED),
    ),
    "github_golang": ("github/search_repositories_golang.json", github.parse_response),
    "wikipedia_golang": (
        "wikipedia/action_query_generator-search_extracts_golang.json",
        wikipedia.parse_response,
    ),
    "wikipedia_rest_tokio": (
        "wikipedia/rest_v1_search_page_tokio-rust_2026-09-28.json",
        wikipedia.parse_response,
    ),
    "wikipedia_canis": (
        "wikipedia/action_query_list-search_generator_canis-lepophagus.json",
        wikipedia.parse_response,
    ),
    "reddit_crm": ("reddit/old_reddit_search_best-crm-for-startups.html", reddit.parse_response),
    "duckduckgo_rust": (
        "duckduckgo/html_rust-programming_2026-04-14.html",
        lambda body, q: ddgs_text.parse_response("duckduckgo", body),
    ),
    "duckduckgo_nvim_2020": (
        "duckduckgo/html_exit-nvim_site-stackoverflow_2020-06.html",
        lambda body, q: ddgs_text.parse_response("duckduckgo", body),
    ),
    "brave_golang": (
        "brave/search_golang_trimmed.html",
        lambda body, q: ddgs_text.parse_response("brave", body, now=CAPTURED),
    ),
    "brave_typebox": (
        "brave/results_fragment_typebox.html",
        lambda body, q: ddgs_text.parse_response("brave", body, now=CAPTURED),
    ),
}


def summary(hits: list[Hit]) -> list[dict[str, object]]:
    """The stable part of a parse: rank, URL, title, snippet start, date and engine fields."""
    return [
        {
            "rank": hit.sources[0].rank,
            "engine": hit.sources[0].engine,
            "url": hit.url,
            "title": hit.title,
            "snippet": hit.snippet[:120],
            "published": hit.published,
            "extra": hit.extra,
        }
        for hit in hits
    ]


def parse_case(folder: Path, name: str) -> list[dict[str, object]]:
    path, parse = CASES[name]
    body = (folder / path).read_text(encoding="utf-8", errors="replace")
    return summary(parse(body, EngineQuery(text="query")))


@pytest.mark.parametrize("name", sorted(CASES))
def test_parser_matches_expected(engine_fixtures: Path, name: str) -> None:
    expected = json.loads((EXPECTED / f"{name}.json").read_text(encoding="utf-8"))
    got = parse_case(engine_fixtures, name)
    assert got, f"{name}: the parser found no results"
    assert got == expected


def test_duckduckgo_redirects_are_unwrapped(engine_fixtures: Path) -> None:
    hits = ddgs_text.parse_response(
        "duckduckgo", (engine_fixtures / "duckduckgo/html_rust-programming_2026-04-14.html").read_text()
    )
    assert hits[0].url == "https://rust-lang.org/"
    assert not any("duckduckgo.com/l/" in hit.url or "y.js" in hit.url for hit in hits)


def test_searxng_unresponsive_engines_become_warnings(engine_fixtures: Path) -> None:
    body = (engine_fixtures / "searxng/search_format-json_severance.json").read_text()
    warnings = searxng.warnings(body)
    assert len(warnings) == 3
    assert '"duckduckgo"' in warnings[1] and "CAPTCHA" in warnings[1]


def test_searxng_with_no_result_and_failed_engines_did_not_answer() -> None:
    failed = json.dumps({"results": [], "unresponsive_engines": [["bing", "timeout"], ["brave", "CAPTCHA"]]})
    with pytest.raises(FerretError) as info:
        searxng.parse_response(failed, EngineQuery(text="kiwis"))
    assert (
        info.value.code == ErrorCode.ENGINE_ERROR and '"bing" did not answer: "timeout"' in info.value.message
    )
    empty = json.dumps({"results": [], "unresponsive_engines": []})  # every engine answered: none found
    assert searxng.parse_response(empty, EngineQuery(text="kiwis")) == []


def test_a_wikipedia_error_is_said_in_one_short_line() -> None:
    """An error answer is named by its own words, cut short: not the whole answer, however long."""
    body = json.dumps({"error": {"code": "badvalue", "info": "Unrecognized value. " + "x" * 100_000}})
    with pytest.raises(FerretError) as info:
        wikipedia.parse_response(body, EngineQuery(text="q"))
    message = info.value.message
    assert info.value.code == ErrorCode.ENGINE_ERROR and "badvalue" in message and len(message) < 300


def test_searxng_results_carry_upstream_groups(engine_fixtures: Path) -> None:
    body = (engine_fixtures / "searxng/search_format-json_severance.json").read_text()
    hit = searxng.parse_response(body, EngineQuery(text="severance"))[0]
    assert hit.extra["engines"] == ["google cse"]
    assert hit.extra["groups"] == ["google"]
    assert hit.extra["category"] == "general"


def _searxng_hit(title: str, content: str) -> Hit:
    """The hit SearXNG's JSON answer of one result, written `title` and `content`, is read as."""
    item = {"url": "https://example.org/two", "title": title, "content": content, "engines": ["bing"]}
    return searxng.parse_response(json.dumps({"results": [item]}), EngineQuery(text="q"))[0]


def test_searxng_fields_that_are_no_text_are_read_as_none() -> None:
    """An upstream's own JSON engine (searx's `json_engine`, configured by hand) may pass on a list
    or an object as a title or snippet: they were shown as Python wrote them (`{'a': 1}`), and a
    number as a URL was a result with the address `5`."""
    items = [
        {"url": 5, "title": "a number for an address"},
        {"url": ["https://example.org/list"], "title": "a list for an address"},
        {"url": "https://example.org/one", "title": ["Ferrets"], "content": {"a": 1}},
        {"url": "https://example.org/two", "title": 1984, "content": None},
    ]
    hits = searxng.parse_response(json.dumps({"results": items}), EngineQuery(text="q"))
    assert [(hit.url, hit.title, hit.snippet) for hit in hits] == [
        ("https://example.org/one", "", ""),
        ("https://example.org/two", "1984", ""),
    ]


def test_searxng_titles_and_snippets_are_text() -> None:
    """Markup and entities an upstream sent are read as Wikipedia's excerpts are: `&lt;b&gt;` is text."""
    hit = _searxng_hit(
        "Tom &amp; Jerry &lt;b&gt; <b>bold</b>", "snippet <em>em</em> &quot;q&quot; &#8217; 1 < 2"
    )
    assert (hit.title, hit.snippet) == ("Tom & Jerry <b> bold", 'snippet em "q" \u2019 1 < 2')


def test_searxng_plain_text_keeps_what_only_looks_like_a_tag() -> None:
    """SearXNG sends most titles and snippets as plain text: a `<T>` or `<div>` there is words."""
    hit = _searxng_hit(
        "<div>: The Content Division element - HTML | MDN",
        "Vec<T> is a growable array; HashMap<K, V> a map &amp; more",
    )
    assert hit.title == "<div>: The Content Division element - HTML | MDN"
    assert hit.snippet == "Vec<T> is a growable array; HashMap<K, V> a map & more"


def test_a_date_utc_cannot_write_leaves_its_result_undated() -> None:
    """One result dated `0001-01-01T00:00:00+01:00` (a .NET minimum date in a local zone) failed the
    engine's whole answer: `could not read its answer (OverflowError: date value out of range)`."""
    items = [
        {"url": "https://example.org/one", "title": "One", "publishedDate": "0001-01-01T00:00:00+01:00"},
        {"url": "https://example.org/two", "title": "Two", "publishedDate": "2024-01-06T12:00:00+01:00"},
    ]
    hits = searxng.parse_response(json.dumps({"results": items}), EngineQuery(text="q"))
    assert [(hit.title, hit.published) for hit in hits] == [
        ("One", None),
        ("Two", "2024-01-06T11:00:00+00:00"),
    ]


def test_an_escaped_lone_surrogate_of_an_engine_is_a_replacement_character() -> None:
    """One result whose title held `"\\ud800"` (half of a character) failed the whole search as
    `internal`: its answer could not be written."""
    body = '{"results": [{"url": "https://example.org/a", "title": "A \\ud800 b", "content": "c \\udfff"}]}'
    hit = searxng.parse_response(body, EngineQuery(text="q"))[0]
    assert (hit.title, hit.snippet) == ("A \ufffd b", "c \ufffd")
    assert hit.model_dump_json()  # UTF-8 can write it


def test_ddg_js_shell_is_an_engine_error_not_an_empty_answer(engine_fixtures: Path) -> None:
    body = (engine_fixtures / "duckduckgo/js_serp_shell_bad-user-agent_2020-06.html").read_text()
    assert ddgs_text.parse_response("duckduckgo", body) == []
    with pytest.raises(FerretError) as caught:
        ddgs_text.check(EngineResponse(status=200, headers={}, text=body))
    assert caught.value.code == ErrorCode.ENGINE_ERROR and "JavaScript results page" in caught.value.message
    for results in (
        "html_rust-programming_2026-04-14.html",
        "html_exit-nvim_site-stackoverflow_2020-06.html",
    ):
        page = (engine_fixtures / "duckduckgo" / results).read_text()
        ddgs_text.check(EngineResponse(status=200, headers={}, text=page))  # a results page passes


@pytest.mark.parametrize(
    ("fixture", "check"),
    [
        ("duckduckgo_anomaly_challenge_2026.html", ddgs_text.check),
        ("mojeek_altcha_captcha_200_2026-09-28.html", ddgs_text.check),
        ("reddit_login_wall_soft_block.html", reddit.check),
    ],
)
def test_captcha_and_walls_are_rate_limits(block_fixtures: Path, fixture: str, check: object) -> None:
    body = (block_fixtures / fixture).read_text(encoding="utf-8", errors="replace")
    with pytest.raises(FerretError) as caught:
        check(EngineResponse(status=200, headers={}, text=body))  # type: ignore[operator]
    assert caught.value.code == ErrorCode.RATE_LIMITED


def test_real_result_pages_pass_the_block_checks(engine_fixtures: Path) -> None:
    ddg = (engine_fixtures / "duckduckgo/html_rust-programming_2026-04-14.html").read_text()
    ddgs_text.check(EngineResponse(status=200, headers={}, text=ddg))
    listing = (engine_fixtures / "reddit/old_reddit_search_best-crm-for-startups.html").read_text()
    reddit.check(EngineResponse(status=200, headers={}, text=listing))


def test_wikipedia_rest_shape_and_request() -> None:
    """The REST search API's `pages[]`: the article URL comes from `key`, the HTML excerpt is stripped."""
    body = json.dumps(
        {
            "pages": [
                {
                    "id": 1,
                    "key": "Tokio_(software)",
                    "title": "Tokio (software)",
                    "excerpt": 'an <span class="searchmatch">asynchronous</span> runtime',
                    "description": "Rust library",
                }
            ]
        }
    )
    query = EngineQuery(text="tokio rust", limit=5)
    hits = wikipedia.parse_response(body, query)
    assert hits[0].url == "https://en.wikipedia.org/wiki/Tokio_(software)"
    assert hits[0].snippet == "an asynchronous runtime" and hits[0].extra["description"] == "Rust library"
    spec = wikipedia.build_request(query)
    assert spec.url == "https://en.wikipedia.org/w/rest.php/v1/search/page"
    assert dict(spec.params) == {"q": "tokio rust", "limit": "5"}


def test_request_builders_are_pure_and_complete() -> None:
    gh = github.build_request(EngineQuery(text="tokio", limit=10))
    assert gh.url == "https://api.github.com/search/repositories" and "Authorization" not in gh.headers
    rd = reddit.build_request(EngineQuery(text="best crm"))
    assert rd.url == "https://old.reddit.com/search" and rd.params["q"] == "best crm"
    ddg = ddgs_text.build_request("duckduckgo", EngineQuery(text="rust", site="docs.rs"))
    assert ddg.method == "POST" and ddg.data is not None and ddg.data["q"] == "rust site:docs.rs"
    with pytest.raises(FerretError) as caught:
        searxng.build_request(EngineQuery(text="q"))
    assert "WEBFERRET_SEARXNG_URL" in caught.value.message


def _regenerate() -> None:
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from conftest import shared_dir

    folder = shared_dir() / "fixtures" / "engines"
    EXPECTED.mkdir(exist_ok=True)
    for name in sorted(CASES):
        data = json.dumps(parse_case(folder, name), indent=1, ensure_ascii=False)
        (EXPECTED / f"{name}.json").write_text(data + "\n", encoding="utf-8")
        print(name, len(json.loads(data)))


def _brave_row(href: str, title: str, snippet: str) -> str:
    return (
        f'<div data-type="web"><a href="{href}"><div class="title">{title}</div></a>'
        f'<div class="snippet"><div class="content">{snippet}</div></div></div>'
    )


def _ddg_row(href: str, title: str, snippet: str) -> str:
    return (
        f'<div class="result results_links web-result"><div class="links_main result__body">'
        f'<h2 class="result__title"><a class="result__a" href="{href}">{title}</a></h2>'
        f'<a class="result__snippet" href="{href}">{snippet}</a></div></div>'
    )


def test_ddgs_results_keep_their_addresses_and_words_as_the_page_has_them() -> None:
    """An address's escapes stay (`%20` is no `+`, `a%26b` one value), and a text's `<T>` is words
    the page shows (its markup is read by the parser), not a tag to drop."""
    brave = "<html><body>" + _brave_row(
        "https://example.com/files/My%20Paper.pdf?q=a%26b",
        "Vec&lt;T&gt; in std::vec",
        "if a &lt; b and c &gt; d, see <strong>std</strong>",
    )
    [hit] = ddgs_text.parse_response("brave", brave + "</body></html>")
    assert hit.url == "https://example.com/files/My%20Paper.pdf?q=a%26b"
    assert (hit.title, hit.snippet) == ("Vec<T> in std::vec", "if a < b and c > d, see std")
    target = "https%3A%2F%2Fexample.com%2FMy%2520Paper.pdf%3Fq%3Da%2526b"
    ddg = _ddg_row(f"//duckduckgo.com/l/?uddg={target}&amp;rut=abc", "Option&lt;T&gt;", "&amp;lt;b&amp;gt;")
    [hit] = ddgs_text.parse_response("duckduckgo", f"<html><body>{ddg}</body></html>")
    assert (hit.url, hit.title, hit.snippet) == (
        "https://example.com/My%20Paper.pdf?q=a%26b",
        "Option<T>",
        "&lt;b&gt;",
    )


def test_a_result_s_invisible_characters_are_left_out() -> None:
    """Soft hyphens and zero-width spaces show nothing, yet split the word whoever looks for it."""
    shy = _brave_row("https://example.com/", "Bundes&shy;regierung&#8203; plant", "Kanzler&shy;amt")
    [hit] = ddgs_text.parse_response("brave", f"<html><body>{shy}</body></html>")
    assert (hit.title, hit.snippet) == ("Bundesregierung plant", "Kanzleramt")


if __name__ == "__main__":
    _regenerate()
