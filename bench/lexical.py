"""A sparse linear score of what a block's words and markup say: one more input for the block classifier
(an experiment of bench/train_blocks.py --lexical and bench/lexical_cv.py, not shipped: with folds grouped
by domain it gained 0.0025 bow F1, by page with the shipped model's size nothing; see
docs/extraction-rounds.md, the fourth round).

Every block gives hashed tokens of three families: the words of its text (lower-cased, with the bigrams
of its first words), the class and id tokens of its element and its ancestors (split on punctuation
and camelCase, tagged with how far up they are) and its tag path. A logistic regression over the
hashed tokens (bench/lexical_fit.py) scores each block; the trees see that score as their last
feature column.

Model file: {"version": 1, "bits": int, "families": [...], "bias": float,
"scale": float, "weights": base64 of int8 weights (weight = int8 * scale)}.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import zlib
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Any

import lxml.html
import numpy as np

from webferret.extract import blocks as B

FAMILIES = ("words", "attrs", "tags")
WORD_RE = re.compile(r"[^\W\d_]+|\d+")
ATTR_SPLIT_RE = re.compile(r"[^a-zA-Z0-9]+")
CAMEL_RE = re.compile(r"[a-z0-9]+|[A-Z][a-z0-9]*")
MAX_WORDS = 64  # words of a block's text hashed (its first ones; a long block says enough by then)
MAX_BIGRAMS = 16
ANCESTORS = 8  # levels of class/id tokens above the block
PATH_TAGS = 3  # tags of the tag path
DEPTH_BUCKETS = (0, 1, 2, 2, 3, 3, 3, 3, 3)  # per level up (0 = the block itself)


def _bucket(level: int) -> int:
    return DEPTH_BUCKETS[min(level, len(DEPTH_BUCKETS) - 1)]


@lru_cache(maxsize=8192)
def attribute_tokens(value: str) -> tuple[str, ...]:
    """The lower-cased tokens of a class or id value: "productDescription main-col" gives
    ("product", "description", "main", "col"). Digits-only pieces and one-letter pieces are left out."""
    out: list[str] = []
    for piece in ATTR_SPLIT_RE.split(value):
        for token in CAMEL_RE.findall(piece):
            token = token.lower()
            if len(token) > 1 and not token.isdigit():
                out.append(token)
    return tuple(out)


def _words(text: str) -> list[str]:
    return [w if not w[0].isdigit() else "0" for w in WORD_RE.findall(text[:2000].lower())[:MAX_WORDS]]


def word_tokens(text: str) -> list[str]:
    """The block's words (its first `MAX_WORDS`, lower-cased, numbers as "0") and its first bigrams."""
    words = _words(text)
    grams = [f"{a} {b}" for a, b in itertools.pairwise(words[: MAX_BIGRAMS + 1])]
    return [f"w:{w}" for w in words] + [f"b:{g}" for g in grams]


def _crc(token: str) -> int:
    return zlib.crc32(token.encode())


@lru_cache(maxsize=65536)
def _word_hash(word: str) -> int:
    return _crc(f"w:{word}")


def _word_hashes(text: str) -> list[int]:
    words = _words(text)
    grams = [_crc(f"b:{a} {b}") for a, b in itertools.pairwise(words[: MAX_BIGRAMS + 1])]
    return [_word_hash(w) for w in words] + grams


Chain = tuple[tuple[str, str], ...]  # (class and id, tag) of an element and its ancestors, up to <body>


def _chain(element: lxml.html.HtmlElement, memo: dict[Any, Chain]) -> Chain:
    """The element's chain, its first `ANCESTORS` + 1 levels; `memo` holds those of the page's elements
    already seen (blocks share their ancestors, so each element is read once per page)."""
    climbed: list[Any] = []
    node: Any = element
    while node is not None and node not in memo:
        if not isinstance(node.tag, str) or node.tag in ("body", "html"):
            node = None
            break
        climbed.append(node)
        node = node.getparent()
    tail = memo[node] if node is not None else ()
    for el in reversed(climbed):
        tail = ((f"{el.get('class', '')} {el.get('id', '')}", el.tag), *tail[:ANCESTORS])
        memo[el] = tail
    return tail


def markup_tokens(element: lxml.html.HtmlElement) -> tuple[list[str], list[str]]:
    """The class/id tokens of the element and its ancestors (with a depth bucket), and its tag path."""
    chain = _chain(element, {})
    attrs = [f"a{_bucket(level)}:{t}" for level, (a, _) in enumerate(chain) for t in attribute_tokens(a)]
    tags = [tag for _, tag in chain[:PATH_TAGS]]
    return list(dict.fromkeys(attrs)), [f"t:{'/'.join(reversed(tags[: i + 1]))}" for i in range(len(tags))]


@lru_cache(maxsize=16384)
def _attribute_hashes(attrs: str, bucket: int) -> tuple[int, ...]:
    return tuple(_crc(f"a{bucket}:{t}") for t in attribute_tokens(attrs))


@lru_cache(maxsize=4096)
def _path_hashes(tags: tuple[str, ...]) -> tuple[int, ...]:
    return tuple(_crc(f"t:{'/'.join(reversed(tags[: i + 1]))}") for i in range(len(tags)))


@lru_cache(maxsize=16384)
def _markup_hashes(chain: Chain) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Sibling blocks often share their whole chain, hence the cache."""
    attrs = (h for level, (a, _) in enumerate(chain) for h in _attribute_hashes(a, _bucket(level)))
    return tuple(dict.fromkeys(attrs)), _path_hashes(tuple(tag for _, tag in chain[:PATH_TAGS]))


@dataclass(frozen=True)
class Tokens:
    """A page's hashed tokens: per token its block (row), its column and its value."""

    rows: np.ndarray
    columns: np.ndarray
    values: np.ndarray
    n_blocks: int


def block_tokens(block: B.Block, families: tuple[str, ...] = FAMILIES) -> list[list[str]]:
    """The tokens of one block as strings, one list per family asked for (what `hashed` hashes)."""
    attrs, path = markup_tokens(block.element)
    chosen = {"words": word_tokens(block.text), "attrs": attrs, "tags": path}
    return [chosen[f] for f in families]


Hashed = dict[str, tuple[np.ndarray, np.ndarray]]


def hashed(blocks: list[B.Block], families: tuple[str, ...] = FAMILIES) -> Hashed:
    """Per family: the block (row) of every token and its 32-bit hash (CRC-32 of its UTF-8 bytes)."""
    rows: dict[str, list[int]] = {f: [] for f in families}
    hashes: dict[str, list[int]] = {f: [] for f in families}
    memo: dict[Any, Chain] = {}
    for i, block in enumerate(blocks):
        attrs, path = _markup_hashes(_chain(block.element, memo))
        words = _word_hashes(block.text) if "words" in families else []
        for family, found in (("words", words), ("attrs", attrs), ("tags", path)):
            if family in rows:
                rows[family].extend([i] * len(found))
                hashes[family].extend(found)
    return {f: (np.array(rows[f], dtype=np.int32), np.array(hashes[f], dtype=np.uint32)) for f in families}


def assemble(parts: Hashed, n_blocks: int, bits: int,
             families: tuple[str, ...] = FAMILIES) -> Tokens:  # fmt: skip
    """The hashed tokens of `families` folded into 2**bits columns; each family's values are scaled to
    unit length per block (a long block weighs no more than a short one)."""
    mask = (1 << bits) - 1
    rows = [parts[f][0].astype(np.int64) for f in families]
    counts = [np.bincount(r, minlength=n_blocks) for r in rows]
    values = [1.0 / np.sqrt(c[r]) for c, r in zip(counts, rows, strict=True)]
    columns = [parts[f][1].astype(np.int64) & mask for f in families]
    return Tokens(np.concatenate(rows), np.concatenate(columns), np.concatenate(values), n_blocks)


def tokens(blocks: list[B.Block], bits: int, families: tuple[str, ...] = FAMILIES) -> Tokens:
    """Hashed tokens of a page's blocks in 2**bits columns."""
    return assemble(hashed(blocks, families), len(blocks), bits, families)


class LexicalModel:
    """Hashed-token logistic regression weights, scoring a page's blocks with numpy."""

    def __init__(self, spec: dict[str, Any]) -> None:
        self.bits = int(spec["bits"])
        self.families = tuple(spec["families"])
        self.bias = float(spec["bias"])
        raw = np.frombuffer(base64.b64decode(spec["weights"]), dtype=np.int8)
        if len(raw) != 1 << self.bits:
            raise ValueError(f"lexical model: {len(raw)} weights for {self.bits} bits")
        self.weights = raw.astype(float) * float(spec["scale"])

    def score(self, blocks: list[B.Block]) -> np.ndarray:
        """Per block, the log-odds that it is main content by its words and markup alone."""
        return self.score_tokens(tokens(blocks, self.bits, self.families))

    def score_tokens(self, t: Tokens) -> np.ndarray:
        """Per block, the log-odds from its hashed tokens (`tokens` with this model's bits and families)."""
        sums = np.bincount(t.rows, weights=self.weights[t.columns] * t.values, minlength=t.n_blocks)
        return self.bias + sums


def pack(weights: np.ndarray, bias: float, bits: int, families: tuple[str, ...]) -> dict[str, Any]:
    """A model file's content: the weights quantized to int8."""
    scale = float(np.abs(weights).max() / 127) or 1.0
    quantized = np.clip(np.round(weights / scale), -127, 127).astype(np.int8)
    return {
        "version": 1,
        "bits": bits,
        "families": list(families),
        "bias": bias,
        "scale": scale,
        "weights": base64.b64encode(quantized.tobytes()).decode("ascii"),
    }


def load(path: Path) -> LexicalModel:
    """Read a model file."""
    return LexicalModel(json.loads(path.read_text("utf-8")))
