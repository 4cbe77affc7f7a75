"""`--format html`: the main content as clean HTML, links absolute, nothing active left."""

import json
from pathlib import Path

import pytest
from lxml import etree
from simweb import SimWeb

from webferret.cli import main
from webferret.extract.cleanhtml import clean_html
from webferret.extract.selector import MainContent

ALLOW = ["--allow-host", "127.0.0.1"]
WORDS = "Ferrets dig long tunnels under the old barn and keep their food in a dry chamber there. "
PAGE = f"""<html><head><title>Ferret tunnels</title><style>p {{ color: red }}</style></head><body>
<nav><a href="/">Home</a></nav>
<article><h1>Tunnels</h1>
<p onclick="steal()" style="color: blue" class="lead">{WORDS * 3}
<a href="../guide/burrows.html" onmouseover="track()">burrow guide</a> and
<a href="javascript:alert(1)">a trap</a>, <a href="file:///etc/passwd">a local file</a>,
<a href=" VBScript:msgbox(1)">old trap</a> and <a href="mailto:burrows@example.org">the editors</a>.</p>
<iframe src="/ads"></iframe><script>window.evil = 1;</script>
<p>{WORDS * 4}<img src="img/ferret.png" alt="a ferret" onerror="boom()"></p>
<pre><code>dig(depth=3)</code></pre>
</article><footer>Copyright Tunnels Weekly</footer></body></html>"""


@pytest.fixture
def page_url(simweb: SimWeb) -> str:
    return simweb.add("/docs/tunnels", PAGE, headers={"Content-Type": "text/html; charset=utf-8"})


def fetch_page(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict]:
    code = main(["fetch", "--json", *ALLOW, *args])
    out, err = capsys.readouterr()
    assert "Traceback" not in out + err
    return code, json.loads(out)["data"]["pages"][0]


def test_main_content_as_clean_html(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, page_url: str
) -> None:
    code, page = fetch_page(capsys, "--format", "html", page_url)
    html = page["content"]
    assert code == 0 and page["format"] == "html"
    assert "<h1>Tunnels</h1>\n" in html and "dig(depth=3)" in html  # one block a line: pages cut between
    assert f'<a href="{simweb.url("/guide/burrows.html")}">burrow guide</a>' in html
    for active in (
        "<script",
        "window.evil",
        "onclick",
        "onmouseover",
        "onerror",
        "<iframe",
        "style=",
        "javascript:",
        "file:",
        "vbscript:",
    ):
        assert active not in html.lower()
    assert '<a href="mailto:burrows@example.org">the editors</a>' in html and "<a>a local file</a>" in html
    assert "Copyright Tunnels Weekly" not in html and 'href="/"' not in html  # main content only


def test_html_with_a_selector_keeps_images_absolute(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, page_url: str
) -> None:
    code, page = fetch_page(capsys, "--format", "html", "--selector", "p:nth-of-type(2)", page_url)
    assert code == 0
    assert page["content"].startswith("<div>\n<p>Ferrets dig")  # the matches, in one container
    assert f'<img src="{simweb.url("/docs/img/ferret.png")}" alt="a ferret">' in page["content"]


TRAPS = f"""<html><head><title>Ferret traps</title></head><body><article><h1>Traps</h1>
<p>{WORDS * 3} <a href="JaVaScRiPt:alert(1)">the first trap</a>, <a href="java&#9;script:alert(2)">the
second trap</a>, <a href="file:///etc/passwd">a local file</a>, <a href=" VBScript:msgbox(1)">an old
trap</a>, <a href="Mailto:burrows@example.org">the editors</a> and <a href="/guide">the guide</a>.</p>
<p>{WORDS * 4}<img src="FILE:///home/ferret.png" alt="a local picture"></p></article></body></html>"""


@pytest.mark.parametrize("whole_page", [False, True])
def test_markdown_links_to_no_script_nor_local_file_whatever_the_scheme_s_case(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb, whole_page: bool
) -> None:
    """A browser reads `JaVaScRiPt:` and `java<TAB>script:` as `javascript:`: the Markdown a chat shows
    as links kept them (and `file:`, `vbscript:`), which `--format html` drops; their words stay."""
    url = simweb.add("/docs/traps", TRAPS, headers={"Content-Type": "text/html; charset=utf-8"})
    code, page = fetch_page(capsys, url, *(["--whole-page"] if whole_page else []))
    content = page["content"]
    assert code == 0 and page["format"] == "markdown"
    assert f"[the guide]({simweb.url('/guide')})" in content
    for words in ("the first trap", "the second trap", "a local file", "an old trap", "the editors"):
        assert words in " ".join(content.split())
    for active in ("script:", "file:", "vbscript", "mailto:", "](java"):
        assert active not in content.lower()


def test_html_and_markdown_reads_never_stand_in_for_each_other(
    capsys: pytest.CaptureFixture[str], page_url: str
) -> None:
    _, html = fetch_page(capsys, "--format", "html", page_url)
    _, markdown = fetch_page(capsys, page_url)
    _, again = fetch_page(capsys, "--format", "html", page_url)
    assert markdown["fetched_via"] == "http" and markdown["format"] == "markdown"
    assert markdown["content"].startswith("# Tunnels")
    assert again["fetched_via"] == "store" and again["content"] == html["content"]  # kept beside it
    assert again["handle"] == html["handle"] != markdown["handle"]


def test_a_document_that_is_not_html_answers_markdown(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb
) -> None:
    code, page = fetch_page(capsys, "--format", "html", simweb.url("/json"))
    assert code == 0 and page["format"] == "markdown" and page["content"].startswith("```json")


def test_an_html_page_is_paged_between_blocks(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    """`open` cuts a document between lines: HTML comes one block a line, so no page ends inside a tag."""
    body = "".join(f"<p>{n}. {WORDS}</p>" for n in range(30))
    url = simweb.add(
        "/docs/long", f"<html><head><title>Long</title></head><body><article>{body}</article></body></html>"
    )
    code, page = fetch_page(capsys, "--format", "html", url)
    assert code == 0 and main(["open", page["handle"], "--page-tokens", "100", "--json"]) == 0
    first = json.loads(capsys.readouterr().out)["data"]
    assert first["pages"] > 1
    pieces = [first["content"]]
    for number in range(2, first["pages"] + 1):
        assert main(["open", page["handle"], "--page", str(number), "--page-tokens", "100", "--json"]) == 0
        pieces.append(json.loads(capsys.readouterr().out)["data"]["content"])
    assert "\n".join(pieces).split() == page["content"].split()
    assert all(piece.strip().startswith("<") and piece.strip().endswith(">") for piece in pieces)


def test_inline_code_stays_in_its_paragraph(capsys: pytest.CaptureFixture[str], simweb: SimWeb) -> None:
    """trafilatura's HTML makes every `code` a `pre`, which closed the paragraph around it: `<p>Use
    the </p><pre>--fresh</pre>flag...`, the rest of the sentence outside any element."""
    body = (
        "<html><head><title>Flags</title></head><body><article><h1>Flags</h1>"
        "<p>Use the <code>--fresh</code> flag to skip the store, and <code>--json</code> for machines. "
        f"{WORDS}</p>"
        f"<p>{WORDS * 3}</p><pre><code>webferret fetch URL --fresh</code></pre></article></body></html>"
    )
    url = simweb.add("/flags", body, headers={"Content-Type": "text/html; charset=utf-8"})
    code, page = fetch_page(capsys, "--format", "html", url)
    html = page["content"]
    assert (
        code == 0
        and "<p>Use the <code>--fresh</code> flag to skip the store, and <code>--json</code>" in html
    )
    assert "<pre><code>webferret fetch URL --fresh</code></pre>" in html or "<pre>webferret fetch URL" in html


def _saved_as_html(page: str, folder: Path, capsys: pytest.CaptureFixture[str]) -> str:
    """`extract --format html --json` of `page` saved as a file in `folder`: its clean HTML."""
    saved = folder / "saved.html"
    saved.write_text(page, encoding="utf-8")
    code = main(["extract", "--json", "--format", "html", str(saved)])
    assert code == 0
    return json.loads(capsys.readouterr().out)["data"]["pages"][0]["content"]


def test_a_local_files_links_stay_relative(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`extract --format html` of a saved page: its links were made `file:` links, then dropped as
    such (`<a>burrow guide</a>`); a `file:` link written in the page is still dropped."""
    html = _saved_as_html(PAGE, tmp_path, capsys)
    assert '<a href="../guide/burrows.html">burrow guide</a>' in html
    assert "<a>a local file</a>" in html and "file:" not in html


def test_a_relative_link_with_a_colon_past_its_path_stays(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    """A saved page's links to a section (`#sec:burrows`), a figure in another file and a query with
    a colon have no scheme: each was read as one (`#sec`, `figs.html#fig`) and lost its link."""
    words = "Ferrets dig long burrows and sleep in them through the day, often eighteen hours. " * 6
    page = (
        "<html><head><title>Notes</title></head><body><article><h1>Ferret notes</h1><p>"
        '<a href="#sec:burrows">the burrows section</a>, <a href="figs.html#fig:2">figure 2</a>, '
        f'<a href="find.html?q=kind:hob">the hobs</a>. {words}</p>'
        "</article></body></html>"
    )
    html = _saved_as_html(page, tmp_path, capsys)
    assert '<a href="#sec:burrows">the burrows section</a>' in html
    assert '<a href="figs.html#fig:2">figure 2</a>' in html
    assert '<a href="find.html?q=kind:hob">the hobs</a>' in html


def test_trafilaturas_numbered_and_description_lists_stay_what_they_are() -> None:
    """trafilatura's HTML makes every list a `<ul>` of `<li>`: `--format html` numbered no step the
    Markdown numbered, and a description list's terms read as items of their own."""
    body = etree.fromstring(
        '<body><list rend="ol"><item>Install it.</item><item>Run it.</item></list>'
        '<list rend="dl"><item rend="dt-1">--verbose</item><item rend="dd-1">Print more.</item></list>'
        '<list rend="ul"><item>A point.</item></list></body>'
    )
    html = clean_html(MainContent(body, "trafilatura"), "https://example.org/")
    assert "<ol>\n<li>Install it.</li>\n<li>Run it.</li>\n</ol>" in html
    assert "<dl>\n<dt>--verbose</dt>\n<dd>Print more.</dd>\n</dl>" in html
    assert "<ul>\n<li>A point.</li>\n</ul>" in html


@pytest.mark.parametrize("whole_page", [False, True])
def test_a_numbered_list_keeps_the_number_it_starts_at(whole_page: bool) -> None:
    """`<ol start="3">` was `<ol>` in `--format html` (numbered 1, 2 where the page and the Markdown
    say 3, 4): trafilatura's conversion and the cleaner's kept attributes both dropped `start`."""
    from webferret.extract.htmlpage import extract_html
    from webferret.extract.types import ExtractOptions

    page = (
        f"<html><body><article><h1>Steps</h1><p>{WORDS * 3}</p><p>Then, to finish:</p>"
        '<ol start="3"><li>Feed the ferrets.</li><li>Close the barn.</li></ol>'
        f"<p>{WORDS * 3}</p></article></body></html>"
    )
    options = ExtractOptions(format="html", whole_page=whole_page)
    html = extract_html(page, "https://example.org/steps", options).content or ""
    assert '<ol start="3">\n<li>Feed the ferrets.</li>' in html


def test_a_page_with_control_characters_reads_as_html(
    capsys: pytest.CaptureFixture[str], simweb: SimWeb
) -> None:
    """A terminal escape or a bell in a page's text (libxml2 reads them) no longer fails its HTML
    reading: lxml refused to write the text back with them when whitespace was collapsed."""
    page = f"<html><head><title>Bells</title></head><body><article><h1>Bells</h1><p>{WORDS * 3}</p>"
    page += (
        f"<p>A bell\x07 rang and \x1b[2J the screen\x0b stayed.</p><p>{WORDS * 2}</p></article></body></html>"
    )
    code, read = fetch_page(capsys, "--format", "html", simweb.add("/control-chars", page))
    assert code == 0 and read["ok"], read["error"]
    assert "<p>A bell rang and [2J the screen stayed.</p>" in read["content"]
