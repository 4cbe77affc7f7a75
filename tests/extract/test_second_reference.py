"""A second reference extractor's columns (`features.second_columns`): today's features unchanged, its own
choice and context built the same way as trafilatura's."""

from __future__ import annotations

import numpy as np

from webferret.extract import chooser, features, main_content

PAGE = """<html><head><title>Tides</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></nav>
<article><h1>How tides work</h1>
<p>The moon pulls the oceans toward it, and the earth turns under the bulge twice a day.</p>
<p>Spring tides come at new and full moon, neap tides at the quarters of the moon.</p>
</article>
<footer><p>Copyright 2026 Tides Inc. All rights reserved by the owners.</p></footer></body></html>"""
MAIN = "How tides work\nThe moon pulls the oceans toward it, and the earth turns under the bulge twice a day."


def _columns(second: str) -> tuple[np.ndarray, np.ndarray]:
    """The page's features without and with `second` as the second reference."""
    known = (MAIN, "")
    plain = main_content.analyse(PAGE, None, known=known)
    both = main_content.analyse(PAGE, None, known=known, second=second)
    assert plain is not None and both is not None
    return plain.matrix, both.matrix


def test_second_columns_leave_todays_features_as_they_are() -> None:
    plain, both = _columns("Copyright 2026 Tides Inc. All rights reserved by the owners.")
    end = plain.shape[1] - chooser.N_PAGE_SIGNALS
    assert both.shape == (plain.shape[0], plain.shape[1] + features.N_SECOND)
    assert np.array_equal(both[:, :end], plain[:, :end])
    assert np.array_equal(both[:, -chooser.N_PAGE_SIGNALS :], plain[:, -chooser.N_PAGE_SIGNALS :])


def test_second_reference_flags_what_it_kept_and_its_agreement() -> None:
    footer = "Copyright 2026 Tides Inc. All rights reserved by the owners."
    plain, both = _columns(footer)
    start = plain.shape[1] - chooser.N_PAGE_SIGNALS
    flags = both[:, start]
    texts = [b.text for b in main_content.analyse(PAGE, None, known=(MAIN, "")).blocks]
    assert [t for t, f in zip(texts, flags, strict=True) if f] == [footer]
    agree = both[0, start + features.N_SECOND - 3]
    assert 0.0 < agree < 1.0  # it kept the footer, trafilatura the heading and first paragraph


def test_same_reference_twice_repeats_trafilaturas_columns() -> None:
    _, both = _columns(MAIN)
    start = both.shape[1] - chooser.N_PAGE_SIGNALS - features.N_SECOND
    assert np.array_equal(both[:, start], both[:, features.IN_MAIN])
    assert both[0, start + features.N_SECOND - 3] == 1.0  # full agreement by characters
