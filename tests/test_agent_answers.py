"""What the agent faces answer holds no more than they say: the structured content of an outline or a
diff is what its text shows, and pages the domain lists refuse are left out before the best or newest
are taken (a listing or a search of stored pages is not emptied by refused ones)."""

from __future__ import annotations

from pathlib import Path

import pytest
from simweb import SimWeb
from storeweb import Doc, Web, article, loopback_ferret

from webferret.mcp_tools import WebOpenArgs
from webferret.models import Page
from webferret.store.pages import PageStore


async def test_the_agent_face_s_structured_diff_and_outline_hold_what_its_text_shows(
    web: Web, tmp_path: Path
) -> None:
    """A client that forwards the structured content to the model gets no more than the text."""
    from webferret.mcp_tools import AgentTools
    from webferret.present.agent import OUTLINE_HEADINGS

    sections = "".join(f"<h2>Part {i}</h2><p>Part {i} says {i} ferrets sleep.</p>" for i in range(300))
    web.docs["/big"] = Doc(article("Many parts", sections))
    async with loopback_ferret(tmp_path, respect_robots=False) as ferret:
        tools = AgentTools(ferret, ferret.settings)
        await ferret.fetch(web.url("/big"))
        web.docs["/big"] = Doc(article("Many parts", sections.replace("ferrets sleep", "ferrets dig")))
        page = await ferret.fetch(web.url("/big"), fresh=True)
        diff = await tools.web_open(WebOpenArgs(handle=page.handle, diff=True, max_tokens=100))
        outline = await tools.web_open(WebOpenArgs(handle=page.handle, outline=True))
        whole = await ferret.outline(str(page.handle))
    shown = diff.data["diff"].split("\n")
    assert diff.data["diff_lines"] > len(shown) > 0 and shown[-1] in diff.text
    assert "The diff is cut after 100 tokens" in diff.text
    assert outline.data["headings_total"] == len(whole.headings) > OUTLINE_HEADINGS
    assert len(outline.data["headings"]) <= OUTLINE_HEADINGS
    assert all(heading["title"] in outline.text for heading in outline.data["headings"])


async def test_a_diff_shows_a_change_in_a_line_longer_than_max_tokens(web: Web, tmp_path: Path) -> None:
    """A page's text on one long line (a long paragraph, a text without breaks) changed in one word:
    `web_open(handle, diff=true)` showed its `@@` line and nothing more, 'more max_tokens shows them',
    though no max_tokens could (the line removed and the line added were 18,000 tokens each); the
    structured content held the whole diff. The two lines are shown cut to the words that differ."""
    from webferret.mcp_tools import AgentTools

    words = [f"w{number:04d}" for number in range(3000)]
    web.docs["/one"] = Doc(article("One line", f"<p>{' '.join(words)}</p>"))
    async with loopback_ferret(tmp_path, respect_robots=False) as ferret:
        tools = AgentTools(ferret, ferret.settings)
        await ferret.fetch(web.url("/one"))
        web.docs["/one"] = Doc(article("One line", f"<p>{' '.join(words).replace('w1500', 'FERRET')}</p>"))
        page = await ferret.fetch(web.url("/one"), fresh=True)
        diff = await tools.web_open(WebOpenArgs(handle=page.handle, diff=True, max_tokens=300))
    shown = diff.data["diff"].split("\n")
    removed = next((line for line in shown if line.startswith("-")), "")
    added = next((line for line in shown if line.startswith("+")), "")
    assert "w1499 w1500 w1501" in removed and "w1499 FERRET w1501" in added
    assert removed.startswith("-… ") and added.endswith(" …") and "w0000" not in diff.text
    assert added in diff.text and "The diff is cut" not in diff.text
    assert diff.data["diff_lines"] == len(shown)


async def test_web_fetch_s_structured_content_holds_a_repeated_page_once(web: Web, tmp_path: Path) -> None:
    """A URL asked twice, under another spelling, or a near copy of another page of the call is one
    line of the text ('the same page as above'), but the structured content held its text (and links)
    again each time: eight spellings of one long page were eight times its first page."""
    from webferret.mcp_tools import AgentTools, WebFetchArgs

    words = 'Ferrets sleep fourteen hours a day, says QX7. <a href="/b">More</a>.'
    web.docs["/a"] = web.docs["/copy"] = Doc(article("Ferrets", words))
    urls = [web.url("/a"), web.url("/a") + "#top", web.url("/copy"), web.url("/a")]
    async with loopback_ferret(tmp_path, respect_robots=False) as ferret:
        tools = AgentTools(ferret, ferret.settings)
        answer = await tools.web_fetch(WebFetchArgs(urls=urls, links=True))
    pages = answer.data["pages"]
    assert "QX7" in pages[0]["content"] and pages[0]["links"]
    assert answer.text.count("QX7") == pages[0]["content"].count("QX7")
    assert answer.text.count("the same page as above") == 2 and "a near copy of the page" in answer.text
    for repeat in pages[1:]:
        assert repeat["ok"] and repeat["content"] == "" and not repeat["links"]


async def test_the_lists_leave_refused_pages_out_before_the_best_or_newest_are_taken(tmp_path: Path) -> None:
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_tools import AgentTools

    store = PageStore.in_home(tmp_path)
    store.put(Page(url="https://a.example/kept", ok=True, title="Kept", content="One ferret naps here."))
    for number in range(40):  # newer, and better matches, all on a refused domain
        words = "Ferret ferret ferret ferrets everywhere. " * 5
        store.put(Page(url=f"https://b.example/{number}", ok=True, title=f"B {number}", content=words))
    store.close()
    settings = load_settings(home=tmp_path, allowed_domains=["a.example"])
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        listed = await tools.web_open(WebOpenArgs())
        found = await tools.web_open(WebOpenArgs(search="ferret"))
    assert [page["url"] for page in listed.data["pages"]] == ["https://a.example/kept"]
    assert listed.data["total"] == 1
    assert [passage["url"] for passage in found.data["passages"]] == ["https://a.example/kept"]


async def test_a_crawl_or_map_start_that_is_no_url_is_said_to_be_so_not_a_bad_scope(tmp_path: Path) -> None:
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_tools import AgentTools, WebCrawlArgs, WebMapArgs
    from webferret.models import FerretError

    settings = load_settings(home=tmp_path)
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        for start, code in (("not a url", "invalid_url"), ("ftp://x/", "unsupported_scheme")):
            for call in (tools.web_crawl(WebCrawlArgs(url=start)), tools.web_map(WebMapArgs(url=start))):
                try:
                    await call
                except FerretError as refused:
                    assert refused.code == code and "scope" not in refused.message, refused.message
                else:
                    raise AssertionError(f"{start} was not refused")


async def test_the_passages_of_a_search_come_ten_a_page(tmp_path: Path) -> None:
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_tools import AgentTools

    store = PageStore.in_home(tmp_path)
    for number in range(25):
        text = f"Note {number}: a ferret named Number{number} naps. " + "Filler words of the note. " * 30
        store.put(Page(url=f"https://a.example/{number}", ok=True, title=f"Note {number}", content=text))
    store.close()
    settings = load_settings(home=tmp_path)
    async with Ferret(settings) as ferret:
        tools = AgentTools(ferret, settings)
        pages = [await tools.web_open(WebOpenArgs(search="ferret naps", page=page)) for page in (1, 2, 3, 4)]
    urls = [[passage["url"] for passage in answer.data["passages"]] for answer in pages]
    assert [len(shown) for shown in urls] == [10, 10, 5, 0]
    assert len({url for shown in urls for url in shown}) == 25  # no passage twice
    assert (
        pages[0].data["next"] == 'web_open(search="ferret naps", page=2)'
        and pages[0].data["next"] in pages[0].text
    )
    assert pages[2].data["next"] is None and "past the last of the 25 passages" in pages[3].text


async def test_a_redirect_to_another_origin_of_the_host_reads_its_robots_txt_past_the_host_cap(
    tmp_path: Path,
) -> None:
    """Pages of one host that hold every per-host slot, each led to another origin of that host
    (http to https, another port), wait for that origin's robots.txt: it is read outside the cap."""
    from tiers_web import serve

    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_tools import AgentTools, WebFetchArgs

    body = "<html><head><title>Moved</title></head><body><article><p>" + "Ferrets moved here. " * 40
    with serve() as first, serve() as second:
        for name in ("a", "b"):
            first.page(f"/{name}", "", status=302, location=f"{second.base}/{name}")
            second.page(f"/{name}", body + "</p></article></body></html>")
        second.page("/robots.txt", "User-agent: *\nDisallow: /private\n", content_type="text/plain")
        settings = load_settings(home=tmp_path, allow_hosts=["127.0.0.1"], per_host_concurrency=1, timeout=8)
        async with Ferret(settings) as ferret:
            tools = AgentTools(ferret, settings)
            answer = await tools.web_fetch(WebFetchArgs(urls=[f"{first.base}/a", f"{first.base}/b"]))
    assert [page["ok"] for page in answer.data["pages"]] == [True, True]
    assert [hit.path for hit in second.hits].count("/robots.txt") == 1


async def test_a_long_page_s_structured_content_names_the_tool_calls_its_text_names(
    web: Web, tmp_path: Path
) -> None:
    """`next` and `outline` of a first page are `web_open` calls at the page size asked, as the text
    says: an agent reading the structured content has no CLI to run `webferret open --outline`."""
    from webferret.mcp_tools import AgentTools, WebFetchArgs

    sections = "".join(
        f"<h2>Part {i}</h2><p>Part {i} says {i} ferrets sleep all day long.</p>" for i in range(40)
    )
    web.docs["/parts"] = Doc(article("Many parts", sections))
    async with loopback_ferret(tmp_path, respect_robots=False) as ferret:
        tools = AgentTools(ferret, ferret.settings)
        fetched = await tools.web_fetch(WebFetchArgs(urls=[web.url("/parts")], max_tokens=100))
        (entry,) = fetched.data["pages"]
        opened = await tools.web_open(WebOpenArgs(handle=entry["handle"], max_tokens=100))
    handle = entry["handle"]
    outline = f'web_open(handle="{handle}", outline=true, max_tokens=100)'
    for data, text in ((entry, fetched.text), (opened.data, opened.text)):
        assert data["pages"] >= 3
        assert data["next"] == f'web_open(handle="{handle}", page=2, max_tokens=100)' and data["next"] in text
        assert data["outline"] == outline and outline in text


async def test_a_map_whose_start_fails_and_that_lists_nothing_is_a_tool_error(
    tmp_path: Path, simweb: SimWeb
) -> None:
    """As the CLI's `map` fails (exit 1) and `web_crawl` that read no page is a tool error: it was an
    ok answer of 0 URLs."""
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.mcp_tools import AgentTools, WebMapArgs
    from webferret.models import FerretError

    simweb.add("/gone", "<p>gone</p>", status=404)
    settings = load_settings(home=tmp_path, allow_hosts=["127.0.0.1"])
    async with Ferret(settings) as ferret:
        with pytest.raises(FerretError) as failed:
            await AgentTools(ferret, settings).web_map(WebMapArgs(url=simweb.url("/gone")))
        with pytest.raises(FerretError) as unasked:
            await AgentTools(ferret, settings).web_map(WebMapArgs(url=simweb.url("/gone"), sitemap=False))
    assert failed.value.code == "http_error" and "no sitemap listed a URL" in failed.value.message
    assert "sitemaps were not asked (sitemap: false)" in unasked.value.message  # not that none listed one


async def test_a_passage_page_past_the_cap_says_it_is_the_cap(tmp_path: Path) -> None:
    """Past the last page of a search that filled `MAX_PASSAGES`, the count said was the cap, as if
    that many had matched."""
    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.limits import MAX_PASSAGES
    from webferret.mcp_tools import PASSAGES, AgentTools

    store = PageStore.in_home(tmp_path)
    for number in range(MAX_PASSAGES + 20):
        store.put(
            Page(url=f"https://a.example/{number}", ok=True, content=f"Ferret {number} naps in a tunnel.")
        )
    store.close()
    settings = load_settings(home=tmp_path)
    async with Ferret(settings) as ferret:
        past = MAX_PASSAGES // PASSAGES + 1
        answer = await AgentTools(ferret, settings).web_open(WebOpenArgs(search="ferret naps", page=past))
    assert answer.data["passages"] == []
    assert f"its best {MAX_PASSAGES} passages (pages 1-{past - 1})" in answer.text


async def test_a_listing_waits_no_longer_for_a_robots_txt_that_does_not_answer(
    simweb: SimWeb, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A listing or search of stored pages asks their sites' robots.txt; one a site no longer answers
    held the call for its whole time-out (a 10 s wait each call, here made a minute): it is waited for
    `STORED_ROBOTS_WAIT` at most, then read as unread (it refuses nothing)."""
    import asyncio
    import threading

    from webferret.config import load_settings
    from webferret.ferret import Ferret
    from webferret.fetch import robots_cache
    from webferret.mcp_tools import AgentTools

    released = threading.Event()
    simweb.add("/robots.txt", stream=lambda handler, web: released.wait(60))
    monkeypatch.setattr(robots_cache, "ROBOTS_TIMEOUT", 60.0)
    store = PageStore.in_home(tmp_path)
    store.put(Page(url=simweb.url("/held-robots/page"), ok=True, title="Kept", content="A ferret naps."))
    store.close()
    settings = load_settings(home=tmp_path, allow_hosts=["127.0.0.1"], timeout=60)
    try:
        async with Ferret(settings) as ferret:
            tools = AgentTools(ferret, settings)
            listed = await asyncio.wait_for(tools.web_open(WebOpenArgs()), 30)
            found = await asyncio.wait_for(tools.web_open(WebOpenArgs(search="ferret")), 30)
            released.set()
    finally:
        released.set()
    assert [page["title"] for page in listed.data["pages"]] == ["Kept"]
    assert [passage["title"] for passage in found.data["passages"]] == ["Kept"]
