"""What trafilatura left out of what it kept is put back: the headings of sections it kept, and the
text around the inline elements of a `div` (`trim.headed`, `trim.whole_runs`)."""

from __future__ import annotations

import gzip

from lxml import etree
from simweb import shared_dir

from webferret.extract import trim
from webferret.extract.document import extract_document
from webferret.extract.features import normalize
from webferret.extract.htmlpage import parse_html
from webferret.extract.main_content import cut
from webferret.extract.markdown import to_markdown
from webferret.extract.types import ExtractOptions

SCHOOLS = ["Harvard Business School", "Stanford Graduate School", "Wharton School"]


def _paragraph(name: str) -> str:
    return (
        f"{name} is one of the schools this guide ranks, and this paragraph explains why applicants "
        "weigh it each year when they plan their applications."
    )


def _page(heading: str = '{n}. <a href="/s/{n}">{name}</a>', aside: str = "") -> str:
    sections = "".join(
        f'<div class="item"><h2>{heading.format(n=n, name=name)}</h2><p>{_paragraph(name)}</p></div>'
        for n, name in enumerate(SCHOOLS, 1)
    )
    return (
        "<html><head><title>Top programs</title></head><body>"
        f"<main><h1>Top programs</h1>{sections}</main>{aside}</body></html>"
    )


def _restored(page: str, kept: list[str]) -> str:
    """The Markdown of a trafilatura-like choice of `kept` paragraphs once the lost headings are back."""
    tree = parse_html(page, None)
    found = cut(page, "https://guide.example/top", tree, known=("", ""))
    assert found is not None
    body = etree.Element("body")
    for text in kept:
        etree.SubElement(body, "p").text = text
    return to_markdown(
        trim.headed(body, trim.lost(found[0], [normalize(b.text) for b in found[0]], body, set(), tree))
    )


def test_a_heading_that_is_mostly_a_link_goes_back_before_its_section() -> None:
    markdown = _restored(_page(), [_paragraph(name) for name in SCHOOLS])
    for n, name in enumerate(SCHOOLS, 1):
        assert f"## {n}. [{name}](/s/{n})\n\n{_paragraph(name)}" in markdown


def test_a_heading_that_links_to_its_own_place_goes_back() -> None:
    """A section's permalink (`<h2 id="part"><a href="#part">Title</a></h2>`) is all the heading's text,
    as a teaser's title is, but it links to the heading itself."""
    kept = [_paragraph(name) for name in SCHOOLS]
    markdown = _restored(_page(heading='<a id="s{n}" href="#s{n}">{name}</a>'), kept)
    assert all(f"## {name}\n\n{_paragraph(name)}" in markdown for name in SCHOOLS)
    section = _page(heading='<a href="#item{n}">{name}</a>')
    for n in range(1, len(SCHOOLS) + 1):  # the link names the heading's section
        section = section.replace('<div class="item">', f'<div class="item" id="item{n}">', 1)
    assert f"## {SCHOOLS[1]}\n\n{_paragraph(SCHOOLS[1])}" in _restored(section, kept)
    for elsewhere in (
        '<a href="#comments">{name}</a>',
        '<a id="s{n}" href="/s{n}">{name}</a>',  # another page's address, however it is spelled
        '<a id="s{n}" href="#s{n}">{name}</a> <a href="/s/{n}">(site)</a>',
    ):
        # a link to another place of the page (a script's carousel), or one to another page as well
        assert "## " not in _restored(_page(heading=elsewhere), kept)
    # a teaser card's link around its heading
    card = _page(heading="{name}").replace("<h2>", '<a href="/s/card"><h2>').replace("</h2>", "</h2></a>")
    assert "## " not in _restored(card, kept)


def test_a_heading_that_a_table_of_contents_repeats_goes_back() -> None:
    toc = "".join(f'<li><a href="#s{n}">{name}</a></li>' for n, name in enumerate(SCHOOLS, 1))
    page = _page(heading="{name}").replace("<main>", f"<nav><ul>{toc}</ul></nav><main>")
    markdown = _restored(page, [_paragraph(name) for name in SCHOOLS])
    assert all(f"## {name}\n\n{_paragraph(name)}" in markdown for name in SCHOOLS)


def test_only_the_headings_of_kept_sections_go_back() -> None:
    markdown = _restored(_page(), [_paragraph(name) for name in SCHOOLS[:2]])
    assert "Stanford Graduate School](/s/2)" in markdown
    assert "Wharton School](/s/3)" not in markdown


def test_teasers_labels_the_title_repeated_headings_and_lone_blocks_stay_out() -> None:
    teaser = "The teaser's own line, one sentence long, under a title that is all link."
    share = "Send this guide to a friend who is applying this year, by mail or a message."
    intro = "The schools below are ranked by what their graduates say about them ten years on."
    reply = "A reply to the guide, which says that the ranking leaves out the schools of Europe."
    sponsor = "A line from the sponsor of this guide, in a place of the page where nothing else is kept."
    aside = (
        f'<aside><h3><a href="/news/1">Another story that is not this one</a></h3><p>{teaser}</p>'
        f"<h3>Share</h3><p>{share}</p>"
        f"<h3>Re: The ranking</h3><p>{reply}</p><h3>Re: The ranking</h3><p>{reply} Again.</p></aside>"
        f"<footer><h3>From our sponsor</h3><p>{sponsor}</p></footer>"
    )
    page = _page(heading="{name}", aside=aside).replace(
        "<h1>Top programs</h1>", f'<div class="item"><h2>Top programs</h2><p>{intro}</p></div>'
    )
    kept = [intro, *(_paragraph(name) for name in SCHOOLS), teaser, share, reply, f"{reply} Again.", sponsor]
    markdown = _restored(page, kept)
    assert "## Harvard Business School" in markdown  # a heading without a link goes back as well
    assert "Another story" not in markdown  # all link
    assert "Share" not in markdown  # one word
    assert "Top programs" not in markdown  # the page's title
    assert "The ranking" not in markdown  # repeated
    assert "sponsor" not in markdown.split(sponsor)[0]  # its block is the only one kept in its place


def test_a_heading_trafilatura_kept_is_not_put_in_twice() -> None:
    tree = parse_html(_page(), None)
    found = cut(_page(), "https://guide.example/top", tree, known=("", ""))
    assert found is not None
    body = etree.Element("body")
    for n, name in enumerate(SCHOOLS, 1):
        etree.SubElement(body, "head", rend="h2").text = f"{n}. {name}"
        etree.SubElement(body, "p").text = _paragraph(name)
    assert trim.lost(found[0], [normalize(b.text) for b in found[0]], body, set(), tree) == []


def test_a_ranking_page_reads_with_the_titles_of_its_sections() -> None:
    path = shared_dir() / "bench" / "multitype" / "dev" / "html" / "0022.html.gz"
    raw = gzip.decompress(path.read_bytes())
    url = "https://menlocoaching.com/top-mba-programs/"
    page = extract_document(raw, url=url, content_type="text/html", options=ExtractOptions())
    content = page.content
    heading = content.index(
        "## 1. [Harvard Business School](https://menlocoaching.com/top-mba-programs/harvard"
    )
    assert content.index("MBA rankings come and go", heading) > heading
    assert "## 2. [Stanford GSB]" in content


ALERT = (
    '<div class="alert"><h4>Note:</h4>A Service can map <em>any</em> incoming <code>port</code> to a '
    "<code>targetPort</code>. By default the two are the same.</div>"
    '<div class="feature-state">FEATURE STATE: <code>Kubernetes v1.34 [alpha]</code>'
    "(disabled by default)</div>"
)


def _loose(page: str, loose: str) -> str:
    """The Markdown of a trafilatura-like choice that kept `_paragraph`s and the loose run `loose`
    (its inline elements at the top level, the text of their `div` lost), once made whole."""
    tree = parse_html(page, None)
    found = cut(page, "https://docs.example/service", tree, known=("", ""))
    assert found is not None
    body = etree.fromstring(
        f"<body><p>{_paragraph(SCHOOLS[0])}</p>{loose}<p>{_paragraph(SCHOOLS[1])}</p></body>"
    )
    return to_markdown(trim.whole_runs(body, found[0], [normalize(b.text) for b in found[0]]))


def test_a_sentence_trafilatura_kept_only_the_code_of_is_read_whole() -> None:
    page = _page(heading="{name}").replace("</main>", f"{ALERT}</main>")
    loose = (
        "<code>port</code> to a <code>targetPort</code>. By default the two are the same."
        "<code>Kubernetes v1.34 [alpha]</code>(disabled by default)"
    )
    markdown = _loose(page, loose)
    assert (
        "A Service can map *any* incoming `port` to a `targetPort`. By default the two are the same.\n"
        in markdown
    )
    assert "FEATURE STATE: `Kubernetes v1.34 [alpha]`(disabled by default)" in markdown
    assert markdown.count("targetPort") == 1


def test_a_loose_run_that_is_a_small_part_of_its_block_stays_as_it_is() -> None:
    long = " ".join(["The guide goes on about ports and services for a long while."] * 12)
    page = _page(heading="{name}").replace(
        "</main>", f"<div>{long} Set <code>port</code> to a number.</div></main>"
    )
    markdown = _loose(page, "<code>port</code> to a number.")
    assert "The guide goes on" not in markdown and "`port` to a number." in markdown


def test_headings_trafilatura_made_paragraphs_are_headings_again() -> None:
    """trafilatura recovered a financial planner's guide paragraph by paragraph and wrote each of its
    37 `<h2>`/`<h3>` as a `<p>`: the Markdown read as one run of text without sections."""
    from webferret.extract.restored import restore_headings

    page = parse_html(
        "<html><body><h1>Plan early</h1><h2>Why it matters</h2><p>Money grows.</p><h3>Budgets</h3>"
        "<p>Write one.</p><div class='card'><h3>Budgets</h3></div><h4>Notes</h4><p>Notes</p></body></html>",
        None,
    )
    root = etree.fromstring(
        "<body><p>Why it matters</p><p>Money grows.</p><p>Budgets</p><p>Write one.</p><p>Notes</p>"
        '<head rend="h2">Plan early</head><p>Plan early</p></body>'
    )
    restore_headings(root, page)
    assert [(el.tag, el.get("rend")) for el in root] == [
        ("head", "h2"),
        ("p", None),
        ("head", "h3"),  # two headings of one text and level: that level
        ("p", None),
        ("p", None),  # a paragraph of the page says it too: it may be that paragraph
        ("head", "h2"),
        ("p", None),  # the page's title already a heading here: said again, it stays a paragraph
    ]


def test_a_guide_trafilatura_recovered_keeps_its_sections() -> None:
    path = shared_dir() / "bench" / "multitype" / "dev" / "html" / "4096.html.gz"
    raw = gzip.decompress(path.read_bytes())
    url = "https://www.reithandassociates.com/blog/financial-planning-for-the-future-you---tips-for-millennials-gen-z"
    content = extract_document(raw, url=url, content_type="text/html", options=ExtractOptions()).content
    assert "\n## Setting the Stage: Understanding the Importance of Financial Planning\n" in content
    assert "\n### Why Financial Planning Matters\n" in content
