"""Which of the words the extraction looks for are in a page's HTML, from one pass over it.

Before a step searches the tree for something most pages lack (a forum's template, a formula, a consent
dialog, a set of tabs), it looks for a word of it in the page's HTML text, as the look is far cheaper
than the search. But a look for a word that is not there reads the whole text: 0.1-0.2 ms on an article
page of 170 KB, and a page had more than thirty of them, 2.7 ms of the 29 ms of its extraction.
`holds(page, word)` answers each look from one pass over the page: an Aho-Corasick automaton
(ahocorasick-rs) of every word asked for so far, run once over the page's UTF-8 bytes (0.3 ms on such
a page), its answer kept for that page (the last page each thread asked about, until `forget`: an
extraction forgets it at its end, so a long-lived thread holds no page's text between pages).
The pass reads the page a window at a time, each window searched only for the words not found before
it, so a page that repeats a word (a megabyte of `ccc`) costs what a page holding it once does: the
list of every match was 9 million tuples on such a page, 1.5 GB.

`holds(page, word)` is `word in page`, exactly: UTF-8 is self-synchronizing, so a word's bytes are in the
page's bytes where, and only where, the word is in the page. A module names its words once with `word`,
where it defines them, so the first page already finds them all in one pass; a word first met in
`holds` joins the automaton then.
"""

from __future__ import annotations

import threading

import ahocorasick_rs

_LOCK = threading.Lock()
_WORDS: dict[str, int] = {}
"""Every word asked for so far, with its index in the automaton's patterns."""
_BUILT: tuple[ahocorasick_rs.BytesAhoCorasick, list[bytes]] | None = None
"""The automaton of every word, and its patterns in the order of their indexes (one value: a reader
without the lock sees both of one build)."""
_LOCAL = threading.local()
WINDOW = 1 << 18
"""Bytes of a page searched at once (with the longest word's length less one beside them)."""


def word(text: str) -> str:
    """`text`, named as a word `holds` will be asked about (so that it joins the automaton before the
    first page is read)."""
    global _BUILT
    if not text:
        raise ValueError("a hint word cannot be empty")
    with _LOCK:
        if text not in _WORDS:
            _WORDS[text] = len(_WORDS)
            _BUILT = None
    return text


def holds(page: str, text: str) -> bool:
    """Whether the HTML text `page` holds `text` (as `text in page`)."""
    index = _WORDS.get(text)
    if index is None:
        index = _WORDS[word(text)]
    return index in _found(page)


def holds_any(page: str, texts: tuple[str, ...]) -> bool:
    """Whether `page` holds any of `texts`."""
    return any(holds(page, text) for text in texts)


def forget() -> None:
    """Drop this thread's kept answer, and with it the text of the page it was for."""
    _LOCAL.last = None


def _found(page: str) -> frozenset[int]:
    """The indexes of the words `page` holds: from the last look at this very text, or one pass."""
    automaton, patterns = _BUILT or _build()  # the lock only when a word was added
    last = getattr(_LOCAL, "last", None)
    if last is not None and last[0] is page and last[1] is automaton:
        return last[2]
    found = _search(page.encode("utf-8", "surrogatepass"), automaton, patterns)
    _LOCAL.last = (page, automaton, found)
    return found


def _search(data: bytes, automaton: ahocorasick_rs.BytesAhoCorasick, patterns: list[bytes]) -> frozenset[int]:
    """The indexes of `patterns` found in `data`, a window at a time; once a window finds a word, the
    next windows look only for the words still missing (a new automaton of them)."""
    view, overlap = memoryview(data), max(map(len, patterns)) - 1
    missing = list(range(len(patterns)))  # `automaton`'s pattern i is patterns[missing[i]]
    found: set[int] = set()
    for start in range(0, len(data), WINDOW):
        window = view[start : start + WINDOW + overlap]
        hits = {missing[i] for i, _, _ in automaton.find_matches_as_indexes(window, overlapping=True)}
        if hits:
            found |= hits
            missing = [i for i in missing if i not in hits]
            if not missing:
                break
            automaton = ahocorasick_rs.BytesAhoCorasick([patterns[i] for i in missing])
    return frozenset(found)


def _build() -> tuple[ahocorasick_rs.BytesAhoCorasick, list[bytes]]:
    global _BUILT
    with _LOCK:
        if _BUILT is None:
            patterns = [w.encode("utf-8", "surrogatepass") for w in sorted(_WORDS, key=_WORDS.__getitem__)]
            _BUILT = (ahocorasick_rs.BytesAhoCorasick(patterns), patterns)
        return _BUILT
