"""Chinese and Japanese words found inside sentences (FTS5 and the LIKE fallback), and a store
indexed before (a sentence one term) indexed again when it is first opened, by processes at once."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Iterator
from contextlib import closing
from pathlib import Path

import pytest
from simweb import SimWeb
from storeweb import loopback_ferret
from test_store_processes import PAGES_EACH, _integrity, _spawn

from webferret.models import Page
from webferret.store.pages import PageStore

ZH = "https://zh.example/"
ZH_APART = "https://zh-apart.example/"
JA = "https://ja.example/"
EN = "https://en.example/"
MIXED = "https://mixed.example/"
PAGES = {
    ZH: "深度学习是机器学习的一个分支。我们今天学习机器学习的基础知识。",
    ZH_APART: "机器人在工厂里工作，工人也学习新的技能。",  # 机器 and 学习, not one after the other
    JA: "東京は日本の首都です。私は毎日プログラミングを勉強しています。",
    EN: "Machine learning, written in English words alone.",
    MIXED: "Python3入門ガイド：はじめての一歩",
}
QUERIES = ["机器学习", "学习", "勉強", "プログラミング", "日本の首都", "python3入門", "ガイド machine"]


@pytest.fixture(params=[True, False], ids=["fts5", "fallback"])
def fts(request: pytest.FixtureRequest) -> bool:
    return bool(request.param)


@pytest.fixture
def store(tmp_path: Path, fts: bool) -> Iterator[PageStore]:
    opened = PageStore.in_home(tmp_path, fts=fts)
    _put_all(opened)
    yield opened
    opened.close()


def _put_all(store: PageStore) -> None:
    for url, text in PAGES.items():
        store.put(Page(url=url, ok=True, title=url, content=text))


def _answers(store: PageStore, query: str) -> list[tuple[str, float]]:
    return [(hit.url, hit.score) for hit in store.find(query)]


@pytest.mark.parametrize(("query", "urls"), [
    ("机器学习", [ZH]), ("学习", [ZH, ZH_APART]), ("勉強", [JA]), ("プログラミング", [JA]),
    ("日本の首都", [JA]), ("首都", [JA]), ("入門", [MIXED]), ("python3入門", [MIXED]), ("python3", [MIXED]),
    ("machine", [EN]), ("ガイド machine", [EN, MIXED]), ("学习机器人", []), ("東京大学", []),
])  # fmt: skip
def test_a_chinese_or_japanese_word_is_found_inside_a_sentence(
    store: PageStore, query: str, urls: list[str]
) -> None:
    """A run of Han or kana between punctuation was one term: `机器学习` found no page whose
    sentence held it. Now a query's such word is its characters one after another (not the page
    holding them apart), and the page holding it more often ranks first."""
    assert sorted(url for url, _ in _answers(store, query)) == sorted(urls)
    if query == "学习":
        assert [url for url, _ in _answers(store, query)] == [ZH, ZH_APART]  # four times, once


def test_fallback_and_fts5_rank_chinese_and_japanese_alike(tmp_path: Path) -> None:
    with_fts = PageStore.in_home(tmp_path / "f", fts=True)
    plain = PageStore.in_home(tmp_path / "p", fts=False)
    _put_all(with_fts)
    _put_all(plain)
    for query in QUERIES:
        assert _answers(with_fts, query) == _answers(plain, query), query
    with_fts.close()
    plain.close()


def test_the_fallback_finds_a_word_its_passage_writes_with_a_space_inside_as_fts5_does(
    tmp_path: Path, fts: bool
) -> None:
    """The index reads `东京 大学` as the characters of `东京大学` one after another, so FTS5 finds
    the word there; the LIKE fallback looked for the word's characters written together and did not."""
    store = PageStore.in_home(tmp_path, fts=fts)
    store.put(Page(url=ZH, ok=True, title="zh", content="东京 大学的学生，学习 Python 教程。"))
    store.put(Page(url=EN, ok=True, title="en", content="Other words entirely."))
    assert [url for url, _ in _answers(store, "东京大学")] == [ZH]
    assert [url for url, _ in _answers(store, "Python教程")] == [ZH]
    assert _answers(store, "教程Python") == []  # the words in another order are no match
    store.close()


def _as_left_by_schema_6(home: Path) -> None:
    """Make the store at `home` what a webferret of schema 6 left: chunks without `terms`, counted
    by their runs of letters, indexed by an FTS table reading them as they are."""
    conn = sqlite3.connect(home / "store.sqlite3")
    conn.execute("DROP TABLE IF EXISTS chunks_fts")
    conn.execute("DROP VIEW IF EXISTS chunk_terms")
    if "terms" in {row[1] for row in conn.execute("PRAGMA table_info(chunks)")}:
        conn.execute("ALTER TABLE chunks DROP COLUMN terms")
    conn.execute("DELETE FROM meta WHERE key = 'chunk_terms'")
    for id_, text in conn.execute("SELECT id, text FROM chunks").fetchall():
        conn.execute("UPDATE chunks SET words = ? WHERE id = ?", (len(re.findall(r"[^\W_]+", text)), id_))
    conn.execute(
        "CREATE VIRTUAL TABLE chunks_fts USING fts5(text, content='chunks', content_rowid='id', "
        "tokenize=\"unicode61 remove_diacritics 2 categories 'L* N* Co M*'\")"
    )
    conn.execute("INSERT INTO chunks_fts (chunks_fts) VALUES ('rebuild')")
    conn.execute("PRAGMA user_version = 6")
    conn.commit()
    conn.close()


def test_a_store_indexed_before_is_indexed_again_when_first_opened(tmp_path: Path, fts: bool) -> None:
    """A store indexed by an older webferret answers as one this webferret wrote: no page lost,
    its passages' words counted again (the fallback's BM25 lengths), its FTS5 index made again."""
    fresh = PageStore.in_home(tmp_path / "fresh", fts=fts)
    _put_all(fresh)
    expected = {query: _answers(fresh, query) for query in QUERIES}
    fresh.close()
    old = tmp_path / "old"
    PageStore.in_home(old, fts=True).close()
    writer = PageStore.in_home(old, fts=True)
    _put_all(writer)
    writer.close()
    _as_left_by_schema_6(old)
    again = PageStore.in_home(old, fts=fts)
    assert again.stats().pages == len(PAGES)
    for query in QUERIES:
        assert _answers(again, query) == expected[query], query
    again.close()
    later = PageStore.in_home(old, fts=True)  # an FTS5 session after a fallback one
    assert [url for url, _ in _answers(later, "机器学习")] == [ZH]
    later.close()
    _integrity(old)


def test_processes_opening_a_store_indexed_before_at_once_lose_nothing(tmp_path: Path) -> None:
    """Several processes open an old store at once (each would index it again) and write to it:
    it is indexed once, under the write lock, and every page is kept and found."""
    first = PageStore.in_home(tmp_path)
    _put_all(first)
    first.close()
    _as_left_by_schema_6(tmp_path)
    go = tmp_path / "go"
    workers = [_spawn("mixed", str(tmp_path), str(n), str(PAGES_EACH), str(go)) for n in range(3)]
    go.touch()
    for worker in workers:
        out, err = worker.communicate(timeout=180)
        assert worker.returncode == 0, err
        assert out.strip() == f"done {PAGES_EACH}"
    _integrity(tmp_path)
    store = PageStore.in_home(tmp_path)
    assert store.stats().pages == len(PAGES) + 3 * PAGES_EACH + 1
    assert [url for url, _ in _answers(store, "勉強")] == [JA]
    assert {url for url, _ in _answers(store, "w2x7")} == {"https://w2.example/7"}
    store.close()


async def test_a_fetched_chinese_page_is_found_by_a_word_of_its_sentence(
    simweb: SimWeb, tmp_path: Path
) -> None:
    html = "<html lang='zh'><head><title>机器学习入门</title></head><body><main><h1>机器学习入门</h1>"
    html += "<p>本教程介绍监督学习与无监督学习的区别，并用简单的例子说明神经网络如何训练。</p>"
    html += "</main></body></html>"
    url = simweb.add("/zh", html, headers={"Content-Type": "text/html; charset=utf-8"})
    async with loopback_ferret(tmp_path) as ferret:
        page = await ferret.fetch(url)
        assert page.ok and page.handle
        passages = await ferret.find("神经网络")
        assert [p.handle for p in passages] == [page.handle]
        assert "神经网络如何训练" in passages[0].text


def test_a_chinese_page_read_again_answers_its_new_words_only(store: PageStore, tmp_path: Path) -> None:
    """The index forgets a replaced passage by the text it read of it (its characters apart)."""
    store.put(Page(url=ZH, ok=True, title=ZH, content="今天我们讨论自然语言处理。"))
    assert [url for url, _ in _answers(store, "自然语言")] == [ZH]
    assert [url for url, _ in _answers(store, "机器学习")] == []
    store.prune(-60)
    if store.stats().search == "fts5":  # before any search, which would mend a damaged index
        with closing(sqlite3.connect(tmp_path / "store.sqlite3")) as conn:
            conn.execute("CREATE VIRTUAL TABLE temp.v USING fts5vocab(main, chunks_fts, row)")
            assert conn.execute("SELECT term FROM temp.v").fetchall() == []  # no word left behind
        _integrity(tmp_path)
    assert _answers(store, "自然语言") == []
