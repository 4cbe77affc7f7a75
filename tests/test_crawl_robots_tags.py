"""A crawl honours a site's own robots rules in its pages: `<meta name="robots">`, `X-Robots-Tag`
and `rel="nofollow"` links (unless robots rules are off), on the simulated web."""

from __future__ import annotations

import pytest
from simweb import Handler, SimWeb, Stream

from webferret.cli import main
from webferret.crawler import CrawlOptions, crawl
from webferret.ferret import Ferret
from webferret.robots_tags import header_directives

HTML = {"Content-Type": "text/html"}


def page(title: str, links: str = "", head: str = "") -> str:
    text = f"{title} tells how ferrets {title.lower()} in the burrows. " * 8
    return (
        f"<html><head><title>{title}</title>{head}</head><body><nav>{links}</nav>"
        f"<article><h1>{title}</h1><p>{text}</p></article></body></html>"
    )


def a(href: str, rel: str = "") -> str:
    return f"<a href='{href}' rel='{rel}'>{href}</a>" if rel else f"<a href='{href}'>{href}</a>"


@pytest.fixture
def tagged(simweb: SimWeb) -> SimWeb:
    simweb.add(
        "/tags/start",
        page(
            "Start",
            a("/tags/paid", "sponsored nofollow")
            + a("/tags/meta")
            + a("/tags/header")
            + a("/tags/other-bot")
            + a("/tags/both")
            + a("/tags/both", "nofollow"),  # one plain link to it: it is followed
        ),
        headers=HTML,
    )
    simweb.add("/tags/paid", page("Paid"), headers=HTML)
    robots_meta = "<meta name='ROBOTS' content='noindex, NoFollow'>"
    simweb.add("/tags/meta", page("Meta", a("/tags/from-meta"), robots_meta), headers=HTML)
    simweb.add("/tags/from-meta", page("From meta"), headers=HTML)
    hidden = {**HTML, "X-Robots-Tag": "webferret: none"}
    simweb.add("/tags/header", page("Header", a("/tags/from-header")), headers=hidden)
    simweb.add("/tags/from-header", page("From header"), headers=HTML)
    others = {**HTML, "X-Robots-Tag": "googlebot: nofollow"}
    simweb.add("/tags/other-bot", page("Other", a("/tags/from-other")), headers=others)
    simweb.add("/tags/from-other", page("From other"), headers=HTML)
    simweb.add("/tags/both", page("Both"), headers=HTML)
    return simweb


async def test_links_a_site_marks_nofollow_are_not_followed(tagged: SimWeb) -> None:
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, tagged.url("/tags/start"), CrawlOptions(depth=2))
        opened = await ferret.open(next(p.handle for p in result.pages if p.title == "Meta") or "")
    read = {p.url.removeprefix(tagged.base): p.robots_tags for p in result.pages}
    assert read == {
        "/tags/start": None,
        "/tags/meta": ["nofollow", "noindex"],  # read and kept all the same: the crawl asked for it
        "/tags/header": ["nofollow", "noindex"],  # `none`, for webferret by name
        "/tags/other-bot": None,  # a rule for another crawler
        "/tags/both": None,
        "/tags/from-other": None,
    }
    assert opened.title == "Meta"
    assert result.not_followed["nofollow"] == 3  # paid, and the links of meta and header
    assert tagged.served("/tags/paid", "/tags/from-meta", "/tags/from-header") == 0


async def test_robots_rules_off_follow_every_link(tagged: SimWeb) -> None:
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, tagged.url("/tags/start"), CrawlOptions(depth=2, robots=False))
    read = {p.url.removeprefix(tagged.base) for p in result.pages}
    assert {"/tags/paid", "/tags/from-meta", "/tags/from-header"} <= read
    assert "nofollow" not in result.not_followed


def test_the_cli_says_why_links_were_not_followed(tagged: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crawl", tagged.url("/tags/start"), "--allow-host", "127.0.0.1"]) == 0
    assert "3 marked nofollow by the site" in capsys.readouterr().out


def test_an_x_robots_tag_header_is_read_as_crawlers_read_it() -> None:
    assert header_directives("noindex") == ["noindex"]
    assert header_directives("unavailable_after: 25 Jun 2010 15:00:00 PST, nofollow") == ["nofollow"]
    assert header_directives("googlebot: noindex, nofollow, webferret: nofollow") == ["nofollow"]
    assert header_directives("otherbot: none, WebFerret: noindex") == ["noindex"]
    assert header_directives("max-snippet: 20, none") == ["noindex", "nofollow"]
    assert header_directives(None) == header_directives("all") == []


async def test_a_nofollow_link_the_crawl_would_not_follow_anyway_is_counted_by_its_own_why(
    simweb: SimWeb,
) -> None:
    """A link marked nofollow to another site or out of the scope was counted `nofollow`, as if
    `--ignore-robots` would follow it: it is counted out of scope, as with robots rules off."""
    links = (
        a("https://elsewhere.example/ad", "nofollow")
        + a("/blog/post", "nofollow")
        + a("/own/page", "nofollow")
    )
    simweb.add("/own/start", page("Start", links), headers=HTML)
    simweb.add("/own/page", page("Page"), headers=HTML)
    hidden = {**HTML, "X-Robots-Tag": "nofollow"}
    simweb.add("/own/hidden", page("Hidden", a("https://elsewhere.example/") + a("/own/x")), headers=hidden)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/own/start"), CrawlOptions(depth=1))
        off = await crawl(ferret, simweb.url("/own/start"), CrawlOptions(depth=1, robots=False))
        whole = await crawl(ferret, simweb.url("/own/hidden"), CrawlOptions(depth=1))
    assert result.not_followed == {"out_of_scope": 2, "nofollow": 1}
    assert off.not_followed == {"out_of_scope": 2}
    assert whole.not_followed == {"out_of_scope": 1, "nofollow": 1}


async def test_a_nofollow_link_followed_from_another_page_is_not_counted(simweb: SimWeb) -> None:
    """A page one link marked nofollow and another page linked plainly was read, and yet counted
    among the links not followed as `nofollow`."""
    simweb.add("/later/start", page("Start", a("/later/page", "nofollow") + a("/later/b")), headers=HTML)
    simweb.add("/later/b", page("B", a("/later/page")), headers=HTML)
    simweb.add("/later/page", page("Page"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/later/start"), CrawlOptions(depth=2))
    assert [p.title for p in result.pages] == ["Start", "B", "Page"]
    assert "nofollow" not in result.not_followed


def two_tags(body: str, first: str, second: str) -> Stream:
    """A route answering `body` with two `X-Robots-Tag` lines."""

    def serve(handler: Handler, web: SimWeb) -> None:
        data = body.encode()
        handler.send_response(200)
        for name, value in (
            ("Content-Type", "text/html"),
            ("Content-Length", str(len(data))),
            ("X-Robots-Tag", first),
            ("X-Robots-Tag", second),
            ("Connection", "close"),
        ):
            handler.send_header(name, value)
        handler.end_headers()
        handler.wfile.write(data)

    return serve


async def test_a_header_line_for_every_crawler_after_one_naming_another_applies(simweb: SimWeb) -> None:
    """`X-Robots-Tag: googlebot: noindex` and then `X-Robots-Tag: nofollow`: the second line is for
    every crawler, but read joined to the first (`googlebot: noindex, nofollow`) it was googlebot's,
    and the page's links were followed."""
    body = page("Lines", a("/lines/next"))
    simweb.add("/lines/start", stream=two_tags(body, "googlebot: noindex", "nofollow"))
    simweb.add("/lines/next", page("Next"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/lines/start"), CrawlOptions(depth=1))
    assert [(p.title, p.robots_tags) for p in result.pages] == [("Lines", ["nofollow"])]
    assert result.not_followed == {"nofollow": 1} and simweb.served("/lines/next") == 0
    assert header_directives(["googlebot: noindex", "nofollow"]) == ["nofollow"]
