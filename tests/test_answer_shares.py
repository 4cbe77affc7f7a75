"""One agent answer's pages share the setting `answer_tokens`: eight long pages of `web_fetch` made an
answer of 8 x `max_tokens` (32,000 tokens by default), past the 25,000 Claude Code takes from a tool."""

from __future__ import annotations

from pathlib import Path

from storeweb import Doc, Web, loopback_ferret

from webferret.mcp_tools import AgentTools, WebFetchArgs, WebOpenArgs
from webferret.models import Hit
from webferret.present.shares import page_shares
from webferret.search.reading import shared_sizes
from webferret.search.types import SearchResult
from webferret.tokens import estimate_tokens


def test_short_pages_leave_their_share_to_the_long_ones() -> None:
    shares = page_shares([9000, 50, 9000, 9000], 4000, 2000)
    assert shares[1] >= 50 and shares[0] == shares[2] == shares[3] == (2000 - 50) // 3
    assert page_shares([300, 300], 4000, 20000) == [4000, 4000]  # room for all: each its max_tokens
    assert page_shares([9000] * 40, 4000, 2000) == [100] * 40  # never a share of a few words


def _long(title: str, n: int) -> str:
    paragraphs = "".join(
        f"<p>{title} paragraph {i} tells of ferrets, stoats and weasels at some length, so that each "
        f"page of it is a real page of words, number {i} of many.</p>"
        for i in range(n)
    )
    head = f"<html><head><title>{title}</title></head>"
    return f"{head}<body><article><h1>{title}</h1>{paragraphs}</article></body></html>"


async def test_long_pages_of_one_fetch_share_the_answer_and_read_on_at_their_size(
    web: Web, tmp_path: Path
) -> None:
    for name in ("a", "b", "c"):
        web.docs[f"/{name}"] = Doc(_long(f"Long {name}", 120))
    web.docs["/short"] = Doc(_long("Short one", 2))
    urls = [web.url(path) for path in ("/a", "/short", "/b", "/c")]
    async with loopback_ferret(tmp_path, respect_robots=False, answer_tokens=1500) as ferret:
        tools = AgentTools(ferret, ferret.settings)
        answer = await tools.web_fetch(WebFetchArgs(urls=urls))
        entries = answer.data["pages"]
        assert entries[1]["pages"] == 1 and "page_tokens" not in entries[1]  # the short page whole
        long = [entries[0], entries[2], entries[3]]
        assert sum(estimate_tokens(entry["content"]) for entry in entries) <= 1500 * 1.1
        for entry in long:
            size = entry["page_tokens"]
            assert size < 1500 and entry["pages"] > 1
            call = f'web_open(handle="{entry["handle"]}", page=2, max_tokens={size})'
            assert entry["next"] == call and call in answer.text
            second = await tools.web_open(WebOpenArgs(handle=entry["handle"], page=2, max_tokens=size))
            whole = (await ferret.open(entry["handle"], 1, 100_000)).content
            first_end = whole.index(entry["content"][-60:]) + 60
            assert whole[first_end:].lstrip().startswith(second.data["content"][:60].strip())


async def test_a_search_s_read_pages_share_the_answer() -> None:
    hits = [Hit(url=f"https://example.org/{i}", handle=f"example.org~{i:04d}", tokens=9000) for i in range(4)]
    hits.insert(1, Hit(url="https://example.org/short", handle="example.org~shrt", tokens=80))
    sizes = shared_sizes(SearchResult(query="q", results=hits), 5, 4000, 2000)
    assert sizes["example.org~shrt"] >= 80  # read whole
    assert [sizes[f"example.org~{i:04d}"] for i in range(4)] == [(2000 - 80) // 4] * 4


async def test_a_max_tokens_asked_past_the_answer_budget_is_answered(web: Web, tmp_path: Path) -> None:
    """The budget bounds pages sharing an answer, not one page a call asked more of: with the setting at
    1,000, `web_fetch(url, max_tokens=3000)` answers a first page of 3,000 tokens, two pages half each."""
    web.docs["/a"] = Doc(_long("Long a", 120))
    web.docs["/b"] = Doc(_long("Long b", 120))
    async with loopback_ferret(tmp_path, respect_robots=False, answer_tokens=1000) as ferret:
        tools = AgentTools(ferret, ferret.settings)
        one = (await tools.web_fetch(WebFetchArgs(urls=[web.url("/a")], max_tokens=3000))).data["pages"]
        two = await tools.web_fetch(WebFetchArgs(urls=[web.url("/a"), web.url("/b")], max_tokens=3000))
    assert "page_tokens" not in one[0] and estimate_tokens(one[0]["content"]) > 2000
    assert [entry["page_tokens"] for entry in two.data["pages"]] == [1500, 1500]


async def test_a_page_asked_again_is_counted_at_the_size_it_is_shown_at(web: Web, tmp_path: Path) -> None:
    """A long page given twice (under another spelling of its URL) is shown once, at its share of the
    answer; the repeat's entry named its pages and its `next` at `max_tokens`, another page 2 than the
    one the shown entry's `next` reads for the same handle."""
    for name in ("a", "b", "c"):
        web.docs[f"/{name}"] = Doc(_long(f"Long {name}", 120))
    urls = [web.url(path) for path in ("/a", "/b", "/c")] + [web.url("/a") + "#again"]
    async with loopback_ferret(tmp_path, respect_robots=False, answer_tokens=1500) as ferret:
        answer = await AgentTools(ferret, ferret.settings).web_fetch(WebFetchArgs(urls=urls))
        first, again = answer.data["pages"][0], answer.data["pages"][3]
        assert again["handle"] == first["handle"] and again["content"] == ""
        assert first["page_tokens"] < 1500
        assert (again["pages"], again["next"]) == (first["pages"], first["next"])
        assert again.get("page_tokens") == first["page_tokens"]


async def test_a_result_read_in_place_of_a_lost_page_takes_a_share_too(web: Web, tmp_path: Path) -> None:
    """A result whose page the store no longer holds is passed over and the next read in its place; it
    had no share of its own and was read at the whole page size, past the answer's budget."""
    from webferret.search.reading import mark_shares, read_results

    for name in ("a", "b", "c"):
        web.docs[f"/{name}"] = Doc(_long(f"Long {name}", 120))
    async with loopback_ferret(tmp_path, respect_robots=False) as ferret:
        pages = [await ferret.fetch(web.url(f"/{name}")) for name in ("a", "b", "c")]
        lost = Hit(url="https://example.org/lost", handle="example.org~000000000000", tokens=9000)
        hits = [lost, *(Hit(url=page.url, handle=page.handle, tokens=page.tokens) for page in pages)]
        result = SearchResult(query="q", results=hits)
        sizes = shared_sizes(result, 2, 4000, 1000)
        read = await read_results(ferret, result, 2, 4000, sizes)
    entries = [page.model_dump(mode="json") for page in read]
    mark_shares(entries, sizes, 4000)
    assert [entry["handle"] for entry in entries] == [pages[0].handle, pages[1].handle]
    assert [entry["page_tokens"] for entry in entries] == [500, 500]
    assert all(estimate_tokens(entry["content"]) <= 550 for entry in entries)
