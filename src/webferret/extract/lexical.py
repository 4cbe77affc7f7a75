"""A sparse linear score of what a block's words and markup say: one more input for the block classifier.

Every block gives hashed tokens of three families: the words of its text (lower-cased, with the bigrams
of its first words), the class and id tokens of its element and its ancestors (split on punctuation
and camelCase, tagged with how far up they are) and its tag path. A logistic regression over the
hashed tokens (trained by `bench/train_blocks.py --lexical`) scores each block; the trees see that
score as their last feature column.

Model file (`models/lexical.json`): {"version": 1, "bits": int, "families": [...], "bias": float,
"scale": float, "weights": base64 of int8 weights (weight = int8 * scale)}.
"""

from __future__ import annotations

import base64
import itertools
import json
import re
import zlib
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Any

import lxml.html
import numpy as np

from webferret.extract import blocks as B

MODEL = Path(__file__).parent / "models" / "lexical.json"
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


def word_tokens(text: str) -> list[str]:
    """The block's words (its first `MAX_WORDS`, lower-cased, numbers as "0") and its first bigrams."""
    words = [w if not w[0].isdigit() else "0" for w in WORD_RE.findall(text[:2000].lower())[:MAX_WORDS]]
    grams = [f"{a} {b}" for a, b in itertools.pairwise(words[: MAX_BIGRAMS + 1])]
    return [f"w:{w}" for w in words] + [f"b:{g}" for g in grams]


def _element_attrs(el: lxml.html.HtmlElement) -> str:
    return f"{el.get('class', '')} {el.get('id', '')}"


def markup_tokens(element: lxml.html.HtmlElement) -> tuple[list[str], list[str]]:
    """The class/id tokens of the element and its ancestors (with a depth bucket), and its tag path."""
    attrs: list[str] = []
    tags: list[str] = []
    node: Any = element
    for level in range(ANCESTORS + 1):
        if node is None or not isinstance(node.tag, str) or node.tag in ("body", "html"):
            break
        bucket = _bucket(level)
        attrs.extend(f"a{bucket}:{t}" for t in attribute_tokens(_element_attrs(node)))
        if level < PATH_TAGS:
            tags.append(node.tag)
        node = node.getparent()
    path = [f"t:{'/'.join(reversed(tags[: i + 1]))}" for i in range(len(tags))]
    return attrs, path


@dataclass(frozen=True)
class Tokens:
    """A page's hashed tokens: per token its block (row), its column and its value."""

    rows: np.ndarray
    columns: np.ndarray
    values: np.ndarray
    n_blocks: int


def block_tokens(block: B.Block, families: tuple[str, ...] = FAMILIES) -> list[list[str]]:
    """The tokens of one block, one list per family asked for."""
    attrs, path = markup_tokens(block.element) if "attrs" in families or "tags" in families else ([], [])
    words = word_tokens(block.text) if "words" in families else []
    chosen = {"words": words, "attrs": list(dict.fromkeys(attrs)), "tags": path}
    return [chosen[f] for f in families]


Hashed = dict[str, tuple[np.ndarray, np.ndarray]]


def hashed(blocks: list[B.Block], families: tuple[str, ...] = FAMILIES) -> Hashed:
    """Per family: the block (row) of every token and its 32-bit hash (CRC-32 of its UTF-8 bytes)."""
    rows: dict[str, list[int]] = {f: [] for f in families}
    hashes: dict[str, list[int]] = {f: [] for f in families}
    for i, block in enumerate(blocks):
        for family, toks in zip(families, block_tokens(block, families), strict=True):
            rows[family].extend([i] * len(toks))
            hashes[family].extend(zlib.crc32(t.encode()) for t in toks)
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
        t = tokens(blocks, self.bits, self.families)
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


@cache
def load_default() -> LexicalModel | None:
    """The model shipped with the package (read once per process); None when there is none."""
    return load(MODEL) if MODEL.is_file() else None
