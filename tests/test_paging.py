"""Paging on block boundaries: never inside a code block that fits a page or a table row; nothing lost."""

from __future__ import annotations

import random

import pytest

from webferret.models import Page
from webferret.present.disclosure import first_page, open_document
from webferret.present.pages import opened_lines
from webferret.present.paging import open_fence, paginate
from webferret.tokens import content_tokens, estimate_tokens

WORDS = ("the", "ferret", "runs", "under", "a", "fence", "and")
WORDS += ("finds", "the", "burrow", "of", "an", "old", "rabbit")


def _sentence(rng: random.Random) -> str:
    return " ".join(rng.choice(WORDS) for _ in range(rng.randint(5, 25))).capitalize() + "."


def _document(seed: int) -> tuple[str, list[str], list[str]]:
    """A Markdown document; also its code blocks and table rows (which must stay whole)."""
    rng = random.Random(seed)
    blocks, codes, rows = [], [], []
    for section in range(rng.randint(3, 8)):
        blocks.append(f"## Section {section}")
        for _ in range(rng.randint(1, 6)):
            kind = rng.random()
            if kind < 0.2:
                code = "```python\n" + "\n".join(f"x{i} = {i}  # step" for i in range(rng.randint(2, 40)))
                codes.append(code + "\n```")
                blocks.append(code + "\n```")
            elif kind < 0.35:
                table = ["| name | value |", "| --- | --- |"]
                table += [f"| {_sentence(rng)} | {i} |" for i in range(rng.randint(2, 30))]
                rows.extend(table)
                blocks.append("\n".join(table))
            elif kind < 0.5:
                blocks.append("\n".join(f"- {_sentence(rng)}" for _ in range(rng.randint(2, 12))))
            else:
                blocks.append(" ".join(_sentence(rng) for _ in range(rng.randint(1, 30))))
    return "\n\n".join(blocks) + "\n", codes, rows


@pytest.mark.parametrize("seed", range(30))
@pytest.mark.parametrize("budget", [100, 250, 1000])
def test_pages_hold_the_whole_document_and_respect_blocks(seed: int, budget: int) -> None:
    text, codes, rows = _document(seed)
    pages = paginate(text, budget)
    assert "".join(pages) == text
    assert all(page for page in pages)
    for code in codes:
        if estimate_tokens(code) <= budget:
            assert any(code in page for page in pages), "a code block that fits a page was cut"
    for number, page in enumerate(pages):
        if open_fence("".join(pages[: number + 1])):  # it ends inside a code block
            assert page.endswith("\n"), "a code block was cut inside a line"
    for row in rows:
        assert any(row in page.splitlines() for page in pages), "a table row was cut"
    for page in pages:
        assert estimate_tokens(page) <= budget or any(row in page for row in rows), "a page overflows"


def test_cuts_prefer_headings_and_paragraphs() -> None:
    text = "# One\n\n" + "Word " * 60 + "\n\n# Two\n\n" + "Word " * 60 + "\n"
    pages = paginate(text, 100)
    assert [page.lstrip().split("\n")[0] for page in pages] == ["# One", "# Two"]


def test_long_paragraph_is_cut_after_a_sentence() -> None:
    text = " ".join(f"Sentence number {i} is right here." for i in range(200))
    pages = paginate(text, 100)
    assert len(pages) > 5 and "".join(pages) == text
    assert all(page.rstrip().endswith(".") for page in pages)


def test_cjk_text_is_cut_after_a_sentence() -> None:
    text = "这是一个很长的中文句子，用来测试分页。" * 2000
    pages = paginate(text, 500)
    assert len(pages) > 20 and "".join(pages) == text
    assert all(page.endswith("。") and estimate_tokens(page) <= 500 for page in pages)


def test_text_without_spaces_and_one_line_code_are_cut_anyway() -> None:
    for text in ("x" * 250_000, "```js\n" + "a=1;" * 60_000 + "\n```\n"):
        pages = paginate(text, 1000)
        assert "".join(pages) == text and len(pages) > 50
        assert max(estimate_tokens(page) for page in pages) <= 1000


@pytest.mark.parametrize(
    "unit",
    ["e\u0301", "\U0001f468\u200d\U0001f469\u200d\U0001f467", "\U0001f1eb\U0001f1f7", "\U0001f44d\U0001f3fd",
     "\u0915\u094d\u0937\u093f", "\u1100\u1161\u11a8"],
    ids=["accent", "joined-emoji", "flag", "skin-tone", "conjunct", "hangul-jamo"],
)  # fmt: skip
@pytest.mark.parametrize("before", ["", "x", "xy", "xyz"])
def test_text_without_spaces_is_cut_between_characters_as_a_reader_sees_them(unit: str, before: str) -> None:
    """A line with no word to end at is cut every 64 code points: the cut fell between `e` and its
    accent, inside a flag (the pages after it showed other flags) or a joined emoji."""
    text = before + unit * 3000
    pages = paginate(text, 100)
    assert "".join(pages) == text and len(pages) > 20
    assert all(page.startswith(unit) for page in pages[1:])


def test_a_letter_under_a_pile_of_accents_is_cut_anyway() -> None:
    text = "a" + "\u0301" * 100_000
    pages = paginate(text, 1000)
    assert "".join(pages) == text and max(estimate_tokens(page) for page in pages) <= 1000


def test_an_html_paragraph_longer_than_a_page_is_never_cut_inside_a_tag() -> None:
    """`--format html` of a long paragraph of links: a page ended at the space in `<a href` (the
    next began `href="...">`), and a line without spaces inside `&amp;`."""
    links = " ".join(f'word{i} <a href="https://example.org/x{i}">link {i}</a> and' for i in range(600))
    for text in (f"<div>\n<p>{links}</p>\n</div>\n", "<p>" + "x&amp;" * 20_000 + "</p>\n"):
        pages = paginate(text, 100)
        assert "".join(pages) == text and len(pages) > 20
        for page in pages:
            assert page.count("<") == page.count(">") and page.count("&") == page.count(";"), page[:80]


def test_an_html_reading_is_cut_before_its_headings_not_after_them() -> None:
    """`--format html`: an `<h2>` line was cut as any line, so pages ended on a section's heading and
    the section began on the next page (the outline naming the page of the lone heading)."""
    rng = random.Random(7)
    sections = (
        f"<h{2 + s % 2}>Section {s}</h{2 + s % 2}>\n"
        + "".join(f"<p>{' '.join(_sentence(rng) for _ in range(4))}</p>\n" for _ in range(rng.randint(2, 9)))
        for s in range(40)
    )
    text = "<div>\n" + "".join(sections) + "</div>\n"
    for page_tokens in (300, 450, 700):
        pages = paginate(text, page_tokens)
        assert "".join(pages) == text and len(pages) > 5
        for page in pages:
            assert not page.splitlines()[-1].startswith("<h"), (page_tokens, page[-80:])


def test_a_paragraph_longer_than_a_page_is_never_cut_inside_a_markdown_link_or_code_span() -> None:
    """A page ended after `Dr. ` inside a link's text (a sentence's end to the cutter), or at a
    space in it or in a code span: the page had `[the team of Prof. Ada Lovelace and Dr. ` and the
    next the rest with the link's URL."""
    words = " ".join(f"word{i}" for i in range(70))
    link = (
        "[the team of Prof. Ada Lovelace and Dr. Charles Babbage at the Engine Society](https://x.org/a_(b))"
    )
    code = "``run the " + " ".join(f"step{i}" for i in range(20)) + " ` then stop``"
    text = f"Intro.\n\n{words} as said by {link} {words} and {code} {words} and so on {words}.\n"
    for page_tokens in range(100, 200, 10):
        pages = paginate(text, page_tokens)
        assert "".join(pages) == text and len(pages) > 2
        for page in pages:
            assert page.count("[") == page.count("]") and page.count("``") % 2 == 0, (page_tokens, page)


def test_what_reads_as_a_tag_longer_than_a_page_is_cut_inside_it_keeping_the_budget() -> None:
    """Prose's `a<b ... b>c` (or a tag of a thousand characters) reads as a tag: no page was cut
    inside it, so at 100 tokens a page the paragraph made one page of 6 tokens and one of 355."""
    words = " ".join(f"word{i}" for i in range(150))
    text = f"Intro words here.\n\nif a<b then {words} else b>c " + words.replace("word", "more") + "\n"
    pages = paginate(text, 100)
    assert "".join(pages) == text and max(estimate_tokens(page) for page in pages) <= 100
    assert all(page[-1] in " \n" for page in pages)  # at a word's end, inside the `tag` too
    href = f'<p>Read <a href="https://example.org/{"x" * 1500}">it</a> now.</p>\n'
    pages = paginate(href, 100)
    assert "".join(pages) == href and max(estimate_tokens(page) for page in pages) <= 100


def test_a_code_block_larger_than_a_page_is_cut_between_lines() -> None:
    code = "```json\n" + "".join(f'  {{"id": {i}, "v": "{"x" * 20}"}},\n' for i in range(5000)) + "```\n"
    text = "Intro line.\n\n" + code + "\nAfter.\n"
    pages = paginate(text, 2000)
    assert "".join(pages) == text and len(pages) > 20 and pages[0].startswith("Intro line.\n\n```json\n")
    assert all(page.endswith("\n") and estimate_tokens(page) <= 2000 for page in pages)
    assert (
        estimate_tokens(pages[0]) > 1000
    )  # cut anyway, it starts where the page was (not a page of 3 tokens)


def test_a_heading_stays_with_the_block_it_heads() -> None:
    """A heading over a code block larger than a page was a page of its own (`### Giant code`, 4
    tokens); a heading over a paragraph ended pages whose paragraph began the next."""
    code = "```python\n" + "".join(f"value_{i} = compute({i})\n" for i in range(3000)) + "```\n"
    text = "# Guide\n\n" + "Some words here. " * 40 + "\n\n### Giant code\n\n" + code
    pages = paginate(text, 1000)
    assert "".join(pages) == text
    assert all(page.strip() != "### Giant code" for page in pages)
    assert any("### Giant code\n\n```python\nvalue_0 = " in page for page in pages)
    prose = "".join(f"## Part {i}\n\n" + "Ferrets play. " * (20 + i % 17) + "\n\n" for i in range(200))
    for size in (120, 150, 250):
        ended = [page for page in paginate(prose, size) if page.rstrip().split("\n")[-1].startswith("## ")]
        assert not ended, (size, ended[:2])


def test_a_code_block_that_fits_moves_to_the_next_page_whole() -> None:
    code = "```\n" + "".join(f"line {i} of code\n" for i in range(60)) + "```\n"
    text = "Word " * 70 + "\n\n" + code + "\nEnd.\n"
    pages = paginate(text, 400)
    assert any(code in page for page in pages)


def test_an_html_pre_is_a_code_block() -> None:
    pre = "<pre><code>" + "".join(f"line {i} of code\n" for i in range(60)) + "</code></pre>\n"
    text = "<p>" + "Word " * 70 + "</p>\n" + pre + "<p>End.</p>\n"
    pages = paginate(text, 400)
    assert any(pre in page for page in pages) and "".join(pages) == text
    assert open_fence(text[: text.index("line 3")]) is None  # clipping closes Markdown fences only


def test_short_and_empty_documents_are_one_page() -> None:
    assert paginate("Just a line.", 100) == ["Just a line."]
    assert paginate("", 100) == [""]
    with pytest.raises(ValueError):
        paginate("text", 0)


def _long_page() -> Page:
    text = "\n\n".join(f"Paragraph {i}. " + "More words follow here. " * 30 for i in range(40))
    return Page(url="https://x.example/", ok=True, content=text, handle="x.example~0123456789ab", tokens=9)


def test_first_page_says_how_to_continue() -> None:
    page = _long_page()
    shown = first_page(page, 500, default_page_tokens=4000)
    assert "continue with: webferret open x.example~0123456789ab --page 2 --page-tokens 500" in shown.content
    assert shown.meta["paging"]["page"] == 1 and shown.meta["paging"]["pages"] > 1
    assert estimate_tokens(shown.content) < 600
    same = first_page(page, 4000, default_page_tokens=4000)
    assert same.meta["paging"]["next"] == "webferret open x.example~0123456789ab --page 2"
    short = page.model_copy(update={"content": "Short."})
    assert first_page(short, 500, 4000) is short


def test_open_document_numbers_pages() -> None:
    page = _long_page()
    page = page.model_copy(update={"content": page.content.replace("Paragraph", "## Part\n\nParagraph")})
    last = open_document(page, 1, 500, 4000).pages
    tail = open_document(page, last, 500, 4000)
    assert tail.next is None and tail.page == tail.pages
    first = open_document(page, 1, 500, 4000)  # a long document's first page names its outline
    assert last >= 3 and first.outline == f"webferret open {page.handle} --outline --page-tokens 500"
    assert tail.outline is None and f"[headings and their pages: {first.outline}]" in opened_lines(first)


def test_a_pages_count_is_the_extractors_when_it_made_one() -> None:
    """`content_tokens`: the count made where the page was extracted, else one made now (the store,
    the search hits and the agent faces read a page's size through it; `first_page` counts the text
    it is given, as above)."""
    text = "A ferret runs under the fence and finds the burrow of an old rabbit. " * 40
    assert content_tokens(Page(url="https://ex.org/a", content=text)) == estimate_tokens(text)
    assert content_tokens(Page(url="https://ex.org/a", content=text, tokens=7)) == 7
    assert content_tokens(Page(url="https://ex.org/a", content="")) == 0


def test_a_pdf_page_marker_stays_with_the_text_after_it() -> None:
    para = " ".join(f"word{i} of the quarterly report" for i in range(80))
    text = f"<!-- page 1 -->\n\n{para}\n\n<!-- page 2 -->\n\n{para}\n"
    pages = paginate(text, 300)
    assert "".join(pages) == text
    assert [page.startswith("<!-- page") for page in pages] == [True, False, True, False]
    assert not any(page.rstrip().endswith("-->") for page in pages)  # no page ends on a marker
