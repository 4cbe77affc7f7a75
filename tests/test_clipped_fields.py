"""A page's or a search result's one-line fields are clipped: a hostile page's 180 KB `<title>` or
an engine's 200 KB snippet cannot flood every answer that names it."""

from __future__ import annotations

import pytest
from simweb import SimWeb

from webferret.models import MAX_CHARS, Hit, Page, clipped


def test_clipped_cuts_at_a_space_near_the_end_and_marks_it() -> None:
    assert clipped("short", 10) == "short"
    assert clipped(None, 10) is None
    assert clipped("ferrets play " * 10, 30) == "ferrets play ferrets play…"
    assert clipped("x" * 50, 10) == "x" * 9 + "…"


def test_page_and_hit_fields_are_clipped_where_they_are_made() -> None:
    page = Page(url="https://a.example/", title="Big " * 45_000, site_name="S" * 100_000, byline="b" * 999)
    assert len(page.title or "") <= MAX_CHARS["title"] and (page.title or "").endswith("Big…")
    assert len(page.site_name or "") == MAX_CHARS["site_name"]
    assert len(page.byline or "") == MAX_CHARS["byline"]
    assert Page(url="https://a.example/", title="Burrows").title == "Burrows"
    hit = Hit(url="https://a.example/", title="t" * 200_000, snippet="s " * 100_000)
    assert len(hit.title) == MAX_CHARS["title"] and len(hit.snippet) <= MAX_CHARS["snippet"]


ESCAPES = (
    "\x1b[31mred\x1b[0m \x1b]0;pwned\x07\x1b]8;;https://evil.example\x1b\\link\x1b]8;;\x1b\\ "
    "\x1bc\rhid\x00den\x9b"
)


def test_terminal_escapes_and_control_characters_never_reach_a_view() -> None:
    page = Page(url="https://a.example/", title=f"T {ESCAPES}", content=f"Body\tone\r\n{ESCAPES}\n")
    assert page.title == "T red link hidden" and page.content == "Body\tone\r\nred link hidden\n"
    hit = Hit(url="https://a.example/", title=ESCAPES, snippet=ESCAPES)
    assert hit.title == hit.snippet == "red link hidden"


def test_a_hostile_page_cannot_drive_the_terminal(simweb: SimWeb, capsys: pytest.CaptureFixture[str]) -> None:
    from webferret.cli import main

    shown = ESCAPES.replace("\x00", "")  # a NUL byte makes the body binary (`sniff`)
    body = f"<html><head><title>Burrows {shown}</title></head><body><article><h1>Burrows</h1>"
    body += f"<p>{'Ferrets dig long tunnels under the barn. ' * 20}{shown}</p></article></body></html>"
    url = simweb.add("/escapes", body, headers={"Content-Type": "text/html; charset=utf-8"})
    assert main(["fetch", "--allow-host", "127.0.0.1", url]) == 0
    out = capsys.readouterr().out
    assert "# Burrows red link" in out and "hidden" in out and not any(c in out for c in "\x1b\x07\x00\x9b")


def test_direction_overrides_never_reverse_a_title_or_snippet() -> None:
    spoofed = "invoice\u202egpj.exe\u202c and \u2067isolated\u2069"
    hit = Hit(url="https://a.example/", title=spoofed, snippet=spoofed)
    assert hit.title == hit.snippet == "invoicegpj.exe and isolated"
    page = Page(url="https://a.example/", title="עברית\u200f (Hebrew)", content=f"body {spoofed}")
    assert page.title == "עברית\u200f (Hebrew)"  # a direction mark is text of its own: kept
    assert "\u202e" in page.content  # the page's text is as it was: only one-line fields are shown bare


def test_a_products_facts_cannot_drive_the_terminal_nor_flood_it(
    simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """A product's name, brand, SKU, currency and availability are the page's words, shown in the
    page's header: its JSON-LD's escapes cleared the screen and retitled the terminal, and a
    currency of kilobytes was shown whole."""
    import json

    from webferret.cli import main

    shown = ESCAPES.replace("\x00", "")
    product = {
        "@context": "https://schema.org",
        "@type": "Product",
        "name": f"Hammock {shown}",
        "brand": {"@type": "Brand", "name": f"Acme {shown}"},
        "sku": f"H-1 {shown}",
        "offers": {"@type": "Offer", "price": "19.99", "priceCurrency": f"USD {shown} {'X' * 5000}"},
    }
    body = f'<html><head><title>Hammock</title><script type="application/ld+json">{json.dumps(product)}'
    body += f"</script></head><body><main><h1>Hammock</h1><p>{'A hammock for ferrets. ' * 20}</p></main>"
    url = simweb.add("/product", body + "</body></html>", headers={"Content-Type": "text/html"})
    assert main(["fetch", "--allow-host", "127.0.0.1", url]) == 0
    out = capsys.readouterr().out
    assert "19.99 USD red link" in out and not any(c in out for c in "\x1b\x07\x9b")
    assert "X" * 200 not in out
    assert main(["fetch", "--allow-host", "127.0.0.1", "--json", url]) == 0
    facts = json.loads(capsys.readouterr().out)["data"]["pages"][0]["product"]
    words = {key: " ".join(facts[key].split()) for key in ("name", "brand", "sku")}
    assert words == {
        "name": "Hammock red link hidden",
        "brand": "Acme red link hidden",
        "sku": "H-1 red link hidden",
    }
    assert len(facts["currency"]) <= 40
