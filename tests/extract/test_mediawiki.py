"""MediaWiki pages: chrome removed, the article read from `#mw-content-text` (`extract.mediawiki`)."""

from __future__ import annotations

import re
from pathlib import Path

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

PROSE = " ".join(f"Pacman keeps the system up to date by syncing package lists, step {n}." for n in range(25))


def test_a_saved_wikipedia_page_has_no_edit_links_nor_jump_links(pages_dir: Path) -> None:
    page = (pages_dir / "trafilatura/en.wikipedia.org_t-SNE.html").read_text(encoding="utf-8")
    content = extract_html(page, "https://en.wikipedia.org/wiki/T-SNE", ExtractOptions()).content
    assert "action=edit&section" not in content and "Jump to" not in content  # (a red link is content)
    assert "## Details\n" in content and "## Software\n" in content
    assert "**^**" not in content and "#cite_ref" not in content  # the references' back links
    assert "Contents" not in content and "Machine-learning venues" not in content  # the TOC, the sidebar
    assert content.index("**T-distributed Stochastic Neighbor Embedding (t-SNE)**") < content.index(
        "## Details"
    )


def test_a_wiki_heading_reads_without_its_edit_link() -> None:
    page = (
        '<html><head><title>pacman - ArchWiki</title></head><body><div id="content">'
        '<a class="mw-jump-link" href="#mw-head">Jump to navigation</a>'
        '<div id="mw-content-text"><h2><span class="mw-headline" id="Usage">Usage</span>'
        '<span class="mw-editsection"><span class="mw-editsection-bracket">[</span>'
        '<a href="/index.php?title=Pacman&amp;action=edit&amp;section=1">edit</a>'
        '<span class="mw-editsection-bracket">]</span></span></h2>'
        f"<p>{PROSE}</p></div></div></body></html>"
    )
    content = extract_html(page, "https://wiki.archlinux.org/title/Pacman", ExtractOptions()).content
    assert re.search(r"^## Usage$", content, re.M)
    assert "edit" not in content and "Jump to" not in content and "step 24" in content


def _boxes(body: str) -> str:
    """A page with a table of contents, a sidebar and a navigation box around the article's text."""
    return (
        f"<html><head><title>Pacman</title></head><body{body}><div id='mw-content-text'>"
        '<table class="sidebar"><tr><td>Package management series: apt, dnf, zypper</td></tr></table>'
        '<div id="toc" class="toc"><h2>Contents</h2><ul><li>1 Usage</li><li>2 Configuration</li></ul></div>'
        f"<p>{PROSE}</p>"
        '<div class="navbox"><ul><li>Other package managers: apt, dnf, zypper, portage</li></ul></div>'
        "</div></body></html>"
    )


def test_a_mediawiki_page_reads_without_what_its_print_view_leaves_out() -> None:
    for page in (
        _boxes(' class="mediawiki skin-vector"'),
        _boxes("").replace("<head>", '<head><meta name="generator" content="MediaWiki 1.43.0">'),
    ):
        content = extract_html(page, "https://wiki.example.org/title/Pacman", ExtractOptions()).content
        assert "step 24" in content
        assert "Contents" not in content and "zypper" not in content


def test_the_same_boxes_on_another_site_are_left_to_the_selection() -> None:
    from webferret.extract.htmlpage import parse_html

    tree = parse_html(_boxes(""), None)
    assert tree.xpath("//*[@id='toc']") and tree.xpath("//*[@class='navbox']")


LANGUAGES = ("Babbage", "Ballerina", "Bash", "BASIC", "BCPL", "BeanShell", "BETA", "BLISS", "Blockly", "Boo")


def _wiki(body_class: str = ' class="mediawiki"', article: str = "") -> str:
    """A wiki's list page: a list of links (its content) inside `#mw-content-text`, the site's chrome
    around it."""
    items = "".join(f'<li><a href="/wiki/{name}">{name}</a></li>' for name in LANGUAGES)
    portal = "".join(f'<li><a href="/wiki/Portal:{n}">Portal {n}</a></li>' for n in range(12))
    article = article or (
        f"<p>{PROSE}</p><h2>B</h2><div class='div-col'><ul>{items}</ul></div>"
        "<h2>References</h2><ol class='references'><li><cite class='citation journal'>Hopper, G. (1952)."
        ' "The education of a computer". <i>Proceedings of the ACM</i>.</cite></li></ol>'
    )
    return (
        f"<html><head><title>List of languages - Wiki</title></head><body{body_class}>"
        f"<div id='mw-navigation'><h2>Navigation menu</h2><ul>{portal}</ul></div>"
        "<h1 id='firstHeading'>List of languages</h1>"
        f"<div id='bodyContent'><div id='mw-content-text'><div class='mw-parser-output'>{article}</div></div>"
        "<div id='catlinks'>Categories: Lists of computer languages | Programming languages</div></div>"
        "<div id='footer'><ul><li>This page was last edited on 1 May 2025.</li><li>Privacy policy</li>"
        "<li>About Wiki</li><li>Disclaimers</li></ul></div></body></html>"
    )


def test_a_mediawiki_page_is_read_from_its_content_element() -> None:
    extracted = extract_html(_wiki(), "https://wiki.example.org/wiki/List_of_languages", ExtractOptions())
    content = extracted.content
    assert extracted.extra["selector"] == "mediawiki"
    assert "step 24" in content
    assert all(f"- [{name}](https://wiki.example.org/wiki/{name})" in content for name in LANGUAGES)
    for chrome in ("Navigation menu", "Portal 3", "Categories:", "last edited", "Privacy policy"):
        assert chrome not in content


def test_a_citation_reads_as_text_with_the_works_title_in_italics() -> None:
    url = "https://wiki.example.org/wiki/List_of_languages"
    content = extract_html(_wiki(), url, ExtractOptions()).content
    assert '1. Hopper, G. (1952). "The education of a computer". *Proceedings of the ACM*.' in content


def test_a_page_not_made_by_mediawiki_or_with_nothing_in_its_content_element_is_read_as_any_page() -> None:
    other = extract_html(_wiki(body_class=""), "https://example.org/languages", ExtractOptions())
    assert other.extra["selector"] != "mediawiki" and "step 24" in other.content
    empty = _wiki(article="<div> </div>").replace("<h1 id='firstHeading'>", f"<p>{PROSE}</p><h1>")
    blank = extract_html(empty, "https://wiki.example.org/wiki/Blank", ExtractOptions())
    assert blank.extra["selector"] != "mediawiki" and "step 24" in blank.content


def test_a_citation_in_wikipedias_mobile_html_reads_the_same() -> None:
    page = (
        '<html><head><meta property="mw:htmlVersion" content="2.8.0"><title>Grace</title></head><body>'
        f'<div id="pcs"><section><p>{PROSE}</p></section><section><h2>References</h2>'
        '<ol class="mw-references"><li><cite class="citation journal cs1">Hopper, G. (1952). "The education'
        ' of a computer". <i>Proceedings of the ACM</i>.</cite></li></ol></section></div></body></html>'
    )
    url = "https://en.wikipedia.org/api/rest_v1/page/mobile-html/Grace"
    extracted = extract_html(page, url, ExtractOptions())
    assert extracted.extra["selector"] == "wikipedia"
    citation = '1. Hopper, G. (1952). "The education of a computer". *Proceedings of the ACM*.'
    assert citation in extracted.content
