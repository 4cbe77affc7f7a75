"""The fast stoplist build gives justext exactly the stock set, and the memo answers it for the same tuple."""

from __future__ import annotations

import gc

from justext import core, utils
from trafilatura import external

from webferret.extract.stoplists import all_stopwords, memoize_stoplists, prepare_stoplists


def stock_set() -> frozenset[str]:
    """What stock trafilatura + justext compute: each language's list, united, lower-cased."""
    words = {word for language in utils.get_stoplists() for word in utils.get_stoplist(language)}
    return frozenset(word.lower() for word in words)


def test_fast_build_equals_the_stock_stoplist() -> None:
    assert all_stopwords() == stock_set()


def test_justext_gets_the_same_set_once_per_tuple() -> None:
    memoize_stoplists()
    prepare_stoplists()
    stoplist = external.JT_STOPLIST
    assert isinstance(stoplist, tuple) and len(stoplist) > 100_000
    first = core.define_stoplist(stoplist)
    assert set(first) == stock_set() and all(word in first for word in stock_set())
    assert not gc.is_tracked(first)  # the collector never reads 150,000 words on a full collection
    assert core.define_stoplist(stoplist) is first  # built once, not again for the next page
    other = ("The", "And")
    assert core.define_stoplist(other) == frozenset({"the", "and"})  # other inputs as before
