"""Formulas kept as LaTeX (`extract.formulas`): each way pages write them, and through the pipeline."""

from __future__ import annotations

from pathlib import Path

from webferret.extract import formulas
from webferret.extract.htmlpage import extract_html, parse_html
from webferret.extract.types import ExtractOptions

PROSE = " ".join(
    f"The harmonic series diverges, as the comparison with an integral shows in line {n}." for n in range(30)
)

KATEX = (
    '<span class="katex"><span class="katex-mathml"><math xmlns="http://www.w3.org/1998/Math/MathML">'
    "<semantics><mrow><mi>E</mi><mo>=</mo><mi>m</mi><msup><mi>c</mi><mn>2</mn></msup></mrow>"
    '<annotation encoding="application/x-tex">E=mc^2</annotation></semantics></math></span>'
    '<span class="katex-html" aria-hidden="true"><span class="base"><span class="mord mathnormal">E'
    '</span><span class="mrel">=</span><span class="mord mathnormal">m</span><span class="mord">'
    '<span class="mord mathnormal">c</span><span class="msupsub">2</span></span></span></span></span>'
)


def _text(page: str) -> str:
    """The page's text after parsing, its blocks one a line."""
    body = parse_html(page, None).body
    return "\n".join(" ".join(block.text_content().split()) for block in body)


def test_wikipedia_formulas_read_as_their_tex(pages_dir: Path) -> None:
    page = (pages_dir / "trafilatura/en.wikipedia.org_t-SNE.html").read_text(encoding="utf-8")
    url = "https://en.wikipedia.org/wiki/T-distributed_stochastic_neighbor_embedding"
    content = extract_html(page, url, ExtractOptions()).content
    assert "smaller values of $\\sigma _{i}$ are used in denser parts" in content
    assert "Euclidean distance $\\lVert x_{i}-x_{j}\\rVert$, it is affected" in content
    assert "displaystyle" not in content
    text = extract_html(page, None, ExtractOptions(format="text")).content
    assert "smaller values of $\\sigma _{i}$ are used" in text


def test_a_wikipedia_formula_without_mathml_reads_its_image_text() -> None:
    page = (
        '<p>A radius <span class="mwe-math-element"><img class="mwe-math-fallback-image-inline" '
        'alt="{\\displaystyle r_{0}}" src="r.svg"></span> is given.</p>'
        '<dl><dd><span class="mwe-math-element"><img class="mwe-math-fallback-image-display" '
        'alt="{\\displaystyle A=\\pi r^{2}}" src="a.svg"></span></dd></dl>'
    )
    assert _text(page) == "A radius $r_{0}$ is given.\n$$A=\\pi r^{2}$$"


def test_katex_inline_and_displayed() -> None:
    page = f'<p>Mass is energy: {KATEX} at rest.</p><p><span class="katex-display">{KATEX}</span></p>'
    assert _text(page) == "Mass is energy: $E=mc^2$ at rest.\n$$E=mc^2$$"


def test_mathjax_2_scripts_replace_their_rendering() -> None:
    page = (
        '<p>Let <span class="MathJax_Preview"></span><span class="MathJax" id="MathJax-Element-1-Frame">'
        '<nobr>x</nobr><span class="MJX_Assistive_MathML"><math><mi>x</mi></math></span></span>'
        '<script type="math/tex" id="MathJax-Element-1">x</script> be real.</p>'
        '<div><span class="MathJax_Preview"></span><div class="MathJax_Display"><span class="MathJax" '
        'id="MathJax-Element-2-Frame">∫ x dx</span></div>'
        '<script type="math/tex; mode=display" id="MathJax-Element-2">\\int_0^1 x\\,dx</script></div>'
    )
    assert _text(page) == "Let $x$ be real.\n$$\\int_0^1 x\\,dx$$"


def test_mathml_without_tex_is_read_as_tex() -> None:
    """MathJax 3 draws its glyphs with CSS: the text is in its assistive MathML, which has no TeX."""
    page = (
        '<p>The step is <mjx-container class="MathJax" jax="CHTML"><mjx-math><mjx-c class="mjx-c1D465">'
        "</mjx-c></mjx-math><mjx-assistive-mml><math><msubsup><mi>x</mi><mi>n</mi><mn>2</mn></msubsup>"
        "</math></mjx-assistive-mml></mjx-container> each time.</p>"
        '<div><mjx-container display="true"><mjx-assistive-mml><math display="block"><mfrac><mn>1</mn>'
        "<msqrt><mi>x</mi><mo>+</mo><mn>1</mn></msqrt></mfrac></math></mjx-assistive-mml></mjx-container></div>"
        "<p>Its root: <math><mroot><mi>y</mi><mn>3</mn></mroot></math>.</p>"
    )
    expected = "The step is $x_n^2$ each time.\n$$\\frac{1}{\\sqrt{x + 1}}$$\nIts root: $\\sqrt[3]{y}$."
    assert _text(page) == expected


def test_a_displayed_container_and_a_tag_in_capitals() -> None:
    # MathJax 3 may mark the display on its container only; an HTML tag name is read in any case
    page = (
        '<div><mjx-container display="true"><mjx-assistive-mml><math><mi>z</mi></math></mjx-assistive-mml>'
        "</mjx-container></div>"
    )
    assert _text(page) == "$$z$$"
    assert _text("<p>In mathematics <MATH><MI>w</MI></MATH> holds.</p>") == "In mathematics $w$ holds."


def test_bare_mathml_with_alttext_as_latexml_writes_it() -> None:
    page = (
        '<p>Hence <math alttext="\\alpha&gt;0" display="inline"><semantics><mi>α</mi></semantics></math>'
        ' and</p><div><math alttext="\\sum_{i}a_{i}" display="block"><mrow><mo>∑</mo></mrow></math></div>'
    )
    assert _text(page) == "Hence $\\alpha>0$ and\n$$\\sum_{i}a_{i}$$"


def test_a_wrapper_whose_braces_do_not_balance_is_kept() -> None:
    assert formulas._unwrapped("{\\displaystyle a}") == "a"
    assert formulas._unwrapped("{\\textstyle {a}{b}}") == "{a}{b}"
    assert formulas._unwrapped("{\\displaystyle a}}{b}") == "{\\displaystyle a}}{b}"


def test_formulas_kept_through_the_main_content_choice() -> None:
    sums = KATEX.replace("E=mc^2", "H_n = \\ln n + \\gamma")
    page = (
        "<html><head><title>Series</title></head><body><nav><a href='/'>Home</a> <a href='/m'>Maths</a></nav>"
        f"<article><h1>The harmonic series</h1><p>{PROSE}</p><p>Its partial sums grow like "
        f'<span class="katex-display">{sums}</span> '
        f"for large n.</p><p>{PROSE}</p></article><footer>© 2024 Maths Weekly</footer></body></html>"
    )
    extracted = extract_html(page, "https://maths.example/harmonic", ExtractOptions())
    assert "$$H_n = \\ln n + \\gamma$$" in extracted.content
    assert "mathnormal" not in extracted.content and "E=" not in extracted.content


def test_a_formula_s_tex_is_not_escaped_as_markdown() -> None:
    """The Markdown doubled a backslash before punctuation in a formula as in words: `\\{` read `\\\\{`
    (a line break, then a group), `\\,` read `\\\\,`. A backslash in the words around it is still
    escaped, and dollars of prices are no formula."""
    tex = "\\left\\{ a \\\\ b \\right. \\, x_1 * y_2 \\&amp; z"
    page = (
        f"<html><head><title>Sets</title></head><body><article><h1>Sets</h1><p>{PROSE}</p><p>A set "
        f'<span class="katex-display">{KATEX.replace("E=mc^2", tex)}</span> and C:\\dir\\*.txt for $5 or '
        f"$6.</p><p>{PROSE}</p></article></body></html>"
    )
    content = extract_html(page, "https://maths.example/sets", ExtractOptions()).content
    assert "$$\\left\\{ a \\\\ b \\right. \\, x_1 * y_2 \\& z$$" in content
    assert "C:\\dir\\\\\\*.txt for $5 or $6." in content


def test_a_page_without_formulas_is_not_looked_at() -> None:
    assert not formulas.has_formulas(f"<p>{PROSE}</p>")
    assert formulas.has_formulas("<p><math><mi>x</mi></math></p>")
