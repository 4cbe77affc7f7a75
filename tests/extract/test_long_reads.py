"""A long read is read whole: the block classifier's probability falls with a block's place on long
pages (the benchmark's ground truths of long pages end early), so a long article lost its second half."""

from __future__ import annotations

import random
import re

import numpy as np
import pytest

from webferret.extract import main_content
from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

WORDS = ("badger", "otter", "mink", "stoat", "ferret", "marten", "sable", "weasel", "polecat", "burrow")


def long_article(paragraphs: int) -> str:
    rng = random.Random(paragraphs)
    parts = ["<h1>A Long Read</h1>"]
    for i in range(paragraphs):
        if i and i % 60 == 0:
            parts.append(f"<h2>Chapter {i // 60}</h2>")
        if i == paragraphs * 2 // 3:
            rows = "".join(f"<tr><td>{k}</td><td>{rng.choice(WORDS)} {k}</td></tr>" for k in range(8))
            parts.append(f"<table><tr><th>key</th><th>animal</th></tr>{rows}</table>")
        sentence = " ".join(rng.choice(WORDS) for _ in range(45))
        parts.append(f"<p>Paragraph {i}: {sentence.capitalize()}.</p>")
    parts.append("<p>The last words of the read.</p>")
    nav = "<header><nav><a href='/'>Home</a> <a href='/about'>About</a></nav></header>"
    article = f"<main><article>{''.join(parts)}</article></main><footer>Copyright 2026</footer>"
    return f"<html><head><title>A Long Read</title></head><body>{nav}{article}</body></html>"


def _read(html: str) -> str:
    body = html.encode()
    page = extract_document(
        body, url="https://a.example/read", content_type="text/html", options=ExtractOptions()
    )
    return page.content


DECLARED = '<head><meta property="og:type" content="article">'


@pytest.mark.parametrize("declared", [False, True], ids=["any page", "a declared article"])
@pytest.mark.parametrize("paragraphs", [250, 600])
def test_every_paragraph_heading_and_table_of_a_long_read_is_kept(paragraphs: int, declared: bool) -> None:
    """Read by the classifier's choice, or (declared) by trafilatura's less what the classifier drops."""
    page = long_article(paragraphs)
    content = _read(page.replace("<head>", DECLARED) if declared else page)
    assert len(re.findall(r"Paragraph \d+:", content)) == paragraphs
    assert content.count("## Chapter") == (paragraphs - 1) // 60
    assert "| key | animal |" in content and content.rstrip().endswith("The last words of the read.")
    assert "Copyright" not in content and "About" not in content


@pytest.mark.parametrize("declared", [False, True], ids=["any page", "a declared article"])
def test_without_the_rule_the_classifier_alone_loses_the_end(
    monkeypatch: pytest.MonkeyPatch, declared: bool
) -> None:
    """What the rule is for: the same page with it switched off keeps far from every paragraph."""
    monkeypatch.setattr(main_content, "LIKE_SIBLINGS", 0)
    page = long_article(250)
    content = _read(page.replace("<head>", DECLARED) if declared else page)
    assert len(re.findall(r"Paragraph \d+:", content)) < 200


def test_spared_raises_the_run_of_a_long_read_above_a_trims_cut() -> None:
    """What both trims of trafilatura's choice are given: the blocks of a long run the classifier
    rated under the cut come back at 1, the others as they were."""
    analysis = main_content.analyse(long_article(120), "https://a.example/read")
    assert analysis is not None
    n = len(analysis.blocks)
    prob = np.linspace(0.9, 0.01, n)  # the fall with the place on the page
    raised = main_content.spared(analysis.blocks, prob, 0.3)
    paragraphs = [i for i, b in enumerate(analysis.blocks) if b.element.tag == "p"]
    assert all(raised[i] >= 0.3 for i in paragraphs)
    assert all(raised[i] == prob[i] for i in range(n) if prob[i] >= 0.3)
