"""Tab names at the head of the panels that hold code (`extract.tabs`)."""

from __future__ import annotations

import re

from webferret.extract.htmlpage import extract_html, parse_html
from webferret.extract.types import ExtractOptions

PROSE = " ".join(
    f"Create the project with the command for your shell, then follow step {n}." for n in range(12)
)


def _page(tabs: str) -> str:
    return (
        '<html><head><title>Start</title><meta property="og:type" content="article"></head><body><article>'
        f"<h1>Start a project</h1><p>{PROSE}</p>{tabs}<p>{PROSE.replace('Create', 'Build')}</p>"
        "</article></body></html>"
    )


def _labels(page: str) -> list[str]:
    content = extract_html(page, "https://docs.example/start", ExtractOptions()).content
    return re.findall(r"^\*\*(.+)\*\*\n\n```", content, re.M)


def test_panels_named_by_their_aria_references() -> None:
    tabs = (
        '<ul role="tablist"><li><a role="tab" id="t1" href="#p1">Bash</a></li>'
        '<li><a role="tab" id="t2" href="#p2">PowerShell</a></li></ul>'
        '<div id="p1" role="tabpanel" aria-labelledby="t1">'
        "<pre><code>sh install.sh\nsh run.sh</code></pre></div>"
        '<div id="p2" role="tabpanel" aria-labelledby="t2" hidden>'
        "<pre><code>irm install.ps1 | iex\n.\\run.ps1</code></pre></div>"
    )
    assert _labels(_page(tabs)) == ["Bash", "PowerShell"]


def test_panels_named_in_order_as_docusaurus_writes_them() -> None:
    tabs = (
        '<div class="tabs-container"><ul role="tablist"><li role="tab">npm</li><li role="tab">Yarn</li></ul>'
        '<div class="margin-top--md"><div role="tabpanel">'
        "<pre><code>npm install app\nnpm start</code></pre></div>"
        '<div role="tabpanel" hidden><pre><code>yarn add app\nyarn start</code></pre></div></div></div>'
    )
    assert _labels(_page(tabs)) == ["npm", "Yarn"]


def test_material_for_mkdocs_tabs_are_named_in_order() -> None:
    tabs = (
        '<div class="tabbed-set"><input id="a" type="radio"><input id="b" type="radio">'
        '<div class="tabbed-labels"><label for="a">Linux</label><label for="b">Windows</label></div>'
        '<div class="tabbed-content"><div class="tabbed-block"><pre><code>apt install tool\ntool --version'
        '</code></pre></div><div class="tabbed-block">'
        "<pre><code>winget install tool\ntool --version</code></pre></div></div></div>"
    )
    assert _labels(_page(tabs)) == ["Linux", "Windows"]


def test_panels_without_code_are_left_alone() -> None:
    tabs = (
        '<ul role="tablist"><li role="tab" id="d">Description</li><li role="tab" id="r">Reviews</li></ul>'
        '<div role="tabpanel" aria-labelledby="d"><p>A sturdy shelf.</p></div>'
        '<div role="tabpanel" aria-labelledby="r"><p>Five stars.</p></div>'
    )
    tree = parse_html(_page(tabs), None)
    assert not tree.xpath("//strong")


def test_panels_named_by_the_tabs_that_control_them() -> None:
    tabs = (
        '<div role="tablist"><button role="tab" aria-controls="win">Windows</button>'
        '<button role="tab" aria-controls="mac">macOS</button></div>'
        '<section id="mac" role="tabpanel"><pre><code>brew install tool\ntool --help</code></pre></section>'
        '<section id="win" role="tabpanel"><pre><code>winget install tool\ntool --help</code></pre></section>'
    )
    assert _labels(_page(tabs)) == ["macOS", "Windows"]  # by reference, not by order


def test_a_tab_strip_whose_names_head_their_panels_is_said_once() -> None:
    """Docusaurus' strip (`<ul role="tablist">`) was kept as a list, `- npm` `- Yarn`, over the panels
    its names now head. A strip whose panels hold no code stays."""
    tabs = (
        '<div class="tabs-container"><ul role="tablist" class="tabs"><li role="tab" class="tabs__item">'
        'npm</li><li role="tab" class="tabs__item">Yarn</li></ul><div class="margin-top--md">'
        '<div role="tabpanel">'
        "<pre><code>npm install app\nnpm start</code></pre></div>"
        '<div role="tabpanel" hidden><pre><code>yarn add app\nyarn start</code></pre></div></div></div>'
    )
    content = extract_html(_page(tabs), "https://docs.example/start", ExtractOptions()).content
    assert "- npm" not in content and "- Yarn" not in content
    assert "**npm**\n\n```\nnpm install app" in content and "**Yarn**\n\n```\nyarn add app" in content
    shop = (
        '<ul role="tablist"><li role="tab" id="d">Description</li><li role="tab" id="r">Reviews</li></ul>'
        '<div role="tabpanel" aria-labelledby="d"><p>A sturdy shelf.</p></div>'
    )
    assert parse_html(_page(shop), None).xpath('//*[@role="tablist"]')


def test_a_strip_is_left_out_only_for_its_own_panels_named() -> None:
    """A strip was left out when its names headed any panels of the page: a second set of the same
    tabs, "Linux" and "Windows" over prose (where to find a shell), lost the names that tell its
    panels apart, as the first set's panels of code held them."""
    code = (
        '<ul role="tablist"><li role="tab">Linux</li><li role="tab">Windows</li></ul><div>'
        '<div role="tabpanel"><pre><code>curl -LO https://example.org/app.tar.gz</code></pre></div>'
        '<div role="tabpanel"><pre><code>winget install app</code></pre></div></div>'
    )
    prose = (
        '<ul role="tablist" id="shells"><li role="tab">Linux</li><li role="tab">Windows</li></ul><div>'
        '<div role="tabpanel"><p>Open a terminal and become root with sudo.</p></div>'
        '<div role="tabpanel"><p>Right-click Start and choose Terminal (Admin).</p></div></div>'
    )
    strips = parse_html(_page(f"<div>{code}</div><div>{prose}</div>"), None).xpath('//*[@role="tablist"]')
    assert [strip.get("id") for strip in strips] == ["shells"]
