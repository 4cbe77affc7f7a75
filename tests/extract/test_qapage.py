"""Question-and-answer threads read from their schema.org microdata (`extract.qapage`)."""

from __future__ import annotations

import re
from pathlib import Path

from webferret.extract import qapage
from webferret.extract.htmlpage import extract_html, parse_html
from webferret.extract.types import ExtractOptions

QUESTION = "How do I keep a sourdough starter alive while I am away for two weeks on holiday?"


def _answer(prop: str, votes: str, text: str) -> str:
    return (
        f'<div itemprop="{prop}" itemscope itemtype="https://schema.org/Answer">'
        f'<div class="votes"><span itemprop="upvoteCount" data-value="{votes}">{votes}</span></div>'
        '<div itemprop="author" itemscope itemtype="https://schema.org/Person">'
        '<span itemprop="name">Ann</span></div>'
        f'<div class="post" itemprop="text"><p>{text}</p></div></div>'
    )


def _page(kind: str = "QAPage", question_text: str = f"<p>{QUESTION}</p>") -> str:
    return (
        f'<html itemscope itemtype="https://schema.org/{kind}"><head><title>Starter</title></head><body>'
        "<nav><a href='/'>Home</a> <a href='/tags'>Tags</a> <a href='/users'>Users</a></nav>"
        '<div itemprop="mainEntity" itemscope itemtype="https://schema.org/Question">'
        '<h1 itemprop="name">Keeping a starter</h1><span itemprop="upvoteCount">12</span>'
        f'<div itemprop="text">{question_text}</div>'
        + _answer("suggestedAnswer", "3", "Feed it, then keep it in the fridge; it lasts a month.")
        + _answer("acceptedAnswer", "1", "Dry some on baking paper: dried starter keeps for years.")
        + _answer("suggestedAnswer", "40", "<h2>Freeze it</h2>A frozen starter wakes up after two feeds.")
        + '<div itemprop="suggestedAnswer" itemscope itemtype="https://schema.org/Answer">'
        '<span itemprop="upvoteCount">9</span></div>'  # an answer without a text: not listed
        "</div><footer>Site design / logo © 2024</footer></body></html>"
    )


def test_a_thread_reads_as_question_then_answers_accepted_first_then_by_votes() -> None:
    extracted = extract_html(_page(), "https://cooking.example/q/1", ExtractOptions())
    content = extracted.content
    headings = re.findall(r"^#+ .*$", content, re.M)
    assert headings == [
        "## Question · 12 votes",
        "## Answer 1 · 1 vote · accepted",
        "## Answer 2 · 40 votes",
        "#### Freeze it",  # the post's own heading, under the answer's
        "## Answer 3 · 3 votes",
    ]
    assert QUESTION in content and "keeps for years" in content and "lasts a month" in content
    assert "Site design" not in content and "Tags" not in content and "Ann" not in content
    assert extracted.page_type == "forum" and extracted.extra["selector"] == "qapage"


def test_a_real_stack_overflow_thread(pages_dir: Path) -> None:
    page = (pages_dir / "misc/stackoverflow_question_58211880.html").read_text(encoding="utf-8")
    extracted = extract_html(page, "https://stackoverflow.com/questions/58211880", ExtractOptions())
    lines = extracted.content.splitlines()
    headings = [line for line in lines if line.startswith("## ")]
    assert headings[:3] == ["## Question · 674 votes", "## Answer 1 · 364 votes", "## Answer 2 · 257 votes"]
    assert len([h for h in headings if h.startswith("## Answer")]) == 39
    assert not any(re.fullmatch(r"-?\d+", line.strip()) for line in lines)  # no vote count as a bare line
    assert "Cannot use import statement outside a module" in extracted.content


def test_questions_and_answers_of_a_faq_page_are_not_a_thread() -> None:
    tree = parse_html(_page(kind="FAQPage"), None)
    assert qapage.thread(tree) is None


def test_a_question_without_text_of_its_own_is_not_read_as_a_thread() -> None:
    tree = parse_html(_page(question_text=""), None)
    assert qapage.thread(tree) is None
