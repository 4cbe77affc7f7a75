"""MediaWiki's editing chrome removed (`extract.mediawiki`)."""

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
