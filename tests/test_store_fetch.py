"""Freshness, revalidation and dedup end to end: Ferret against a real HTTP server on 127.0.0.1."""

from __future__ import annotations

import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from simweb import SimWeb, article_html
from storeweb import Doc, Web, article, loopback_ferret

from webferret.ferret import Ferret
from webferret.models import ErrorCode, FerretError


@pytest.fixture
async def ferret(tmp_path: Path) -> AsyncIterator[Ferret]:
    async with loopback_ferret(tmp_path) as session:
        yield session


async def test_fresh_page_comes_from_the_store_without_a_request(web: Web, ferret: Ferret) -> None:
    web.docs["/a"] = Doc(article("Ferrets", "Ferrets sleep a lot."), etag='"a1"')
    first = await ferret.fetch(web.url("/a"))
    assert first.ok and first.fetched_via == "http"
    assert first.handle and first.handle.startswith("127.0.0.1~") and first.tokens
    second = await ferret.fetch(web.url("/a"))
    assert second.fetched_via == "store"
    assert second.content == first.content and second.handle == first.handle
    assert web.hits("/a") == 1


async def test_a_fragment_is_not_the_pages_url(web: Web, ferret: Ferret) -> None:
    """A fetch of `/f#section-2` keeps its asked URL, but the page's `final_url` has no fragment, so
    the next reader of `/f` (served from the store) is not sent to another reader's place."""
    web.docs["/f"] = Doc(article("Fragments", "A fragment names a place in a page."))
    first = await ferret.fetch(web.url("/f") + "#section-2")
    later = await ferret.fetch(web.url("/f"))
    assert first.url == web.url("/f") + "#section-2" and first.final_url == web.url("/f")
    assert later.fetched_via == "store" and later.final_url == web.url("/f")


async def test_a_url_in_its_letters_or_percent_encoded_is_one_page(web: Web, ferret: Ferret) -> None:
    """A browser shows `/café` and copies `/caf%C3%A9` (a client sends both as the latter; the hex
    in either case is one escape): read under one, the page answers the others from the store and
    opens by any of them."""
    doc = Doc(article("Cafe", "A cafe serves coffee to ferrets."))
    web.docs["/caf%C3%A9"] = web.docs["/café"] = doc  # the path as the server reads it, either way
    first = await ferret.fetch(web.url("/caf%C3%A9"))
    letters = await ferret.fetch(web.url("/café"))
    lower = await ferret.fetch(web.url("/caf%c3%a9"))
    opened = await ferret.open(web.url("/café"))
    assert first.fetched_via == "http" and letters.fetched_via == lower.fetched_via == "store"
    assert letters.handle == lower.handle == opened.handle == first.handle
    assert len(web.requests) == 1


async def test_stale_page_is_revalidated_with_its_etag(web: Web, tmp_path: Path) -> None:
    web.docs["/e"] = Doc(article("Etags", "Validators save bandwidth."), etag='"e1"')
    async with loopback_ferret(tmp_path, fresh_seconds=0) as ferret:
        first = await ferret.fetch(web.url("/e"))
        again = await ferret.fetch(web.url("/e"))
    assert again.fetched_via == "revalidated"
    assert again.content == first.content and again.handle == first.handle
    assert again.fetched_at and first.fetched_at and again.fetched_at >= first.fetched_at
    assert [hop["status"] for hop in again.meta["trail"]] == [304]  # how it was read this time
    assert web.requests[-1]["headers"].get("if-none-match") == '"e1"'
    assert web.hits("/e", 304) == 1 and web.hits("/e", 200) == 1


async def test_stale_page_is_revalidated_with_last_modified(web: Web, tmp_path: Path) -> None:
    stamp = "Wed, 21 Oct 2026 07:28:00 GMT"
    web.docs["/m"] = Doc(article("Dates", "Dates also validate."), last_modified=stamp)
    async with loopback_ferret(tmp_path, fresh_seconds=0) as ferret:
        await ferret.fetch(web.url("/m"))
        again = await ferret.fetch(web.url("/m"))
    assert again.fetched_via == "revalidated"
    assert web.requests[-1]["headers"].get("if-modified-since") == stamp


async def test_a_revalidated_page_is_fresh_again(web: Web, tmp_path: Path) -> None:
    web.docs["/r"] = Doc(article("Renewed", "Renewed pages rest."), etag='"r1"')
    async with loopback_ferret(tmp_path, fresh_seconds=0) as ferret:
        await ferret.fetch(web.url("/r"))
    async with loopback_ferret(tmp_path, fresh_seconds=0) as ferret:
        assert (await ferret.fetch(web.url("/r"))).fetched_via == "revalidated"
    async with loopback_ferret(tmp_path) as ferret:
        assert (await ferret.fetch(web.url("/r"))).fetched_via == "store"
    assert len(web.requests) == 2


async def test_changed_page_replaces_the_stored_one(web: Web, tmp_path: Path) -> None:
    web.docs["/c"] = Doc(article("Change", "Otters were here first."), etag='"c1"')
    async with loopback_ferret(tmp_path, fresh_seconds=0) as ferret:
        old = await ferret.fetch(web.url("/c"))
        web.docs["/c"] = Doc(article("Change", "Badgers replaced them."), etag='"c2"')
        new = await ferret.fetch(web.url("/c"))
        assert new.fetched_via == "http" and "Badgers" in new.content
        assert new.handle == old.handle
        opened = await ferret.open(new.handle or "")
        assert "Badgers" in opened.content and "Otters" not in opened.content
        assert await ferret.find("otters") == []
        assert [p.handle for p in await ferret.find("badgers", n=1)] == [new.handle]
        assert ferret.store.stats().versions == 2


async def test_fresh_option_skips_the_store(web: Web, ferret: Ferret) -> None:
    web.docs["/f"] = Doc(article("Fresh", "Always new."), etag='"f1"')
    await ferret.fetch(web.url("/f"))
    forced = await ferret.fetch(web.url("/f"), fresh=True)
    assert forced.fetched_via == "http"
    assert web.hits("/f", 200) == 2
    assert "if-none-match" not in web.requests[-1]["headers"]


async def test_a_tier_asked_for_is_answered_only_by_that_tiers_copy(web: Web, ferret: Ferret) -> None:
    """`--tier X` (not `auto`) asks for X's reading: a copy another tier read is not it."""
    web.docs["/t"] = Doc(article("Tiers", "Read me as a browser would."), etag='"t1"')
    url = web.url("/t")
    assert (await ferret.fetch(url)).fetched_via == "http"
    impersonate, http = ferret.fetch_options(tier="impersonate"), ferret.fetch_options(tier="http")
    assert (await ferret.fetch(url, options=impersonate)).fetched_via == "impersonate"
    assert (await ferret.fetch(url, options=impersonate)).fetched_via == "store"
    again = await ferret.fetch(url, options=http)  # the stored copy is the impersonate tier's now
    assert again.fetched_via == "http" and again.meta["trail"][-1]["via"] == "http"
    assert "if-none-match" not in web.requests[-1]["headers"]  # a new reading, not a revalidation
    assert (await ferret.fetch(url, options=http)).fetched_via == "store"
    assert (await ferret.fetch(url)).fetched_via == "store"  # `auto` takes whatever tier read it
    assert web.hits("/t", 200) == 3


async def test_failed_page_is_not_stored(web: Web, ferret: Ferret) -> None:
    page = await ferret.fetch(web.url("/nothing-here"))
    assert not page.ok and page.handle is None
    assert ferret.store.stats().pages == 0


async def test_near_duplicates_in_a_batch_are_marked(web: Web, ferret: Ferret) -> None:
    text = article("Mirror", "The same story is told twice here.", paragraphs=12)
    web.docs["/one"] = Doc(text)
    web.docs["/two"] = Doc(text.replace("number 11", "number eleven"))
    web.docs["/other"] = Doc(article("Else", "Something else entirely, about moles.", paragraphs=12))
    pages = await ferret.fetch_many([web.url("/one"), web.url("/two"), web.url("/other")])
    assert all(page.ok for page in pages)
    marked = [page.duplicate_of for page in pages]
    assert marked.count(None) == 2
    dropped = next(page for page in pages if page.duplicate_of)
    kept = next(page for page in pages[:2] if not page.duplicate_of)
    assert dropped.duplicate_of == kept.handle
    assert pages[2].duplicate_of is None


async def test_open_pages_a_stored_document(web: Web, ferret: Ferret) -> None:
    web.docs["/long"] = Doc(article("Long", "A long read about burrows.", paragraphs=80))
    page = await ferret.fetch(web.url("/long"))
    handle = page.handle or ""
    first = await ferret.open(handle, page=1, page_tokens=300)
    assert first.pages > 2 and first.title == "Long" and first.url == web.url("/long")
    assert first.next == f"webferret open {handle} --page 2 --page-tokens 300"
    pages = range(1, first.pages + 1)
    texts = [(await ferret.open(handle, page=k, page_tokens=300)).content for k in pages]
    assert "\n".join(texts).split() == page.content.split()
    with pytest.raises(FerretError) as past:
        await ferret.open(handle, page=first.pages + 1, page_tokens=300)
    assert past.value.code == ErrorCode.NOT_FOUND
    by_url = await ferret.open(web.url("/long"))
    assert by_url.handle == handle


async def test_unknown_handle_is_not_found(ferret: Ferret) -> None:
    with pytest.raises(FerretError) as unknown:
        await ferret.open("example.org~000000000000")
    assert unknown.value.code == ErrorCode.NOT_FOUND
    assert "example.org~000000000000" in unknown.value.message


async def test_a_page_fetched_under_an_exemption_needs_it_again(web: Web, tmp_path: Path) -> None:
    web.docs["/x"] = Doc(article("Internal", "An internal page, allowed once."), etag='"x1"')
    async with loopback_ferret(tmp_path) as ferret:
        assert (await ferret.fetch(web.url("/x"))).ok
        assert (await ferret.fetch(web.url("/x"))).fetched_via == "store"
    async with Ferret(home=tmp_path) as plain:
        page = await plain.fetch(web.url("/x"))
    assert page.fetched_via != "store"
    refused = page.error is not None and page.error.code == ErrorCode.BLOCKED_ADDRESS
    assert refused or web.hits("/x", 200) == 2  # the real fetcher refuses; the loopback one downloads


async def test_a_page_opens_by_the_url_its_redirect_ended_at(simweb: SimWeb, ferret: Ferret) -> None:
    page = await ferret.fetch(simweb.url("/redirect/0"))
    assert page.ok and page.final_url == simweb.url("/article") and page.handle
    opened = await ferret.open(page.final_url)  # the URL a reader sees in the page's final_url
    assert opened.handle == page.handle
    passages = await ferret.find("ferret", handles=[page.final_url])
    assert passages and {p.handle for p in passages} == {page.handle}
    with pytest.raises(FerretError) as unknown:
        await ferret.open(simweb.url("/never-fetched"))
    assert unknown.value.code == ErrorCode.NOT_FOUND


async def test_a_url_a_stored_redirect_ended_at_is_answered_from_the_store(
    simweb: SimWeb, ferret: Ferret
) -> None:
    """One document, one handle: fetching the URL a redirect ended at, after the redirect's start
    was stored, reads nothing again and answers the same handle, under the URL asked for."""
    end = simweb.own("/ended/here", "/article")
    start = simweb.add("/ended/start", status=302, headers={"Location": "/ended/here"})
    first = await ferret.fetch(start)
    assert first.ok and first.final_url == end and simweb.served("/ended/here") == 1
    again = await ferret.fetch(end)
    assert again.ok and again.fetched_via == "store" and simweb.served("/ended/here") == 1
    assert again.handle == first.handle and again.url == end
    assert again.content == first.content


async def test_a_redirected_page_is_named_by_where_it_ended(simweb: SimWeb, ferret: Ferret) -> None:
    """The handle names the page's own site and URL, whichever of its URLs was read first (two
    redirects read at once name it the same), and the URL asked for still opens it."""
    from webferret.store.handles import handle_for

    starts = [simweb.url("/redirect/0"), simweb.url("/redirect/1")]
    pages = await ferret.fetch_many(starts)
    assert {page.handle for page in pages} == {handle_for(simweb.url("/article"))}
    for start in starts:
        assert (await ferret.open(start)).handle == pages[0].handle


LINKED = (
    "<!doctype html><html><head><title>Burrows</title></head><body>"
    '<nav><a href="/">Home</a> <a href="/shop">Shop</a> <a href="/about">About</a></nav>'
    "<article><h1>Burrows</h1>"
    + "".join(
        f'<p>Ferrets dig and explore burrows; part {i} of this guide says how, with a <a href="/guide/{i}">'
        f"guide to part {i}</a> and enough words around it to be the article people came to read.</p>"
        for i in range(1, 5)
    )
    + '</article><footer><a href="/privacy">Privacy</a></footer></body></html>'
)


async def test_every_page_keeps_its_links_main_content_first(web: Web, ferret: Ferret) -> None:
    """Read without `links`, a page is stored with all of them: a later `links` call, `open` with
    `links`, answer from the store, the main content's links first, in page order within each group."""
    web.docs["/burrows"] = Doc(LINKED)
    first = await ferret.fetch(web.url("/burrows"))
    assert first.ok and first.links is None  # not asked: not in the answer
    asked = await ferret.fetch(web.url("/burrows"), extract=ferret.extract_options(links=True, link_limit=5))
    assert asked.fetched_via == "store" and web.hits("/burrows") == 1
    assert asked.links is not None
    assert [link.url.removeprefix(web.url("")) for link in asked.links] == [
        "/guide/1", "/guide/2", "/guide/3", "/guide/4", "/",
    ]  # fmt: skip
    assert [link.in_main for link in asked.links] == [True] * 4 + [False]
    assert asked.handle is not None
    opened = await ferret.open(asked.handle, links=True)
    assert opened.links is not None and len(opened.links) == 8  # all of them: 4 guides, 3 menu links, privacy
    assert opened.links[-1].url == web.url("/privacy") and opened.links[-1].text == "Privacy"
    two = await ferret.open(asked.handle, link_limit=2)  # a limit asks for links, as the CLI's flag
    assert two.links == asked.links[:2] and two.links_total == 8  # cut: says how many there are
    assert opened.links_total is None and (await ferret.open(asked.handle)).links is None


async def test_open_says_a_page_has_more_links_than_the_store_kept(web: Web, ferret: Ferret) -> None:
    """The store keeps 1,000 links of a page (more when asked): `open` asking for more than it kept
    lists those and says how many the page has (`links_total`), not that the list is whole."""
    many = "".join(f'<li><a href="/p{i}">Part {i}</a></li>' for i in range(1200))
    web.docs["/many"] = Doc(
        f"<html><body><main><p>{'Ferrets dig tunnels. ' * 30}</p><ul>{many}</ul></main></body></html>"
    )
    page = await ferret.fetch(web.url("/many"))
    assert page.handle is not None and page.meta["links_total"] == 1200
    opened = await ferret.open(page.handle, link_limit=5000)
    assert opened.links is not None and len(opened.links) == 1000
    assert opened.links_total == 1200


async def test_a_page_stored_without_links_is_read_again_for_them(web: Web, ferret: Ferret) -> None:
    """A page an older webferret stored (no links kept) cannot answer `links` from the store."""
    web.docs["/old"] = Doc(LINKED)
    page = await ferret.fetch(web.url("/old"))
    assert page.handle is not None
    stored = ferret.store.named(page.handle)
    assert stored is not None
    ferret.store.put(stored.page.model_copy(update={"links": None}))  # as an older webferret kept it
    opened = await ferret.open(page.handle, links=True)
    assert opened.links is None
    again = await ferret.fetch(web.url("/old"), extract=ferret.extract_options(links=True))
    assert again.fetched_via == "http" and again.links and web.hits("/old") == 2


async def test_a_page_read_in_time_is_answered_when_the_store_is_busy(tmp_path: Path, simweb: SimWeb) -> None:
    """Another process holds the store: the page read within the budget is answered, saying it may
    not be kept, not `timeout` as though the site were slow."""
    import sqlite3

    url = simweb.add("/locked", article_html("Locked out"))
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"]) as f:
        await f.fetch(simweb.add("/first", article_html("First")))  # the store exists
        other = sqlite3.connect(tmp_path / "store.sqlite3", isolation_level=None)
        other.execute("BEGIN EXCLUSIVE")
        try:
            page = await f.fetch(url, options=f.fetch_options(budget=2), fresh=True)
        finally:
            other.execute("ROLLBACK")
            other.close()
    assert page.ok and page.error is None and "Ferrets are curious" in page.content
    assert "store was still busy" in page.meta["store_error"] and page.tokens


async def test_a_document_is_paged_off_the_event_loop(web: Web, ferret: Ferret) -> None:
    """`open` cut the document into pages on the event loop: an API or MCP server answered no other
    call while it paged a long one (3 s for a 10 MB document at 100 tokens a page)."""
    import sys

    from webferret.present.paging import paginate

    web.docs["/long"] = Doc(article("Long", "A long read about burrows.", paragraphs=80))
    handle = (await ferret.fetch(web.url("/long"))).handle or ""
    on_the_loop: list[str] = []

    def watch(frame: object, event: str, arg: object) -> None:
        if event == "call" and getattr(frame, "f_code", None) is paginate.__code__:
            on_the_loop.append(event)

    sys.setprofile(watch)  # this thread's calls only: the loop's, not a worker thread's
    try:
        opened = await ferret.open(handle, page=2, page_tokens=300)
    finally:
        sys.setprofile(None)
    assert opened.page == 2 and opened.pages > 2
    assert on_the_loop == []


_PAGE = "<html><head><title>Page</title></head><body><article><p>{}</p></article></body></html>"


async def test_a_304_from_a_url_that_no_longer_redirects_is_not_the_stored_page(
    tmp_path: Path, simweb: SimWeb
) -> None:
    """`/a` redirected to `/maintenance`, then answered its own page: its stale copy was revalidated
    with the maintenance page's Last-Modified, and `/a`'s static server, its file older than that,
    said 304: the maintenance page was answered as `/a`, and would have been ever after."""
    from simweb import Handler

    def static(handler: Handler, web: SimWeb) -> None:  # 304 to any If-Modified-Since: its file is old
        older = {"Last-Modified": "Mon, 01 Jun 2026 10:00:00 GMT"}
        if handler.headers.get("If-Modified-Since"):
            handler.reply(304, b"", older)
        else:
            handler.reply(
                200, _PAGE.format("Aardvarks dig here.").encode(), {**older, "Content-Type": "text/html"}
            )

    newer = {"Last-Modified": "Tue, 01 Dec 2026 10:00:00 GMT"}
    simweb.add("/maintenance", _PAGE.format("Scaffolding: down for maintenance."), headers=newer)
    simweb.add("/a", status=302, headers={"Location": "/maintenance"})
    async with Ferret(home=tmp_path, allow_hosts=["127.0.0.1"], fresh_seconds=0) as f:
        during = await f.fetch(simweb.url("/a"))
        simweb.add("/a", stream=static)
        after = await f.fetch(simweb.url("/a"))
    assert "Scaffolding" in during.content and during.final_url == simweb.url("/maintenance")
    assert after.fetched_via == "http" and after.final_url == simweb.url("/a")
    assert "Aardvarks" in after.content and "Scaffolding" not in after.content


async def test_a_reading_dated_ahead_is_not_fresh_nor_first(web: Web, tmp_path: Path) -> None:
    """A reading stored while the clock ran a day ahead (then set back) had no age: it was served
    without the network until the clock caught up, and a newer reading stayed behind it (opened,
    listed and pruned by date). It is stale now, and a new reading is dated after it."""
    web.docs["/t"] = Doc(article("Clocks", "Clocks drift and are corrected."), etag='"t1"')
    async with loopback_ferret(tmp_path) as ferret:
        first = await ferret.fetch(web.url("/t"))
        with sqlite3.connect(ferret.store.path) as conn:
            conn.execute("UPDATE pages SET fetched_at = fetched_at + 86400")
        web.docs["/t"] = Doc(article("Clocks", "A corrected clock tells the truth."), etag='"t2"')
        again = await ferret.fetch(web.url("/t"))
        assert again.fetched_via == "http" and "corrected clock" in again.content
        opened = await ferret.open(first.handle or "")
        assert "corrected clock" in opened.content
        assert (await ferret.fetch(web.url("/t"))).fetched_via == "store"
    assert web.hits("/t") == 2
