"""XML sitemaps read as the list of pages (or sitemaps) they name (`extract.sitemap`)."""

from __future__ import annotations

import gzip
import json
from pathlib import Path

import pytest
from child import run_python
from simweb import SimWeb

from webferret.cli import main
from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions

URLSET = """<?xml version="1.0" encoding="UTF-8"?>
<?xml-stylesheet type="text/xsl" href="/sitemap.xsl"?>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <url><loc>https://docs.example/guide/</loc><lastmod>2025-11-02T10:00:00+00:00</lastmod></url>
  <url><loc> https://docs.example/api/ </loc><changefreq>weekly</changefreq></url>
  <url><loc>javascript:alert(1)</loc></url>
  <url><loc>https://docs.example/release notes/</loc></url>
</urlset>"""

INDEX = """<?xml version="1.0" encoding="UTF-8"?>
<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
  <sitemap><loc>https://docs.example/sitemap-posts.xml</loc><lastmod>2025-10-01</lastmod></sitemap>
  <sitemap><loc>https://docs.example/sitemap-pages.xml</loc></sitemap>
</sitemapindex>"""


def read(body: str | bytes, content_type: str | None = "application/xml", **options: object) -> Extracted:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return extract_document(
        data,
        url="https://docs.example/sitemap.xml",
        content_type=content_type,
        options=ExtractOptions(**options),
    )


def test_a_sitemap_lists_its_pages_and_their_dates() -> None:
    page = read(URLSET)
    assert (
        page.content
        == "3 pages:\n\n- https://docs.example/guide/ · 2025-11-02\n- https://docs.example/api/\n"
        "- https://docs.example/release%20notes/\n"
    )
    assert (page.title, page.page_type, page.extra) == (
        "sitemap.xml",
        "listing",
        {"sitemap": "urlset", "entries": 3, "kind": "xml"},
    )
    assert [(link.url, link.in_main) for link in page.links] == [
        ("https://docs.example/guide/", True),
        ("https://docs.example/api/", True),
        ("https://docs.example/release%20notes/", True),  # a space encoded, as a browser sends it
    ]
    assert read(URLSET, format="text").content == (
        "3 pages:\n\nhttps://docs.example/guide/ · 2025-11-02\nhttps://docs.example/api/\n"
        "https://docs.example/release%20notes/\n"
    )


def test_a_sitemap_index_lists_its_sitemaps() -> None:
    page = read(INDEX, "text/xml")
    assert page.content.startswith("2 sitemaps (each a sitemap of its own):\n\n")
    assert "- https://docs.example/sitemap-posts.xml · 2025-10-01\n" in page.content
    assert page.extra == {"sitemap": "sitemapindex", "entries": 2, "kind": "xml"}


@pytest.mark.parametrize("content_type", ["text/html", "text/plain", None])
def test_a_sitemap_is_read_as_one_whatever_it_was_served_as(content_type: str | None) -> None:
    assert read(URLSET, content_type).extra["sitemap"] == "urlset"


def test_a_gzipped_sitemap_is_read_too() -> None:
    assert read(gzip.compress(URLSET.encode()), "application/gzip").extra["entries"] == 3


def test_a_sitemap_with_nothing_to_list_is_shown_as_xml() -> None:
    empty = '<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"></urlset>'
    assert read(empty).content.startswith("```xml\n")


def test_an_external_entity_is_not_read() -> None:
    hostile = URLSET.replace(
        "<urlset ", '<!DOCTYPE urlset [<!ENTITY secret SYSTEM "file:///etc/passwd">]>\n<urlset '
    ).replace("https://docs.example/api/", "https://docs.example/&secret;")
    assert "root:" not in read(hostile).content


def test_bare_ampersands_are_read_outside_cdata_and_unclosed_sections_are_read_once() -> None:
    """Escaping the bare `&` of a sitemap that is no well-formed XML looked for a CDATA section's end
    from every `<![CDATA[` start: 200,000 unclosed ones (1.8 MB) took minutes on one page's worker."""
    written = (
        '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">'
        "<url><loc>https://docs.example/a?id=1&lang=de</loc></url>"
        "<url><loc><![CDATA[https://docs.example/b?x=1&y=2]]></loc></url></urlset>"
    )
    assert [link.url for link in read(written).links] == [
        "https://docs.example/a?id=1&lang=de",
        "https://docs.example/b?x=1&y=2",
    ]
    code = (
        "from webferret.extract.sitemap import extract_sitemap\n"
        "from webferret.extract.types import ExtractOptions\n"
        f"body = {written.encode()!r} + b'<![CDATA[' * 200_000\n"
        "page = extract_sitemap(body, 'https://docs.example/sitemap.xml', ExtractOptions(links=True))\n"
        "print(len(page.links) if page else 0)\n"
    )
    done = run_python(code)
    assert done.returncode == 0 and done.stdout.split() == ["2"], done.stderr[-500:]


def test_fetch_reads_a_sitemap(simweb: SimWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = simweb.add("/sitemap.xml", URLSET, headers={"Content-Type": "application/xml"})
    assert (
        main(["fetch", url, "--json", "--links", "--home", str(tmp_path), "--allow-host", "127.0.0.1"]) == 0
    )
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and page["content"].startswith("3 pages:\n\n- https://docs.example/guide/")
    assert [link["url"] for link in page["links"]] == [
        "https://docs.example/guide/",
        "https://docs.example/api/",
        "https://docs.example/release%20notes/",
    ]


def test_a_text_sitemap_lists_its_pages() -> None:
    """sitemaps.org's text form, one URL a line (robots.txt may name it): it was read as text, with
    no links, so a map or a crawl said it "holds no sitemap entry"."""
    body = "https://docs.example/guide/\r\n\nhttps://docs.example/api/?v=2\n"
    for content_type in ("text/plain; charset=utf-8", None):
        page = read(body, content_type)
        assert page.content == "2 pages:\n\n- https://docs.example/guide/\n- https://docs.example/api/?v=2\n"
        assert page.extra["sitemap"] == "urlset" and page.content_type == "text/plain"
        assert [link.url for link in page.links] == [
            "https://docs.example/guide/",
            "https://docs.example/api/?v=2",
        ]
    for text in ("See https://docs.example/guide/\n", "https://docs.example/a\nnotes\n", "# links\n"):
        assert "sitemap" not in read(text, "text/plain").extra  # other text is text
    assert "sitemap" not in read("https://docs.example/a\n", "text/markdown").extra
    assert read("https://docs.example/a\n", "text/plain").content.startswith("1 page:\n")  # not "1 pages"


def test_a_text_sitemaps_hidden_characters_are_percent_encoded_as_an_xml_sitemaps_are() -> None:
    """A text sitemap's lines were listed as written: a U+009B (a terminal's CSI) or a U+202E in a
    URL reached the listing and `links` raw, where an XML sitemap's `<loc>` had them percent-encoded."""
    body = "https://docs.example/x\u009b2Jy\nhttps://docs.example/\u202egnp.exe\nhttps://docs.example/caf\u00e9\n"
    page = read(body, "text/plain")
    assert [link.url for link in page.links] == [
        "https://docs.example/x%C2%9B2Jy",
        "https://docs.example/%E2%80%AEgnp.exe",
        "https://docs.example/caf\u00e9",
    ]
    assert "\u009b" not in page.content and "\u202e" not in page.content
