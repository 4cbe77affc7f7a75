"""The Markdown renderer on small HTML snippets."""

from __future__ import annotations

from html import escape

from lxml import etree, html

from webferret.extract.markdown import to_markdown, to_text


def render(snippet: str, url: str = "https://example.org/docs/page") -> str:
    return to_markdown(html.fragment_fromstring(snippet, create_parent="div"), url)


def test_table_has_pipes_and_a_header_row() -> None:
    out = render(
        "<table><thead><tr><th>Name</th><th>Kind</th></tr></thead>"
        "<tbody><tr><td>a|b</td><td><b>x</b></td></tr><tr><td colspan=2>wide</td></tr></tbody></table>"
    )
    assert out.splitlines() == [
        "| Name | Kind |",
        "|---|---|",
        "| a\\|b | **x** |",
        "| wide |  |",
    ]


def test_a_tables_title_row_or_caption_is_a_line_above_it() -> None:
    """A `<caption>`, a first row of one cell over wider rows, or one filled cell padded to the width
    over a header row (trafilatura's copy of a caption) names the table: a line above it."""
    header = "<tr><th>Fruit</th><th>Price</th></tr><tr><td>Apple</td><td>1</td></tr>"
    for title in (
        "<caption>Prices</caption>",
        "<tr><td colspan=2>Prices</td></tr>",
        "<tr><th>Prices</th><th></th></tr>",
    ):
        out = render(f"<table>{title}{header}</table>")
        assert out.strip() == "Prices\n\n| Fruit | Price |\n|---|---|\n| Apple | 1 |", (title, out)
    kept = render("<table><tr><td>Prices</td><td></td></tr><tr><td>Apple</td><td>1</td></tr></table>")
    assert kept.startswith("| Prices |  |")  # one filled cell over data: the table's own first row


def test_table_without_th_uses_first_row_as_header() -> None:
    out = render("<table><tr><td>1</td><td>2</td></tr><tr><td>3</td><td>4</td></tr></table>")
    assert out.splitlines()[:2] == ["| 1 | 2 |", "|---|---|"]


def test_layout_table_cells_become_the_blocks_they_hold() -> None:
    page = (
        "<table><tr><td><h1>Title</h1><p>First paragraph.</p><p>Second paragraph.</p></td>"
        "<td><ul><li>side</li></ul></td></tr></table>"
    )
    assert render(page) == "# Title\n\nFirst paragraph.\n\nSecond paragraph.\n\n- side\n"
    text = to_text(html.fragment_fromstring(page, create_parent="div"))
    assert text.startswith("Title\n\nFirst paragraph.")
    # one column, or one row holding a cell of prose, without a header row: no data to tabulate
    assert render("<table><tr><td>alpha</td></tr><tr><td>beta</td></tr></table>") == "alpha\n\nbeta\n"
    prose = "word " * 60
    out = render(f"<table><tr><td><b>Note</b></td><td>{prose}</td></tr></table>")
    assert out.startswith("**Note**\n\nword")


def test_code_table_keeps_the_code_fenced_without_its_line_numbers() -> None:
    out = render(
        "<table><tr><td><pre>1\n2\n3</pre></td>"
        '<td><pre><code class="language-python">a = 1\nb = 2\nprint(a + b)</code></pre></td></tr></table>'
    )
    assert out == "```python\na = 1\nb = 2\nprint(a + b)\n```\n"


def test_data_tables_stay_tables() -> None:
    # header cells styled as headings, a one-line code block in a cell, a one-row table of short data
    out = render(
        "<table><tr><th><h4>Name</h4></th><th><h4>Default</h4></th></tr>"
        "<tr><td>level</td><td><pre>info</pre></td></tr></table>"
    )
    assert out.splitlines() == ["| **Name** | **Default** |", "|---|---|", "| level | `info` |"]
    assert render("<table><tr><td>Price</td><td>$10</td></tr></table>").splitlines()[2] == "| Price | $10 |"


def test_emphasis_inside_the_same_emphasis_is_marked_once() -> None:
    assert render("<p>a <strong>b <b>c</b> d</strong> <i><em>e</em></i></p>") == "a **b c d** *e*\n"
    # two bold runs that touch are one: `**Game D****ay**` would not read as bold
    assert render("<h2><b>Game D</b><b>ay</b> is here</h2>") == "## **Game Day** is here\n"
    assert render("<p><b>one</b> <b>two</b></p>") == "**one** **two**\n"
    assert render("<p>See <i>Game D</i><i>ay</i></p>") == "See *Game Day*\n"  # in a paragraph's own run too
    # a link without a target (an e-mail address) is its text: its emphasis touches the next one's
    out = render('<p><i>Write to </i><a href="mailto:a@b.com"><i>a@b.com</i></a><i>. Follow her</i></p>')
    assert out == "*Write to* *a@b.com. Follow her*\n"


def test_loading_placeholders_are_left_out() -> None:
    out = render("<ul><li><h3>Loading...</h3></li><li>Chair</li></ul><p>Loading…</p><p>Loading the van.</p>")
    assert out == "- Chair\n\nLoading the van.\n"


def test_the_comment_section_s_prompts_are_left_out() -> None:
    out = render(
        "<p>The review ends here.</p><h3>Leave a Reply</h3><p>You must be logged in to post a comment.</p>"
        "<p><b>Tell us what YOU think...</b></p><p>12 comments</p><h2>You may also like</h2>"
    )
    assert out == "The review ends here.\n"
    kept = "<h3>Comments on the draft</h3><p>Comments are welcome until May.</p>"
    assert render(kept) == "### Comments on the draft\n\nComments are welcome until May.\n"


def test_the_buttons_of_a_product_card_are_left_out() -> None:
    card = (
        "<ul><li><p>Quick view</p><h3>Rambler Bottle</h3><p>$35.00</p><p>Add to Wishlist</p>"
        "<p><b>Compare</b></p></li></ul><p>Close</p><p>Read more</p><p>Compare the two bottles.</p>"
    )
    assert render(card) == "- ### Rambler Bottle\n\n  $35.00\n\nCompare the two bottles.\n"


def test_an_advertisement_s_label_is_left_out() -> None:
    out = render(
        "<p>First.</p><p>Advertisement</p><p><b>SKIP ADVERTISEMENT</b></p><h3>Advertisement</h3>"
        "<p>Story continues below advertisement</p><p>Second.</p>"
        "<ul><li>Branding</li><li>Advertising</li></ul>"
    )
    assert out == "First.\n\nSecond.\n\n- Branding\n- Advertising\n"
    # Top Gear's slot between the entries of a ranked list, inside each item
    ranked = render(
        "<ol><li><h2>Kia PV5</h2><p>Spacious.</p><div>Advertisement - Page continues below</div></li>"
        "<li><h2>Volvo EX90</h2></li></ol>"
    )
    assert ranked == "1. ## Kia PV5\n\n   Spacious.\n2. ## Volvo EX90\n"


def test_a_heading_s_permalink_showing_its_own_address_is_left_out() -> None:
    """A List Apart ends each heading with `<a href="#section2">#section2</a>`: the Markdown heading read
    "Preferring real estate to architecture#section2". A link to a place that is part of the words
    stays, and a heading that is only such a link is still said."""
    out = render(
        '<h2 id="section2">Preferring real estate<a class="subhead-anchor" href="#section2">#section2</a>'
        '</h2><p>Text.</p><h2>Issue <a href="#42">#42</a> fixed</h2><h3><a href="#x">#x</a></h3><p>More.</p>'
    )
    assert out == "## Preferring real estate\n\nText.\n\n## Issue #42 fixed\n\n### #x\n\nMore.\n"


def test_a_heading_s_permalink_mark_written_against_its_words_is_left_out() -> None:
    """Hugo and many docs themes end a heading with `<a class="anchor" href="#quick">#</a>` and no space
    before it: the Markdown heading read "## Quick start#". A "#" that is the heading's words stays."""
    out = render(
        '<h2 id="quick">Quick start<a class="anchor" href="#quick">#</a></h2><p>Text.</p>'
        '<h2 id="c">Learn C<a href="#c">¶</a></h2><h3>C#</h3><p>More.</p>'
    )
    assert out == "## Quick start\n\nText.\n\n## Learn C\n\n### C#\n\nMore.\n"


def test_a_permalink_mark_outside_a_heading_is_left_out() -> None:
    """Sphinx ends each function's signature, caption and term with `<a class="headerlink"
    href="#...">¶</a>`: an API reference's every signature read `connect(url, timeout=1.0)¶`. A mark
    that is words, or a link elsewhere, stays."""
    out = render(
        '<dl class="py function"><dt id="m.connect">connect(<em>url</em>)<a class="headerlink" '
        'href="#m.connect">¶</a></dt><dd><p>Opens it.</p></dd></dl>'
        '<figure><img src="/a.png"><figcaption>Flow<a href="#f1">🔗</a></figcaption></figure>'
        '<p>See <a href="#s5">§ 5</a> and <a href="/law">§</a>.</p>'
    )
    assert "¶" not in out and "🔗" not in out and "Flow" in out
    assert "See § 5 and [§](https://example.org/law)." in out


def test_a_user_s_avatar_is_no_picture_of_the_text() -> None:
    """A forum's quote says who is quoted with their avatar beside the name (Discourse's
    `<img class="avatar">`): the Markdown showed a 24-pixel face before "ann:". A picture in the post
    stays."""
    out = render(
        '<div class="title"><img class="avatar" width="24" src="/u/ann/48.png" alt=""> ann:</div>'
        "<blockquote><p>Rye wakes it faster.</p></blockquote>"
        '<p><img class="user-avatar-img" src="/u/bob.png">'
        '<img class="wp-image" src="/starter.png" alt="Starter"></p>'
    )
    assert out == "ann:\n\n> Rye wakes it faster.\n\n![Starter](https://example.org/starter.png)\n"


def test_a_skip_link_for_screen_readers_is_left_out() -> None:
    """The New York Times ends its story with a visually hidden "Continue reading the main story" link;
    a page's "Skip to content" link may sit inside what is chosen. Neither is the page's text."""
    out = render(
        "<p>First.</p><p><a class='visually-hidden skip-to-text-link' href='#whats-next'>Continue reading "
        "the main story</a></p><p><a href='#content'>Skip to content</a></p><p>Skip to the next part: it "
        "is short.</p>"
    )
    assert out == "First.\n\nSkip to the next part: it is short.\n"


def test_a_list_of_contents_title_alone_and_a_placeholder_alt_text_are_left_out() -> None:
    # the list itself is drawn by a script the page was read without; Stack Exchange's default alt
    out = render(
        "<h2>Table of Contents</h2><p>Intro.</p><p><b>On this page</b></p>"
        "<p><img src='/a.png' alt='enter image description here'></p><p>In this article, we test.</p>"
    )
    assert out == "Intro.\n\n![](https://example.org/a.png)\n\nIn this article, we test.\n"


def test_no_break_spaces_in_code_are_spaces() -> None:
    assert render("<pre>emerge --ask&nbsp;--oneshot portage\n&nbsp;&nbsp;done</pre>") == (
        "```\nemerge --ask --oneshot portage\n  done\n```\n"
    )


def test_code_block_fenced_with_language_from_class_variants() -> None:
    for attrs in (
        'class="language-rust"',
        'class="lang-rust"',
        'class="highlight-rust"',
        'data-lang="rust"',
        'class="brush: rust; gutter: false"',  # SyntaxHighlighter
        'class="sourceCode rust"',  # Pandoc, and with its line numbers
        'class="sourceCode numberSource rust numberLines"',
    ):
        out = render(f'<pre><code {attrs}>fn main() {{\n    println!("hi");\n}}</code></pre>')
        assert out == '```rust\nfn main() {\n    println!("hi");\n}\n```\n', attrs


def test_a_class_that_names_no_language_fences_without_one() -> None:
    # Discourse marks every code block it was given no language for `lang-auto`: "auto" is no language
    for attrs in ('class="lang-auto"', 'class="language-plaintext"', 'class="nohighlight"'):
        assert render(f"<pre><code {attrs}>2024-05-03 ERROR boot</code></pre>") == (
            "```\n2024-05-03 ERROR boot\n```\n"
        ), attrs


def test_code_with_backticks_gets_a_longer_fence_and_inline_code() -> None:
    out = render("<p>Run <code>ls -l</code> now</p><pre>a ``` b</pre>")
    assert "Run `ls -l` now" in out
    assert "````\na ``` b\n````" in out


def test_nested_lists_are_indented_and_ordered_lists_numbered() -> None:
    out = render(
        "<ul><li>one<ul><li>inner</li></ul></li><li>two</li></ul><ol start='3'><li>c</li><li>d</li></ol>"
    )
    assert out == "- one\n  - inner\n- two\n\n3. c\n4. d\n"


def test_links_are_made_absolute_and_base_href_is_honoured() -> None:
    assert "[up](https://example.org/a/b)" in render('<p><a href="/a/b">up</a></p>')
    assert "[rel](https://example.org/docs/rel)" in render('<p><a href="rel">rel</a></p>')
    assert "![a cat](https://cdn.example.org/cat.png)" in render(
        '<img src="//cdn.example.org/cat.png" alt="a cat">'
    )


def _rendered_links(markdown: str) -> list[tuple[str, str]]:
    """The (href, text) of each link and (src, alt) of each image a CommonMark parser reads."""
    from markdown_it import MarkdownIt

    found = []
    for token in MarkdownIt("commonmark").parse(markdown):
        children = token.children or []
        for i, child in enumerate(children):
            if child.type == "link_open":
                found.append((str(child.attrs["href"]), children[i + 1].content))
            elif child.type == "image":
                found.append((str(child.attrs["src"]), child.content))
    return found


def test_links_with_parentheses_or_a_lone_bracket_stay_links() -> None:
    """A Wikipedia target `Python_(language)` and a label with a `]` of its own are still links when
    the Markdown is read: a `(` or a bracket that pairs with nothing broke the link syntax."""
    out = render(
        "<p><a href='https://en.wikipedia.org/wiki/Python_(language)'>Python</a>, "
        "<a href='/wiki/Foo_(bar'>half</a>, <a href='/x'>a ] b</a>, <a href='/y'>[1]</a> and "
        "<img src='/img/a_(b).png' alt='pic'></p>"
    )
    assert _rendered_links(out) == [
        ("https://en.wikipedia.org/wiki/Python_%28language%29", "Python"),
        ("https://example.org/wiki/Foo_%28bar", "half"),
        ("https://example.org/x", "a ] b"),
        ("https://example.org/y", "[1]"),
        ("https://example.org/img/a_%28b%29.png", "pic"),
    ]
    assert "[[1]](https://example.org/y)" in out  # brackets that pair up are left as they are


def test_a_link_target_holds_no_hidden_character() -> None:
    """A line separator in an href became a space, which ended the target early (the link was no
    link), and a direction override stayed in it as it was, reversing the text a terminal shows
    after it: both are percent-encoded, as in a page's links listing."""
    out = render("<p><a href='/g\u202eevil\u2028SYSTEM'>the guide</a> and <a href='/h\u200bi'>more</a></p>")
    assert _rendered_links(out) == [
        ("https://example.org/g%E2%80%AEevil%E2%80%A8SYSTEM", "the guide"),
        ("https://example.org/h%E2%80%8Bi", "more"),
    ]
    assert "\u202e" not in out and "\u2028" not in out


def _code_spans(markdown: str) -> list[str]:
    """The inline code spans a CommonMark reader finds in `markdown`."""
    from markdown_it import MarkdownIt

    return [
        child.content
        for token in MarkdownIt("commonmark").parse(markdown)
        for child in token.children or []
        if child.type == "code_inline"
    ]


def test_inline_code_with_backticks_is_one_code_span() -> None:
    """The fence of inline code is a run of backticks that no run inside it matches: `` ` `` for
    "a`b" would close at its backtick, and `` `` `` for "``" at its pair."""
    for code in ("a`b", "``", "a``b", "`x` and ``y``", "```"):
        out = render(f"<p>Say <code>{code}</code> now</p>")
        spans = _code_spans(out)
        assert spans == [code], (code, out)


def test_code_spans_that_touch_stay_two() -> None:
    """`<code>a</code><code>b (</code>` (a manual's syntax line) read as one span holding backticks."""
    out = render("<p>Use <code>join_condition</code><code>USING (</code> here</p>")
    spans = _code_spans(out)
    assert spans == ["join_condition", "USING ("], out


def test_a_paragraph_that_starts_with_a_block_mark_stays_a_paragraph() -> None:
    """Words that Markdown would read as a heading, a quote, a list item or a code fence at the start
    of a paragraph's line are escaped: the page said them as text, and they read as text."""
    from markdown_it import MarkdownIt

    lines = ("# of seats: 4", "> not a quote", "- not an item", "+ 1 for this", "2024. A good year", "```js")
    out = render("".join(f"<p>{line}</p>" for line in lines) + "<p>one<br>1) two</p>")
    blocks = [token.type for token in MarkdownIt("commonmark").parse(out) if token.nesting == 1]
    assert blocks == ["paragraph_open"] * (len(lines) + 1), out
    assert "2024\\. A good year" in out and "one\n1\\) two" in out
    assert render("<p>Five * three</p><p>* * *</p>") == "Five * three\n\n* * *\n"  # a break stays one
    as_text = to_text(html.fragment_fromstring("<p># of seats</p>", create_parent="div"))
    assert as_text == "# of seats\n"


def test_words_in_angle_brackets_are_not_read_as_html() -> None:
    """A man page's `git log &lt;commit&gt;` says `<commit>` in its text: escaped, it is not a tag
    that a Markdown reader hides. Code keeps its `<` as it is, and so does plain text."""
    from markdown_it import MarkdownIt

    page = "<h2>Show &lt;object&gt;</h2><p>git log &lt;commit&gt; a &lt; b &lt;/x&gt; <code>&lt;T&gt;</code>"
    out = render(page)
    shown = MarkdownIt("commonmark").render(out)
    assert "&lt;object&gt;" in shown and "&lt;commit&gt; a &lt; b &lt;/x&gt;" in shown, shown
    assert "`<T>`" in out
    as_text = to_text(html.fragment_fromstring("<p>git log &lt;commit&gt;</p>", create_parent="div"))
    assert as_text == "git log <commit>\n"


def test_a_pages_own_stars_and_underscores_are_not_read_as_emphasis() -> None:
    """Postgres's "parameters ending in *_cost or beginning with enable_*" and "__init__.py" rendered as
    emphasis. Their `*` and `_` are escaped where CommonMark would read them as marks, and only there:
    `snake_case` and `2 * 3` keep no backslash; code and formulas (TeX) keep their text, and plain text
    is as it was."""
    from markdown_it import MarkdownIt

    words = "ending in *_cost or enable_*). See __init__.py, snake_case, 2 * 3"
    page = f"<h2>The *_cost knobs</h2><p>{words} <code>a*b*</code> <b>*</b> <a href='/x'>enable_*</a></p>"
    out = render(page)
    shown = MarkdownIt("commonmark").render(out)
    assert "<em>" not in shown and "<h2>The *_cost knobs</h2>" in shown, shown
    assert f"<p>{words} <code>a*b*</code> <strong>*</strong> <a " in shown, shown
    assert "snake_case, 2 * 3" in out and "`a*b*`" in out
    tex = "costs $5 and $10, $x_i^*$ and $$a_1*b$$"
    assert render(f"<p>{tex}</p>") == tex + "\n"
    as_text = to_text(html.fragment_fromstring(f"<p>{words}</p>", create_parent="div"))
    assert as_text == words + "\n"


def test_a_line_break_inside_emphasis_or_a_link_is_kept() -> None:
    """`<b>x<br>y</b>` read `**x y**`: an inline element ran its `<br>` into a space, in plain text
    too, where a paragraph's own `<br>` breaks the line. The break stays, one however many `<br>`s
    (a blank line would end the marks' paragraph); a heading stays one line."""
    page = "<p><b>free<br>to read</b> and <a href='/a'>one<br><br>two</a> <i>end<br></i>next</p>"
    assert render(page) == "**free\nto read** and [one\ntwo](https://example.org/a) *end*\nnext\n"
    as_text = to_text(html.fragment_fromstring("<p><span>x<br>y</span></p>", create_parent="div"))
    assert as_text == "x\ny\n"
    assert render("<h2>a<br>b</h2>") == "## a b\n"


def test_emphasis_ending_or_starting_in_punctuation_beside_a_letter_renders() -> None:
    """`<b>Note:</b>text` read `**Note:**text`, which CommonMark shows with its stars: a closing mark
    after punctuation and before a letter closes nothing. The punctuation goes outside the marks
    (a link inside them takes them in); the words stay as they are, and a run the page wrote with a
    space after it keeps its punctuation inside."""
    from markdown_it import MarkdownIt

    page = (
        "<p><b>Note:</b>text, x<i>(a)</i>y, <b>Tip:</b> ok, <b><a href='/u'>Docs</a></b>here, a<b>:</b>b</p>"
    )
    out = render(page)
    assert out == "**Note**:text, x(*a*)y, **Tip:** ok, [**Docs**](https://example.org/u)here, a:b\n"
    shown = MarkdownIt("commonmark").render(out)
    assert "**" not in shown and shown.count("<strong>") == 3 and "<em>a</em>" in shown, shown


def test_a_link_that_wraps_a_heading_keeps_the_heading_with_the_link_in_it() -> None:
    """A listing's cards, `<a href><h2>Title</h2></a>`, read as paragraph links `[Title](...)`, their
    headings lost (and with them the page's outline). The heading stays, the link in it; plain text
    reads as it did."""
    cards = (
        "<a href='/one'><h2>First post</h2></a><p>About soil.</p>"
        "<a href='/two'><div><h3>Second post</h3></div></a><p>About mulch.</p>"
    )
    assert render(cards) == (
        "## [First post](https://example.org/one)\n\nAbout soil.\n\n"
        "### [Second post](https://example.org/two)\n\nAbout mulch.\n"
    )
    as_text = to_text(html.fragment_fromstring(cards, create_parent="div"))
    assert as_text.split("\n\n") == ["First post", "About soil.", "Second post", "About mulch.\n"]


def test_a_pages_backslashes_and_character_references_read_as_written() -> None:
    """A regex page's "use \\. to match a dot" rendered "use . to match a dot" (a backslash before
    punctuation is an escape), and the words "&copy;" rendered ©. Both are escaped in Markdown;
    plain text keeps them as they are."""
    from markdown_it import MarkdownIt

    words = "use \\. for a dot, C:\\Users\\*, a \\\\ b, \\<x> AT&T &copy; &#169; end\\"
    out = render(f"<p>{escape(words)}</p>")
    assert MarkdownIt("commonmark").render(out) == f"<p>{escape(words)}</p>\n", out
    assert to_text(html.fragment_fromstring(f"<p>{escape(words)}</p>", create_parent="div")) == words + "\n"


def test_headings_quotes_emphasis() -> None:
    out = render("<h2>Title <a href='#t'>¶</a></h2><blockquote><p>said <em>this</em></p></blockquote>")
    assert out == "## Title\n\n> said *this*\n"


def test_scripts_hidden_and_comments_are_dropped() -> None:
    out = render(
        "<p>keep</p><script>bad()</script><p hidden>no</p><!-- note --><p style='display:none'>x</p>"
    )
    assert out == "keep\n"


def test_a_class_that_means_display_none_hides_its_element() -> None:
    # a shop's hidden field dump (BigCommerce's `productView-info hide`), Bootstrap's d-none
    out = render(
        "<p>keep</p><dl class='productView-info hide'><dt>cat_thumb:</dt><dd>x.jpg</dd></dl>"
        "<p class='d-none'>no</p><p class='Is-Hidden'>no</p><p class='text-hidden'>shown</p>"
    )
    assert out == "keep\n\nshown\n"
    root = html.fragment_fromstring("<p>keep</p><span class='hidden'>no</span>", create_parent="div")
    assert to_text(root) == "keep\n"


def test_a_class_hidden_only_at_some_widths_is_shown() -> None:
    # Tailwind's and Bootstrap's responsive forms: hidden on a phone, shown on a desktop
    out = render(
        "<p class='hidden md:block'>desktop</p><p class='d-none d-lg-flex'>wide</p>"
        "<p class='hidden group-hover:inline-flex'>menu</p>"
    )
    assert out == "desktop\n\nwide\n\nmenu\n"


def test_a_paragraph_of_zero_width_characters_is_empty() -> None:
    # Webflow writes an empty paragraph as a zero-width joiner; an emoji's joiners stay
    out = render(
        "<p>\u200d<em>We sat</em></p><p><em>\u200d</em>\u200d</p><p>\u200b</p>"
        "<ul><li>\ufeff</li><li>a</li></ul><p>* * *</p><p>\U0001f468\u200d\U0001f467</p>"
    )
    assert out == "\u200d*We sat*\n\n- a\n\n* * *\n\n\U0001f468\u200d\U0001f467\n"


def test_a_heading_loses_its_permalink_mark_before_or_after_its_words() -> None:
    # rustdoc puts its "§" link first; Docusaurus ends a heading with a zero-width space
    out = render(
        '<h5 id="e"><a class="doc-anchor" href="#e">§</a>Examples</h5><h2>Title<a href="#t">¶</a></h2>'
        '<h2><a href="#w">#</a>What is it?</h2><h3>Ask\u200b</h3><h2><a href="#one">#1</a> Best</h2>'
        "<h3>§ 823 BGB</h3>"
    )
    assert out == "##### Examples\n\n## Title\n\n## What is it?\n\n### Ask\n\n## #1 Best\n\n### § 823 BGB\n"


def test_a_heading_all_in_bold_loses_the_marks() -> None:
    out = render(
        '<h2><a href="#w"><strong>What is it?</strong></a></h2><h3><b>Bold</b> and plain</h3>'
        "<h3><b>One</b> and <b>two</b></h3><h4><strong>Only</strong></h4>"
    )
    assert out == "## What is it?\n\n### **Bold** and plain\n\n### **One** and **two**\n\n#### Only\n"


def test_a_list_of_contents_goes_with_its_title() -> None:
    # every entry a link to a heading of the page (by fragment, or the page's own address with one)
    out = render(
        "<h2>Table of Contents</h2><ol><li><a href='#a'>Alpha</a></li><li><a href='#b'>Beta</a>"
        "<ul><li><a href='https://example.org/docs/page#c'>Gamma</a></li></ul></li></ol>"
        "<h2 id='a'>Alpha</h2><p>text</p>"
    )
    assert out == "## Alpha\n\ntext\n"


def test_a_list_with_words_or_links_elsewhere_is_no_list_of_contents() -> None:
    out = render(
        "<ul><li><a href='#a'>Alpha</a> first</li><li><a href='#b'>Beta</a></li>"
        "<li><a href='#c'>C</a></li></ul>"
        "<ul><li><a href='#a'>Alpha</a></li><li><a href='/b'>Beta</a></li><li><a href='#c'>C</a></li></ul>"
        "<ul><li><a href='#a'>Alpha</a></li><li><a href='#b'>Beta</a></li></ul>"
    )
    assert out.count("Alpha") == 3


def test_a_sentence_that_trafilatura_cut_at_its_links_is_one_paragraph() -> None:
    # trafilatura's XML for text between <br>s in a <div>: a <p> for each stretch between two links
    body = etree.fromstring(
        "<body><p>Apple will </p><ref target='https://x.org/a'>switch</ref><p>, in 2020.\n </p>"
        "<p>Repairs are part of its </p><ref target='https://x.org/b'>program</ref><p>.</p>"
        "<p>New paragraph.</p><p>Ends with a stop. </p><hi rend='#b'>Bold</hi><p>Next one.</p></body>"
    )
    assert to_markdown(body, "https://x.org/") == (
        "Apple will [switch](https://x.org/a), in 2020.\n\n"
        "Repairs are part of its [program](https://x.org/b).\n\n"
        "New paragraph.\n\nEnds with a stop.\n\n**Bold**\n\nNext one.\n"
    )


def test_a_link_back_to_the_top_alone_in_its_block_is_left_out() -> None:
    # phpBB's "Top" after each post; a "top" link inside a sentence, or one to another page, stays
    out = render(
        "<p>Post.</p><div class='back2top'><a href='#wrap' class='top'>Top</a></div>"
        "<p><a href='#top'>Back to top ↑</a></p><p>the <a href='#t'>top</a> row</p>"
        "<p><a href='/top'>Top</a></p>"
    )
    assert out == "Post.\n\nthe top row\n\n[Top](https://example.org/top)\n"


def test_a_long_block_said_again_is_said_once_off_an_article() -> None:
    said = "The first post of the thread, quoted in a reply below it. " * 2
    quote = f"<blockquote><p>{said}</p></blockquote>"
    code = "<pre>" + "print('the same line of code, twice over on the page')\n" * 2 + "</pre>"
    page = f"<p>Short.</p>{quote}<p>Short.</p>{code}<p>Reply.</p>{quote}{code}"
    root = html.fragment_fromstring(page, create_parent="div")
    once = to_markdown(root, "https://example.org/", repeats=False)
    assert once.count("The first post") == 2 and once.count("print(") == 4  # one quote, both code blocks
    assert to_markdown(root, "https://example.org/").count("The first post") == 4  # an article's are kept
    assert to_text(root, repeats=False).count("print(") == 4
    # a short block is said again whatever its links' targets and marks add to it in Markdown: as in text
    places = ", ".join(f"<a href='/na/{p}'>{p}</a>" for p in ("Illinois", "United States", "North America"))
    card = f"<h3><a href='/tech'>Tech</a> conference in <a href='/na/chicago'>Chicago</a>, {places}</h3>"
    cards = f"<h2>Data Day</h2>{card}<h2>Code Camp</h2>{card}"
    listing = html.fragment_fromstring(cards, create_parent="div")
    assert to_markdown(listing, "https://example.org/", repeats=False).count("conference in") == 2
    assert to_text(listing, repeats=False).count("conference in") == 2


def test_only_a_declared_article_keeps_its_repeated_blocks() -> None:
    from webferret.extract.htmlpage import extract_html
    from webferret.extract.types import ExtractOptions

    question = "What do you cook at home when nobody is watching, and why that dish? " * 2
    answers = "".join(f"<p><b>{question}</b></p><p>{name} answers: soup and bread.</p>" for name in "ABC")
    for declared, times in (("", 1), ('<meta property="og:type" content="article">', 3)):
        page = f"<html><head>{declared}<title>T</title></head><body><main>{answers}</main></body></html>"
        text = extract_html(page, "https://example.org/a", ExtractOptions()).content
        assert text.count("What do you cook") == 2 * times


def test_text_format_has_no_link_targets_or_marks() -> None:
    root = html.fragment_fromstring(
        "<h1>T</h1><p>a <a href='/x'>link</a> and <b>bold</b></p><img src='/i.png' alt='pic'>",
        create_parent="div",
    )
    out = to_text(root)
    assert out == "T\n\na link and bold\n"
    assert "http" not in out and "**" not in out


def test_word_count_ignores_markdown_marks() -> None:
    from webferret.extract.htmlpage import count_words

    assert count_words("## Title\n\n- one [two](https://x.org/a-b-c)\n\n| a | b |\n|---|---|\n---") == 5


def test_blank_lines_inside_code_are_kept() -> None:
    out = render('<pre class="language-python">import os\n\n\ndef f():\n    pass</pre>')
    assert out == "```python\nimport os\n\n\ndef f():\n    pass\n```\n"


def test_image_alt_text_with_brackets_keeps_the_image_whole() -> None:
    out = render('<a href="/big.png"><img src="/small.png" alt="[QGIS main interface]"></a>')
    assert out == "[![QGIS main interface](https://example.org/small.png)](https://example.org/big.png)\n"


def test_a_plain_pre_in_trafilatura_s_choice_keeps_its_lines() -> None:
    """trafilatura turns a <pre> that is not marked as code into a <quote>, whose whitespace the
    renderer would collapse; the page's own block is rendered instead, fenced, its layout kept."""
    from webferret.extract.document import extract_document
    from webferret.extract.types import ExtractOptions

    pre = "INTERNET DRAFT              M. de Jong\nExpires: 18 June 2015      15 December 2014\n\n   Abstract"
    prose = "<p>" + "This draft describes a protocol for storing documents on a remote server. " * 8 + "</p>"
    page = (
        '<html><head><title>Draft</title><meta property="og:type" content="article"></head><body>'
        f"<article><h1>Draft</h1>{prose}<pre>{pre}</pre>{prose}</article></body></html>"
    )
    body = page.encode()
    out = extract_document(
        body, url="https://example.org/d", content_type="text/html", options=ExtractOptions()
    )
    assert out.extra["selector"] == "trafilatura"
    assert f"```\n{pre}\n```" in out.content


def test_a_block_repeated_right_after_itself_is_said_once() -> None:
    """A page's mobile and desktop copies of a heading or menu, one after the other, come out once."""
    out = render(
        "<h2>How it works</h2><h3>How it works</h3><p>Step one.</p>"
        "<ul><li><a href='/m/a'>Plans</a></li></ul><ul><li><a href='/a'>Plans</a></li></ul>"
        "<p>Step one.</p><hr><hr><p>Yes.</p><p>Step one.</p>"
    )
    assert out == (
        "## How it works\n\nStep one.\n\n- [Plans](https://example.org/m/a)\n\nStep one.\n\n---\n\n---\n\n"
        "Yes.\n\nStep one.\n"
    )


def test_a_definition_list_keeps_each_term_with_its_definition() -> None:
    snippet = (
        "<dl><dt>API key:</dt><dd>The secret that identifies your account.</dd>"
        "<dt><code>region</code></dt><dd>Where your data is stored.</dd><dd>Set once, at sign-up.</dd>"
        "<dt>Timeout<a class='headerlink' href='#t'>¶</a></dt><dd>Seconds to wait.</dd></dl>"
    )
    assert render(snippet) == (
        "- **API key**: The secret that identifies your account.\n"
        "- **`region`**: Where your data is stored.; Set once, at sign-up.\n"
        "- **Timeout**: Seconds to wait.\n"
    )
    text = to_text(html.fragment_fromstring(snippet, create_parent="div"))
    assert text.split("\n\n")[:2] == ["API key:", "The secret that identifies your account."]  # as before


def test_a_definition_list_of_blocks_renders_block_by_block() -> None:
    snippet = (
        "<dl><dt>Install</dt><dd><p>Run the installer.</p><pre><code>sh install.sh</code></pre></dd>"
        "<dt>Options</dt><dd><ul><li>--quiet</li><li>--yes</li></ul></dd></dl>"
    )
    out = render(snippet)
    assert "**Install**" not in out and "Install\n\nRun the installer." in out
    assert "```\nsh install.sh\n```" in out and "- --quiet\n- --yes" in out


def test_trafilaturas_definition_list_keeps_each_term_with_its_definition() -> None:
    from lxml import etree

    from webferret.extract.markdown import Renderer

    node = etree.fromstring(
        '<doc><list rend="dl"><item rend="dt-1">Region</item><item rend="dd-1">Where data lives.</item>'
        "</list></doc>"
    )
    assert Renderer("https://example.org/").render(node) == "- **Region**: Where data lives.\n"


def test_trafilaturas_definition_list_of_blocks_keeps_terms_apart_from_their_definitions() -> None:
    """A definition of several blocks (a sentence, then a code block) made trafilatura's whole list a
    bulleted list of terms and definitions alike (`- {{ field.label }}` then `- The label of the field`),
    as if each were an entry of its own. It reads block by block, as HTML's `dl` does."""
    from lxml import etree

    from webferret.extract.markdown import Renderer

    node = etree.fromstring(
        '<doc><list rend="dl"><item rend="dt-1">Install</item><item rend="dd-1"><p>Run the installer.</p>'
        '<code>sh install.sh</code></item><item rend="dt-2">Region</item><item rend="dd-2">Where data lives.'
        "</item></list></doc>"
    )
    out = Renderer("https://example.org/").render(node)
    assert "- Install" not in out and "- Run" not in out
    assert "Install\n\nRun the installer." in out and "Region\n\nWhere data lives." in out


def test_rows_and_cells_outside_a_table_are_blocks() -> None:
    """trafilatura's copy of a page laid out in a table may keep its rows and cells without the table
    (`<div><row><cell>`): read as inline elements, the page's heading and paragraphs ran into one line
    ("An IntroFirst paragraph.Second paragraph.")."""
    from lxml import etree

    from webferret.extract.markdown import Renderer

    node = etree.fromstring(
        '<body><div><row><cell id="nav"/><cell><table><row><cell><div><p/><head rend="h2">An Intro</head>'
        "<p>First paragraph.</p><p>Second paragraph.</p></div></cell></row></table></cell></row></div></body>"
    )
    assert Renderer("https://example.org/").render(node) == (
        "## An Intro\n\nFirst paragraph.\n\nSecond paragraph.\n"
    )
    assert Renderer("https://example.org/", text=True).render(node) == (
        "An Intro\n\nFirst paragraph.\n\nSecond paragraph.\n"
    )


def test_a_cell_spanning_rows_keeps_the_columns_below_it_in_place() -> None:
    snippet = (
        "<table><tr><th>Version</th><th>Released</th><th>Python</th></tr>"
        '<tr><td rowspan="2">2.x</td><td>2021-03-04</td><td rowspan="3">3.7</td></tr>'
        "<tr><td>2021-09-01</td></tr><tr><td>3.0</td><td>2023-01-02</td></tr>"
        '<tr><td>4.0</td><td colspan="2">not yet</td></tr><tr><td rowspan="0">5.0</td><td>x</td></tr></table>'
    )
    assert render(snippet).splitlines() == [
        "| Version | Released | Python |",
        "|---|---|---|",
        "| 2.x | 2021-03-04 | 3.7 |",
        "| 2.x | 2021-09-01 | 3.7 |",  # each row reads whole
        "| 3.0 | 2023-01-02 | 3.7 |",
        "| 4.0 | not yet |  |",
        "| 5.0 | x |  |",  # rowspan 0: one row here
    ]
    text = to_text(html.fragment_fromstring(snippet, create_parent="div"))
    assert "2.x | 2021-09-01" not in text and "\n2021-09-01\n" in text  # plain text says it once


def test_an_empty_cell_keeps_the_cells_after_it_in_their_columns_in_plain_text() -> None:
    """Plain text left an empty cell out: `Hob | 1.8` read as Hob's age, not his weight."""
    snippet = (
        "<table><tr><th>Name</th><th>Age</th><th>Weight</th></tr><tr><td>Kit</td><td>1</td><td>0.5</td></tr>"
        "<tr><td>Hob</td><td></td><td>1.8</td></tr><tr><td>Jill</td><td>3</td><td></td></tr></table>"
    )
    text = to_text(html.fragment_fromstring(snippet, create_parent="div"))
    assert text.strip().splitlines() == [
        "Name | Age | Weight",
        "Kit | 1 | 0.5",
        "Hob |  | 1.8",
        "Jill | 3 |",
    ]


def test_rows_of_headings_read_as_one_header_row() -> None:
    snippet = (
        '<table><thead><tr><th rowspan="2">River</th><th colspan="2">Season</th></tr>'
        "<tr><th>Opens</th><th>Closes</th></tr></thead>"
        "<tbody><tr><td>Tay</td><td>15 Jan</td><td>15 Oct</td></tr></tbody></table>"
    )
    assert render(snippet).splitlines() == [
        "| River | Season Opens | Season Closes |",
        "|---|---|---|",
        "| Tay | 15 Jan | 15 Oct |",
    ]


PROSE = "<p>" + "The board publishes the fishing seasons of every river for anglers to read. " * 4 + "</p>"


def trafilaturas(block: str) -> str:
    """The Markdown of an article holding `block` between paragraphs (trafilatura chooses it)."""
    from webferret.extract.document import extract_document
    from webferret.extract.types import ExtractOptions

    page = f"<html><head><title>Seasons</title></head><body><article><h1>Seasons</h1>{PROSE}{block}{PROSE}"
    extracted = extract_document(
        (page + "</article></body></html>").encode(),
        url="https://example.org/seasons",
        content_type="text/html",
        options=ExtractOptions(),
    )
    assert extracted.extra["selector"] == "trafilatura"
    return extracted.content


def test_a_table_trafilatura_padded_is_read_with_its_spans() -> None:
    """trafilatura gives a spanning cell once and pads the rows below with empty cells: the page's
    own table, holding the same texts, is read instead (`restored.restore_spans`)."""
    table = (
        "<table><tr><th>River</th><th>Species</th><th>Opens</th></tr>"
        '<tr><td rowspan="2">Tay</td><td>Salmon</td><td>15 Jan</td></tr>'
        "<tr><td>Sea trout</td><td>1 Feb</td></tr></table>"
    )
    assert "| Tay | Sea trout | 1 Feb |" in trafilaturas(table)


def test_a_captioned_table_trafilatura_padded_is_read_with_its_spans() -> None:
    """trafilatura gives a table's caption as a first row's cell, so its copy held one text more than
    the page's table and the spans were not put back (`|  | Sea trout | 1 Feb |`)."""
    table = (
        "<table><caption>Seasons by river</caption><tr><th>River</th><th>Species</th><th>Opens</th></tr>"
        '<tr><td rowspan="2">Tay</td><td>Salmon</td><td>15 Jan</td></tr>'
        "<tr><td>Sea trout</td><td>1 Feb</td></tr></table>"
    )
    text = trafilaturas(table)
    assert "| Tay | Sea trout | 1 Feb |" in text and "Seasons by river" in text


def test_a_table_whose_cells_hold_lists_keeps_them_in_trafilaturas_choice() -> None:
    """trafilatura leaves a cell that holds a list empty: the page's own table, whose rows say the
    same less those lists, is read instead (`restored.restore_cell_lists`), spans and all."""
    table = (
        "<table><tr><th>Plan</th><th>Includes</th></tr>"
        "<tr><td>Basic</td><td><ul><li>10 users</li><li>Email support</li></ul></td></tr>"
        '<tr><td rowspan="2">Pro</td><td>Everything in Basic <ol><li>100 users</li></ol></td></tr>'
        "<tr><td><ul><li>Priority support</li></ul></td></tr></table>"
    )
    assert trafilaturas(table).split("\n\n")[1].splitlines() == [
        "| Plan | Includes |",
        "|---|---|",
        "| Basic | 10 users; Email support |",
        "| Pro | Everything in Basic 1. 100 users |",
        "| Pro | Priority support |",
    ]


def test_an_ordered_list_keeps_its_start_and_a_one_line_pre_its_spaces() -> None:
    text = trafilaturas(
        '<p>The steps go on:</p><ol start="5"><li>Open the valve.</li><li>Close the valve.</li></ol>'
        "<pre>col_a    col_b    col_c</pre>"
    )
    assert "5. Open the valve.\n6. Close the valve." in text
    assert "```\ncol_a    col_b    col_c\n```" in text


def test_trafilaturas_loose_inline_code_stays_in_its_sentence() -> None:
    from lxml import etree

    from webferret.extract.markdown import Renderer

    node = etree.fromstring(
        "<body><p>The name must be a valid label.</p><code>port</code> to a <code>targetPort</code>. By"
        " default the two are equal.<p>Install it:</p><code>pip install ferret</code>\n<p>Then run it.</p>"
        "<code>ls\ncd</code> and more.</body>"
    )
    assert Renderer("https://example.org/").render(node).split("\n\n") == [
        "The name must be a valid label.",
        "`port` to a `targetPort`. By default the two are equal.",
        "Install it:",
        "```\npip install ferret\n```",
        "Then run it.",
        "```\nls\ncd\n```",
        "and more.\n",
    ]


def test_a_list_in_a_table_cell_reads_as_one_line_of_items() -> None:
    out = render(
        "<table><tr><th>Plan</th><th>Includes</th></tr>"
        "<tr><td>Pro</td><td><ul><li>10 users</li><li>Priority <b>support</b></li></ul></td></tr>"
        "<tr><td>Free</td><td><ol><li>One user.</li><li>Community help</li></ol></td></tr>"
        "<tr><td>Team</td><td><dl><dt>Seats</dt><dd>25</dd><dt>Support</dt><dd>Chat</dd></dl></td></tr>"
        "</table><ul><li>a</li><li>b</li></ul>"
    )
    assert out.splitlines() == [
        "| Plan | Includes |",
        "|---|---|",
        "| Pro | 10 users; Priority **support** |",
        "| Free | 1. One user. 2. Community help |",
        "| Team | **Seats**: 25; **Support**: Chat |",  # a definition list too, without its bullets
        "",
        "- a",
        "- b",
    ]


def test_headings_over_nothing_at_the_end_are_left_out() -> None:
    # the title of a section the main content left out ("Related Posts:"), at most two of them
    body = "<h2>Why coffee</h2><p>Tea was dumped into the harbor, and coffee took its place.</p>"
    assert render(body + "<h3>Related Posts:</h3>") == render(body)
    assert render(body + "<h3>Recommended for you</h3><h3>Recently viewed</h3>") == render(body)
    items = "".join(f"<h3>Candle {n}</h3>" for n in range(3))  # a listing's items as headings: they stay
    assert render(body + items).endswith("### Candle 2\n")
    # a heading that links elsewhere is an item; a permalink is not a link elsewhere
    linked = render(body + "<h3><a href='https://shop.example/c'>Candles</a></h3>")
    assert linked.endswith("(https://shop.example/c)\n")
    assert render(body + "<h3>Sources<a href='#sources'>#</a></h3>") == render(body)
    assert render("<h2>Only</h2><h3>Headings</h3>") == "## Only\n\n### Headings\n"  # nothing else: kept
    as_text = to_text(html.fragment_fromstring(body + "<h3>Related Posts:</h3>", create_parent="div"))
    assert as_text == to_text(html.fragment_fromstring(body, create_parent="div"))


def test_bold_before_an_empty_element_then_a_letter_renders() -> None:
    """Substack's `<strong>Every creator is flying blind.</strong><strong><br></strong>Not because`:
    trafilatura keeps the empty `<hi rend="#b"/>` and drops the break, so the bold read
    `**...blind.**Not`, which renders its stars. The words after the empty element decide, as a tail's do."""
    block = "<p><strong>Every creator is flying blind.</strong><strong><br></strong>Not because we care.</p>"
    assert "**Every creator is flying blind**.Not because we care." in trafilaturas(block)
    assert render("<p><b>Note:</b><span></span>text</p>") == "**Note**:text\n"


def test_nested_definition_lists_are_rendered_once_each() -> None:
    """A definition list was rendered to see whether each definition is one line, then again as blocks
    when one is not: each level of nested `<dl><dd>` doubled the work (16 levels took 2 s, a 240-byte
    page of 30 a worker's whole budget). Each is now rendered once: the renderer's work grows with
    the page, counted here in the elements it renders."""
    from webferret.extract.markdown import Renderer

    class Counting(Renderer):
        rendered = 0

        def blocks(self, node: etree._Element) -> list[str]:
            Counting.rendered += 1
            return super().blocks(node)

    levels = 14
    nested = "".join(f"<dl><dt>Term {n}</dt><dd><p>Meaning {n}.</p>" for n in range(levels))
    root = html.fragment_fromstring(nested, create_parent="div")
    markdown = Counting("https://x.org/").render(root)
    assert "Meaning 13." in markdown and "Term 0" in markdown
    assert Counting.rendered < 10 * levels, Counting.rendered


def test_a_superscript_or_subscript_of_digits_is_raised_or_lowered() -> None:
    """Markdown has no superscript: `mc<sup>2</sup>` read `mc2` and `10<sup>-3</sup>` read `10-3`.
    Digits and signs take Unicode's raised and lowered forms; letters and footnotes stay as they are."""
    snippet = (
        "<p>E = mc<sup>2</sup>, 10<sup>-3</sup> m, H<sub>2</sub>O, the 1<sup>st</sup> of May, "
        "Brand<sup>TM</sup>"
        ', a claim<sup>[4]</sup> and a note<sup><a href="https://example.org/n">5</a></sup>.</p>'
    )
    expected = "E = mc², 10⁻³ m, H₂O, the 1st of May, BrandTM, a claim[4] and a note"
    assert render(snippet).startswith(expected + "[5](https://example.org/n).")
    assert to_text(html.fragment_fromstring(snippet, create_parent="div")).strip() == expected + "⁵."
    trafilatura_s = '<p>x<hi rend="#sup">2</hi> and CO<hi rend="#sub">2</hi></p>'
    assert render(trafilatura_s).strip() == "x² and CO₂"


def test_a_web_components_hosts_and_slots_holding_blocks_are_blocks() -> None:
    """A page of web components read as its composed tree (`fetch.composed`) has its headings and
    paragraphs inside custom elements and `<slot>`s, which the renderer read as inline elements: the
    whole page ran into one paragraph ("Components Stoat Drawn in a shadow root. Light text.")."""
    out = render(
        "<ferret-app><main><h1>Components</h1><ferret-card><article>"
        "<h2><slot><span>Stoat</span></slot></h2><p>Drawn in a shadow root.</p>"
        "<slot><p>Light text, <ferret-tag>slotted</ferret-tag>.</p></slot>"
        "</article></ferret-card></main></ferret-app>"
    )
    assert out.strip().split("\n\n") == [
        "# Components",
        "## Stoat",
        "Drawn in a shadow root.",
        "Light text, slotted.",
    ]
    assert render("<p>A <ferret-tag>tag</ferret-tag> in a sentence.</p>").strip() == "A tag in a sentence."
