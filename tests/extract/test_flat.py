"""trafilatura's flat last-resort paragraph is given the page's structure back from the page's blocks."""

from __future__ import annotations

import numpy as np
from lxml import etree
from page_blocks import blocks_of

from webferret.extract.flat import aligned, is_flat, rebuilt
from webferret.extract.htmlpage import parse_html
from webferret.extract.markdown import to_markdown

PAGE = """<html><body><nav><a href="/">Home</a> <a href="/tides">Tides</a></nav>
<h1>How tides work</h1><p>The moon pulls the oceans toward it, twice a day.</p>
<h2>Kinds</h2><ul><li>Spring tides come at new and full moon.</li>
<li>Neap tides come at the quarters.</li></ul>
<footer>Tides Inc.</footer></body></html>"""
FLAT = (
    "How tides work The moon pulls the oceans toward it, twice a day. Kinds Spring tides come at new and"
    " full moon. Neap tides come at the quarters."
)


def _body(text: str) -> etree._Element:
    body = etree.Element("body")
    etree.SubElement(body, "p").text = text
    return body


def test_a_flat_paragraph_of_a_page_with_blocks_is_flat() -> None:
    assert is_flat(_body(FLAT), parse_html(PAGE, None))
    assert not is_flat(_body(FLAT), parse_html("<html><body><p>one paragraph</p></body></html>", None))


def test_the_page_s_blocks_rebuild_the_flat_text_with_its_structure() -> None:
    element = rebuilt(blocks_of(PAGE), _body(FLAT))
    assert element is not None
    assert to_markdown(element) == (
        "# How tides work\n\nThe moon pulls the oceans toward it, twice a day.\n\n## Kinds\n\n"
        "- Spring tides come at new and full moon.\n- Neap tides come at the quarters.\n"
    )


def test_a_short_block_found_only_far_ahead_is_not_taken() -> None:
    """A menu entry whose words occur far on in the text is not where the reading stands: skipped, so
    the blocks before that place are still found."""
    page = PAGE.replace("<h1>", '<div class="menu"><p>Neap tides</p></div><h1>')
    flat = " " + " ".join(FLAT.lower().replace(",", " ").replace(".", " ").split()) + " "
    texts = [block.text for block in aligned(blocks_of(page), flat)]
    assert texts[:2] == ["How tides work", "The moon pulls the oceans toward it, twice a day."]
    assert texts[-1] == "Neap tides come at the quarters." and "Neap tides" not in texts


def test_blocks_that_do_not_cover_the_flat_text_leave_it_flat() -> None:
    assert (
        rebuilt(
            blocks_of(PAGE), _body(FLAT + " And a long closing part that no block of the page holds at all.")
        )
        is None
    )


def test_blocks_the_classifier_rejects_are_left_out_of_the_rebuilt_text() -> None:
    blocks = blocks_of(PAGE)
    flat = "Home Tides " + FLAT + " Tides Inc."
    chrome = ("Home Tides", "Home", "Tides", "Tides Inc.")
    prob = np.array([0.02 if b.text in chrome else 0.9 for b in blocks])
    element = rebuilt(blocks, _body(flat), prob, 0.1)
    assert element is not None
    out = to_markdown(element)
    assert out.startswith("# How tides work\n") and out.endswith("quarters.\n") and "Tides Inc." not in out
    everything = rebuilt(blocks, _body(flat), np.zeros(len(blocks)), 0.1)  # none would be left: all stay
    assert everything is not None and "Tides Inc." in to_markdown(everything)
