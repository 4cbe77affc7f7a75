"""The MCP tools `web_crawl` and `web_map` scope a start that redirects as `crawl` and `map` do: by
where it landed, each page they read still admitted by the agent's domain lists and robots.txt."""

from __future__ import annotations

from pathlib import Path

from simweb import SimWeb
from test_crawl import HTML, page

from webferret.config import load_settings
from webferret.ferret import Ferret
from webferret.mcp_tools import AgentTools, WebCrawlArgs, WebMapArgs


def moved_site(simweb: SimWeb) -> str:
    """A guide moved from /old/guide/ to another host's /v2/guide/ (127.0.0.1 to localhost)."""
    landing = f"http://localhost:{simweb.port}/v2/guide/intro"
    simweb.add("/old/guide/intro", "", status=301, headers={"Location": landing})
    simweb.add("/v2/guide/intro", page("Intro", "/v2/guide/dig", "/v2/blog/news"), headers=HTML)
    simweb.add("/v2/guide/dig", page("Dig"), headers=HTML)
    return simweb.url("/old/guide/intro")


async def test_a_start_that_redirects_is_crawled_and_mapped_where_it_landed(
    simweb: SimWeb, tmp_path: Path
) -> None:
    start = moved_site(simweb)
    settings = load_settings(home=tmp_path, allow_hosts=["127.0.0.1", "localhost"], respect_robots=False)
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        crawled = await tools.web_crawl(WebCrawlArgs(url=start))
        mapped = await tools.web_map(WebMapArgs(url=start, sitemap=False))
    landed = f"http://localhost:{simweb.port}"
    assert crawled.data["scope"] == f"{landed}/v2/guide/"
    assert [entry["url"] for entry in crawled.data["pages"]] == [start, f"{landed}/v2/guide/dig"]
    assert mapped.data["scope"] == f"{landed}/"
    assert [entry["url"] for entry in mapped.data["urls"]] == [
        f"{landed}/v2/guide/dig",
        f"{landed}/v2/blog/news",
    ]
