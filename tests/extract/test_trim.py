"""Trimming trafilatura's choice with the classifier's verdicts (`extract.trim`)."""

from __future__ import annotations

import numpy as np
from lxml import etree

from webferret.extract import trim
from webferret.extract.features import normalize

BODY = """<body><head>The tide</head><p>The tide rises twice a day along this coast.</p>
<p>Sign up for our newsletter</p><list><item>Related: more tides</item></list>
<p>It falls twice a day too.</p></body>"""


def test_rejected_keeps_text_that_a_kept_block_repeats() -> None:
    texts = [normalize(t) for t in ("Menu", "Share", "Menu", "Body text here")]
    dropped = trim.rejected(texts, np.array([0.1, 0.05, 0.9, 0.95]), 0.3)
    assert dropped == {normalize("Share")}


def test_trim_drops_rejected_paragraphs_and_empty_lists() -> None:
    body = etree.fromstring(BODY)
    out = trim.trim(body, {normalize("Sign up for our newsletter"), normalize("Related: more tides")})
    kept = [el.text for el in out]
    assert kept == ["The tide", "The tide rises twice a day along this coast.", "It falls twice a day too."]
    assert out.find("list") is None
    assert "newsletter" in "".join(body.itertext())  # the input is left as it was


def test_trim_never_empties_the_selection() -> None:
    body = etree.fromstring("<body><p>Only this</p></body>")
    assert trim.trim(body, {normalize("Only this")}) is body
    assert trim.trim(body, set()) is body
