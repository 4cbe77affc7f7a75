"""Main-content selection: block cutting, the tree scorer, and the shape of the selected element."""

from __future__ import annotations

import json
from pathlib import Path

import lxml.html
import numpy as np
import pytest
from page_blocks import blocks_of

from webferret.extract import blocks as B
from webferret.extract.classifier import TreeEnsemble, load
from webferret.extract.main_content import assemble, select_main
from webferret.extract.markdown import to_markdown

PAGE = """<html><head><title>Tides</title></head><body>
<nav><ul><li><a href="/">Home</a></li><li><a href="/about">About</a></li></ul></nav>
<article><h1>How tides work</h1>
<p>The moon pulls the <b>oceans</b> toward it, and the earth turns under the bulge twice a day.</p>
<ul><li>Spring tides come at new and full moon.</li><li>Neap tides come at the quarters.</li></ul>
<pre><code class="language-python">def tide(t):
    return 2 * t
</code></pre>
<table><tr><th>Port</th><th>Range</th></tr><tr><td>Brest</td><td>7 m</td></tr></table>
<div>Intro text <p>nested paragraph</p> tail text</div>
</article><footer><p>Copyright 2026 Tides Inc.</p></footer><script>var x = 1;</script></body></html>"""


def _blocks() -> list[B.Block]:
    return blocks_of(PAGE)


def test_segment_cuts_blocks_in_document_order() -> None:
    texts = [b.text for b in _blocks()]
    assert texts[:3] == ["Home", "About", "How tides work"]
    assert "The moon pulls the oceans toward it, and the earth turns under the bulge twice a day." in texts
    assert "Intro text tail text" in texts and "nested paragraph" in texts
    assert not any("var x" in t for t in texts)


def test_code_blocks_and_tables_are_atomic() -> None:
    by_tag = {b.element.tag: b for b in _blocks()}
    assert by_tag["pre"].atomic and by_tag["pre"].text == "def tide(t):\n    return 2 * t"
    assert by_tag["table"].atomic and by_tag["table"].text == "Port Range Brest 7 m"
    assert by_tag["li"].flags & B.F_LI


def test_assemble_regroups_list_items_and_keeps_structure() -> None:
    kept = [b for b in _blocks() if b.element.tag in ("h1", "li", "pre", "table", "div")]
    kept = [b for b in kept if b.text not in ("Home", "About")]
    html = lxml.html.tostring(assemble(kept), encoding="unicode")
    assert "<ul><li>Spring tides come at new and full moon.</li><li>Neap tides" in html
    assert '<pre><code class="language-python">def tide(t):\n    return 2 * t\n</code></pre>' in html
    assert "<td>Brest</td>" in html
    assert "<div>Intro text  tail text</div>" in html


STRUCTURED = """<html><body><article><h1>Quotes and lists</h1>
<p>Before the quote.</p>
<blockquote><p>First line of the quote.</p><p>Second line of the quote.</p></blockquote>
<p>Between.</p>
<blockquote><p>Another quote.</p></blockquote>
<ul><li><p>A loose item.</p></li>
<li><p>An item with a list:</p><ul><li>inner one</li><li>inner two</li></ul></li></ul>
<ol><li>Step one.</li><li>Step two.</li></ol>
</article></body></html>"""


def _assembled(drop: tuple[str, ...] = ()) -> str:
    kept = [b for b in blocks_of(STRUCTURED) if b.text and b.text not in drop]
    return to_markdown(assemble(kept))


def test_assemble_keeps_block_quotes_and_the_paragraphs_of_list_items() -> None:
    markdown = _assembled()
    quotes = "> First line of the quote.\n>\n> Second line of the quote.\n\nBetween.\n\n> Another quote."
    assert quotes in markdown
    assert "- A loose item.\n- An item with a list:\n  - inner one\n  - inner two" in markdown
    assert "1. Step one.\n2. Step two." in markdown


def test_assemble_never_reopens_a_container_after_other_content() -> None:
    """Two quotes of the page stay two quotes, and a dropped block between two items of one list
    leaves one list (nothing of another container was written in between)."""
    markdown = _assembled(drop=("Between.", "A loose item."))
    assert "> Second line of the quote.\n\n> Another quote." in markdown
    assert "- An item with a list:\n  - inner one" in markdown


def test_assemble_keeps_a_quote_inside_a_quote() -> None:
    """A reply quoting a quote (`<blockquote>...<blockquote>`) was written as one flat quote: the
    quoted words read as the replier's own. The inner quote stays inside the outer one."""
    page = (
        "<html><body><article><blockquote><p>Ann wrote this reply.</p><blockquote><p>Bob said the "
        "first thing.</p></blockquote><p>And Ann goes on.</p></blockquote><p>After.</p></article>"
    )
    markdown = to_markdown(assemble([b for b in blocks_of(page + "</body></html>") if b.text]))
    assert markdown == (
        "> Ann wrote this reply.\n>\n> > Bob said the first thing.\n>\n> And Ann goes on.\n\nAfter.\n"
    )


def test_assemble_keeps_a_definition_list_s_terms_with_their_definitions() -> None:
    """A docs page's `<dl>` of options was written as loose paragraphs, each term apart from its
    definition (`term3`, then its words), where trafilatura's choice writes `- **term3**: ...`. A
    function's entry, its signature over paragraphs and code, stays its blocks."""
    page = (
        "<html><body><p>Options.</p><dl><dt>Timeout</dt><dd>Seconds to wait.</dd><dt>Retries</dt>"
        "<dd>Times to try.</dd></dl><dl class='py function'><dt>connect(url)</dt><dd><p>Opens it.</p>"
        "<pre>connect('x')</pre></dd></dl></body></html>"
    )
    markdown = to_markdown(assemble([b for b in blocks_of(page) if b.text]))
    assert markdown == (
        "Options.\n\n- **Timeout**: Seconds to wait.\n- **Retries**: Times to try.\n\nconnect(url)\n\n"
        "Opens it.\n\n```\nconnect('x')\n```\n"
    )


def test_a_container_s_words_after_its_heading_are_read_after_it() -> None:
    """Kubernetes writes a note as `<div class="alert"><h4>Note:</h4>You need to install...</div>`: the
    div's block is listed where the div opens, so its words came before the heading that opens it."""
    page = (
        "<html><body><h2>What is a Pod?</h2><div class='alert'><h4>Note:</h4>You need to install a "
        "<a href='/cr'>container runtime</a> on each node.</div><p>The shared context of a Pod.</p>"
        "<li><h3>Item</h3>Its words.</li><p>After.</p></body></html>"
    )
    markdown = to_markdown(assemble([b for b in blocks_of(page) if b.text]))
    assert markdown.startswith(
        "## What is a Pod?\n\n#### Note:\n\nYou need to install a [container runtime](/cr) on each "
        "node.\n\nThe shared context of a Pod.\n\n"
    )
    assert markdown.endswith("After.\n")


def test_a_blockquote_that_is_a_forum_post_s_body_is_no_quotation() -> None:
    page = STRUCTURED.replace("<blockquote><p>Another", '<blockquote class="messageText ugc"><p>Another')
    kept = [b for b in blocks_of(page) if b.text]
    markdown = to_markdown(assemble(kept))
    assert "\n\nAnother quote.\n" in markdown and "> First line of the quote." in markdown


def test_tree_ensemble_walks_each_tree(tmp_path: Path) -> None:
    tree = {"feature": [1, 0, 0], "threshold": [0.5, 0, 0], "left": [1, 0, 0], "right": [2, 0, 0],
            "leaf": [0, 1, 1], "value": [0, -2.0, 3.0]}  # fmt: skip
    spec = {"version": 1, "n_features": 2, "baseline": 0.5, "max_depth": 1, "trees": [tree, tree]}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(spec))
    model: TreeEnsemble = load(path)
    raw = model.raw(np.array([[9.0, 0.0], [9.0, 1.0]]))
    assert raw.tolist() == [0.5 - 4.0, 0.5 + 6.0]


def test_a_missing_value_goes_right_and_deep_trees_stop_at_their_leaves(tmp_path: Path) -> None:
    # depth 2 on the left, a leaf at once on the right: a row that ends early stays on its leaf
    tree = {"feature": [0, 1, 0, 0, 0], "threshold": [0.5, 0.5, 0, 0, 0], "left": [1, 3, 0, 0, 0],
            "right": [2, 4, 0, 0, 0], "leaf": [0, 0, 1, 1, 1], "value": [0, 0, 7.0, 1.0, 2.0]}  # fmt: skip
    spec = {"version": 1, "n_features": 2, "baseline": 0.0, "max_depth": 2, "trees": [tree]}
    path = tmp_path / "m.json"
    path.write_text(json.dumps(spec))
    x = np.array([[0.0, 0.0], [0.0, 1.0], [1.0, 0.0], [np.nan, 0.0], [0.0, np.nan]])
    assert load(path).raw(x).tolist() == [1.0, 2.0, 7.0, 7.0, 2.0]


def test_a_model_whose_nodes_point_outside_it_is_refused() -> None:
    arrays = {"roots": [0], "feature": [0, 0, 0], "threshold": [0.5, np.nan, np.nan], "first": [1, 0, 1],
              "value": [0.0, 1.0, 2.0]}  # fmt: skip
    TreeEnsemble({k: np.array(v) for k, v in arrays.items()}, n_features=1, baseline=0.0, max_depth=1)
    for name, bad in (("first", [2, 0, 1]), ("feature", [1, 0, 0]), ("roots", [3])):
        broken = {k: np.array(bad if k == name else v) for k, v in arrays.items()}
        with pytest.raises(ValueError, match="point outside"):
            TreeEnsemble(broken, n_features=1, baseline=0.0, max_depth=1)


def test_a_packed_model_reads_back_as_it_was_saved(tmp_path: Path) -> None:
    """The shipped model's format (`.npz`): the arrays a JSON model packs into, loaded as they are."""
    inner = {"feature": [1, 0, 0], "threshold": [0.5, 0, 0], "left": [1, 0, 0], "right": [2, 0, 0],
             "leaf": [0, 1, 1], "value": [0, -2.0, 3.0]}  # fmt: skip
    stump = {"feature": [0], "threshold": [0], "left": [0], "right": [0], "leaf": [1], "value": [0.25]}
    spec = {"version": 1, "n_features": 2, "baseline": 0.5, "max_depth": 1, "trees": [inner, stump]}
    source = tmp_path / "m.json"
    source.write_text(json.dumps(spec))
    packed = tmp_path / "m.npz"
    load(source).save(packed)
    model = load(packed)
    x = np.array([[9.0, 0.0], [9.0, 1.0]])
    assert model.raw(x).tolist() == load(source).raw(x).tolist() == [0.5 - 2.0 + 0.25, 0.5 + 3.0 + 0.25]


def test_the_shipped_model_fits_the_features() -> None:
    from webferret.extract.classifier import load_default
    from webferret.extract.main_content import analyse

    analysis = analyse(PAGE, "https://example.org/tides")
    assert analysis is not None
    probabilities = load_default().predict(analysis.matrix)
    assert probabilities.shape == (len(analysis.blocks),)
    assert ((probabilities > 0) & (probabilities < 1)).all()


def test_many_rows_are_scored_in_chunks_of_bounded_memory(monkeypatch: pytest.MonkeyPatch) -> None:
    """A hostile page's 20,000 blocks: the walk's buffers (rows by trees) were 125 MB at once."""
    import tracemalloc

    from webferret.extract import classifier

    model = classifier.load_default()
    x = np.random.default_rng(7).normal(size=(20_000, model.n_features))
    tracemalloc.start()
    try:
        chunked = model.raw(x)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert peak < 60_000_000
    monkeypatch.setattr(classifier, "CHUNK_ROWS", len(x))
    assert chunked.tolist() == model.raw(x).tolist()  # the same values as one pass


def test_select_main_keeps_the_article_and_drops_the_chrome() -> None:
    main = select_main(PAGE, "https://example.org/tides", defer=False)
    assert main is not None
    text = main.text_content()
    assert "The moon pulls the oceans" in text
    assert "Copyright 2026" not in text


def test_select_main_on_no_document() -> None:
    assert select_main("   ", None) is None


def test_a_code_block_beside_kept_prose_is_kept() -> None:
    from webferret.extract.main_content import select_main

    prose = "Ferrets read pages with care and keep their notes in plain Markdown for later. " * 4
    page = (
        "<html><body><nav><a href='/'>Home</a> <a href='/about'>About</a></nav><article>"
        f"<h1>Reading code</h1><p>{prose}</p><pre><code class='language-python'>def ferret():\n"
        "    return 'curious'</code></pre></article><footer>(c) Ferret Weekly</footer></body></html>"
    )
    main = select_main(page, "https://ferrets.example/code", defer=False)
    assert main is not None
    assert "return 'curious'" in "".join(main.itertext())
