"""Near-duplicates: byte-exact by hash, near copies by word-shingle Jaccard (exact or MinHash)."""

from __future__ import annotations

import random

import pytest

from webferret.models import Page
from webferret.present.dedup import EXACT_LIMIT, StreamCopies, mark_duplicates, near_duplicates, shingles

WORDS = ["ferret", "otter", "badger", "stoat", "weasel", "mink", "marten", "polecat", "wolverine", "sable"]


def _essay(seed: int, n: int = 400) -> str:
    rng = random.Random(seed)
    return " ".join(rng.choice(WORDS) + str(rng.randrange(50)) for _ in range(n))


def _edit(text: str, changes: int, seed: int) -> str:
    words = text.split()
    rng = random.Random(seed)
    for _ in range(changes):
        words[rng.randrange(len(words))] = "changed"
    return " ".join(words)


def test_byte_exact_copies_keep_the_preferred_one() -> None:
    texts = ["same words here", "other words", "same words here"]
    assert near_duplicates(texts, [0.1, 0.5, 0.9], 0.9) == {0: 2}
    assert near_duplicates(texts, [0.5, 0.5, 0.5], 0.9) == {2: 0}


@pytest.mark.parametrize("exact", [True, False])
def test_near_copies_are_found_and_distinct_texts_are_not(exact: bool) -> None:
    base = _essay(1)
    texts = [base, _edit(base, 2, seed=2), _essay(3), _edit(base, 150, seed=4)]
    dropped = near_duplicates(texts, [0.5, 0.9, 0.5, 0.5], 0.9, exact=exact)
    assert dropped == {0: 1}


@pytest.mark.parametrize("exact", [True, False])
def test_groups_are_transitive_and_keep_one_best(exact: bool) -> None:
    base = _essay(5)
    texts = [base, _edit(base, 1, 6), _edit(base, 1, 7), ""]
    dropped = near_duplicates(texts, [0.2, 0.3, 0.8, 1.0], 0.9, exact=exact)
    assert dropped == {0: 2, 1: 2}


def test_threshold_decides() -> None:
    base = _essay(8)
    edited = _edit(base, 20, 9)
    assert near_duplicates([base, edited], [1, 0], 0.5) == {1: 0}
    assert near_duplicates([base, edited], [1, 0], 0.99) == {}


def test_empty_texts_and_mismatched_preferences() -> None:
    assert near_duplicates(["", " ", ""], [1, 1, 1], 0.9) == {}
    assert near_duplicates([], [], 0.9) == {}
    with pytest.raises(ValueError, match="2 texts but 1 preferences"):
        near_duplicates(["a", "b"], [1], 0.9)


def test_shingles_of_short_text() -> None:
    assert shingles("Two words") == {"two words"}
    assert len(shingles("a b c d e f")) == 2


def test_mark_duplicates_points_at_the_kept_handle() -> None:
    text = _essay(10)
    pages = [
        Page(url="https://a.example/x", ok=True, content=text, handle="a.example~111111111111", quality=0.4),
        Page(url="https://b.example/x", ok=True, content=text, handle="b.example~222222222222", quality=0.8),
        Page.failed("https://c.example/x", error={"code": "timeout", "message": "slow"}),  # type: ignore[arg-type]
    ]
    marked = mark_duplicates(pages, 0.9)
    assert [p.duplicate_of for p in marked] == ["b.example~222222222222", None, None]


def test_one_page_asked_twice_is_no_duplicate_of_itself() -> None:
    """`fetch URL URL#top`: one handle, read twice; neither copy is `duplicate_of` its own handle."""
    text, handle = _essay(10), "a.example~111111111111"
    pages = [
        Page(url="https://a.example/x", ok=True, content=text, handle=handle),
        Page(url="https://a.example/x#top", ok=True, content=text, handle=handle),
        Page(url="https://b.example/x", ok=True, content=text, handle="b.example~222222222222", quality=0.1),
    ]
    assert [p.duplicate_of for p in mark_duplicates(pages, 0.9)] == [None, None, handle]


def test_prepared_pages_are_marked_the_same_and_compared_from_the_remembered_shingles() -> None:
    from webferret.present.dedup import _shingle_set, prepare

    text = " ".join(f"word{i}" for i in range(300))
    pages = [
        Page(url=f"https://ex.org/{n}", ok=True, content=text + (" tail" if n else "")) for n in range(3)
    ]
    _shingle_set.cache_clear()
    for page in pages:
        prepare(page, len(pages))
    assert _shingle_set.cache_info().currsize == 2  # two distinct texts
    marked = mark_duplicates(pages, 0.8)
    assert _shingle_set.cache_info().hits >= 2
    assert [page.duplicate_of for page in marked] == [None, "https://ex.org/0", "https://ex.org/0"]
    other = Page(url="https://ex.org/other", ok=True, content="a different page altogether " * 20)
    prepare(other, 1000)  # too big a batch for exact similarity: nothing shingled
    assert _shingle_set.cache_info().currsize == 2


def test_a_page_fetched_alone_is_not_shingled() -> None:
    """A fetch of one page (`fetch(url)`, a crawl's page) compares it with nothing: shingling it on
    the event loop only held the loop up (a 5 MB page: 0.3 s)."""
    from webferret.present.dedup import _shingle_set, prepare

    page = Page(url="https://ex.org/alone", ok=True, content="a page with no other page to match " * 50)
    _shingle_set.cache_clear()
    prepare(page, 1)
    assert [p.duplicate_of for p in mark_duplicates([page], 0.8)] == [None]
    assert _shingle_set.cache_info().currsize == 0


def _page(n: int, text: str) -> Page:
    return Page(url=f"https://s{n}.example/", ok=True, content=text, handle=f"s{n}.example~{n:012d}")


@pytest.mark.parametrize("distinct", [3, EXACT_LIMIT + 6])  # exact Jaccard, then the MinHash index
def test_a_stream_marks_each_copy_against_the_pages_before_it(distinct: int) -> None:
    copies = StreamCopies(0.9)
    essays = [_essay(100 + n) for n in range(distinct)]
    assert [copies.copy_of(_page(n, text)) for n, text in enumerate(essays)] == [None] * distinct
    later = [
        _page(900, essays[1]),  # byte-exact
        _page(901, _edit(essays[2], 3, seed=4)),  # a near copy
        _page(902, _edit(essays[0], 200, seed=5)),  # half rewritten: not a copy
        _page(903, ""),  # empty: never a copy
        Page.failed("https://f.example/", error={"code": "timeout", "message": "slow"}),  # type: ignore[arg-type]
    ]
    assert [copies.copy_of(page) for page in later] == [
        _page(1, "").handle,
        _page(2, "").handle,
        None,
        None,
        None,
    ]
    assert copies.copy_of(_page(904, _edit(essays[0], 200, seed=5))) == _page(902, "").handle


def test_a_stream_does_not_mark_a_page_a_copy_of_itself() -> None:
    copies = StreamCopies(0.9)
    text = _essay(7)
    first = _page(1, text)
    again = first.model_copy(update={"url": first.url + "#top"})  # one handle, asked for twice
    assert [copies.copy_of(first), copies.copy_of(again), copies.copy_of(_page(2, text))] == [
        None,
        None,
        first.handle,
    ]
