"""The second-stage context features of the block-classifier experiment (bench/stacking.py)."""

from __future__ import annotations

import numpy as np
from page_blocks import blocks_of

from bench import stacking
from webferret.extract import blocks as B

PAGE = """<html><body><nav><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li></ul></nav>
<main><h1>Title</h1><p>First paragraph of the text.</p><p>Second paragraph of the text.</p></main>
</body></html>"""


def _blocks() -> list[B.Block]:
    return blocks_of(PAGE)


def test_group_keys_put_siblings_together() -> None:
    blocks = _blocks()
    keys = stacking.group_keys(blocks)
    texts = [b.text for b in blocks]
    assert keys.shape == (len(blocks), 2 + len(stacking.ANCESTOR_LEVELS))
    home, about = texts.index("Home"), texts.index("About")
    first, second = texts.index("First paragraph of the text."), texts.index("Second paragraph of the text.")
    assert keys[home, 0] == keys[about, 0] and keys[home, 1] == keys[about, 1]
    assert keys[first, 0] == keys[second, 0] and keys[first, 0] != keys[home, 0]


def test_context_smooths_over_groups_and_neighbours() -> None:
    prob = np.array([0.1, 0.2, 0.9, 0.6, 0.9])
    keys = np.array([[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1], [1, 1, 1, 1, 1]])
    chars = np.array([4.0, 5.0, 100.0, 100.0, 100.0])
    columns = stacking.context(prob, keys, chars)
    assert columns.shape == (5, stacking.N_CONTEXT)
    assert columns[:, 0].tolist() == prob.tolist()
    assert columns[1, 1] == 0.1 and columns[1, 2] == 0.9  # previous and next block
    assert abs(columns[3, 6] - 0.8) < 1e-9  # parent group mean (equal weights)
    assert columns[0, 11] == np.log1p(2)  # two blocks away from the first kept one
    assert columns[:, 12].tolist() == [0, 0, 1, 1, 1]  # inside the kept span


def test_context_with_nothing_kept() -> None:
    columns = stacking.context(np.array([0.1, 0.2]), np.zeros((2, 5), dtype=np.int64), np.array([3.0, 3.0]))
    assert columns[:, 12].tolist() == [0, 0] and columns[0, 11] == np.log1p(2)
