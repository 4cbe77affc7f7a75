"""A page nested deeper than libxml2's default limit (about 255 elements: page builders, old forums'
unclosed tags) is parsed whole, not cut off where the limit struck; past its hard limit (2,048) too,
flattened (`nesting`)."""

from __future__ import annotations

import pytest

from webferret.extract.document import extract_document
from webferret.extract.nesting import CHAINED, KEPT_DEPTH, chains, flattened
from webferret.extract.types import ExtractOptions

WORDS = "Ferrets dig long tunnels under the old barn and keep their food in a dry chamber there. "


def test_an_article_inside_six_hundred_wrappers_is_read() -> None:
    body = "<div>" * 600 + f"<article><h1>Burrows</h1><p>{WORDS * 6}</p><p>{WORDS * 5}</p></article>"
    html = f"<html><head><title>Burrows</title></head><body>{body}{'</div>' * 600}</body></html>"
    page = extract_document(
        html.encode(), url="https://deep.example/", content_type="text/html", options=ExtractOptions()
    )
    assert page.content.count("Ferrets dig") == 11


def _text(html: str) -> str:
    page = extract_document(
        html.encode(),
        url="https://deep.example/",
        content_type="text/html",
        options=ExtractOptions(format="text"),
    )
    return page.content


@pytest.mark.parametrize("opened", ["<div>", '<font color="red">', "<blockquote><b>"])
def test_a_thread_of_three_thousand_unclosed_tags_is_read_to_its_last_post(opened: str) -> None:
    """A start tag never closed, once per post: libxml2 stopped the page at 2,048 open elements and
    dropped the rest without a word (the text ended at post 2,044 of 3,000)."""
    posts = "".join(f"<p>{opened}Post {n}: {WORDS}</p>" for n in range(3000))
    text = _text(f"<html><head><title>Thread</title></head><body><main>{posts}</main></body></html>")
    assert "Post 2999: Ferrets dig" in text and "Post 1500: Ferrets dig" in text
    assert text.count("Ferrets dig") == 3000


def test_what_follows_a_nest_deeper_than_the_limit_is_read() -> None:
    nest = "<div>" * 3000 + f"<p>Inside: {WORDS}</p>" + "</div>" * 3000
    after = f"<p>After the nest: {WORDS * 3}</p>"
    text = _text(f"<html><body><article>{nest}{after}</article></body></html>")
    assert "Inside: Ferrets dig" in text and "After the nest: Ferrets dig" in text


def test_flattening_keeps_the_tags_within_the_depth_and_the_text() -> None:
    nest = "".join(f'<div class="level{n}">' for n in range(KEPT_DEPTH + 2))  # no two alike: no chain
    page = nest + "words" + "</div>" * (KEPT_DEPTH + 2) + "<p>a<p>b"
    flat = flattened(page)
    assert flat.count("<div class=") == KEPT_DEPTH and flat.count("</div>") == KEPT_DEPTH
    assert flat.count("<br>") == 2 and flat.endswith("words" + "</div>" * KEPT_DEPTH + "<p>a<p>b")
    shallow = "<ul><li>one<li>two</ul>" * 2000  # siblings closed by their next: never deep
    assert flattened(shallow) is shallow


@pytest.mark.parametrize("opened", ["<div>", '<font color="red">'])
@pytest.mark.parametrize(
    "options",
    [ExtractOptions(), ExtractOptions(whole_page=True), ExtractOptions(format="html", whole_page=True)],
    ids=["main", "whole", "whole-html"],
)
def test_a_flattened_thread_is_rendered_to_its_last_post_in_every_view(
    opened: str, options: ExtractOptions
) -> None:
    """Flattened to 512 open elements, the page parsed whole but what renders it recursed deeper than
    Python goes: the whole page of a thread of unclosed `<div>` or `<font>` failed as
    `unsupported_content` (RecursionError), and the HTML view stopped at post 251."""
    posts = "".join(f"{opened}<p>Post {n}: {WORDS}</p>" for n in range(3000))
    html = f"<html><head><title>Thread</title></head><body><main>{posts}<p>The end.</p></main></body></html>"
    page = extract_document(
        html.encode(), url="https://deep.example/", content_type="text/html", options=options
    )
    assert "Post 2999: Ferrets dig" in page.content and "The end." in page.content


@pytest.mark.parametrize("opened", ["<ul><li>", "<ol><li>", "<table><tr><td>"])
def test_a_thread_of_nested_lists_flattened_is_read_past_the_last_list_kept(opened: str) -> None:
    """Flattening kept a list's start as the last element and left out its item's (`<li>`): the rest
    of the page was text directly in a `<ul>`, which the whole page's views do not read (the thread
    ended at post 99 of 3,000, its end lost). The item of a list or table kept is kept too."""
    posts = "".join(f"{opened}<p>Post {n}: {WORDS}</p>" for n in range(3000))
    html = f"<html><head><title>Thread</title></head><body><main>{posts}<p>The end.</p></main></body></html>"
    for options in (ExtractOptions(whole_page=True), ExtractOptions(whole_page=True, format="text")):
        page = extract_document(
            html.encode(), url="https://deep.example/", content_type="text/html", options=options
        )
        assert "Post 2999: Ferrets dig" in page.content and "The end." in page.content


@pytest.mark.parametrize("thread", ["<dl>{posts}</dl>", "{posts}"], ids=["one-list", "a-list-a-post"])
def test_a_thread_of_unclosed_definitions_is_read_to_its_last_post(thread: str) -> None:
    """libxml2 nests a `<dd>` (and a `<dt>`) left open inside the next, where a browser closes it: the
    count took them for closed by their next, so such a thread was never flattened, stopped at
    2,048 open elements (its last thousand posts lost) and its whole page failed as RecursionError."""
    opened = "<dd>" if thread.startswith("<dl>") else "<dl><dd>"
    posts = "".join(f"{opened}<p>Post {n}: {WORDS}</p>" for n in range(3000))
    body = thread.format(posts=posts)
    html = f"<html><head><title>Thread</title></head><body><main>{body}<p>The end.</p></main></body></html>"
    page = extract_document(
        html.encode(),
        url="https://deep.example/",
        content_type="text/html",
        options=ExtractOptions(whole_page=True),
    )
    assert "Post 2999: Ferrets dig" in page.content and "The end." in page.content


def test_a_chain_of_unclosed_posts_is_closed_where_each_next_starts() -> None:
    """A post's container never closed (so each post opens inside the one before) is closed where the
    next post starts, with what was left open in it; its like nested a few times is no chain."""
    posts = "".join(f'<DIV class="post new"><font>Post {n}<div class="by">me</div>' for n in range(CHAINED))
    page = f'<div class="thread">{posts}</div><p>After</p>'
    assert chains(page) == {"div new post", "font"}
    flat = flattened(page)
    assert flat.count("</font></div>") == CHAINED - 1
    assert flat.count('</font></div><DIV class="post new"><font>Post') == CHAINED - 1
    threaded = '<div class="reply">a' * (CHAINED - 1) + "</div>" * (CHAINED - 1)
    assert chains(threaded) == set() and flattened(threaded) is threaded


@pytest.mark.parametrize("posts", [600, 1500])
def test_a_thread_whose_posts_open_inside_each_other_is_read_post_by_post(posts: int) -> None:
    """Each post's `<div class="post">` left open: the main-content choice read only the first part of
    such a thread, in the nest each post opens (207 posts of 600 and 671 of 1,500 on a page like this
    one); now the posts are siblings, as the writer meant, and every post is read, as when closed."""
    words = WORDS.split()  # each post says its own (a thread of one sentence again and again is cut)
    said = [" ".join([*words[n % 16 :], *words[: n % 16], f"kit{n}"]) for n in range(posts)]
    thread = "".join(
        f'<div class="post"><div class="author">user{n}</div><p>Reply {n}: {said[n]}</p>'
        for n in range(posts)
    )
    html = (
        "<html><head><title>Ferret bedding thread - Ferret Forum</title></head><body>"
        '<div class="nav"><a href="/">Home</a> <a href="/forum">Forum</a></div><h1>Ferret bedding thread</h1>'
        f'<div class="thread">{thread}</div><div class="footer">Copyright ferret forum</div></body></html>'
    )
    page = extract_document(
        html.encode(), url="https://forum.example/t/123", content_type="text/html", options=ExtractOptions()
    )
    assert all(f"Reply {n}: {said[n]}" in page.content for n in range(posts))
