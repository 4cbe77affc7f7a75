"""Weighted reciprocal rank fusion with correlation groups, and merging by canonical URL."""

from __future__ import annotations

import pytest

from webferret.models import Hit, Source
from webferret.search.fusion import CONSENSUS_BONUS, RRF_K, fuse, rrf_score


def hit(url: str, engine: str, **extra: object) -> Hit:
    return Hit(url=url, title=url, sources=[Source(engine=engine, rank=1)], extra=dict(extra))


def test_rrf_single_group() -> None:
    assert rrf_score({"g": 1}, {}) == pytest.approx(1 / (RRF_K + 1))


def test_consensus_bonus_counts_distinct_groups() -> None:
    two = rrf_score({"a": 1, "b": 1}, {})
    assert two == pytest.approx(2 / (RRF_K + 1) * (1 + CONSENSUS_BONUS))


def test_same_page_from_two_engines_merges_with_every_source() -> None:
    fused = fuse(
        [
            (
                "duckduckgo",
                "bing",
                [hit("https://www.a.org/x/", "duckduckgo"), hit("https://b.org/", "duckduckgo")],
            ),
            ("brave", "brave", [hit("https://b.org/?utm_source=z", "brave"), hit("http://a.org/x", "brave")]),
        ]
    )
    assert len(fused) == 2
    by_url = {f.url: f for f in fused}
    a = by_url["https://www.a.org/x/"]
    assert a.sources == [Source(engine="duckduckgo", rank=1), Source(engine="brave", rank=2)]
    b = by_url["https://b.org/"]
    assert b.sources == [Source(engine="duckduckgo", rank=2), Source(engine="brave", rank=1)]


def test_correlated_engines_count_once() -> None:
    """DuckDuckGo and a SearXNG hit federated from Bing share a group: one term, no bonus."""
    correlated = fuse(
        [
            ("duckduckgo", "bing", [hit("https://x.org/", "duckduckgo")]),
            ("searxng", "searxng", [hit("https://x.org/", "searxng", groups=["bing"])]),
        ]
    )[0]
    independent = fuse(
        [
            ("duckduckgo", "bing", [hit("https://x.org/", "duckduckgo")]),
            ("brave", "brave", [hit("https://x.org/", "brave")]),
        ]
    )[0]
    assert correlated.score == pytest.approx(1 / (RRF_K + 1), abs=1e-6)
    assert independent.score > 2 * correlated.score
    assert len(correlated.sources) == 2


def test_agreement_outranks_a_single_top_hit() -> None:
    fused = fuse(
        [
            (
                "duckduckgo",
                "bing",
                [hit("https://solo.org/", "duckduckgo"), hit("https://both.org/", "duckduckgo")],
            ),
            ("brave", "brave", [hit("https://other.org/", "brave"), hit("https://both.org/", "brave")]),
        ]
    )
    assert fused[0].url == "https://both.org/"


def test_weights_scale_an_engine() -> None:
    answers = [
        ("duckduckgo", "bing", [hit("https://d.org/", "duckduckgo")]),
        ("brave", "brave", [hit("https://b.org/", "brave")]),
    ]
    assert fuse(answers)[0].url == "https://d.org/"  # tie: first sighting first
    assert fuse(answers, weights={"brave": 2.0})[0].url == "https://b.org/"


def test_a_zero_weight_engine_lists_its_results_without_a_vote() -> None:
    """Yahoo at weight 0 ranks x.org first: it gives x.org no rank of its group (its own #1 would
    beat DuckDuckGo's #9) and no consensus bonus; x.org scores as DuckDuckGo's #9 alone."""
    ddg = [hit(f"https://a.org/{rank}", "duckduckgo") for rank in range(1, 9)]
    answers = [
        ("duckduckgo", "bing", [*ddg, hit("https://x.org/", "duckduckgo")]),
        ("yahoo", "yahoo", [hit("https://x.org/", "yahoo"), hit("https://y.org/", "yahoo")]),
    ]
    fused = fuse(answers, weights={"yahoo": 0})
    x = next(found for found in fused if found.url == "https://x.org/")
    assert x.score == pytest.approx(1 / (RRF_K + 9), abs=1e-6)
    assert [source.engine for source in x.sources] == ["duckduckgo", "yahoo"]
    assert (fused[-1].url, fused[-1].score) == ("https://y.org/", 0)  # listed, last
    shared = fuse([answers[0], ("yahoo", "bing", answers[1][2])], weights={"yahoo": 0})  # one group
    assert next(found for found in shared if found.url == "https://x.org/").score == x.score


def test_an_engine_counts_its_best_rank_only() -> None:
    fused = fuse(
        [("searxng", "searxng", [hit("https://a.org/", "searxng"), hit("https://a.org/#x", "searxng")])]
    )
    assert fused[0].sources == [Source(engine="searxng", rank=1)]


def test_missing_fields_are_filled_from_later_sightings() -> None:
    first = Hit(url="https://a.org/", sources=[Source(engine="e1", rank=1)])
    second = Hit(url="https://a.org", title="A", snippet="about a", published="2024-01-01", sources=[])
    fused = fuse([("e1", "g1", [first]), ("e2", "g2", [second])])[0]
    assert (fused.title, fused.snippet, fused.published) == ("A", "about a", "2024-01-01")


def test_an_engines_own_fields_are_kept_whichever_engine_listed_the_page_first() -> None:
    """GitHub's stars and SearXNG's upstream engines stay when DuckDuckGo listed the page first."""
    ddg = hit("https://github.com/rust-lang/rust", "duckduckgo")
    repo = hit("https://github.com/rust-lang/rust", "github", stars=100, language="Rust")
    searx = hit("https://github.com/rust-lang/rust/", "searxng", engines=["google"], groups=["google"])
    answers = [("duckduckgo", "bing", [ddg]), ("github", "github", [repo]), ("searxng", "searxng", [searx])]
    fused = fuse(answers)
    assert fused[0].extra == {"stars": 100, "language": "Rust", "engines": ["google"], "groups": ["google"]}


def test_upstream_lists_are_united_when_one_engine_lists_a_page_twice() -> None:
    fused = fuse(
        [
            (
                "searxng",
                "searxng",
                [
                    hit("https://a.org/", "searxng", engines=["bing"], groups=["bing"]),
                    hit("https://a.org/", "searxng", engines=["brave"], groups=["brave"]),
                ],
            )
        ]
    )[0]
    assert fused.extra["engines"] == ["bing", "brave"] and fused.extra["groups"] == ["bing", "brave"]
    assert fused.score == pytest.approx(rrf_score({"bing": 1, "brave": 1}, {}), abs=1e-6)  # one page: #1


def test_a_result_that_is_no_web_address_is_left_out() -> None:
    odd = ["5", "javascript:alert(1)", "ftp://x.example/y", "not a url", "http://[::1", "https:///nohost"]
    fused = fuse([("searxng", "searxng", [Hit(url=url) for url in [*odd, "https://a.example/"]])])
    assert [hit.url for hit in fused] == ["https://a.example/"]
    assert fused[0].sources[0].rank == 1  # the first the fusion kept: nothing before it counts
    assert fused[0].score == pytest.approx(1 / (RRF_K + 1), abs=1e-6)


def test_a_page_listed_again_takes_no_rank() -> None:
    """SearXNG listing a.org twice: b.org is its second page, not its third."""
    listed = [
        hit("https://a.org/", "searxng"),
        hit("https://a.org/#x", "searxng"),
        hit("https://b.org/", "searxng"),
    ]
    fused = fuse([("searxng", "searxng", listed)])
    assert [(found.url, found.sources[0].rank) for found in fused] == [
        ("https://a.org/", 1),
        ("https://b.org/", 2),
    ]
    assert fused[1].score == pytest.approx(1 / (RRF_K + 2), abs=1e-6)


def test_a_page_is_listed_by_its_best_spelling() -> None:
    """The first engine gave an AMP copy over http, a later one the page itself over https: the
    page is listed at its own https address (as SearXNG lists a page found both ways at https), never
    moved back to an edition or to http by a later sighting."""
    fused = fuse(
        [
            (
                "mojeek",
                "mojeek",
                [hit("http://amp.example.org/a", "mojeek"), hit("http://b.org/x", "mojeek")],
            ),
            ("brave", "brave", [hit("http://example.org/a/", "brave"), hit("https://m.b.org/x", "brave")]),
            ("yahoo", "bing", [hit("https://example.org/a", "yahoo"), hit("http://b.org/x/amp", "yahoo")]),
            ("reddit", "reddit", [hit("https://old.reddit.com/r/a/comments/1/t/", "reddit")]),
            ("searxng", "searxng", [hit("https://www.reddit.com/r/a/comments/1/t", "searxng")]),
        ]
    )
    assert [f.url for f in fused] == [
        "https://example.org/a",
        "http://b.org/x",
        "https://www.reddit.com/r/a/comments/1/t",
    ]


def test_a_page_is_listed_without_its_tracking_parameters() -> None:
    """An engine's `?utm_source=...&id=7&fbclid=...` cost an agent tokens and named a page no
    better: the page is listed as `?id=7` (its other parameters kept as written)."""
    fused = fuse([("brave", "brave", [hit("https://a.org/p?utm_source=brave&id=7&fbclid=XyZ#top", "brave")])])
    assert fused[0].url == "https://a.org/p?id=7#top"


def test_pages_whose_addresses_differ_in_a_latin1_byte_stay_two() -> None:
    """`/caf%E9` and `/caf%E8` (addresses in Latin-1, as older sites write them) were merged into one
    result: both bytes were read as U+FFFD."""
    pages = [hit("http://example.org/caf%E9", "searxng"), hit("http://example.org/caf%E8", "searxng")]
    fused = fuse([("searxng", "searxng", pages)])
    assert [f.url for f in fused] == ["http://example.org/caf%E9", "http://example.org/caf%E8"]


def test_a_redirect_an_engine_listed_is_the_page_it_leads_to() -> None:
    """One engine listed a page through a click-tracking redirect, another by its own address: they
    were two results, the redirector's ranked on its own; now one, listed by the page's address."""
    wrapped = "https://www.google.com/url?q=https%3A%2F%2Fstoats.example%2Fcoats&sa=U"
    fused = fuse(
        [
            ("one", "one", [hit(wrapped, "one"), hit("https://other.example/", "one")]),
            ("two", "two", [hit("https://stoats.example/coats", "two")]),
        ]
    )
    assert [f.url for f in fused] == ["https://stoats.example/coats", "https://other.example/"]
    assert fused[0].sources == [Source(engine="one", rank=1), Source(engine="two", rank=1)]
    share = "https://www.facebook.com/sharer.php?u=https%3A%2F%2Fstoats.example%2F"  # no redirect
    assert [f.url for f in fuse([("one", "one", [hit(share, "one")])])] == [share]
