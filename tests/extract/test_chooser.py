"""The page-level chooser's features (classifier's selection against trafilatura's)."""

from __future__ import annotations

import numpy as np

from webferret.extract import chooser

PAGE = """<html><body><nav><ul><li><a href="/">Home</a></li><li><a href="/a">About</a></li></ul></nav>
<main><h1>Title</h1><p>First paragraph of the text.</p><p>Second paragraph of the text.</p></main>
</body></html>"""


def test_chooser_features_compare_both_selections() -> None:
    texts = ["Menu Home About", "The tide rises twice a day along this coast.", "Copyright"]
    prob = np.array([0.1, 0.9, 0.2])
    matrix = np.zeros((3, 40))
    row = chooser.page_features(texts, prob, 0.5, "The tide rises twice a day along this coast.", matrix)
    assert row.shape == (1, 11 + chooser.N_PAGE_SIGNALS)
    assert abs(row[0, 7] - 9 / 10) < 1e-9 and abs(row[0, 8] - 9 / 10) < 1e-9  # words in common / (n + 1)
    assert not chooser.prefer_reference(texts, prob, 0.5, "  ", matrix)  # no reference text: never chosen


def test_page_signals_are_the_last_columns_the_chooser_reads() -> None:
    from webferret.extract import features, main_content

    analysis = main_content.analyse(PAGE, "https://example.org/docs/tides")
    assert analysis is not None
    ref = features.Reference.of(analysis.reference_text, "")
    n_words = sum(len(features.WORD_RE.findall(b.text)) for b in analysis.blocks)
    url = "https://example.org/docs/tides"
    signals = features.page_signals(PAGE, url, n_words, len(analysis.blocks), ref)
    assert len(signals) == chooser.N_PAGE_SIGNALS
    assert np.allclose(analysis.matrix[0, -chooser.N_PAGE_SIGNALS :], signals)
