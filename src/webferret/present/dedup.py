"""Near-duplicate detection over the documents of one batch or one search listing.

Byte-exact copies are found by hash; near copies by the Jaccard similarity of their word shingles,
kept as copies when it reaches `threshold`. Up to `EXACT_LIMIT` distinct documents the similarity is
computed exactly (a few milliseconds); above it, by MinHash signatures (datasketch), whose import
alone costs seconds (scipy) and pays off only on large sets. Pure: texts in, a mapping out.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any

from webferret.models import Page

SHINGLE_WORDS = 5
NUM_PERM = 128
EXACT_LIMIT = 64
SHINGLE_CACHE = 64
LSH_MARGIN = 0.15
_WORD = re.compile(r"\w+")


def shingles(text: str, size: int = SHINGLE_WORDS) -> set[str]:
    """Overlapping runs of `size` lower-cased words (the whole text when it is shorter)."""
    words = _WORD.findall(text.lower())
    if len(words) <= size:
        return {" ".join(words)} if words else set()
    return {" ".join(words[i : i + size]) for i in range(len(words) - size + 1)}


@lru_cache(maxsize=SHINGLE_CACHE)
def _shingle_set(text: str) -> frozenset[str]:
    """`shingles(text)`, remembered: a search marks the copies of its batch, then of its listing,
    over the same page texts (a str keeps its hash, so a hit costs no rehashing)."""
    return frozenset(shingles(text))


def _jaccard(a: frozenset[str], b: frozenset[str]) -> float:
    common = len(a & b)
    return common / ((len(a) + len(b) - common) or 1)


def _minhash(text: str) -> Any:
    from datasketch import MinHash

    signature = MinHash(num_perm=NUM_PERM, seed=1)
    for shingle in shingles(text):
        signature.update(shingle.encode("utf-8"))
    return signature


def _similarity(texts: Sequence[str], chosen: Sequence[int], exact: bool) -> Callable[[int, int], float]:
    """A Jaccard estimate between two of the `chosen` texts, by index."""
    if len(chosen) < 2:
        return lambda a, b: 0.0
    if exact:
        sets = {i: _shingle_set(texts[i]) for i in chosen}
        return lambda a, b: _jaccard(sets[a], sets[b])
    signatures = {i: _minhash(texts[i]) for i in chosen}
    return lambda a, b: float(signatures[a].jaccard(signatures[b]))


def _better(a: int, b: int, preference: Sequence[float]) -> bool:
    """Is document `a` a better copy to keep than `b`? Higher preference, then the earlier one."""
    return (preference[a], -a) > (preference[b], -b)


def near_duplicates(
    texts: Sequence[str],
    preference: Sequence[float],
    threshold: float,
    *,
    exact: bool | None = None,
) -> dict[int, int]:
    """Map the index of every dropped copy to the index of the copy kept in its place.

    Copies form groups (transitively); each group keeps its most preferred member. Empty texts
    are never duplicates of anything. `exact` forces (True) or forbids (False) exact Jaccard.
    """
    if len(preference) != len(texts):
        raise ValueError(f"{len(texts)} texts but {len(preference)} preferences")
    parent = list(range(len(texts)))

    def root(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def join(a: int, b: int) -> None:
        ra, rb = root(a), root(b)
        if ra != rb:
            keep, drop = (ra, rb) if _better(ra, rb, preference) else (rb, ra)
            parent[drop] = keep

    live = [i for i, text in enumerate(texts) if text.strip()]
    seen: dict[str, int] = {}
    for i in live:
        digest = hashlib.sha256(texts[i].encode("utf-8")).hexdigest()
        if digest in seen:
            join(seen[digest], i)
        else:
            seen[digest] = i
    distinct = list(seen.values())
    similar = _similarity(texts, distinct, exact=len(distinct) <= EXACT_LIMIT if exact is None else exact)
    for pos, a in enumerate(distinct):
        for b in distinct[pos + 1 :]:
            if similar(a, b) >= threshold:
                join(a, b)
    return {i: root(i) for i in range(len(texts)) if root(i) != i}


def _preference(page: Page) -> float:
    """Keep the copy of best extraction quality, then the longer one."""
    quality = page.quality if page.quality is not None else 0.5
    return quality + min(page.word_count, 100_000) / 1e7


def prepare(page: Page, batch: int) -> None:
    """Shingle a page of a `batch` of pages as it arrives (while others are on the wire), so marking
    the batch's copies once the last one is in compares only. Not for a page alone (a `fetch(url)`,
    a crawl's page: nothing to compare it with, and a big page's shingles hold the event loop up) nor
    for a batch too big for exact similarity (see `EXACT_LIMIT`), which does not use the shingle sets."""
    if 1 < batch <= EXACT_LIMIT and page.ok and page.content.strip():
        _shingle_set(page.content)


def mark_duplicates(pages: Sequence[Page], threshold: float) -> list[Page]:
    """`pages` with every dropped near-copy marked `duplicate_of` the kept one's handle (or URL);
    a page asked for twice (one handle, as `URL` and `URL#top`) is no copy of itself."""
    texts = [page.content if page.ok else "" for page in pages]
    dropped = near_duplicates(texts, [_preference(page) for page in pages], threshold)
    out = list(pages)
    for index, kept in dropped.items():
        other = pages[kept]
        if other.handle is None or other.handle != pages[index].handle:
            out[index] = pages[index].model_copy(
                update={"duplicate_of": other.handle or other.final_url or other.url}
            )
    return out


class StreamCopies:
    """Near-duplicates in a stream of pages, each judged against the pages before it (`fetch
    --jsonl` writes a page as soon as it is finished, so the later copy is the one marked, whatever
    its quality). Byte-exact copies by hash; near copies by exact Jaccard against the first
    `EXACT_LIMIT` distinct pages, then by MinHash LSH (datasketch) over all of them."""

    def __init__(self, threshold: float) -> None:
        self.threshold = threshold
        self._digests: dict[str, str] = {}
        self._texts: list[tuple[str, frozenset[str], str]] = []  # (text, shingles, name), while exact
        self._lsh: Any = None
        self._names: list[str] = []  # by LSH key (an index into these lists), once the index exists
        self._signatures: list[Any] = []

    def marked(self, page: Page) -> Page:
        """`page`, with `duplicate_of` naming the earlier page it is a copy of (`copy_of`)."""
        copy = self.copy_of(page)
        return page if copy is None else page.model_copy(update={"duplicate_of": copy})

    def copy_of(self, page: Page) -> str | None:
        """The handle (or URL) of an earlier page that `page` is a copy of; else remember `page`.
        A page read twice (one handle, as `URL` and `URL#top`) is no copy of itself."""
        if not page.ok:
            return None
        name = page.handle or page.final_url or page.url
        copy = self.first_copy(page.content, name)
        return None if copy == name and page.handle else copy

    def first_copy(self, text: str, name: str) -> str | None:
        """The name of an earlier text that `text` is a copy of; else remember `text` as `name`.
        An empty text is never a copy, nor remembered."""
        if not text.strip():
            return None
        digest = hashlib.sha256(text.encode("utf-8")).hexdigest()
        if digest in self._digests:
            return self._digests[digest]
        self._digests[digest] = name
        if self._lsh is None and len(self._texts) < EXACT_LIMIT:
            mine = _shingle_set(text)  # shingled already when the caller `prepare`d the page
            for _, theirs, other in self._texts:
                if _jaccard(mine, theirs) >= self.threshold:
                    return other
            self._texts.append((text, mine, name))
            return None
        return self._indexed(text, name)

    def _indexed(self, text: str, name: str) -> str | None:
        if self._lsh is None:
            from datasketch import MinHashLSH

            # banded below the threshold so that a copy just above it is a candidate nearly always
            self._lsh = MinHashLSH(threshold=max(0.5, self.threshold - LSH_MARGIN), num_perm=NUM_PERM)
            for earlier, _, other in self._texts:
                self._index(_minhash(earlier), other)
            self._texts = []
        signature = _minhash(text)
        for key in sorted(self._lsh.query(signature)):  # LSH candidates, checked on their signatures
            if float(signature.jaccard(self._signatures[key])) >= self.threshold:
                return self._names[key]
        self._index(signature, name)
        return None

    def _index(self, signature: Any, name: str) -> None:
        self._lsh.insert(len(self._names), signature)
        self._names.append(name)
        self._signatures.append(signature)
