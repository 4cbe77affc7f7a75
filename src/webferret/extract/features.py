"""Numbers the block classifier decides on: per block text and DOM features, page signals, context."""

from __future__ import annotations

import math
import re
from collections.abc import Collection
from dataclasses import dataclass
from functools import lru_cache
from urllib.parse import urlsplit

import numpy as np
from lxml import etree

from webferret.extract import blocks as B

WORD_RE = re.compile(r"\w+")
NORM_RE = re.compile(r"\W+")
# read case-insensitively on the HTML as it is, their matches lower-cased: lower-casing the page's first
# 400,000 characters to search them took longer than the searches (0.8 ms of an article page)
JSONLD_TYPE_RE = re.compile(r'"@type"\s*:\s*\[?\s*"(?:https?://schema\.org/)?(\w+)"', re.IGNORECASE)
OG_TYPE_RE = re.compile(r"""property=["']og:type["'][^>]*content=["']([\w.:-]+)""", re.IGNORECASE)
TYPE_GROUPS = (
    ("product", "offer", "aggregateoffer", "productgroup"),
    ("article", "newsarticle", "blogposting", "reportagenewsarticle", "techarticle", "scholarlyarticle"),
    ("discussionforumposting", "qapage", "question", "answer", "comment", "socialmediaposting"),
    ("itemlist", "collectionpage", "searchresultspage", "offercatalog"),
    ("faqpage", "howto", "recipe", "event", "jobposting", "localbusiness", "organization"),
)
URL_GROUPS = (
    re.compile(r"/(category|categories|tag|tags|collections?|c|shop|catalog|browse|topics?|archive)/"),
    re.compile(r"/(forum|forums|thread|threads|t|topic|discussion|questions|community|r)/"),
    re.compile(r"/(product|products|p|dp|item|itm|buy)/"),
    re.compile(r"/(docs?|documentation|api|reference|guide|manual|learn|tutorial|wiki)/"),
    re.compile(r"/(blog|news|article|articles|posts?|\d{4}/\d{2})/"),
)
TAG_GROUPS = (
    {"p"},
    B.HEADINGS,
    {"li"},
    {"pre"},
    {"table"},
    {"td", "th", "tr"},
    {"div", "section", "article", "main"},
    {"dd", "dt", "dl"},
    {"blockquote"},
    {"figcaption", "figure", "caption"},
)
FLAG_BITS = tuple(1 << i for i in range(16))
FLAG_VECTOR = np.array(FLAG_BITS, dtype=np.int64)


def normalize(text: str) -> str:
    """Lower-case words separated by single spaces, padded so substring tests match whole words."""
    return f" {NORM_RE.sub(' ', text.lower()).strip()} "


def normalized(element: etree._Element) -> str:
    """`normalize` of an element's whole text (its descendants' too), as a block's text is compared."""
    return normalize("".join(element.itertext()))


@dataclass(frozen=True)
class Reference:
    """What a reference extractor (trafilatura) kept, in a form cheap to test blocks against."""

    main: str
    comments: str
    main_words: frozenset[str]
    main_lines: frozenset[str]

    @classmethod
    def of(cls, main: str, comments: str) -> Reference:
        # one pass over the text: every line break is a non-word character, so the whole text normalized
        # is its lines' normalized words joined, and its words are those (half the time of three passes)
        lines = [NORM_RE.sub(" ", line).strip() for line in main.lower().splitlines()]
        words = " ".join(filter(None, lines))
        lines_set = frozenset(f" {line} " for line in lines)
        return cls(f" {words} ", normalize(comments), frozenset(words.split()), lines_set)

    def kept(self, norm: str, n_words: int) -> bool:
        """Whether trafilatura kept this text: a whole line when short, else anywhere in its text."""
        if n_words < 4:
            return norm in self.main_lines
        return norm in self.main


def page_signals(html: str, url: str | None, n_words: int, n_blocks: int, ref: Reference) -> list[float]:
    """Page-level features: size, what trafilatura kept, declared types, URL shape."""
    head = html[:400_000]
    types = {t.lower() for t in JSONLD_TYPE_RE.findall(head)}
    og = OG_TYPE_RE.search(head)
    og_type = og.group(1).lower() if og else ""
    parts = urlsplit(url or "")
    path = parts.path.lower() + "/"
    ref_words = max(len(ref.main.split()), 0)
    values = [
        math.log1p(n_words),
        math.log1p(n_blocks),
        math.log1p(ref_words),
        ref_words / (n_words + 1),
        math.log1p(len(ref.comments.split())),
        *(float(any(t in types for t in group)) for group in TYPE_GROUPS),
        float("article" in og_type),
        float("product" in og_type),
        float(og_type in ("website", "")),
        float(path.count("/") - 1),
        float(bool(parts.query)),
        float(path in ("/", "//")),
        *(float(bool(rx.search(path))) for rx in URL_GROUPS),
    ]
    return values


def block_words(block: B.Block) -> list[str]:
    """A block's lower-case words, read once (the features and the trims all need them)."""
    if block.words is None:
        block.words = WORD_RE.findall(block.text.lower())
    return block.words


def block_norm(block: B.Block) -> str:
    """`normalize(block.text)`, made once from the block's words (the same word runs, one regex less)."""
    if not block.norm:
        block.norm = f" {' '.join(block_words(block))} "
    return block.norm


def _basics(block: B.Block, ref: Reference) -> tuple[list[str], str, float]:
    """A block's words, its normalized text, and whether trafilatura kept it (1.0 or 0.0)."""
    words, norm = block_words(block), block_norm(block)
    return words, norm, float(len(norm) > 2 and ref.kept(norm, len(words)))


def _text_features(block: B.Block, ref: Reference) -> list[float]:
    text = block.text
    words, norm, kept = _basics(block, ref)
    n_words, n_chars = len(words), len(text)
    overlap = sum(map(ref.main_words.__contains__, words)) / n_words if n_words else 0.0
    tag = block.element.tag if isinstance(block.element.tag, str) else ""
    return [
        math.log1p(n_words),
        math.log1p(n_chars),
        min(block.link_chars / (n_chars or 1), 1.0),
        float(block.n_links),
        sum(text.count(c) for c in ".,;:!?") / (n_words or 1),
        float(text[-1:] in ".!?:"),
        n_chars / (n_words or 1),
        _digits(text) / (n_chars or 1),
        float(block.depth),
        kept,
        float(len(norm) > 2 and norm in ref.comments),
        overlap,
        *_tag_columns(tag),
    ]


def _digits(text: str) -> int:
    """How many characters of `text` are digits (`str.isdigit`); in ASCII text only 0-9 are."""
    if text.isascii():
        return sum(map(text.count, "0123456789"))
    return sum(map(str.isdigit, text))


@lru_cache(maxsize=256)
def _tag_columns(tag: str) -> tuple[float, ...]:
    return tuple(float(tag in group) for group in TAG_GROUPS)


def _flag_columns(blocks: list[B.Block]) -> np.ndarray:
    """One 0/1 column per ancestor flag bit (`blocks.F_*`)."""
    flags = np.array([b.flags for b in blocks], dtype=np.int64)
    return ((flags[:, None] & FLAG_VECTOR) != 0).astype(float)


IN_MAIN, LINK_DENSITY, N_WORDS = 9, 2, 0  # indexes into _text_features


def _group_mean(keys: list[object], values: np.ndarray, weights: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Per block: the weighted mean of `values` over blocks with the same key, and the group size."""
    index: dict[object, int] = {}
    ids = np.array([index.setdefault(k, len(index)) for k in keys])
    sums = np.bincount(ids, weights=values * weights, minlength=len(index))
    totals = np.bincount(ids, weights=weights, minlength=len(index))
    counts = np.bincount(ids, minlength=len(index))
    return (sums / np.maximum(totals, 1e-9))[ids], counts[ids].astype(float)


def _window_mean(values: np.ndarray, radius: int) -> np.ndarray:
    padded = np.concatenate([np.zeros(radius), values, np.zeros(radius)])
    csum = np.concatenate([[0.0], np.cumsum(padded)])
    return (csum[2 * radius + 1 :] - csum[: -2 * radius - 1]) / (2 * radius + 1)


def _own_columns(blocks: list[B.Block], ref: Reference, rows: Collection[int] | None) -> np.ndarray:
    """`_text_features` of the blocks; with `rows`, of those only, the other rows holding just the
    columns the context of every block is made of (its words, link density, whether trafilatura kept
    it) and NaN elsewhere."""
    if not rows:
        return np.array([_text_features(b, ref) for b in blocks], dtype=float)
    whole = {i: _text_features(blocks[i], ref) for i in rows}
    out = np.full((len(blocks), len(next(iter(whole.values())))), np.nan)
    for i, block in enumerate(blocks):
        if i in whole:
            out[i] = whole[i]
            continue
        words, _, kept = _basics(block, ref)
        out[i, N_WORDS] = math.log1p(len(words))
        out[i, LINK_DENSITY] = min(block.link_chars / (len(block.text) or 1), 1.0)
        out[i, IN_MAIN] = kept
    return out


def matrix(
    blocks: list[B.Block],
    html: str,
    url: str | None,
    ref: Reference,
    rows: Collection[int] | None = None,
    second: Reference | None = None,
) -> np.ndarray:
    """The feature matrix of a page: one row per block. With `rows` (block indexes), only those rows are
    whole (the same values as without), the others NaN but in the columns their neighbours' need.
    With `second` (a second reference extractor's text), its columns (`second_columns`) come before
    the page signals."""
    own = np.hstack([_own_columns(blocks, ref, rows), _flag_columns(blocks)])
    n = len(blocks)
    chars = np.array([len(b.text) for b in blocks], dtype=float)
    words = np.expm1(own[:, N_WORDS])
    link = own[:, LINK_DENSITY]
    where = Places.of(blocks)
    kept = where.shares(own[:, IN_MAIN], chars)
    _, parent_count = _group_mean(where.parents, link, chars)
    sig_link, sig_count = _group_mean(where.signatures, link, chars)
    cum = np.cumsum(chars) - chars
    context = np.column_stack(
        [
            np.arange(n) / max(n - 1, 1),
            cum / max(chars.sum(), 1.0),
            kept["before"],
            kept["after"],
            np.concatenate([[1.0], link[:-1]]),
            np.concatenate([link[1:], [1.0]]),
            kept["window3"],
            kept["window10"],
            _window_mean(link, 3),
            kept["parent"],
            np.log1p(parent_count),
            kept["signature"],
            np.log1p(sig_count),
            sig_link,
        ]
    )
    page = np.tile(page_signals(html, url, int(words.sum()), n, ref), (n, 1))
    extra = [] if second is None else [second_columns(blocks, where, second, own[:, IN_MAIN], chars)]
    return np.hstack([own, context, _region(blocks, where, kept, chars), *extra, page])


@dataclass
class Places:
    """Where each block of a page sits: its parent, its signature, its ancestors (nearest first)."""

    parents: list[object]
    signatures: list[object]
    ancestors: list[list[object]]

    @classmethod
    def of(cls, blocks: list[B.Block]) -> Places:
        return cls(
            [b.element.getparent() for b in blocks],
            [b.signature for b in blocks],
            [list(b.element.iterancestors()) for b in blocks],
        )

    def level(self, level: int) -> list[object]:
        """Each block's ancestor `level` steps above its parent (None above the root)."""
        return [a[level] if len(a) > level else None for a in self.ancestors]

    def shares(self, kept: np.ndarray, chars: np.ndarray) -> dict[str, np.ndarray]:
        """The context of one reference extractor's choice (`kept`, 0/1 per block): whether the blocks
        before and after were kept, the kept share of the nearby blocks, of the block's parent, of its
        signature and (character weighted) of its ancestors one, two and four levels up."""
        out = {
            "before": np.concatenate([[0.0], kept[:-1]]),
            "after": np.concatenate([kept[1:], [0.0]]),
            "window3": _window_mean(kept, 3),
            "window10": _window_mean(kept, 10),
            "parent": _group_mean(self.parents, kept, chars)[0],
            "signature": _group_mean(self.signatures, kept, chars)[0],
        }
        for level in REGION_LEVELS:
            out[f"region{level}"] = _group_mean(self.level(level), kept, chars)[0]
        return out


REGION_LEVELS = (1, 2, 4)
N_SECOND = 1 + 6 + len(REGION_LEVELS) + 5  # the columns of `second_columns`


def second_columns(blocks: list[B.Block], where: Places, second: Reference, first: np.ndarray,
                   chars: np.ndarray) -> np.ndarray:  # fmt: skip
    """A second reference extractor's choice as columns: its own flag per block, the same context as
    trafilatura's (`Places.shares`), and page columns: the share of the page's words it keeps, and how
    far it agrees with trafilatura's choice (`first`), by characters."""
    kept = np.array([_basics(b, second)[2] for b in blocks], dtype=float)
    shares = where.shares(kept, chars)
    total = max(chars.sum(), 1.0)
    n_words = sum(len(WORD_RE.findall(b.text)) for b in blocks)
    page = [
        math.log1p(len(second.main.split())),
        len(second.main.split()) / (n_words + 1),
        float(chars[kept == first].sum() / total),
        float(chars[(kept > 0) & (first == 0)].sum() / total),
        float(chars[(kept == 0) & (first > 0)].sum() / total),
    ]
    n = len(blocks)
    return np.hstack([kept[:, None], np.column_stack(list(shares.values())), np.tile(page, (n, 1))])


def _region(
    blocks: list[B.Block], where: Places, kept: dict[str, np.ndarray], chars: np.ndarray
) -> np.ndarray:
    """Where the block sits: what trafilatura kept around it, and its relation to the page's title heading."""
    columns = []
    total = max(chars.sum(), 1.0)
    for level in REGION_LEVELS:
        keys = where.level(level)
        index: dict[object, float] = {}
        for key, c in zip(keys, chars, strict=True):
            index[key] = index.get(key, 0.0) + c
        columns += [kept[f"region{level}"], np.array([index[k] / total for k in keys])]
    texts = [b.text for b in blocks]
    seen: dict[str, int] = {}
    for t in texts:
        seen[t] = seen.get(t, 0) + 1
    columns.append(np.array([float(seen[t] > 1) for t in texts]))
    columns += _title_relation(blocks, where.ancestors)
    return np.column_stack(columns)


def _title_relation(blocks: list[B.Block], ancestors: list[list[object]]) -> list[np.ndarray]:
    n = len(blocks)
    first = next((i for i, b in enumerate(blocks) if b.element.tag == "h1"), None)
    if first is None:
        return [np.zeros(n), np.zeros(n), np.zeros(n)]
    h1_chain = set(map(id, ancestors[first]))
    shared = np.array(
        [next((d for d, a in enumerate(chain) if id(a) in h1_chain), 30) for chain in ancestors]
    )
    return [np.ones(n), (np.arange(n) - first) / max(n, 1), np.minimum(shared, 30) / 30]
