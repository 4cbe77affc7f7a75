"""`webferret crawl`: a site read by following its links on the simulated web, within a scope."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from contract import fits
from simweb import SimWeb

from webferret.cli import main
from webferret.crawl_rules import default_scope
from webferret.crawler import CrawlOptions, crawl
from webferret.ferret import Ferret
from webferret.models import ErrorCode, FerretError

HTML = {"Content-Type": "text/html"}
ALLOW = ["--allow-host", "127.0.0.1"]


def page(title: str, *links: str, words: int = 60) -> str:
    menu = "".join(f"<li><a href='{href}'>{href}</a></li>" for href in links)
    text = f"{title} tells how ferrets {title.lower()} in the burrows. " * (words // 8)
    head = f"<html><head><title>{title}</title></head><body><nav><ul>{menu}</ul></nav>"
    return f"{head}<article><h1>{title}</h1><p>{text}</p></article></body></html>"


@pytest.fixture
def site(simweb: SimWeb) -> SimWeb:
    """A small documentation site under /guide/, with links out of it and a robots.txt."""
    simweb.add(
        "/guide/intro",
        page(
            "Intro",
            "/guide/dig",
            "/guide/swim#top",
            "/guide/dig?utm_source=menu",  # the same page, written another way
            "/blog/news",  # out of the scope
            "https://elsewhere.example/guide/x",
            "/guide/map.png",
            "/guide/private/notes",  # robots.txt disallows it
            "/guide/gone",
        ),
        headers=HTML,
    )
    simweb.add("/guide/dig", page("Dig", "/guide/intro", "/guide/deep", "/blog/news"), headers=HTML)
    simweb.add("/guide/swim", page("Swim", "/guide/dig"), headers=HTML)
    simweb.add("/guide/deep", page("Deep", "/guide/deeper"), headers=HTML)
    simweb.add("/guide/deeper", page("Deeper"), headers=HTML)
    simweb.add("/guide/private/notes", page("Notes"), headers=HTML)
    simweb.add("/guide/gone", "gone", status=404)
    simweb.add("/blog/news", page("News"), headers=HTML)
    simweb.add(
        "/robots.txt", "User-agent: *\nDisallow: /guide/private/\n", headers={"Content-Type": "text/plain"}
    )
    return simweb


def test_default_scope_is_the_start_pages_folder() -> None:
    assert default_scope("https://Docs.X.org/guide/intro?x=1") == "https://docs.x.org/guide/"
    assert default_scope("https://docs.x.org/guide/") == "https://docs.x.org/guide/"
    assert default_scope("https://docs.x.org") == "https://docs.x.org/"


async def test_a_crawl_follows_links_within_its_scope_level_by_level(site: SimWeb) -> None:
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/guide/intro"), CrawlOptions(depth=2, limit=20))
        opened = await ferret.open(result.pages[1].handle or "")
    read = [(p.depth, p.url.removeprefix(site.base), p.ok) for p in result.pages]
    assert read == [
        (0, "/guide/intro", True),
        (1, "/guide/dig", True),
        (1, "/guide/swim", True),  # a link's fragment is no other page
        (1, "/guide/gone", False),
        (2, "/guide/deep", True),
    ]  # page order; each page once; /guide/deeper is a third hop
    assert result.pages[3].error is not None and result.pages[3].error.code == ErrorCode.HTTP_ERROR
    assert result.pages[4].found_on == site.url("/guide/dig")
    assert all(p.handle and p.tokens for p in result.pages if p.ok)
    assert opened.title == "Dig"  # every page read is in the store
    assert result.not_followed == {
        "out_of_scope": 2,  # each link judged once, however many pages have it
        "not_a_page": 1,
        "robots": 1,
        "past_depth": 1,
    }
    assert "/guide/private/notes" not in [path for path, _ in site.requests]  # robots.txt was asked first


async def test_limits_globs_and_robots_can_be_set(site: SimWeb) -> None:
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        limited = await crawl(ferret, site.url("/guide/intro"), CrawlOptions(depth=3, limit=2))
        only = CrawlOptions(
            depth=1, include=("/guide/d*", "/guide/private/*"), exclude=("*/dig",), robots=False
        )
        globbed = await crawl(ferret, site.url("/guide/intro"), only)
    assert [p.url.removeprefix(site.base) for p in limited.pages] == ["/guide/intro", "/guide/dig"]
    assert limited.not_followed["past_limit"] == 3  # swim and gone, then deep
    assert limited.not_followed["robots"] == 1  # judged first: a link robots.txt forbids takes no room
    assert [p.url.removeprefix(site.base) for p in globbed.pages] == ["/guide/intro", "/guide/private/notes"]
    assert globbed.not_followed["excluded"] == 3  # dig (excluded), swim and gone (not included)
    with pytest.raises(FerretError, match="depth 11"):
        CrawlOptions(depth=11)
    for wrong in ({"depth": "1"}, {"depth": 1.5}, {"limit": None}, {"exclude": 7}, {"robots": "no"}):
        with pytest.raises(FerretError, match=next(iter(wrong))):
            CrawlOptions(**wrong)  # type: ignore[arg-type]
    assert CrawlOptions(include="/guide/*").include == ("/guide/*",)  # type: ignore[arg-type]
    for scope in ("ftp://x/", "http://[bad/", "http://x:99999/", "https:///guide/"):
        with pytest.raises(FerretError, match="scope"):
            CrawlOptions(scope=scope)


def test_the_cli_lists_pages_with_handles(site: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["crawl", site.url("/guide/intro"), "--depth", "1", *ALLOW])
    out = capsys.readouterr().out
    assert code == 0
    assert out.startswith("0  127.0.0.1~") and "  Intro\n   " + site.url("/guide/intro") in out
    assert "1  ERROR http_error" in out
    assert "3 pages read, 1 failed" in out and "2 out of scope" in out and "1 past --depth" in out
    assert "read one: webferret open 127.0.0.1~" in out


def test_the_cli_json_answer_fits_its_schema(site: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(
        ["crawl", site.url("/guide/intro"), "--depth", "1", "--json", "--scope", site.url("/"), *ALLOW]
    )
    envelope = json.loads(capsys.readouterr().out)
    assert code == 0 and envelope["ok"] and envelope["meta"] == {"count": 5, "failed": 1}
    fits(envelope["data"], "crawl")
    assert envelope["data"]["scope"] == site.url("/")
    assert site.url("/blog/news") in [p["url"] for p in envelope["data"]["pages"]]  # in the wider scope


def test_a_start_page_that_fails_fails_the_crawl(simweb: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    simweb.add("/nothing", "gone", status=404)
    assert main(["crawl", simweb.url("/nothing"), *ALLOW]) == 1
    assert "ERROR http_error" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["crawl", simweb.url("/nothing"), "--limit", "0"])


def test_the_library_facade_crawls(site: SimWeb) -> None:
    import webferret

    result = webferret.crawl(site.url("/guide/intro"), depth=0, allow_hosts=["127.0.0.1"])
    assert [p.title for p in result.pages] == ["Intro"]
    assert result.not_followed == {"out_of_scope": 2, "not_a_page": 1, "past_depth": 4}
    assert isinstance(result, webferret.CrawlResult)
    globbed = webferret.crawl(
        site.url("/guide/intro"), depth=1, include="/guide/d*", allow_hosts=["127.0.0.1"]
    )
    assert [p.url.removeprefix(site.base) for p in globbed.pages] == ["/guide/intro", "/guide/dig"]


def test_the_cli_agent_view_fences_the_titles(site: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crawl", site.url("/guide/intro"), "--depth", "1", "--agent", *ALLOW]) == 0
    out = capsys.readouterr().out
    begin = re.search(r"<<<webferret-untrusted-begin [0-9a-f]{32}>>>", out)
    end = re.search(r"<<<webferret-untrusted-end [0-9a-f]{32}>>>", out)
    assert begin and end and begin.end() < out.index("1. [depth 0] Intro") < end.start()
    assert (
        "Links not followed: 2 out of scope, 1 not documents, 1 disallowed by robots.txt, 1 past the depth."
        in out
    )
    assert "`webferret open HANDLE --agent`" in out
    # every command it names answers fenced too (`webferret find QUERY` alone answered page text unfenced)
    commands = re.findall(r"`(webferret [^`]*)`", out)
    assert commands and all(command.endswith(" --agent") for command in commands), commands
    with pytest.raises(SystemExit):
        main(["crawl", site.url("/guide/intro"), "--agent", "--json"])


def test_the_agent_views_hints_name_the_home_given(
    site: SimWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """The commands the agent views of crawl, map and search suggest carry the `--home` the command was
    given (they named none: copied, `webferret open HANDLE --agent` looked in another store), and the
    links `open --links` could not find say to fetch them into that home too."""
    home = str(tmp_path / "my home")
    crawled = ["crawl", site.url("/guide/intro"), "--depth", "1", "--agent", "--home", home, *ALLOW]
    mapped = ["map", site.url("/guide/intro"), "--agent", "--ignore-robots", "--home", home, *ALLOW]
    for argv in (crawled, mapped):
        assert main(argv) == 0
        commands = re.findall(r"(?:`|with )(webferret [^`]*?)(?:`|\.$)", capsys.readouterr().out, re.M)
        assert commands and all(command.endswith(f" --agent --home '{home}'") for command in commands)
    assert main(["map", site.url("/guide/intro"), "--ignore-robots", "--home", home, *ALLOW]) == 0
    assert f"read them: webferret fetch URL... --home '{home}'" in capsys.readouterr().out


async def test_the_default_scope_is_where_the_start_was_redirected(site: SimWeb) -> None:
    site.add("/old/guide", status=301, headers={"Location": "/guide/intro"})
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/old/guide"), CrawlOptions(depth=1))
        named = await crawl(ferret, site.url("/old/guide"), CrawlOptions(depth=1, scope=site.url("/old/")))
    assert result.scope == site.url("/guide/") and len(result.pages) == 4  # intro, dig, swim, gone
    assert result.pages[0].final_url == site.url("/guide/intro")
    assert [p.url for p in named.pages] == [site.url("/old/guide")]  # a scope given stays


async def test_a_start_folder_whose_slash_the_site_drops_stays_the_scope(simweb: SimWeb) -> None:
    """A site that writes its folders without the final slash redirects `/docs/` to `/docs`: the
    default scope was that page's folder, `/`, the whole host (the blog of a crawl of the docs). It
    stays the folder the start named; `/docs` redirected to `/docs/` keeps to `/docs/` as before."""
    simweb.add("/docs/", status=301, headers={"Location": "/docs"})
    simweb.add("/docs", page("Docs", "/docs/a", "/blog/news"), headers=HTML)
    simweb.add("/docs/a", page("A"), headers=HTML)
    simweb.add("/guide", status=301, headers={"Location": "/guide/"})
    simweb.add("/guide/", page("Guide", "/guide/b", "/blog/news"), headers=HTML)
    simweb.add("/guide/b", page("B"), headers=HTML)
    simweb.add("/blog/news", page("News"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        docs = await crawl(ferret, simweb.url("/docs/"), CrawlOptions(depth=1))
        guide = await crawl(ferret, simweb.url("/guide"), CrawlOptions(depth=1))
    assert docs.scope == simweb.url("/docs/") and [p.title for p in docs.pages] == ["Docs", "A"]
    assert guide.scope == simweb.url("/guide/") and [p.title for p in guide.pages] == ["Guide", "B"]


async def test_a_start_folder_led_to_its_index_document_stays_the_scope(simweb: SimWeb) -> None:
    """`/docs/` redirected to `/docs/index.html` (a folder's index document, the same page to a
    crawl) was taken for the folder whose slash the site drops: the scope became
    `/docs/index.html/`, and no link of the page was in it."""
    simweb.add("/idx/", status=302, headers={"Location": "/idx/index.html"})
    simweb.add("/idx/index.html", page("Index", "/idx/a"), headers=HTML)
    simweb.add("/idx/a", page("A"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/idx/"), CrawlOptions(depth=1))
    assert result.scope == simweb.url("/idx/") and [p.title for p in result.pages] == ["Index", "A"]


def test_sitemaps_add_the_pages_they_list(site: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    xml = {"Content-Type": "application/xml"}
    site.add(
        "/robots.txt", f"User-agent: *\nDisallow: /guide/private/\nSitemap: {site.url('/maps/index.xml')}\n"
    )
    site.add(
        "/maps/index.xml",
        '<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        f"<sitemap><loc>{site.url('/maps/guide.xml')}</loc></sitemap></sitemapindex>",
        headers=xml,
    )
    listed = "".join(
        f"<url><loc>{site.url(path)}</loc></url>" for path in ("/guide/hidden", "/guide/dig", "/blog/x")
    )
    site.add(
        "/maps/guide.xml",
        f'<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">{listed}</urlset>',
        headers=xml,
    )
    site.add("/guide/hidden", page("Hidden"), headers=HTML)
    assert main(["crawl", site.url("/guide/intro"), "--depth", "1", "--sitemap", "--json", *ALLOW]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    fits(data, "crawl")
    found = {p["url"].removeprefix(site.base): p["found_on"] for p in data["pages"]}
    assert found[("/guide/hidden")] == site.url("/maps/guide.xml")  # no page links to it
    assert list(found)[-1] == "/guide/hidden"  # after the start page's own links
    assert (
        data["sitemap_urls"] == 3 and data["not_followed"]["out_of_scope"] == 3
    )  # blog/news, elsewhere, blog/x
    ignoring = ["crawl", site.url("/guide/intro"), "--depth", "1", "--sitemap", "--ignore-robots", "--json"]
    assert main([*ignoring, "--fresh", *ALLOW]) == 0  # robots.txt still says where the sitemaps are
    data = json.loads(capsys.readouterr().out)["data"]
    assert data["sitemap_urls"] == 3 and site.url("/guide/hidden") in {p["url"] for p in data["pages"]}


async def test_a_crawl_delay_reads_pages_one_at_a_time_apart(site: SimWeb) -> None:
    site.add("/robots.txt", "User-agent: *\nCrawl-delay: 0.3\nDisallow: /guide/private/\n")
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/guide/intro"), CrawlOptions(depth=1))
        short = await crawl(  # fresh: each page asked for anew (one the store answers waits for nothing)
            ferret,
            site.url("/guide/intro"),
            CrawlOptions(depth=1),
            fetch=ferret.fetch_options(budget=0.25),
            fresh=True,
        )
    assert result.crawl_delay == 0.3 and len(result.pages) == 4
    assert result.elapsed_ms >= 3 * 300  # three pages after the start, each 0.3 s after the one before
    assert len(short.pages) == 1 and short.not_followed["budget"] == 3  # no time left for a pause


@pytest.mark.parametrize("start", ["not a url", "http://127.0.0.2:9/private", "ftp://x.example/"])
async def test_a_start_that_cannot_be_read_is_a_failed_page_not_a_crash(start: str) -> None:
    async with Ferret() as ferret:
        result = await crawl(ferret, start, CrawlOptions(sitemap=True))
    assert [page.ok for page in result.pages] == [False] and result.pages[0].error is not None


def test_jsonl_streams_each_page_with_its_content(site: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["crawl", site.url("/guide/intro"), "--depth", "1", "--jsonl", *ALLOW]) == 0
    out, err = capsys.readouterr()
    lines = [json.loads(line) for line in out.splitlines()]
    pages = {page["url"].removeprefix(site.base): page for page in lines}
    assert lines[0]["url"] == site.url("/guide/intro")  # then each page of a level as it is read
    assert sorted(pages) == ["/guide/dig", "/guide/gone", "/guide/intro", "/guide/swim"]
    assert (
        "Dig tells how ferrets dig" in pages["/guide/dig"]["content"] and pages["/guide/dig"]["links"] is None
    )
    assert pages["/guide/dig"]["meta"]["crawl"] == {"depth": 1, "found_on": site.url("/guide/intro")}
    assert not pages["/guide/gone"]["ok"] and "3 pages read, 1 failed" in err
    with pytest.raises(SystemExit):
        main(["crawl", site.url("/guide/intro"), "--jsonl", "--json"])


def test_jsonl_writes_each_page_as_it_is_read_and_ends_when_its_reader_does(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str], tmp_path: object
) -> None:
    """A slow page does not hold back its level's other pages; a reader that closes the pipe
    (`| head -1`) ends the crawl (exit 141) without waiting for the rest."""
    import os
    import subprocess
    import sys

    simweb.add("/lines/start", page("Start", "/lines/slow", "/lines/quick"), headers=HTML)
    simweb.add("/lines/slow", page("Slow"), headers=HTML, delay=1.5)
    simweb.add("/lines/quick", page("Quick"), headers=HTML)
    assert main(["crawl", simweb.url("/lines/start"), "--depth", "1", "--jsonl", *ALLOW]) == 0
    order = [
        json.loads(line)["url"].removeprefix(simweb.base) for line in capsys.readouterr().out.splitlines()
    ]
    assert order == ["/lines/start", "/lines/quick", "/lines/slow"]  # the slow one, linked first, last
    simweb.add("/lines/slower", page("Slower"), headers=HTML, delay=30)
    simweb.add("/lines/begin", page("Begin", "/lines/slower", "/lines/quick"), headers=HTML)
    env = {**os.environ, "WEBFERRET_HOME": str(tmp_path), "WEBFERRET_SERVE": "off"}
    command = [sys.executable, "-m", "webferret", "crawl", simweb.url("/lines/begin"), "--jsonl", *ALLOW]
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL)
    assert process.stdout is not None
    first = process.stdout.readline()
    process.stdout.close()  # the reader leaves after one line
    assert json.loads(first)["url"] == simweb.url("/lines/begin")
    assert process.wait(timeout=20) == 141  # at the next line (the quick page's), not after the 30 s page


@pytest.mark.parametrize(
    ("flags", "said"),
    [
        (["--max-chars", "5"], "--max-chars clips the pages --jsonl writes"),
        (["--depth", "0", "--sitemap"], "it needs depth 1 or more"),
        (["--include", " "], "include: a glob of paths"),
        # a glob no path matches (a path starts with /) kept no link, or left out none, silently
        (["--include", "guide/*"], "include 'guide/*': a glob of a URL's path, which starts with /"),
        (["--exclude", "https://x.org/old/*"], "exclude 'https://x.org/old/*': a glob of a URL's path"),
        # an undecodable argv byte: the glob, percent-encoded to be matched, was an internal error
        (["--exclude", "/old\udcff/*"], "exclude: it has a character that is no text"),
    ],
)
def test_flags_that_would_do_nothing_are_refused(
    flags: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import contextlib

    # argparse refuses --max-chars alone (SystemExit 2); the core refuses the others (exit 2), for
    # every face (MCP web_crawl, the API's /crawl)
    with pytest.raises(SystemExit) if flags[0] == "--max-chars" else contextlib.nullcontext():
        assert main(["crawl", "http://127.0.0.1:9/", *flags]) == 2
    assert said in capsys.readouterr().err


async def test_async_callbacks_are_awaited(site: SimWeb) -> None:
    read: list[str] = []
    listed: list[str] = []

    async def on_read(page: object) -> None:
        read.append(page.url)  # type: ignore[attr-defined]

    async def on_page(entry: object) -> None:
        listed.append(entry.url)  # type: ignore[attr-defined]

    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await ferret.crawl(
            site.url("/guide/intro"), CrawlOptions(depth=1), on_read=on_read, on_page=on_page
        )
    assert sorted(read) == sorted(listed) == sorted(entry.url for entry in result.pages) and len(read) > 1


async def test_where_a_link_redirects_is_judged_as_a_link_before_it_is_requested(site: SimWeb) -> None:
    site.add("/guide/hops", page("Hops", "/guide/to-notes", "/guide/to-news", "/guide/to-dig"), headers=HTML)
    site.add("/guide/to-notes", status=302, headers={"Location": "/guide/private/notes"})  # robots.txt
    site.add("/guide/to-news", status=302, headers={"Location": "/blog/news"})  # out of the scope
    site.add("/guide/to-dig", status=302, headers={"Location": "/guide/dig"})  # excluded
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/guide/hops"), CrawlOptions(depth=1, exclude=("*/dig",)))
        requested = [path for path, _ in site.requests]
        wide = CrawlOptions(depth=1, scope=site.url("/"), robots=False)
        await crawl(ferret, site.url("/guide/hops"), wide)  # each redirect, read and stored
        before = len(site.requests)
        stored = await crawl(ferret, site.url("/guide/hops"), CrawlOptions(depth=1))
    refused = {p.url.removeprefix(site.base): p.error for p in result.pages[1:]}
    assert [p.ok for p in result.pages] == [True, False, False, False]
    notes, news, dig = refused["/guide/to-notes"], refused["/guide/to-news"], refused["/guide/to-dig"]
    assert notes is not None and notes.code == ErrorCode.ROBOTS_DISALLOWED
    assert news is not None and f"outside the crawl's scope {site.url('/guide/')}" in news.message
    assert dig is not None and "exclude globs leave it out" in dig.message
    assert all(f"(led there from {site.url(p)})" in e.message for p, e in refused.items() if e)
    assert not {"/guide/private/notes", "/blog/news", "/guide/dig"} & set(requested)
    news = {p.url: p for p in stored.pages}[site.url("/guide/to-news")].error  # the store's redirect too
    assert news is not None and "outside the crawl's scope" in news.message
    assert "/guide/to-news" not in [path for path, _ in site.requests[before:]]


async def test_dot_segments_are_resolved_before_a_link_is_judged(site: SimWeb) -> None:
    dotted = ("/guide/../blog/news", "/guide/./x/../private/notes", "/guide/x/../dig", "/guide/%2e%2e/blog/x")
    site.add("/guide/dots", page("Dots", *(site.url(path) for path in dotted), "/guide/to-x"), headers=HTML)
    site.add("/guide/to-x", status=302, headers={"Location": site.url("/guide/../blog/x")})
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/guide/dots"), CrawlOptions(depth=1))
        globbed = await crawl(ferret, site.url("/guide/dots"), CrawlOptions(depth=1, exclude=("*/dig",)))
        site.add("/sitemap.xml", f"<urlset><url><loc>{site.url('/guide/x/../swim')}</loc></url></urlset>")
        mapped = await crawl(ferret, site.url("/guide/dots"), CrawlOptions(depth=1, sitemap=True))
    read = [p.url.removeprefix(site.base) for p in result.pages]
    assert read == ["/guide/dots", "/guide/dig", "/guide/to-x"]
    redirected = result.pages[2].error  # its redirect's `..` is judged as a link's
    assert redirected is not None and "outside the crawl's scope" in redirected.message
    assert result.not_followed == {"out_of_scope": 2, "robots": 1, "past_depth": 2}  # dig: intro, deep
    assert [p.url for p in globbed.pages] == [site.url("/guide/dots"), site.url("/guide/to-x")]
    assert mapped.pages[-1].url == site.url("/guide/swim") and mapped.pages[-1].found_on == site.url(
        "/sitemap.xml"
    )
    requested = [path for path, _ in site.requests]
    assert not {"/blog/news", "/blog/x", "/guide/private/notes"} & set(requested)


async def test_a_page_two_links_lead_to_is_listed_once(site: SimWeb) -> None:
    site.add("/guide/twice", page("Twice", "/guide/dig", "/guide/to-dig", "/guide/on"), headers=HTML)
    site.add("/guide/to-dig", status=302, headers={"Location": "/guide/dig"})  # the same level
    site.add("/guide/on", page("On", "/guide/back-to-dig"), headers=HTML)
    site.add("/guide/back-to-dig", status=302, headers={"Location": "/guide/dig"})  # the next level
    read: list[str] = []
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        options = CrawlOptions(depth=2, include=("/guide/twice", "/guide/*dig", "/guide/on"))
        start = site.url("/guide/twice")
        result = await crawl(ferret, start, options, on_read=lambda page: read.append(page.title))
    listed = [p.final_url for p in result.pages]
    assert listed == [site.url(path) for path in ("/guide/twice", "/guide/dig", "/guide/on")]
    assert sorted(read) == ["Dig", "On", "Twice"]  # each page written once too
    assert result.not_followed["same_page"] == 2  # the two redirects there, said (they took a slot)


@pytest.mark.parametrize("fresh", [False, True])
async def test_a_page_the_crawl_read_is_not_requested_again(simweb: SimWeb, fresh: bool) -> None:
    """A redirect to a page the crawl read already (back to the start page, say) requested it
    again, the store aside (the fetcher follows a redirect over the network), and with `fresh` a
    later link to a page an earlier redirect reached was requested again too. Neither is now: the
    links are counted as `same_page`, their page listed once."""
    simweb.add("/rr/", page("Index", "/rr/x", "/rr/old", "/rr/home"), headers=HTML)
    simweb.add("/rr/x", page("X", "/rr/y"), headers=HTML)  # y, a level on: an earlier redirect read it
    simweb.add("/rr/y", page("Y"), headers=HTML)
    simweb.add("/rr/old", status=301, headers={"Location": "/rr/y"})
    simweb.add("/rr/home", status=301, headers={"Location": "/rr/"})
    read: list[str] = []
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        start = simweb.url("/rr/")
        result = await crawl(ferret, start, fresh=fresh, on_read=lambda page: read.append(page.title))
    assert [p.title for p in result.pages] == ["Index", "X", "Y"] and sorted(read) == ["Index", "X", "Y"]
    assert result.not_followed == {"same_page": 2}
    assert simweb.served("/rr/") == 1 and simweb.served("/rr/y") == 1


async def test_a_folder_named_like_a_file_is_a_page(simweb: SimWeb) -> None:
    """A folder whose name ends like a script or an archive (`/docs/next.js/`, a guide to Next.js)
    names no file: its link was left out as `not_a_page`, its pages never read. A path ending in
    `/` is a page; `/docs/app.js` is still no document."""
    simweb.add("/docs/", page("Docs", "/docs/next.js/", "/docs/app.js", "/docs/logo.png"), headers=HTML)
    simweb.add("/docs/next.js/", page("Next"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/docs/"), CrawlOptions(depth=1))
    assert [p.title for p in result.pages] == ["Docs", "Next"]
    assert result.not_followed == {"not_a_page": 2}


async def test_links_the_budget_left_unasked_are_not_followed_not_failed(simweb: SimWeb) -> None:
    slow = [f"/slow/{n}" for n in range(6)]
    simweb.add("/slow/start", page("Start", *slow), headers=HTML)
    for path in slow:
        simweb.add(path, page("Slow"), headers=HTML, delay=30)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        fetch = ferret.fetch_options(budget=2, per_host_concurrency=2)
        result = await crawl(ferret, simweb.url("/slow/start"), CrawlOptions(depth=1), fetch=fetch)
    requested = {path for path, _ in simweb.requests}
    cut = result.pages[1:]  # the pages asked for when the budget ran out: failed, as they were cut
    assert len(cut) <= 2 and all(not p.ok and p.url.removeprefix(simweb.base) in requested for p in cut)
    assert result.not_followed["budget"] == len(slow) - len(cut)  # at least 4: never asked for
    said = [p.error.message for p in cut if p.error]  # the budget set, not what the level had left
    assert said and all("time budget of 2 s (setting budget)" in message for message in said), said


async def test_the_sitemaps_are_read_when_the_start_page_fails(site: SimWeb) -> None:
    listed = "".join(f"<url><loc>{site.url(path)}</loc></url>" for path in ("/guide/dig", "/blog/x"))
    site.add("/sitemap.xml", f"<urlset>{listed}</urlset>", headers={"Content-Type": "application/xml"})
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/guide/gone"), CrawlOptions(depth=1, sitemap=True))
    assert [(p.url.removeprefix(site.base), p.ok) for p in result.pages] == [
        ("/guide/gone", False),  # 404
        ("/guide/dig", True),
    ]
    assert result.pages[1].found_on == site.url("/sitemap.xml")
    assert result.sitemap_urls == 2 and result.not_followed["out_of_scope"] == 2  # /blog/x, /blog/news


async def test_sitemap_urls_is_null_when_no_sitemap_could_be_read(site: SimWeb) -> None:
    """A site without sitemaps (`/sitemap.xml` 404) listed no URLs: it is not said to have listed 0."""
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        missing = await crawl(ferret, site.url("/guide/dig"), CrawlOptions(depth=1, sitemap=True))
        not_mapped = await ferret.map_site(site.url("/guide/dig"))
        listed = f"<urlset><url><loc>{site.url('/blog/x')}</loc></url></urlset>"
        site.add("/sitemap.xml", listed, headers={"Content-Type": "application/xml"})
        found = await crawl(ferret, site.url("/guide/dig"), CrawlOptions(depth=1, sitemap=True), fresh=True)
    assert missing.pages[0].ok and missing.sitemap_urls is None and not_mapped.sitemap_urls is None
    assert found.sitemap_urls == 1 and found.not_followed["out_of_scope"] >= 1


def test_why_no_sitemap_could_be_read_is_said(site: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    """`--sitemap` on a site whose sitemaps could not be read answered `sitemap_urls` null and said
    nothing more: not which files were asked for, nor what they answered."""
    crawling = ["crawl", site.url("/guide/intro"), "--depth", "1", "--sitemap", *ALLOW]
    assert main([*crawling, "--json"]) == 0  # /sitemap.xml: 404
    data = json.loads(capsys.readouterr().out)["data"]
    fits(data, "crawl")
    assert data["sitemap_urls"] is None
    assert data["sitemap_unread"] == f"{site.url('/sitemap.xml')}: HTTP 404 Not Found"
    index = "".join(
        f"<sitemap><loc>{site.url(path)}</loc></sitemap>" for path in ("/maps/a.xml", "/maps/b.xml")
    )
    site.add(
        "/sitemap.xml", f"<sitemapindex>{index}</sitemapindex>", headers={"Content-Type": "application/xml"}
    )
    site.add("/maps/a.xml", page("Not a sitemap"), headers=HTML)
    site.add("/maps/b.xml", "down", status=500)
    assert main([*crawling, "--fresh"]) == 0
    said = capsys.readouterr().out
    assert f"sitemaps not read: {site.url('/maps/a.xml')} holds no sitemap entry (text/html); " in said
    assert f"{site.url('/maps/b.xml')}: HTTP 500" in said
    assert main([*crawling, "--agent"]) == 0
    assert "Sitemaps not read: " in capsys.readouterr().out
    listed = "<urlset><url><loc>https://elsewhere.example/x</loc></url></urlset>"
    site.add("/maps/b.xml", listed, headers={"Content-Type": "application/xml"})
    assert main([*crawling, "--json", "--fresh"]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    assert data["sitemap_urls"] == 1  # read, one failed: which is said
    assert data["sitemap_unread"] == f"{site.url('/maps/a.xml')} holds no sitemap entry (text/html)"


async def test_a_crawl_delay_is_not_waited_before_pages_the_store_answers(site: SimWeb) -> None:
    site.add("/robots.txt", "User-agent: *\nCrawl-delay: 30\n")  # longer than the budget: no request fits
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        options = CrawlOptions(depth=1, include=("/guide/intro", "/guide/dig", "/guide/swim"))
        first = await crawl(ferret, site.url("/guide/intro"), replace(options, robots=False))
        before = len(site.requests)
        again = await crawl(ferret, site.url("/guide/intro"), options, fetch=ferret.fetch_options(budget=10))
    assert len(first.pages) == 3 and again.crawl_delay == 30
    assert [p.handle for p in again.pages] == [p.handle for p in first.pages]  # from the store, no pause
    assert [path for path, _ in site.requests[before:]] == ["/robots.txt"]


async def test_a_robots_txt_that_fails_is_asked_for_once_a_crawl(site: SimWeb) -> None:
    site.add("/robots.txt", "down", status=503)
    site.add("/guide/to-dig", status=302, headers={"Location": "/guide/dig"})
    site.add("/guide/hops", page("Hops", "/guide/dig", "/guide/to-dig"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/guide/hops"), CrawlOptions(depth=1, sitemap=True))
        again = await crawl(ferret, site.url("/guide/hops"), CrawlOptions(depth=1), fresh=True)
    assert len(result.pages) == len(again.pages) == 1 and result.not_followed["robots"] == 2
    asked = [path for path, _ in site.requests].count("/robots.txt")
    assert asked == 2  # once a crawl: a failure is not kept for the next one
    # a robots.txt that could not be read allows no path: `/sitemap.xml` is not guessed at either
    assert "/sitemap.xml" not in [path for path, _ in site.requests] and result.sitemap_urls is None


def test_links_a_failed_robots_txt_kept_out_are_said_to_be_for_that(
    site: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """A robots.txt that answered 503 disallows every path (RFC 9309): the crawl counted its links as
    "disallowed by robots.txt", as if the site's rules forbade them, and said nothing of the 503."""
    site.add("/robots.txt", "down", status=503)
    assert main(["crawl", site.url("/guide/intro"), "--depth", "1", "--json", *ALLOW]) == 0
    data = json.loads(capsys.readouterr().out)["data"]
    fits(data, "crawl")
    assert data["not_followed"]["robots"] >= 2
    assert "robots.txt answered 503" in data["robots_unread"] and "--ignore-robots" in data["robots_unread"]
    assert main(["crawl", site.url("/guide/intro"), "--depth", "1", *ALLOW]) == 0
    said = capsys.readouterr().out
    assert f"robots.txt could not be read: {site.url('/robots.txt')} answered 503" in said
    assert main(["crawl", site.url("/guide/intro"), "--depth", "1", "--agent", *ALLOW]) == 0
    assert "The site's robots.txt could not be read:" in capsys.readouterr().out
    site.add("/robots.txt", "User-agent: *\nDisallow: /guide/private/\n")  # read: its rules are no failure
    assert main(["crawl", site.url("/guide/intro"), "--depth", "1", "--json", *ALLOW]) == 0
    assert json.loads(capsys.readouterr().out)["data"]["robots_unread"] is None


def test_a_refused_hop_is_said_whole_on_the_terminal(
    site: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """The error line was cut at 160 characters, before the `led there from URL` that ends it."""
    long_path = "/blog/" + "a-rather-long-slug-" * 6
    site.add("/guide/far", page("Far", "/guide/to-far"), headers=HTML)
    site.add("/guide/to-far", status=302, headers={"Location": long_path})
    code = main(["crawl", "--allow-host", "127.0.0.1", "--depth", "1", site.url("/guide/far")])
    out = capsys.readouterr().out
    assert code == 0 and f"(led there from {site.url('/guide/to-far')})" in out, out


async def test_a_scope_with_dot_segments_is_read_as_links_are(site: SimWeb) -> None:
    """A scope written `/x/../guide/` matched nothing: links are judged with their dot segments
    resolved, the scope was not."""
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        options = CrawlOptions(depth=1, scope=site.url("/x/../guide/"))
        result = await crawl(ferret, site.url("/guide/intro"), options)
    assert len(result.pages) > 1 and all(p.url.startswith(site.url("/guide/")) for p in result.pages)


@pytest.mark.parametrize("callback", ["on_read", "on_page"])
async def test_a_callback_that_raises_is_raised_once_the_crawl_is_finished(
    site: SimWeb, callback: str
) -> None:
    """As `fetch_many`'s `on_page`: it stopped the crawl at the first page, the rest never read."""
    calls: list[object] = []

    def fails(item: object) -> None:
        calls.append(item)
        raise ValueError("the pipeline broke")

    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        with pytest.raises(ValueError, match="the pipeline broke"):
            await crawl(ferret, site.url("/guide/intro"), CrawlOptions(depth=1), **{callback: fails})
        again = await crawl(ferret, site.url("/guide/intro"), CrawlOptions(depth=1))
    assert len(calls) == len(again.pages) > 1  # every page read (and stored) first


async def test_a_stored_page_after_the_budget_ran_out_is_not_read(simweb: SimWeb) -> None:
    """With a Crawl-delay, a stored page after one that spent the budget was fetched with a budget
    below 0: the whole crawl failed as `invalid_argument`, every page read lost."""
    simweb.add("/robots.txt", "User-agent: *\nCrawl-delay: 0.1\n")
    simweb.add("/spent/start", page("Start", "/spent/slow", "/spent/kept"), headers=HTML)
    simweb.add("/spent/slow", page("Slow"), headers=HTML, delay=10)
    simweb.add("/spent/kept", page("Kept"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        assert (await ferret.fetch(simweb.url("/spent/kept"))).ok
        fetch = ferret.fetch_options(budget=1.5)
        result = await crawl(ferret, simweb.url("/spent/start"), CrawlOptions(depth=1), fetch=fetch)
    assert result.pages[0].ok and result.not_followed.get("budget", 0) >= 1


def held_past(budget: float, monkeypatch: pytest.MonkeyPatch, after: str) -> list[str]:
    """Make judging the first link whose path holds `after` take until the call's `budget` has run
    out, as judging a million sitemap URLs does; the URLs judged are listed. The budget is counted
    from when the call (a crawl, a map) makes its link rules, after it started its own clock
    (counted from here, it ended before the call's on a loaded machine, and the judging went on)."""
    import time

    from webferret.crawl_rules import Follow

    ends: list[float] = []
    judged: list[str] = []
    made, refusal = Follow.__init__, Follow.refusal

    def timed(self: Follow, *args: Any, **kwargs: Any) -> None:
        ends.append(time.monotonic() + budget)
        made(self, *args, **kwargs)

    def slow(self: Follow, url: str) -> str | None:
        if after in url and not any(after in seen for seen in judged):
            time.sleep(max(0.0, ends[0] - time.monotonic()) + 0.1)
        judged.append(url)
        return refusal(self, url)

    monkeypatch.setattr(Follow, "__init__", timed)
    monkeypatch.setattr(Follow, "refusal", slow)
    return judged


async def test_the_budget_ends_the_judging_of_a_huge_sitemap(
    site: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    listed = "".join(f"<url><loc>{site.url(f'/guide/listed/{n}')}</loc></url>" for n in range(3000))
    site.add("/sitemap.xml", f"<urlset>{listed}</urlset>", headers={"Content-Type": "application/xml"})
    judged = held_past(4.0, monkeypatch, "/guide/listed/")
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        # the extractor ready: on a loaded machine its start took the budget before the sitemap came
        assert (await ferret.fetch(site.url("/article"))).ok
        fetch = ferret.fetch_options().with_(budget=4.0)
        result = await crawl(
            ferret, site.url("/guide/intro"), CrawlOptions(depth=1, sitemap=True), fetch=fetch
        )
    assert result.sitemap_urls == 3000
    sitemap_judged = sum("/guide/listed/" in url for url in judged)
    assert sitemap_judged == 1  # once the budget is spent, the other 2,999 are not judged: counted
    assert result.not_followed["budget"] >= 2999
    assert [p.url for p in result.pages] == [site.url("/guide/intro")]


async def test_a_robots_txt_redirected_where_the_guard_refuses_does_not_end_the_crawl(site: SimWeb) -> None:
    """A robots.txt redirected to a URL the guard refuses (another scheme, a private address): asking
    it for the crawl delay once the start was read raised that refusal, and the whole crawl failed
    with it, the pages it had read unanswered. The site answered and its file cannot be read: it is
    unreachable (RFC 9309: every path disallowed), and `robots_unread` says where it led."""
    site.add("/robots.txt", "", status=301, headers={"Location": "ftp://127.0.0.1/robots.txt"})
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/guide/intro"), CrawlOptions(depth=1))
    read = [page.url.removeprefix(site.base) for page in result.pages if page.ok]
    assert read == ["/guide/intro"] and result.crawl_delay is None and result.not_followed["robots"]
    assert "ftp://127.0.0.1/robots.txt" in (result.robots_unread or ""), result.robots_unread


async def test_a_robots_txt_redirected_to_a_private_address_keeps_the_crawl_off_the_site(
    site: SimWeb,
) -> None:
    """A robots.txt redirected to a private address (127.0.0.2; 127.0.0.1 alone allowed): the crawl
    read every page as if robots.txt allowed them all, and said nothing of it."""
    port = site.base.rsplit(":", 1)[1]
    site.add("/robots.txt", "", status=302, headers={"Location": f"http://127.0.0.2:{port}/robots.txt"})
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, site.url("/guide/intro"), CrawlOptions(depth=1))
    assert [page.url for page in result.pages] == [site.url("/guide/intro")]
    assert "127.0.0.2" in (result.robots_unread or ""), result.robots_unread


async def test_the_budget_ends_the_judging_of_a_pages_links(
    site: SimWeb, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A level of 1,000 pages of 1,000 links each holds a million links to judge (seconds past the
    budget, the crawl deaf to Ctrl-C meanwhile): they were judged whatever the budget left, though
    none of them could be followed then."""
    many = [f"/guide/many/{n}" for n in range(300)]
    site.add("/guide/many", page("Many", *many), headers=HTML)
    judged = held_past(4.0, monkeypatch, "/guide/many/")
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        assert (await ferret.fetch(site.url("/article"))).ok  # the extractor ready (see the sitemap's)
        fetch = ferret.fetch_options().with_(budget=4.0)
        result = await crawl(ferret, site.url("/guide/many"), CrawlOptions(depth=1), fetch=fetch)
    assert sum("/guide/many/" in url for url in judged) == 1  # the others, counted, not judged
    assert result.not_followed["budget"] >= len(many) - 1
    assert [p.url for p in result.pages] == [site.url("/guide/many")]


def _asking_to_wait(simweb: SimWeb, folder: str, status: int, n: int) -> list[str]:
    """`folder`/start linking to `n` pages, each answered `status` with a Retry-After of an hour."""
    paths = [f"{folder}/{number}" for number in range(n)]
    simweb.add(f"{folder}/start", page("Start", *paths), headers=HTML)
    for path in paths:
        simweb.add(path, "not now", status=status, headers={"Retry-After": "3600"})
    return paths


async def test_a_site_that_asked_to_wait_is_not_asked_again_by_the_crawl(simweb: SimWeb) -> None:
    """A page answered 429 with a Retry-After of an hour: the crawl asked the site its other pages
    all the same, at once, each answered 429 again. They are not asked now: each fails saying why."""
    busy = _asking_to_wait(simweb, "/busy", 429, 6)
    async with Ferret(allow_hosts=["127.0.0.1"], per_host_concurrency=1) as ferret:
        result = await crawl(ferret, simweb.url("/busy/start"), CrawlOptions(depth=1))
        again = await ferret.fetch(simweb.url("/busy/1"))  # a fetch of its own is the caller's ask
    assert simweb.served(*busy) == 2
    failed = result.pages[1:]
    assert [p.error.code if p.error else None for p in failed] == [ErrorCode.RATE_LIMITED] * len(busy)
    said = [p.error.message for p in failed[1:] if p.error]
    assert all(m.startswith(f"not asked: the site answered {simweb.url('/busy/0')} HTTP 429") for m in said)
    assert all(p.error and p.error.retry_after and p.error.retry_after > 3500 for p in failed)
    assert again.error is not None and again.error.code == ErrorCode.RATE_LIMITED


async def test_a_site_down_for_maintenance_is_not_asked_again_by_the_crawl(simweb: SimWeb) -> None:
    """A 503 with a Retry-After (a site down for maintenance, for an hour) asked the crawl to wait as
    a 429 does, and the crawl asked its other pages all the same, each answered 503 again."""
    down = _asking_to_wait(simweb, "/down", 503, 5)
    async with Ferret(allow_hosts=["127.0.0.1"], per_host_concurrency=1) as ferret:
        result = await crawl(ferret, simweb.url("/down/start"), CrawlOptions(depth=1))
    assert simweb.served(*down) == 1
    failed = [p.error for p in result.pages[1:] if p.error]
    assert len(failed) == len(down) and {(e.code, e.status) for e in failed} == {(ErrorCode.HTTP_ERROR, 503)}
    assert all(
        e.message.startswith(f"not asked: the site answered {simweb.url('/down/0')} HTTP 503")
        for e in failed[1:]
    )
    assert all(e.retry_after and e.retry_after > 3500 for e in failed)


async def test_a_crawl_delay_is_not_waited_before_pages_of_a_site_that_asked_to_wait(simweb: SimWeb) -> None:
    """With a Crawl-delay, each page of a site that answered 429 with an hour's Retry-After waited
    the delay before failing at once, unasked: the budget went by in pauses before no request."""
    simweb.add("/robots.txt", "User-agent: *\nCrawl-delay: 1\n", headers={"Content-Type": "text/plain"})
    busy = [f"/held/{n}" for n in range(6)]
    simweb.add("/held/start", page("Start", *busy), headers=HTML)
    for path in busy:
        simweb.add(path, "slow down", status=429, headers={"Retry-After": "3600"})
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        assert (await ferret.fetch(simweb.url("/article"))).ok  # the extractor ready
        fetch = ferret.fetch_options(budget=4)  # the start, a pause, the 429: 2 pauses left at most
        result = await crawl(ferret, simweb.url("/held/start"), CrawlOptions(depth=1), fetch=fetch)
    assert result.crawl_delay == 1 and simweb.served(*busy) == 1
    assert [p.error.code if p.error else None for p in result.pages[1:]] == [ErrorCode.RATE_LIMITED] * 6
    assert "budget" not in result.not_followed


async def test_a_page_linked_over_http_and_https_is_read_once(site: SimWeb) -> None:
    """The scope takes http and https alike, and a site's links and sitemaps mix the two (an old page's
    absolute http:// links, a sitemap's https:// URLs): each was followed as another page, read twice
    (or once more through a redirect)."""
    secure = site.base.replace("http://", "https://")
    site.add(
        "/guide/mixed",
        page("Mixed", "/guide/dig", f"{secure}/guide/dig", f"{secure}/guide/swim"),
        headers=HTML,
    )
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        # (no robots.txt: the simulated web's https is no server, and its robots.txt unreachable)
        result = await crawl(ferret, site.url("/guide/mixed"), CrawlOptions(depth=1, robots=False))
    urls = [p.url.removeprefix(site.base) for p in result.pages]
    assert urls == ["/guide/mixed", "/guide/dig", f"{secure}/guide/swim"]  # swim: no other way to it


async def test_a_short_wait_a_site_asked_for_is_waited_out_not_failed(simweb: SimWeb) -> None:
    """A 429 asking for a second (within `retry_after_max`, as its own retry waits): the site's next
    page waits out what is left of it and is read, not failed unasked."""
    simweb.add("/short/start", page("Start", "/short/busy", "/short/next"), headers=HTML)
    simweb.add("/short/busy", "slow down", status=429, headers={"Retry-After": "1"})
    simweb.add("/short/next", page("Next"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"], per_host_concurrency=1) as ferret:
        result = await crawl(ferret, simweb.url("/short/start"), CrawlOptions(depth=1))
    codes = {p.url.removeprefix(simweb.base): p.error.code if p.error else None for p in result.pages}
    assert codes == {"/short/start": None, "/short/busy": ErrorCode.RATE_LIMITED, "/short/next": None}


async def test_the_links_of_a_page_past_those_looked_at_are_counted(simweb: SimWeb) -> None:
    """An index of 1,050 links: the crawl looks at 1,000 of a page, and the other 50 were counted
    nowhere, as if the page had none."""
    simweb.add("/index/all", page("All", *(f"/index/{n}" for n in range(1050))), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/index/all"), CrawlOptions(depth=0))
    assert result.not_followed == {"past_depth": 1000, "past_link_cap": 50}


async def test_a_stored_pages_links_past_those_looked_at_are_counted(simweb: SimWeb) -> None:
    """The same index read by a map first (which keeps up to 5,000 of a page's links in the store):
    the crawl, answered from the store, was handed the first 1,000 and told nothing of the other
    50, so `past_link_cap` was missing."""
    from webferret.site_map import MapOptions

    simweb.add("/kept/all", page("All", *(f"/kept/{n}" for n in range(1050))), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        await ferret.map_site(simweb.url("/kept/all"), MapOptions(limit=10, robots=False, sitemap=False))
        result = await crawl(ferret, simweb.url("/kept/all"), CrawlOptions(depth=0))
    assert simweb.served("/kept/all") == 1  # the crawl's reading came from the store
    assert result.not_followed == {"past_depth": 1000, "past_link_cap": 50}


@pytest.mark.parametrize("command", ["crawl", "map"])
def test_a_damaged_robots_file_is_a_lost_cache_not_a_failed_call(
    site: SimWeb, webferret_home: Path, capsys: pytest.CaptureFixture[str], command: str
) -> None:
    """The robots.txt answers a home keeps (`robots.sqlite`) are a cache: a file SQLite cannot read
    ended the crawl or the map as an `internal` error after its first page; robots.txt is asked of
    the site instead, and still obeyed."""
    webferret_home.mkdir(parents=True, exist_ok=True)
    (webferret_home / "robots.sqlite").write_bytes(b"not a database" * 100)
    code = main([command, site.url("/guide/intro"), "--json", *ALLOW])
    envelope = json.loads(capsys.readouterr().out)
    assert code == 0 and envelope["ok"], envelope
    if command == "crawl":
        read = [p["url"] for p in envelope["data"]["pages"] if p["ok"]]
        assert site.url("/guide/dig") in read and site.url("/guide/private/notes") not in read
    assert envelope["data"]["not_followed" if command == "crawl" else "not_listed"]["robots"] == 1


def test_pages_the_store_did_not_keep_are_said_to_be_unstored(
    site: SimWeb, webferret_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """A crawl into a store SQLite cannot use reads its pages, but none is kept: the list showed each
    with a handle of `-` and nothing said why (nor that `open` and `find` would not know them), and
    `--json` dropped the page's `store_error`."""
    webferret_home.mkdir(parents=True, exist_ok=True)
    (webferret_home / "store.sqlite3").write_bytes(b"not a database" * 100)
    code = main(["crawl", site.url("/guide/intro"), "--depth", "1", *ALLOW])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("0  not stored  "), out
    said = "3 pages were read but not kept in the page store (open and find do not know them): cannot use"
    assert said in out and "file is not a database" in out and "read one:" not in out
    main(["crawl", site.url("/guide/intro"), "--depth", "1", "--json", *ALLOW])
    envelope = json.loads(capsys.readouterr().out)
    fits(envelope["data"], "crawl")
    read = [page for page in envelope["data"]["pages"] if page["ok"]]
    assert read and all(page["handle"] is None and "not a database" in page["store_error"] for page in read)
    main(["crawl", site.url("/guide/intro"), "--depth", "1", "--agent", *ALLOW])
    agent = capsys.readouterr().out
    assert "(open and find do not know them)" in agent and "Read a page with" not in agent


async def test_room_a_link_took_without_a_page_is_given_to_the_next_link(simweb: SimWeb) -> None:
    """A link that led to a page another link read (an alias redirected to it) took a place of
    `limit` and listed no page: the crawl ended a page short while links were left over as
    `past_limit`. The next links of the level take such places."""
    simweb.add("/lim/start", page("Start", "/lim/b", "/lim/alias", "/lim/c", "/lim/d"), headers=HTML)
    simweb.add("/lim/alias", "", status=301, headers={"Location": "/lim/b"})
    for name in "bcd":
        simweb.add(f"/lim/{name}", page(name.upper()), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/lim/start"), CrawlOptions(depth=1, limit=3))
    assert [p.url.removeprefix(simweb.base) for p in result.pages] == ["/lim/start", "/lim/b", "/lim/c"]
    assert result.not_followed == {"same_page": 1, "past_limit": 1}


async def test_a_path_is_judged_however_its_letters_are_written(simweb: SimWeb) -> None:
    """A page's link written in its letters (`/bücher/b`) was out of a scope written
    percent-encoded (`/b%C3%BCcher/`, as a start's final URL is), and the other way round, and a
    glob in letters (`/bücher/[ab]*`) matched no link written encoded: every rule judges a path
    percent-encoded one way, as a client requests it."""
    links = ("/bücher/a", "/b%C3%BCcher/b", "/b%c3%bccher/c", "/bücher/d", "/andere/e")
    simweb.add("/b%C3%BCcher/", page("Bücher", *links), headers=HTML)
    for name in "abcde":
        path = "/andere/e" if name == "e" else f"/b%C3%BCcher/{name}"
        simweb.add(path, page(name.upper()), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        options = CrawlOptions(depth=1, exclude=("/bücher/[cd]*",))
        result = await crawl(ferret, simweb.url("/bücher/"), options)
    assert [p.title for p in result.pages] == ["Bücher", "A", "B"]
    assert result.not_followed == {"excluded": 2, "out_of_scope": 1}


async def test_a_session_id_in_every_link_is_no_new_page(simweb: SimWeb) -> None:
    """A site that writes a new session id into each link (PHP's `PHPSESSID`, a servlet's
    `;jsessionid=`, for a client without cookies) made every link a new URL: the crawl read the same
    pages again until its limit. The id is no part of the page's address now."""
    simweb.add("/ss/", page("Index", "/ss/a?PHPSESSID=1f2e", "/ss/b;jsessionid=9C0D"), headers=HTML)
    simweb.add("/ss/a", page("A", "/ss/b;jsessionid=77AA", "/ss/?PHPSESSID=5b6c"), headers=HTML)
    for session in ("9C0D", "77AA"):
        simweb.add(f"/ss/b;jsessionid={session}", page("B", "/ss/a?PHPSESSID=aa01&lang=en"), headers=HTML)
    simweb.add("/ss/a?lang=en", page("A in English"), headers=HTML)  # (routed as /ss/a: the query aside)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/ss/"), CrawlOptions(depth=5, limit=20))
    titles = [p.title for p in result.pages]
    assert sorted(titles) == ["A", "A", "B", "Index"]  # /ss/a and /ss/a?lang=en: two pages
    assert simweb.served("/ss/b;jsessionid=9C0D", "/ss/b;jsessionid=77AA") == 1
    assert simweb.served("/ss/") == 1


def test_a_start_pasted_with_spaces_around_it_is_the_page(
    site: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    pasted = f"  {site.url('/guide/intro')}\n"
    assert main(["crawl", pasted, "--depth", "1", "--jsonl", *ALLOW]) == 0  # each page as it is read
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert lines[0]["url"] == site.url("/guide/intro") and lines[0]["meta"]["crawl"]["depth"] == 0
    assert main(["map", pasted, "--json", *ALLOW]) == 0
    assert json.loads(capsys.readouterr().out)["data"]["start"] == site.url("/guide/intro")


def test_a_scope_pasted_with_spaces_around_it_is_the_scope(
    site: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """The start was taken without the spaces around it, the scope as given: an indented `--scope`
    was a prefix no link has, so the crawl followed none, and the map listed none, answering 0."""
    pasted = f"  {site.url('/guide/')}\n"
    assert main(["crawl", site.url("/guide/intro"), "--scope", pasted, "--json", *ALLOW]) == 0
    crawled = json.loads(capsys.readouterr().out)["data"]
    assert crawled["scope"] == site.url("/guide/")
    assert {page["url"] for page in crawled["pages"]} >= {site.url("/guide/dig"), site.url("/guide/swim")}
    assert main(["map", site.url("/guide/intro"), "--scope", pasted, "--no-sitemap", "--json", *ALLOW]) == 0
    mapped = json.loads(capsys.readouterr().out)["data"]
    assert mapped["scope"] == site.url("/guide/")
    assert site.url("/guide/dig") in {listed["url"] for listed in mapped["urls"]}
