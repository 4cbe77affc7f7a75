"""trafilatura's justext rescue, without its slow first-use stoplist build.

When trafilatura's own pass finds little text it runs justext with one stoplist made of every
language's stopwords (about 150,000 words). Stock, that list is built on first use by decoding and
lower-casing each word in Python (~0.2 s), then `justext.core.define_stoplist` lower-cases it into a
set once more (~0.1 s, cached after). Here the same set is built from whole files at once (~0.05 s,
identical content, checked by a test) and handed to justext for that very tuple; any other
argument goes to justext's own function as before.

justext only asks whether a word is in the set, so it gets the words as the keys of a dict of None:
Python's cycle collector passes over a dict of strings, where it reads every member of a set on each
full collection (150,000 of the process's 460,000 references: 17 ms a collection, a third of it
this set).
"""

from __future__ import annotations

import pkgutil
import re
from collections.abc import Callable, Container
from typing import Any

ODD_LINE_BREAKS = re.compile("[\r\x0b\x0c\x1c-\x1e\x85\u2028\u2029]")
"""Line breaks where `str.splitlines` and justext's `bytes.splitlines` would split differently."""

_memo: dict[int, tuple[tuple[str, ...], Container[str]]] = {}
_stock_init: list[Callable[[], tuple[str, ...]]] = []


def all_stopwords() -> frozenset[str] | None:
    """Every justext stopword, lower-cased, as justext reads them; None if a file is unusual."""
    from justext.utils import get_stoplists

    words: set[str] = set()
    for language in get_stoplists():
        data = pkgutil.get_data("justext", f"stoplists/{language}.txt")
        if data is None:
            return None
        text = data.decode("utf-8")
        if ODD_LINE_BREAKS.search(text):
            return None
        words.update(text.lower().splitlines())
    return frozenset(words)


def memoize_stoplists() -> None:
    """Route justext's `define_stoplist` through the memo and trafilatura's stoplist build through
    `build_stoplist` (once per process; each page that needs them then pays nothing or once)."""
    try:
        from justext import core
        from trafilatura import external
    except ImportError:
        return
    original = core.define_stoplist
    if getattr(original, "memoized", False):
        return

    def define_stoplist(stoplist: Any) -> Container[str]:
        if type(stoplist) is not tuple:
            return original(stoplist)
        hit = _memo.get(id(stoplist))
        if hit is None or hit[0] is not stoplist:
            hit = _memo[id(stoplist)] = (stoplist, original(stoplist))
        return hit[1]

    define_stoplist.memoized = True  # type: ignore[attr-defined]
    core.define_stoplist = define_stoplist
    if hasattr(external, "jt_stoplist_init"):
        _stock_init.append(external.jt_stoplist_init)
        external.jt_stoplist_init = build_stoplist


def build_stoplist() -> tuple[str, ...]:
    """trafilatura's `jt_stoplist_init`, built from whole files: sets and answers `JT_STOPLIST`."""
    from trafilatura import external

    words = all_stopwords()
    if words is None:  # an unusual stoplist file: trafilatura builds it its own way
        return _stock_init[0]() if _stock_init else ()
    stoplist = tuple(words)
    _memo[id(stoplist)] = (stoplist, dict.fromkeys(words))  # untracked by the collector: see the module
    external.JT_STOPLIST = stoplist
    return stoplist


def prepare_stoplists() -> None:
    """Build trafilatura's all-language stoplist and its set for justext now, if not yet built."""
    memoize_stoplists()
    try:
        from trafilatura import external
    except ImportError:
        return
    if not getattr(external, "JT_STOPLIST", None):
        external.jt_stoplist_init()
