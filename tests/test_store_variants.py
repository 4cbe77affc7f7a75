"""A page read another way (`--format`, `--selector`) is a variant: a handle of its own beside its
document, which its handle still opens and `find` still searches."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from simweb import SimWeb

from webferret.config import load_settings
from webferret.ferret import Ferret
from webferret.models import Page
from webferret.present.paging import paginate
from webferret.store.pages import PageStore
from webferret.store.variants import key_of, variant_handle

URL = "https://a.example/ferrets"
BODY = "# Ferrets\n\nFerrets sleep eighteen hours a day in a nest of old socks."
HTML = "<h1>Ferrets</h1>\n<p>Ferrets sleep eighteen hours a day in a nest of old socks.</p>"
SCOPE = {"selector": "h1", "exclude": [], "whole_page": False}


def _page(content: str, fmt: str = "markdown", scope: dict | None = None, **fields: object) -> Page:
    meta = {"extract": {"scope": scope}} if scope else {}
    return Page(url=URL, ok=True, title="Ferrets", content=content, format=fmt, meta=meta, **fields)  # type: ignore[arg-type]


@pytest.fixture(params=[True, False], ids=["fts5", "fallback"])
def store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[PageStore]:
    opened = PageStore.in_home(tmp_path, page_tokens=200, fts=request.param)
    yield opened
    opened.close()


def _chunked(store: PageStore) -> set[str]:
    """The handles that have passages."""
    rows = store._read(
        lambda conn: conn.execute("SELECT DISTINCT p.handle FROM chunks c JOIN pages p ON p.id = c.page_id")
    )
    return {row[0] for row in rows}


def test_a_variant_read_after_the_document_leaves_its_handle_alone(store: PageStore) -> None:
    document = store.put(_page(BODY)).handle
    html = store.put(_page(HTML, "html")).handle
    scoped = store.put(_page("# Ferrets", scope=SCOPE)).handle
    assert document and html and scoped and len({document, html, scoped}) == 3
    assert html == variant_handle(document, key_of("html", None)) and html.startswith("a.example~")
    opened = store.named(document)
    assert opened is not None and opened.page.content == BODY  # not the newest read: the document
    assert store.named(URL) is not None and store.named(URL).page.content == BODY  # type: ignore[union-attr]
    assert [(s.page.content, s.document) for s in map(store.get, (html, scoped))] == [
        (HTML, document),
        ("# Ferrets", document),
    ]
    assert store.lookup(URL) is not None and store.lookup(URL).page.content == BODY  # type: ignore[union-attr]
    assert store.lookup(URL, key_of("html", None)).page.content == HTML  # type: ignore[union-attr]
    assert store.lookup(URL, key_of("text", None)) is None
    found = store.find("socks")
    assert [p.handle for p in found] == [document] and "<p>" not in found[0].text
    assert [p.handle for p in store.find("socks", [html])] == [document]  # a variant searches its document
    assert _chunked(store) == {document}
    assert store.stats().pages == 1 and store.stats().versions == 3


def test_a_page_read_only_another_way_opens_and_is_found_as_that(store: PageStore) -> None:
    html = store.put(_page(HTML, "html")).handle
    assert html is not None
    by_url = store.named(URL)
    assert by_url is not None and by_url.handle == html and by_url.page.content == HTML
    assert store.holds(URL) and [p.handle for p in store.find("socks", [URL])] == [html]
    assert [p.handle for p in store.find("socks")] == [html]
    document = store.put(_page(BODY)).handle  # read by default at last: the document takes over
    assert document != html and _chunked(store) == {document}
    assert [p.handle for p in store.find("socks")] == [document]
    assert store.named(URL).page.content == BODY  # type: ignore[union-attr]


def test_pruning_the_document_leaves_its_variant_searchable(store: PageStore) -> None:
    old = time.time() - 3600
    from datetime import UTC, datetime

    store.put(_page(BODY, fetched_at=datetime.fromtimestamp(old, UTC)))
    html = store.put(_page(HTML, "html")).handle
    assert store.prune(600) == (1, 0)  # the document stays: its variant is left
    assert _chunked(store) == {html} and [p.handle for p in store.find("socks")] == [html]
    assert store.named(URL).handle == html  # type: ignore[union-attr]


def test_a_store_from_before_variants_is_split_once(tmp_path: Path) -> None:
    store = PageStore.in_home(tmp_path, page_tokens=200)
    document = store.put(_page(BODY)).handle
    store.close()
    conn = sqlite3.connect(tmp_path / "store.sqlite3")  # as schema 5 kept an html read: a new version
    conn.execute("DROP INDEX pages_document")
    conn.execute("ALTER TABLE pages DROP COLUMN variant")
    conn.execute("ALTER TABLE pages DROP COLUMN document")
    conn.execute("ALTER TABLE pages DROP COLUMN paged_at")
    conn.execute("DROP TABLE chunks_fts")  # it read the chunks themselves
    conn.execute("DROP VIEW chunk_terms")
    conn.execute("ALTER TABLE chunks DROP COLUMN terms")
    conn.execute(
        "CREATE VIRTUAL TABLE chunks_fts USING fts5(text, content='chunks', content_rowid='id', "
        "tokenize=\"unicode61 remove_diacritics 2 categories 'L* N* Co M*'\")"
    )
    conn.execute("DELETE FROM meta WHERE key = 'variants_split'")
    conn.execute(
        "INSERT INTO pages (handle, key_url, url, content_hash, fetched_at, format, tokens, page_json, "
        "content) SELECT handle, key_url, url, 'h2', fetched_at + 5, 'html', tokens, page_json, ? FROM pages",
        (HTML,),
    )
    conn.execute("DELETE FROM chunks")  # only the newest version (the html one) had passages
    conn.execute(
        "INSERT INTO chunks (page_id, page_no, words, text) SELECT max(id), 1, 3, ? FROM pages", (HTML,)
    )
    conn.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild')")
    conn.execute("PRAGMA user_version = 5")
    conn.commit()
    conn.close()
    store = PageStore.in_home(tmp_path, page_tokens=200)
    assert store.named(document).page.content == BODY  # type: ignore[union-attr]
    html = variant_handle(document or "", key_of("html", None))
    assert store.get(html).page.content == HTML  # type: ignore[union-attr]
    assert [p.text for p in store.find("socks")] == [BODY] and _chunked(store) == {document}
    store.close()
    conn = sqlite3.connect(tmp_path / "store.sqlite3")
    assert conn.execute("SELECT value FROM meta WHERE key = 'variants_split'").fetchone() == ("1",)
    conn.close()


LONG = "<html><head><title>Burrows</title></head><body><article><h1>Burrows</h1>{}</article></body></html>"


async def test_paging_a_variant_stays_in_that_reading(simweb: SimWeb, tmp_path: Path) -> None:
    line = "<p>Chamber {0} of the burrow holds {0} old socks and a bell.</p>"
    paragraphs = "".join(line.format(n) for n in range(400))
    url = simweb.add("/burrows", LONG.format(paragraphs), headers={"Content-Type": "text/html"})
    settings = load_settings(allow_hosts=["127.0.0.1"], home=str(tmp_path))
    async with Ferret(settings) as ferret:
        html = await ferret.fetch(url, extract=ferret.extract_options(format="html"))
        default = await ferret.fetch(url)
        again = await ferret.fetch(url, extract=ferret.extract_options(format="html"))
        assert html.handle and default.handle and html.handle != default.handle
        second = await ferret.open(html.handle, 2, page_tokens=300)
        assert "<p>" in second.content and second.handle == html.handle and second.format == "html"
        assert second.fetched_at == html.fetched_at  # the version read, so a change under a reader shows
        assert (await ferret.open(default.handle, 2, page_tokens=300)).content.startswith("Chamber")
        assert again.fetched_via == "store" and again.handle == html.handle
        found = await ferret.find("chamber socks bell", n=3)
        assert {p.handle for p in found} == {default.handle} and not any("<p>" in p.text for p in found)


async def test_a_document_that_is_no_html_is_answered_from_the_store_whatever_its_format_or_scope(
    simweb: SimWeb, tmp_path: Path
) -> None:
    """A JSON or text document reads alike with `--format html` or a `--selector` (neither applies to
    it), so those reads are answered by its stored copy; they were read anew every time, and a scope
    ignored once was said ignored by every later default read."""
    url = simweb.add("/notes.txt", "Ferrets sleep in socks.\n", headers={"Content-Type": "text/plain"})
    settings = load_settings(allow_hosts=["127.0.0.1"], home=str(tmp_path))
    async with Ferret(settings) as ferret:
        scoped = ferret.extract_options(selector="main")
        first = await ferret.fetch(url, extract=scoped)
        reads = [
            await ferret.fetch(url, extract=ferret.extract_options(format="html")),
            await ferret.fetch(url, extract=scoped),
            await ferret.fetch(url),
        ]
    assert first.fetched_via == "http" and simweb.served("/notes.txt") == 1
    assert [page.fetched_via for page in reads] == ["store"] * 3
    assert {page.handle for page in reads} == {first.handle} and reads[0].format == "markdown"
    ignored = [page.meta["extract"].get("scope_ignored") for page in (first, *reads)]
    assert [bool(said) for said in ignored] == [True, False, True, False]


async def test_a_session_answers_a_variant_and_the_document_each_its_own_handle(tmp_path: Path) -> None:
    """A search's pages are answered before their writes (`keep_later`): a variant's answer names the
    handle it is stored under, and the document read after it in the session keeps the URL's own."""
    async with Ferret(load_settings(home=str(tmp_path))) as ferret:
        session = ferret._session
        kept = await session.keep(_page(HTML, "html"), {}, False)
        later = session.keep_later(_page(HTML.replace("socks", "boots"), "html"), {}, False)
        document = session.keep_later(_page(BODY), {}, False)
        await ferret._written()
        assert kept.handle == later.handle == variant_handle(document.handle or "", key_of("html", None))
        assert document.handle == (await ferret.stored(URL)).handle  # type: ignore[union-attr]
        assert (await ferret.stored(later.handle or "")).page.content == HTML.replace("socks", "boots")  # type: ignore[union-attr]


def test_a_passage_names_the_page_open_shows_at_the_readers_page_size(tmp_path: Path) -> None:
    """Passages are numbered when written, at the writer's `page_tokens`; a reader with another
    setting is told the page its own `open` shows the passage on."""
    text = "\n\n".join(
        f"Section {n}. " + "Ferrets dig long tunnels under the barn. " * 12 for n in range(120)
    )
    text += "\n\nThe last section hides an ermine."
    writer = PageStore.in_home(tmp_path, page_tokens=4000)
    writer.put(Page(url=URL, ok=True, title="Long", content=text))
    writer.close()
    for size in (500, 4000):
        reader = PageStore.in_home(tmp_path, page_tokens=size)
        (found,) = reader.find("ermine", n=1)
        pages = paginate(text, size)
        assert "ermine" in pages[found.page - 1] and found.page == len(pages)
        reader.close()
