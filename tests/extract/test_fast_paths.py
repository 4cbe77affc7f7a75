"""The short cuts taken for speed give what the long way gives."""

from __future__ import annotations

from itertools import accumulate
from urllib.parse import urldefrag, urljoin

import pytest

from webferret.extract import blocks
from webferret.extract.htmlpage import parse_html
from webferret.extract.links import absolute
from webferret.remote_text import url_without_blanks
from webferret.tokens import estimate_tokens, token_prefix

BASES = ["https://example.org/a/b.html?q=1#top", "http://Host.example:8080", "ftp://example.org/x", None, ""]
HREFS = [
    "/docs/page", "/", "/a//b", "/a/./b", "/a/../b", "/..", "/.", "/a;p", "/a?q#f", "/a#f", "/ a b",
    "/a\tb", "/a b", "https://example.net/a b", "/é", "/x:y", "/[x]", "//other.org/p", "rel/page", "../up", "https://example.net/p",
]  # fmt: skip


@pytest.mark.parametrize("base", BASES)
def test_root_relative_links_join_as_urljoin_does(base: str | None) -> None:
    for href in HREFS:  # and their blanks percent-encoded, as a browser sends them
        absolute.cache_clear()
        joined = url_without_blanks(urldefrag(urljoin(base or "", href.strip())).url)
        expected = joined if joined.startswith(("http://", "https://")) else None
        assert absolute(href, base) == expected, href


TEXTS = [
    "",
    "   ",
    "Hello, world! It's 2026-11-30: 12345678 items... costing $9.99 (approx.)",
    "日本語のテキスト abc日本 東京 x_y __ 12_34 \u0660\u0661 ٣ éàü",
    "Antidisestablishmentarianism " * 7 + "?!" * 5,
    ". , ; : ! ? - ( ) [ ] { } ' \" / \\ | @ # % ^ & * + = < > ~ `" * 3,
]


@pytest.mark.parametrize("text", TEXTS)
def test_estimate_tokens_is_the_prefix_total(text: str) -> None:
    total = token_prefix(text)[1][-1]
    assert estimate_tokens(text) == (max(1, round(total)) if total else 0)


@pytest.mark.parametrize("text", [*TEXTS, "__init__ _x_ \u3000word\u2028\x1c9 ends_"])
def test_token_prefix_ends_each_piece_where_the_piece_pattern_does(text: str) -> None:
    from webferret.tokens import _PIECES, _cost

    matches = list(_PIECES.finditer(text))
    ends, totals = token_prefix(text)
    assert ends == [match.end() for match in matches]
    costs = [_cost(match.lastindex or 4, match.end() - match.start()) for match in matches]
    assert totals == [0.0, *accumulate(costs)]


def test_segment_flags_attributes_and_skips_comments() -> None:
    tree = parse_html(
        "<html><body><div id='main-content'><p hidden>gone <b>bold</b></p><!-- note -->tail"
        "<p class='share bar'>Share</p><p style='display: none'>x</p><p>plain <a href='/x'>link</a></p>"
        "</div></body></html>",
        None,
    )
    found = blocks.segment(tree)
    by_text = {block.text: block for block in found}
    assert by_text["gone bold"].flags & blocks.F_HIDDEN
    assert by_text["gone bold"].flags & blocks.F_CONTENT
    assert by_text["Share"].flags & blocks.F_BOILER and not by_text["Share"].flags & blocks.F_HIDDEN
    assert by_text["x"].flags & blocks.F_HIDDEN
    assert by_text["plain link"].n_links == 1 and by_text["plain link"].link_chars == 4
    assert by_text["tail"].signature == "body./div."  # the comment gone, its tail is the div's text


@pytest.mark.parametrize("text", [*TEXTS, "Ünïcode ÉTÉ and İstanbul", "__x__ a_b", "…dots… — dashes"])
def test_a_blocks_normalized_text_is_normalize_of_its_text(text: str) -> None:
    from webferret.extract.features import block_norm, block_words, normalize

    block = blocks.Block(None, atomic=False, depth=1, flags=0, text=text)  # type: ignore[arg-type]
    assert block_norm(block) == normalize(text)
    assert block_words(block) == normalize(text).split()


@pytest.mark.parametrize(
    "main",
    [*TEXTS, "", "\n\nTwo\n\n", "ΑΣ\nΒ and İstanbul\r\nΣΑΣ", "a_b\u2028c\x0bd\x1ce", "One.\n  \nTwo!"],
)
def test_a_reference_is_normalize_of_its_text_and_lines(main: str) -> None:
    from webferret.extract.features import WORD_RE, Reference, normalize

    ref = Reference.of(main, "Some comments")
    assert ref.main == normalize(main) and ref.comments == normalize("Some comments")
    assert ref.main_words == frozenset(WORD_RE.findall(main.lower()))
    assert ref.main_lines == frozenset(normalize(line) for line in main.splitlines())


def test_page_signals_read_declared_types_in_any_case() -> None:
    from webferret.extract.features import Reference, page_signals

    ref = Reference.of("some kept text", "")
    lower = '<meta property="og:type" content="article"><script>{"@type": "newsarticle"}</script>'
    mixed = '<META PROPERTY="og:TYPE" CONTENT="Article"><script>{"@Type": "NewsArticle"}</script>'
    none = "<p>no types here</p>"
    signals = [page_signals(html, "https://example.org/a", 10, 2, ref) for html in (lower, mixed, none)]
    assert signals[0] == signals[1] != signals[2]


def test_segment_reads_leaves_and_blocks_inside_inline_elements() -> None:
    tree = parse_html(
        "<html><body><p>before <a href='/x'>link</a> after <span class='share'><b>bold</b></span> "
        "<a href='/y' class='card'><div class='related'>block in link</div>tail in link</a> end</p>"
        "</body></html>",
        None,
    )
    found = {block.text: block for block in blocks.segment(tree)}
    para = found["before link after bold tail in link end"]
    assert (para.n_links, para.link_chars) == (2, len("link") + len("tail in link"))
    assert para.signature == "body./p." and not para.flags & blocks.F_BOILER
    inner = found["block in link"]
    assert inner.link_chars == len("block in link") and inner.n_links == 0
    assert inner.flags & blocks.F_LINK and inner.flags & blocks.F_BOILER
    assert inner.signature == "a.card/div.related"
