"""Line numbers that a highlighter writes into a code block are left out of the code; numbers that
are the code's own values stay."""

from __future__ import annotations

import pytest
from lxml import html

from webferret.extract.codeblocks import code_text
from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

CODE = 'import os\nprint(os.getcwd())\nprint("done")'


@pytest.mark.parametrize(
    "snippet",
    [
        # Pygments' inline numbers (Sphinx, MkDocs)
        '<pre><span></span><span class="linenos">1</span><span class="kn">import</span> os\n'
        '<span class="linenos">2</span>print(os.getcwd())\n<span class="linenos">3</span>print("done")</pre>',
        # Hugo's inline numbers
        '<pre><code><span class="line"><span class="ln">1</span><span class="cl">import os\n</span></span>'
        '<span class="line"><span class="ln">2</span><span class="cl">print(os.getcwd())\n</span></span>'
        '<span class="line"><span class="ln">3</span><span class="cl">print("done")</span></span>'
        "</code></pre>",
        # Jekyll's Rouge: a column of numbers in a table inside the block
        '<pre class="highlight"><code><table class="rouge-table"><tbody><tr>'
        '<td class="rouge-gutter gl"><pre class="lineno">1\n2\n3\n</pre></td>'
        '<td class="rouge-code"><pre>import os\nprint(os.getcwd())\nprint("done")\n</pre></td>'
        "</tr></tbody></table></code></pre>",
        # numbers that only CSS (user-select: none) marks, each line an element of its own
        '<pre><code><div class="r"><span class="n1">1</span><div><div>import os</div></div></div>'
        '<div class="r"><span class="n1">2</span><div><div>print(os.getcwd())</div></div></div>'
        '<div class="r"><span class="n2">3</span><div><div>print("done")</div></div></div></code></pre>',
        # highlight.js' line numbers plugin: a row a line, the number drawn by CSS
        '<pre><code><table class="hljs-ln"><tbody>'
        + "".join(
            f'<tr><td class="hljs-ln-numbers"><div class="hljs-ln-n" data-line-number="{n}"></div></td>'
            f'<td class="hljs-ln-code">{line}</td></tr>'
            for n, line in enumerate(CODE.split("\n"), 1)
        )
        + "</tbody></table></code></pre>",
    ],
    ids=["pygments", "hugo", "rouge", "css-only", "hljs-ln"],
)
def test_a_highlighters_line_numbers_are_left_out(snippet: str) -> None:
    assert code_text(html.fragment_fromstring(snippet)).strip("\n") == CODE


@pytest.mark.parametrize(
    ("snippet", "code"),
    [
        # values glued to what follows them (a CSV file's first column)
        (
            '<pre><span class="mi">1</span>,apple\n<span class="mi">2</span>,pear\n'
            '<span class="mi">3</span>,plum</pre>',
            "1,apple\n2,pear\n3,plum",
        ),
        # a column of output that more lines follow than it has numbers
        ('<pre><span class="go">1\n2\n3</span>\n$ echo done\n$ exit\n$ ls\n$ pwd\n$ cd</pre>', None),
        # numbers alone on their lines (an array's values)
        ('<pre>x = [\n<span class="mi">1</span>\n<span class="mi">2</span>\n]</pre>', "x = [\n1\n2\n]"),
        # numbers that do not count lines (BASIC's line numbers are code)
        (
            '<pre><span class="n">10</span> PRINT "HI"\n<span class="n">20</span> GOTO 10</pre>',
            '10 PRINT "HI"\n20 GOTO 10',
        ),
        # a number inside a line
        ('<pre>x = <span class="mi">1</span>\ny = <span class="mi">2</span></pre>', "x = 1\ny = 2"),
    ],
    ids=["csv", "output-column", "values-alone", "basic", "mid-line"],
)
def test_numbers_that_are_the_codes_own_stay(snippet: str, code: str | None) -> None:
    node = html.fragment_fromstring(snippet)
    assert code_text(node) == (code if code is not None else "".join(node.itertext()))


def test_a_page_with_numbered_code_reads_without_the_numbers() -> None:
    prose = " ".join(
        f"Install the package, then run the script and check line {n} of its output." for n in range(12)
    )
    lines = "".join(
        f'<span class="line"><span class="ln">{n}</span><span class="cl">{line}\n</span></span>'
        for n, line in enumerate(CODE.split("\n"), 1)
    )
    page = (
        '<html><head><title>Start</title><meta property="og:type" content="article"></head><body><article>'
        f'<h1>Start</h1><p>{prose}</p><div class="highlight"><pre class="chroma">'
        f'<code class="language-python" data-lang="python">{lines}</code></pre></div>'
        f"<p>{prose.replace('Install', 'Remove')}</p>"
        "</article></body></html>"
    )
    for fmt, fenced in (("markdown", f"```python\n{CODE}\n```"), ("text", CODE)):
        content = extract_html(page, "https://docs.example/start", ExtractOptions(format=fmt)).content
        assert fenced in content
        assert "1import" not in content


FILL = "Ferrets dig long tunnels under the old barn and keep their food in a dry chamber there. " * 4


@pytest.mark.parametrize("link", [True, False])
def test_a_hugo_table_of_linked_line_numbers_keeps_its_code(link: bool) -> None:
    """Hugo's `lntable`: a row of two cells, the numbers (each a link to its line) and the code. As a
    table of links it was left out of an article whole."""
    numbers = "".join(
        f'<span class="lnt" id="hl-0-{n}">'
        + (f'<a class="lnlinks" href="#hl-0-{n}">{n}</a>' if link else str(n))
        + "\n</span>"
        for n in (1, 2, 3)
    )
    code = "".join(f'<span class="line"><span class="cl">{line}\n</span></span>' for line in CODE.split("\n"))
    page = (
        '<html><head><meta property="og:type" content="article"><title>Post</title></head><body>'
        f"<article><h1>Post</h1><p>{FILL}</p><p>Read the folder like so:</p>"
        '<div class="highlight"><div class="chroma"><table class="lntable"><tr>'
        f'<td class="lntd"><pre class="chroma"><code>{numbers}</code></pre></td>'
        f'<td class="lntd"><pre class="chroma"><code class="language-python">{code}</code></pre></td>'
        f"</tr></table></div></div><p>{FILL}</p></article></body></html>"
    )
    markdown = extract_html(page, "https://blog.example/post", ExtractOptions()).content
    assert f"Read the folder like so:\n\n```python\n{CODE}\n```\n\n" in markdown


def test_a_table_of_a_label_beside_code_keeps_the_label() -> None:
    page = (
        '<html><head><meta property="og:type" content="article"><title>Post</title></head><body>'
        f"<article><h1>Post</h1><p>{FILL}</p><table><tr><td>Shell session 42</td>"
        "<td><pre>ls -la\ncd burrow\n</pre></td></tr></table>"
        f"<p>{FILL}</p></article></body></html>"
    )
    markdown = extract_html(page, "https://blog.example/post", ExtractOptions()).content
    assert "Shell session 42" in markdown and "cd burrow" in markdown
