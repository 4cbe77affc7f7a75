"""The lexical block model of the block-classifier experiment (bench/lexical.py): tokenizer, hashing,
model file."""

from __future__ import annotations

import json
import zlib

import numpy as np
import pytest
from page_blocks import blocks_of

from bench import lexical
from webferret.extract import blocks as B

PAGE = """<html><body>
<div id="mainContent" class="product-description col-8">
  <p>Hand-made <b>oak</b> table, 120 cm wide. Ships in 3 days.</p>
</div>
<footer class="site_footer"><ul class="nav-links"><li><a href="/a">Cookies</a></li></ul></footer>
</body></html>"""


def page_blocks() -> list[B.Block]:
    return blocks_of(PAGE)


def test_attribute_tokens_split_on_punctuation_and_camel_case() -> None:
    assert lexical.attribute_tokens("productDescription main-col_x 42 a") == (
        "product",
        "description",
        "main",
        "col",
    )
    assert lexical.attribute_tokens("HTMLParser") == ("parser",)  # capitals alone are one-letter pieces


def test_word_tokens_are_lower_cased_with_numbers_folded_and_bigrams() -> None:
    tokens = lexical.word_tokens("Add to Cart: 12 left")
    assert tokens[:5] == ["w:add", "w:to", "w:cart", "w:0", "w:left"]
    assert "b:add to" in tokens and "b:0 left" in tokens
    assert len(lexical.word_tokens("word " * 500)) == lexical.MAX_WORDS + lexical.MAX_BIGRAMS


def test_markup_tokens_carry_the_depth_and_the_tag_path() -> None:
    paragraph, link = page_blocks()
    attrs, path = lexical.markup_tokens(paragraph.element)
    assert attrs == ["a1:product", "a1:description", "a1:col", "a1:main", "a1:content"]
    assert path == ["t:p", "t:div/p"]
    attrs, path = lexical.markup_tokens(link.element)
    assert "a1:nav" in attrs and "a2:site" in attrs and "a2:footer" in attrs
    assert path == ["t:li", "t:ul/li", "t:footer/ul/li"]


def test_hashing_is_stable_and_folds_into_the_asked_columns() -> None:
    blocks = page_blocks()
    parts = lexical.hashed(blocks)
    rows, hashes = parts["tags"]
    assert list(rows) == [0, 0, 1, 1, 1]
    assert int(hashes[0]) == zlib.crc32(b"t:p")
    tokens = lexical.assemble(parts, len(blocks), 10)
    assert tokens.columns.max() < 1 << 10
    # each family of each block has unit length
    for family_rows in (parts["words"][0], parts["attrs"][0], parts["tags"][0]):
        assert len(family_rows)
    squares = np.bincount(tokens.rows, weights=tokens.values**2)
    assert squares == pytest.approx([3.0, 3.0])


def test_a_model_file_round_trips_and_scores_by_its_weights(tmp_path) -> None:
    bits = 10
    blocks = page_blocks()
    weights = np.random.default_rng(0).integers(-127, 128, 1 << bits) * 0.01
    path = tmp_path / "lexical.json"
    path.write_text(json.dumps(lexical.pack(weights, 0.5, bits, lexical.FAMILIES)))
    model = lexical.load(path)
    expected = []
    for block in blocks:  # the score written out token by token
        total = 0.5
        for family in lexical.block_tokens(block):
            for token in family:
                total += weights[zlib.crc32(token.encode()) % (1 << bits)] / np.sqrt(len(family))
        expected.append(total)
    assert model.score(blocks) == pytest.approx(expected, abs=0.02)


def test_a_model_file_with_the_wrong_size_is_refused(tmp_path) -> None:
    spec = lexical.pack(np.ones(16), 0.0, 4, lexical.FAMILIES)
    spec["bits"] = 5
    with pytest.raises(ValueError, match="16 weights for 5 bits"):
        lexical.LexicalModel(spec)
