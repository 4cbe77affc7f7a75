"""trafilatura's reference run in its fast mode (`main_content.FAST_REFERENCE`): one code path for the
runtime and the training script, which passes the mode it featurizes with."""

from __future__ import annotations

from webferret.extract import main_content

LINE = "The harbour master logged every ship that came in on the morning tide, with its cargo and its crew. "
# the text sits in a container trafilatura prunes ("sidebar"): only its comparison with readability and
# justext, which the fast mode skips, brings it back
PAGE = (
    "<html><body><div class='sidebar'>"
    + "".join(f"<p>{LINE * 2}</p>" for _ in range(5))
    + "</div><p>Short.</p></body></html>"
)


def test_fast_mode_skips_trafilaturas_rescue() -> None:
    full, _ = main_content.reference(PAGE, None, fast=False)
    fast, _ = main_content.reference(PAGE, None, fast=True)
    assert full.count("harbour master") == 10
    assert fast.count("harbour master") <= 2  # at most one paragraph of the five


def test_analysis_takes_the_reference_of_the_mode_it_is_given() -> None:
    for fast in (False, True):
        analysis = main_content.analyse(PAGE, None, fast=fast)
        assert analysis is not None
        assert analysis.reference_text == main_content.reference(PAGE, None, fast)[0]
    default = main_content.analyse(PAGE, None)
    assert default is not None
    assert default.reference_text == main_content.reference(PAGE, None, main_content.FAST_REFERENCE)[0]
