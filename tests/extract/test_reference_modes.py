"""Where the classifier's reference text comes from (`main_content.REFERENCE`): at runtime trafilatura's
output run, the one run a page gets; the training script passes the mode it featurizes with."""

from __future__ import annotations

import pytest
import trafilatura

from webferret.extract import main_content, selector
from webferret.extract.htmlpage import extract_html, parse_html
from webferret.extract.types import ExtractOptions

LINE = "The harbour master logged every ship that came in on the morning tide, with its cargo and its crew. "
# the text sits in a container trafilatura prunes ("sidebar"): only its comparison with readability and
# justext, which the fast mode skips, brings it back
PAGE = (
    "<html><body><div class='sidebar'>"
    + "".join(f"<p>{LINE * 2}</p>" for _ in range(5))
    + "</div><p>Short.</p></body></html>"
)
NAV = "".join(f"<li><a href='/s{i}'>Section {i}</a></li>" for i in range(12))
ARTICLE = (
    f"<html><head><title>Tides</title></head><body><nav><ul>{NAV}</ul></nav><main><h1>The tide</h1>"
    + "".join(f"<p>{LINE * 3} Paragraph {i}.</p>" for i in range(8))
    + "</main><footer><p>Copyright 2026 The Coast Times. All rights reserved.</p></footer></body></html>"
)


def test_fast_mode_skips_trafilaturas_rescue() -> None:
    full, _ = main_content.reference(PAGE, None, "full")
    fast, _ = main_content.reference(PAGE, None, "fast")
    assert full.count("harbour master") == 10
    assert fast.count("harbour master") <= 2  # at most one paragraph of the five


def test_analysis_takes_the_reference_of_the_mode_it_is_given() -> None:
    for mode in ("full", "fast", "output"):
        analysis = main_content.analyse(PAGE, None, mode=mode)
        assert analysis is not None
        assert analysis.reference_text == main_content.reference(PAGE, None, mode)[0]


def test_the_default_reference_is_the_output_runs_plain_text() -> None:
    analysis = main_content.analyse(ARTICLE, None)
    document = selector.trafilatura_document(parse_html(ARTICLE, None))
    assert analysis is not None and document is not None
    assert main_content.REFERENCE == "output"
    assert analysis.reference_text == main_content.document_reference(document)[0]
    assert "Paragraph 7." in analysis.reference_text and "Section 3" not in analysis.reference_text
    assert main_content.document_reference(None) == ("", "")


@pytest.mark.parametrize("defer", [False, True])
def test_a_classified_page_runs_trafilatura_once(defer: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    calls: list[bool] = []
    original = trafilatura.bare_extraction

    def counted(*args: object, **kwargs: object) -> object:
        calls.append(True)
        return original(*args, **kwargs)

    monkeypatch.setattr(trafilatura, "bare_extraction", counted)
    monkeypatch.setattr(main_content.chooser, "prefer_reference", lambda *a: defer)
    out = extract_html(ARTICLE, "https://coast.example/tides", ExtractOptions(format="text"))
    assert out.extra["selector"] == ("trafilatura" if defer else "learned")
    assert "Paragraph 7." in out.content
    assert len(calls) == 1
