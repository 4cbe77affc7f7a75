"""A list that a kept paragraph announces with a colon goes back after it (`extract.announced`)."""

from __future__ import annotations

import gzip
from collections.abc import Sequence

from lxml import etree, html
from simweb import shared_dir

from webferret.extract import announced
from webferret.extract.document import extract_document
from webferret.extract.markdown import to_markdown
from webferret.extract.types import ExtractOptions

INTRO = "The tool can help you with many kinds of work, for example:"
ITEMS = ["Automate repetitive tasks", "Integrate several applications", "Run backend workflows"]
AFTER = "Workflows are built visually and run one step after another, or on a condition."


def _page(intro: str = INTRO, items: list[str] = ITEMS, between: str = "", tag: str = "ul") -> str:
    listing = "".join(f"<li>{item}</li>" for item in items)
    return (
        f"<html><body><article><p>{intro}</p>{between}<{tag}>{listing}</{tag}>"
        f"<p>{AFTER}</p></article></body></html>"
    )


def _main(*paragraphs: str, items: Sequence[str] = ()) -> etree._Element:
    """A trafilatura-like choice: its paragraphs, and a list of `items` when given."""
    body = etree.Element("body")
    for text in paragraphs:
        etree.SubElement(body, "p").text = text
    if items:
        listing = etree.SubElement(body, "list")
        for item in items:
            etree.SubElement(listing, "item").text = item
    return body


def _put_back(page: str, main: etree._Element) -> tuple[int, str]:
    added = announced.put_back_lists(main, html.fromstring(page))
    return added, to_markdown(main)


def test_a_list_the_kept_paragraph_announces_goes_back_after_it() -> None:
    added, markdown = _put_back(_page(), _main(INTRO, AFTER))
    assert added == 1
    listed = "\n".join(f"- {item}" for item in ITEMS)
    assert f"{INTRO}\n\n{listed}\n\n{AFTER}" in markdown


def test_the_text_after_the_paragraph_comes_after_its_list() -> None:
    main = html.fromstring(f"<div><p>{INTRO}</p>{AFTER}</div>")
    _, markdown = _put_back(_page(), main)
    assert markdown.index("Run backend workflows") < markdown.index(AFTER)


def test_an_ordered_list_stays_ordered() -> None:
    _, markdown = _put_back(_page(tag="ol"), _main(INTRO, AFTER))
    assert "1. Automate repetitive tasks\n2. Integrate several applications" in markdown


def test_a_paragraph_without_a_colon_announces_nothing() -> None:
    intro = "The tool can help you with many kinds of work."
    added, markdown = _put_back(_page(intro=intro), _main(intro, AFTER))
    assert added == 0
    assert "Automate" not in markdown


def test_a_list_not_right_after_the_paragraph_stays_out() -> None:
    added, _ = _put_back(_page(between="<p>An aside in between.</p>"), _main(INTRO, AFTER))
    assert added == 0
    assert _put_back(_page(between="<!-- a template's note -->"), _main(INTRO, AFTER))[0] == 1
    # only a paragraph announces: a heading or a box's label before a list is the list's title
    boxed = _page().replace(f"<p>{INTRO}</p>", f"<h3>{INTRO}</h3>")
    assert _put_back(boxed, _main(INTRO, AFTER))[0] == 0


def test_a_list_the_choice_has_is_not_put_in_twice() -> None:
    assert _put_back(_page(), _main(INTRO, AFTER, items=ITEMS[:1]))[0] == 0
    # an item said inside a paragraph of the choice counts as said too
    assert _put_back(_page(), _main(INTRO, f"We {ITEMS[0].lower()} every day.", AFTER))[0] == 0


def test_a_list_of_links_to_other_reading_one_item_or_a_short_label_stays_out() -> None:
    links = [f'<a href="/post/{n}">{item}</a>' for n, item in enumerate(ITEMS)]
    for intro in (
        "Related articles from our blog:",
        "You might also like these guides:",
        "More posts by Ada:",
    ):
        assert _put_back(_page(intro=intro, items=links), _main(intro, AFTER))[0] == 0
    assert _put_back(_page(items=ITEMS[:1]), _main(INTRO, AFTER))[0] == 0
    assert _put_back(_page(intro="Related:"), _main("Related:", AFTER))[0] == 0


def test_a_list_of_links_the_article_announces_goes_back() -> None:
    """ "For more information, see:" or "the projects I liked most:" announce the article's own links."""
    links = [f'<a href="/docs/{n}">{item}</a>' for n, item in enumerate(ITEMS)]
    for intro in (INTRO, "For more information on workflows, see:"):
        added, markdown = _put_back(_page(intro=intro, items=links), _main(intro, AFTER))
        assert added == 1 and "- [Automate repetitive tasks](/docs/0)" in markdown


def test_a_nested_list_its_items_words_announce_goes_back_inside_that_item() -> None:
    """trafilatura drops a nested list of links from a list item ("Learn what you need to set up a
    node:" over its guides): it goes back inside the item, under its words. Words that announce
    nothing, or a nested list not at the item's end, bring nothing."""
    links = "".join(f'<li><a href="/docs/{n}">{item}</a></li>' for n, item in enumerate(ITEMS))
    page = (
        f"<html><body><article><ul><li>{INTRO}<ul>{links}</ul></li><li>{AFTER}</li>"
        f"<li>The items that follow are steps:<ul>{links}</ul>and more.</li></ul></article></body></html>"
    )
    main = etree.Element("body")
    listing = etree.SubElement(main, "list")
    for text in (INTRO, AFTER, "The items that follow are steps: and more."):
        etree.SubElement(listing, "item").text = text
    added, markdown = _put_back(page, main)
    nested = "\n".join(f"  - [{item}](/docs/{n})" for n, item in enumerate(ITEMS))
    assert added == 1
    assert markdown == f"- {INTRO}\n{nested}\n- {AFTER}\n- The items that follow are steps: and more.\n"
    # a list after a paragraph of the choice that holds the same words is still put after it
    assert _put_back(_page(), _main(INTRO, AFTER))[0] == 1


def test_a_paragraph_the_choice_left_out_brings_nothing() -> None:
    added, markdown = _put_back(_page(), _main(AFTER))
    assert added == 0
    assert "Automate" not in markdown


def test_a_tutorial_reads_with_the_lists_its_sentences_announce() -> None:
    """trafilatura finds no container of its rules on DigitalOcean's tutorial pages: it recovers their
    paragraphs one by one, and every list that was not made of paragraphs went."""
    path = shared_dir() / "bench" / "multitype" / "dev" / "html" / "2684.html.gz"
    raw = gzip.decompress(path.read_bytes())
    url = "https://www.digitalocean.com/community/tutorials/n8n-workflow-automation-guide"
    content = extract_document(raw, url=url, content_type="text/html", options=ExtractOptions()).content
    assert (
        "N8n can help you with any type of automations, for example:\n\n- Automate repetitive tasks\n"
        "- Integrate multiple applications\n"
    ) in content
