"""Formulas kept as LaTeX: `$...$` in a line of text, `$$...$$` displayed on their own.

A page shows mathematics through MathML, MathJax or KaTeX, and a reader that runs no script and draws
nothing finds either no text at all there (Wikipedia hides its MathML and shows an image; MathJax 3
draws its glyphs with CSS) or the same formula twice over in pieces. So "smaller values of σᵢ are used"
read "smaller values of are used". Each formula is put back in place, before anything else reads the
page, as the TeX the page keeps beside it:
- Wikipedia (`mwe-math-element`): the MathML's `alttext` (its `{\\displaystyle ...}` wrapper taken off),
  else the fallback image's `alt`;
- KaTeX (`katex`, displayed inside `katex-display`): the TeX annotation of its MathML;
- MathJax 2 (`<script type="math/tex">`, `; mode=display` when displayed): the script's text, and the
  rendering MathJax left before it dropped;
- MathJax 3 (`mjx-container`) and bare MathML (`<math>`, as LaTeXML writes arXiv's papers): the TeX
  annotation or `alttext`, else the MathML itself read as TeX (sub- and superscripts, fractions, roots;
  other symbols as they are).
"""

from __future__ import annotations

import re

from lxml import etree, html

from webferret.extract import hints
from webferret.extract.classes import has_class

HINT = hints.word("math")
"""In the HTML of every page with a formula this module can read: `<math>` (KaTeX and MathJax 3 write
MathML beside what they draw), `math/tex`, `mwe-math`. One look for it costs a tenth of a millisecond
on a page of 170,000 characters, where looking for each of those names cost a few times that."""

_TEX = "application/x-tex"
_WIKIPEDIA, _KATEX, _MATHJAX2 = hints.word("mwe-math-element"), hints.word("katex"), hints.word("math/tex")
_WRAPPER = re.compile(r"\{\\(?:displaystyle|textstyle)\s*(.*)\}", re.S)
_MATHJAX2_RENDERING = re.compile(r"\bMathJax|\bMJX")
_SCRIPTS = {
    "msub": ("_",),
    "msup": ("^",),
    "msubsup": ("_", "^"),
    "munder": ("_",),
    "mover": ("^",),
    "munderover": ("_", "^"),
}


def has_formulas(text: str) -> bool:
    """Whether the HTML text `text` may hold formulas (a cheap look before `spell_formulas`)."""
    return hints.holds(text, HINT)


def spell_formulas(tree: html.HtmlElement, text: str) -> None:
    """Every formula of `tree` replaced, in place, by its TeX between dollar signs (see the module).
    `text`: the page's HTML; each kind of formula is looked for in the tree only when its name is in
    the HTML ("math" is in many pages without a formula, and a search of a large tree takes
    milliseconds)."""
    if hints.holds(text, _WIKIPEDIA):
        for node in tree.xpath(f"//*[{has_class('mwe-math-element')}]"):
            _wikipedia(node)
    if hints.holds(text, _KATEX):
        for node in tree.xpath(f"//*[{has_class('katex-display')}]"):
            _replace(node, _annotation(node), display=True)
        for node in tree.xpath(f"//*[{has_class('katex')}]"):
            _replace(node, _annotation(node), display=False)
    if hints.holds(text, _MATHJAX2):
        for script in tree.xpath('//script[starts-with(@type, "math/tex")]'):
            _mathjax2(script)
    if _names_tag(text, "mjx-container"):
        for node in tree.xpath("//mjx-container"):
            found = node.find(".//math")
            display = node.get("display") == "true" or (found is not None and _displayed(found))
            _replace(node, _tex_of(found), display)
    if _names_tag(text, "math"):
        for node in tree.xpath("//math"):
            _replace(node, _math_tex(node), _displayed(node))


def _names_tag(text: str, tag: str) -> bool:
    """Whether the HTML text opens an element `tag` (an HTML tag name is read in any case)."""
    return re.search(f"<{tag}", text, re.IGNORECASE) is not None


def _wikipedia(node: etree._Element) -> None:
    found = node.find(".//math")
    tex = _tex_of(found)
    image = node.find(".//img")
    if not tex and image is not None:
        tex = image.get("alt") or ""
    display = "display" in (image.get("class") or "") if image is not None else False
    _replace(node, tex, display or (found is not None and _displayed(found)))


def _mathjax2(script: etree._Element) -> None:
    """The TeX of a MathJax 2 script; the rendering MathJax put just before it (a preview, the
    formula's frame, a display block) goes."""
    previous = script.getprevious()
    while previous is not None and _MATHJAX2_RENDERING.search(
        f"{previous.get('class') or ''} {previous.get('id') or ''}"
    ):
        rendering, previous = previous, previous.getprevious()
        rendering.drop_tree()
    _replace(script, script.text or "", "mode=display" in (script.get("type") or ""))


def _annotation(node: etree._Element) -> str:
    """The TeX annotation of the MathML inside `node` (KaTeX's), else that MathML read as TeX."""
    return _tex_of(node.find(".//math"))


def _tex_of(math: etree._Element | None) -> str:
    """The TeX of a MathML element found (`_math_tex`); "" when none was."""
    return _math_tex(math) if math is not None else ""


def _displayed(math: etree._Element) -> bool:
    return math.get("display") == "block" or math.get("mode") == "display"


def _math_tex(math: etree._Element) -> str:
    """A MathML element's TeX: its TeX annotation, its `alttext`, else the MathML read as TeX."""
    for annotation in math.iter("annotation"):
        if annotation.get("encoding") == _TEX and (annotation.text or "").strip():
            return annotation.text or ""
    return math.get("alttext") or _read(math)


def _read(node: etree._Element) -> str:
    """MathML presentation markup as TeX: the layouts TeX writes otherwise than in reading order
    (sub- and superscripts, fractions, roots); any other element's content read in order."""
    tag = node.tag if isinstance(node.tag, str) else ""
    if tag in ("annotation", "annotation-xml"):
        return ""
    parts = [_read(child) for child in node if isinstance(child.tag, str)]
    if not parts:  # a token: mi, mn, mo, mtext...
        return " ".join((node.text or "").split())
    scripts = _SCRIPTS.get(tag)
    if scripts is not None and len(parts) == len(scripts) + 1:
        return _group(parts[0]) + "".join(
            mark + _group(part) for mark, part in zip(scripts, parts[1:], strict=True)
        )
    if tag == "mfrac" and len(parts) == 2:
        return f"\\frac{{{parts[0]}}}{{{parts[1]}}}"
    if tag == "mroot" and len(parts) == 2:
        return f"\\sqrt[{parts[1]}]{{{parts[0]}}}"
    if tag == "msqrt":
        return f"\\sqrt{{{' '.join(parts)}}}"
    if tag == "semantics":
        return parts[0]
    return " ".join(part for part in parts if part)


def _group(tex: str) -> str:
    """`tex` as one TeX argument: braced unless it is a single character."""
    return tex if len(tex) == 1 else f"{{{tex}}}"


def _unwrapped(tex: str) -> str:
    """Wikipedia's `{\\displaystyle ...}` (or `textstyle`) around a formula taken off, when the braces
    inside balance."""
    match = _WRAPPER.fullmatch(tex.strip())
    if match is None:
        return tex
    inner, depth = match.group(1), 0
    for char in inner:
        depth += (char == "{") - (char == "}")
        if depth < 0:
            return tex
    return inner if depth == 0 else tex


def _replace(node: etree._Element, tex: str, display: bool) -> None:
    """`node` (with everything in it) gone, its formula's TeX in its place; without TeX, left alone."""
    tex = " ".join(_unwrapped(tex).split())
    parent = node.getparent()
    if not tex or parent is None:
        return
    node.tail = (f"$${tex}$$" if display else f"${tex}$") + (node.tail or "")
    node.drop_tree()
