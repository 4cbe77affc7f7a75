"""`--site` names a site by any of its editions, as the merge reads them: a mobile or AMP host, or
old Reddit, is its site's. The real engines answer captured pages from 127.0.0.1."""

from __future__ import annotations

from pathlib import Path

from search_harness import FakeWeb, local

from webferret.search.engines import reddit, wikipedia
from webferret.search.router import Router
from webferret.search.runner import EngineRunner
from webferret.search.types import EngineQuery, SearchOptions


async def test_old_reddit_as_site_keeps_reddits_results(
    fake_web: FakeWeb, engine_fixtures: Path, engine_runner: EngineRunner
) -> None:
    """Reddit lists its threads at www.reddit.com: `--site old.reddit.com` left them all out."""
    body = (engine_fixtures / "reddit/old_reddit_search_best-crm-for-startups.html").read_text()
    fake_web.server.canned["/reddit/search"] = (200, body, "text/html; charset=utf-8")
    asked: list[EngineQuery] = []
    engine = local(reddit.ENGINE, f"{fake_web.base}/reddit/search", asked)
    options = SearchOptions(engines=("auto",), site="old.reddit.com")
    outcome = await Router({"reddit": engine}, engine_runner).search("best crm for startups", options)
    assert len(outcome.hits) == 22 and outcome.warnings == []
    assert all(hit.url.startswith("https://www.reddit.com/") for hit in outcome.hits)
    assert asked[0].site == "reddit.com"  # an engine of the whole web is sent `site:reddit.com`


async def test_a_mobile_wikipedia_host_as_site_keeps_the_editions_articles(
    fake_web: FakeWeb, engine_fixtures: Path, engine_runner: EngineRunner
) -> None:
    """`--site en.m.wikipedia.org` (a link copied from a phone) asks the English edition and keeps
    its articles, as `--site en.wikipedia.org` keeps an article an engine lists at its mobile host."""
    body = (engine_fixtures / "wikipedia/rest_v1_search_page_tokio-rust_2026-09-28.json").read_text()
    fake_web.server.canned["/wiki/search"] = (200, body, "application/json")
    asked: list[EngineQuery] = []
    engine = local(wikipedia.ENGINE, f"{fake_web.base}/wiki/search", asked)
    options = SearchOptions(engines=("wikipedia",), site="en.m.wikipedia.org")
    outcome = await Router({"wikipedia": engine}, engine_runner).search("tokio rust", options)
    assert len(outcome.hits) == 5 and outcome.warnings == []
    assert wikipedia.build_request(asked[0]).url.startswith("https://en.wikipedia.org/")
    mobile = [
        hit.model_copy(update={"url": hit.url.replace("en.wikipedia", "en.m.wikipedia")})
        for hit in outcome.hits
    ]
    from webferret.search.router import keep_on_site

    kept, warnings = keep_on_site(mobile, "en.wikipedia.org")
    assert kept == mobile and warnings == []
    assert keep_on_site(mobile, "de.wikipedia.org")[0] == []  # another edition is another site
