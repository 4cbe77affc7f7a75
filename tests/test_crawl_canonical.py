"""A crawl reads a page once however the site writes its URL: `<link rel="canonical">` and a
folder's index document, on the simulated web."""

from __future__ import annotations

from chromium import CHROMIUM, needs_chromium
from simweb import SimWeb

from webferret.crawl_rules import page_key
from webferret.crawler import CrawlOptions, crawl
from webferret.ferret import Ferret
from webferret.models import Page

HTML = {"Content-Type": "text/html"}


def page(title: str, *links: str, canonical: str = "") -> str:
    menu = "".join(f"<a href='{href}'>{href}</a> " for href in links)
    stated = f"<link rel='canonical' href='{canonical}'>" if canonical else ""
    text = f"{title} tells how ferrets {title.lower()} in the burrows. " * 8
    return (
        f"<html><head><title>{title}</title>{stated}</head><body><nav>{menu}</nav>"
        f"<article><h1>{title}</h1><p>{text}</p></article></body></html>"
    )


def test_a_folders_index_document_is_the_folder() -> None:
    assert page_key("http://x.org/docs/index.html") == page_key("https://x.org/docs/")
    assert page_key("https://x.org/index.php?a=1") == page_key("https://x.org/?a=1")
    assert page_key("https://x.org/docs/myindex.html") != page_key("https://x.org/docs/")


async def test_a_page_the_site_names_two_ways_is_read_once(simweb: SimWeb) -> None:
    simweb.add(
        "/canon/start",
        page(
            "Start",
            "/canon/print",  # says it is /canon/page
            "/canon/other",
            "/canon/dir/",
            "/canon/dir/index.html",  # the folder's page, named by its file
            "/canon/list",
            "/canon/list-2",  # names /canon/list canonical, but is another page of the list
            "/canon/copy",  # /canon/other's text, naming it canonical
        ),
        headers=HTML,
    )
    simweb.add("/canon/print", page("Page", canonical=simweb.url("/canon/page")), headers=HTML)
    simweb.add("/canon/page", page("Page"), headers=HTML)
    simweb.add("/canon/other", page("Other", "/canon/page"), headers=HTML)
    simweb.add("/canon/copy", page("Other", "/canon/page", canonical="/canon/other"), headers=HTML)
    simweb.add("/canon/dir/", page("Folder"), headers=HTML)
    simweb.add("/canon/dir/index.html", page("Folder"), headers=HTML)
    simweb.add("/canon/list", page("List one"), headers=HTML)
    simweb.add("/canon/list-2", page("List two", canonical="/canon/list"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/canon/start"), CrawlOptions(depth=2))
    read = [p.url.removeprefix(simweb.base) for p in result.pages]
    assert read == [
        "/canon/start",
        "/canon/print",
        "/canon/other",
        "/canon/dir/",
        "/canon/list",
        "/canon/list-2",
    ]
    assert result.not_followed.get("same_page") == 1  # the copy of /canon/other
    assert simweb.served("/canon/dir/index.html", "/canon/page") == 0  # /canon/other's link: read as print


async def test_links_redirecting_to_one_page_at_once_request_it_once(simweb: SimWeb) -> None:
    olds = [f"/moved/old-{n}" for n in range(4)]
    simweb.add("/moved/start", page("Start", *olds), headers=HTML)
    for old in olds:
        simweb.add(old, status=301, headers={"Location": "/moved/new"})
    simweb.add("/moved/new", page("New"), headers=HTML, delay=0.2)  # slow: every link is led there at once
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/moved/start"), CrawlOptions(depth=1))
    assert [p.final_url for p in result.pages] == [simweb.url("/moved/start"), simweb.url("/moved/new")]
    assert result.not_followed == {"same_page": 3}
    assert simweb.served("/moved/new") == 1


@needs_chromium
async def test_a_browsers_hops_are_its_own_fetchs(simweb: SimWeb) -> None:
    olds = [f"/bmoved/old-{n}" for n in range(2)]
    simweb.add("/bmoved/start", page("Start", *olds), headers=HTML)
    for old in olds:
        simweb.add(old, status=302, headers={"Location": "/bmoved/step"})
    script = "<html><body><script>location.replace('/bmoved/new')</script></body></html>"
    simweb.add("/bmoved/step", script, headers=HTML)  # a script's hop too, the guard's to admit
    simweb.add("/bmoved/new", page("New"), headers=HTML)
    browser = {"chromium_path": CHROMIUM, "browser_no_sandbox": True}
    async with Ferret(allow_hosts=["127.0.0.1"], **browser) as ferret:
        opts = ferret.fetch_options(tier="browser", timeout=20)
        result = await crawl(ferret, simweb.url("/bmoved/start"), CrawlOptions(depth=1), fetch=opts)
    assert [(p.ok, p.final_url) for p in result.pages] == [
        (True, simweb.url("/bmoved/start")),
        (True, simweb.url("/bmoved/new")),
    ]
    assert result.not_followed == {"same_page": 1}


async def test_a_link_redirecting_to_another_links_page_of_its_level_does_not_request_it(
    simweb: SimWeb,
) -> None:
    simweb.add("/moved2/start", page("Start", "/moved2/old", "/moved2/new"), headers=HTML)
    simweb.add("/moved2/old", status=301, headers={"Location": "/moved2/new"})
    simweb.add("/moved2/new", page("New"), headers=HTML)
    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/moved2/start"), CrawlOptions(depth=1))
    assert [p.url for p in result.pages] == [simweb.url("/moved2/start"), simweb.url("/moved2/new")]
    assert result.not_followed == {"same_page": 1} and simweb.served("/moved2/new") == 1


async def test_a_page_naming_another_canonical_does_not_hide_it(simweb: SimWeb) -> None:
    simweb.add(
        "/named/start", page("Start", "/named/list-2", "/named/a", "/named/b", "/named/list"), headers=HTML
    )
    simweb.add("/named/list-2", page("List two", canonical="/named/list"), headers=HTML)
    simweb.add("/named/list", page("List one"), headers=HTML, delay=0.3)  # read after its page 2
    simweb.add("/named/a", page("A", canonical="/named/b"), headers=HTML)  # each names the other
    simweb.add("/named/b", page("B", canonical="/named/a"), headers=HTML)
    written: list[str] = []

    async def on_read(read: Page) -> None:
        written.append(read.url.removeprefix(simweb.base))

    async with Ferret(allow_hosts=["127.0.0.1"]) as ferret:
        result = await crawl(ferret, simweb.url("/named/start"), CrawlOptions(depth=1), on_read=on_read)
    listed = [p.url.removeprefix(simweb.base) for p in result.pages]
    assert listed == ["/named/start", "/named/list-2", "/named/a", "/named/b", "/named/list"]
    assert sorted(written) == sorted(listed) and "same_page" not in result.not_followed
