"""Documentation pages read whole: the sidebar of the site's other pages is no content, and every
section keeps its heading, the last as the first."""

from __future__ import annotations

import random

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

WORDS = [
    *("client", "server", "request", "response", "retry", "timeout", "token", "header", "body"),
    *("stream", "cache", "queue", "worker", "event", "handler", "option", "value", "default", "field"),
    *("schema", "record", "batch", "limit", "page", "cursor"),
]


def _guide(sections: int) -> str:
    """A long guide of varied sections, each of prose and some of a table, code, a list, a note and a
    definition, its last with a subsection, a table and code; a sidebar of the site's other pages
    before it, an "on this page" list after it."""
    draw = random.Random(3)

    def prose(n: int) -> str:
        return " ".join(draw.choice(WORDS) for _ in range(n)).capitalize() + "."

    def part(kind: str, i: int) -> str:
        if kind == "table":
            rows = "".join(f"<tr><td><code>opt{i}_{r}</code></td><td>{prose(8)}</td></tr>" for r in range(3))
            return f"<table><tr><th>Name</th><th>Meaning</th></tr>{rows}</table>"
        if kind == "code":
            return (
                f'<pre><code class="language-js">const c{i} = new Client({{ retries: {i} }});\n</code></pre>'
            )
        if kind == "list":
            return "<ul>" + "".join(f"<li>{prose(10)}</li>" for _ in range(3)) + "</ul>"
        if kind == "note":
            title = '<p class="admonition-title">Warning</p>'
            return f'<div class="admonition warning">{title}<p>{prose(15)}</p></div>'
        return f"<dl><dt>term{i}</dt><dd>{prose(12)}</dd></dl>"

    body = []
    for i in range(1, sections + 1):
        parts = [f'<h2 id="s{i}">{i}. Section {i} title</h2>']
        parts += [f"<p>{prose(draw.randint(25, 60))}</p>" for _ in range(draw.randint(1, 3))]
        kinds = draw.sample(["table", "code", "list", "note", "dl"], 3) if i < sections else []
        parts += [part(kind, i) for kind in kinds]
        if i == sections:
            rows = "".join(f"<tr><td>E{r}</td><td>{prose(6)}</td></tr>" for r in range(4))
            parts += [
                f"<h3>{i}.1 Final subsection</h3><p>{prose(20)}</p>",
                f"<table><thead><tr><th>Code</th><th>Meaning</th></tr></thead><tbody>{rows}</tbody></table>",
                '<pre><code class="language-go">func main() {\n\tc := client.New()\n}\n</code></pre>',
            ]
        body.append("<section>" + "".join(parts) + "</section>")
    sidebar = "".join(f'<li><a href="/p{k}.html">Page {k}</a></li>' for k in range(30))
    toc = "".join(f'<li><a href="#s{i}">Section {i} title</a></li>' for i in range(1, sections + 1))
    return (
        '<!doctype html><html><head><title>Long guide</title></head><body><header><nav><a href="/">Home'
        f'</a><a href="/docs">Docs</a></nav></header><div class="layout"><nav class="sidebar"><ul>{sidebar}'
        f"</ul></nav><main><h1>Long guide</h1><p>{prose(30)}</p>{''.join(body)}"
        '<nav class="pagination"><a href="/prev.html">Previous: Setup</a><a href="/next.html">Next: '
        f'Reference</a></nav></main><aside class="on-this-page"><h2>On this page</h2><ul>{toc}</ul>'
        "</aside></div><footer><p>Copyright 2026. All rights reserved.</p></footer></body></html>"
    )


def test_a_docs_sidebar_of_other_pages_is_left_out() -> None:
    """The sidebar's entries were rated about 0.5 beside a long guide: two dozen of its thirty links
    came before the guide's text."""
    markdown = extract_html(_guide(24), "https://docs.example/guide.html", ExtractOptions()).content
    assert "Page 1" not in markdown and "Previous: Setup" not in markdown
    assert markdown.index("## 1. Section 1 title") < markdown.index("## 24. Section 24 title")
    assert "### 24.1 Final subsection" in markdown and "| E3 |" in markdown
    assert "```go\nfunc main() {\n\tc := client.New()\n}\n```" in markdown


def _readme(sections: int) -> str:
    """A long README rendered flat (headings, paragraphs, tables and code side by side, as GitHub
    writes Markdown), its last subsection a heading over a table and code."""
    draw = random.Random(1)

    def prose(n: int) -> str:
        return " ".join(draw.choice(WORDS) for _ in range(n)).capitalize() + "."

    body = []
    for i in range(1, sections + 1):
        body.append(f"<h2>{i}. Section {i}</h2>")
        body += [f"<p>{prose(draw.randint(20, 70))}</p>" for _ in range(draw.randint(1, 4))]
        if draw.random() < 0.5:
            body.append(f"<h3>{i}.1 Sub</h3><p>{prose(30)}</p>")
        if draw.random() < 0.4:
            rows = "".join(f"<tr><td>a{r}</td><td>{prose(5)}</td></tr>" for r in range(3))
            body.append(f"<table><tr><th>A</th><th>B</th></tr>{rows}</table>")
        if draw.random() < 0.4:
            body.append(f'<pre><code class="language-py">x{i} = {i}\n</code></pre>')
    body.append(
        f"<h3>{sections}.9 Last sub</h3><table><tr><th>Key</th><th>Val</th></tr><tr><td>KLAST</td>"
        '<td>v</td></tr></table><pre><code class="language-go">lastCall()\n</code></pre>'
    )
    return (
        '<html><head><title>G</title></head><body><div id="readme" class="markdown-body"><h1>Guide</h1>'
        f'{"".join(body)}</div><div class="footer">Terms Privacy Security Status Docs Contact</div>'
        "</body></html>"
    )


def test_every_section_keeps_its_heading_the_last_too() -> None:
    """The classifier rates a block lower the further down a long page, and a short heading lower
    still: a README's last subsection, a heading over a one-row table and code, was dropped whole,
    and headings between kept paragraphs (80 sections down, the last section's) were dropped."""
    for sections in (5, 80):
        markdown = extract_html(_readme(sections), "https://docs.example/readme", ExtractOptions()).content
        headings = [f"## {sections}. Section {sections}", f"### {sections}.9 Last sub", "### 5.1 Sub"]
        assert all(heading in markdown for heading in headings), sections
        assert markdown.index(headings[1]) < markdown.index("| KLAST |") < markdown.index("lastCall()")
