"""Tracking parameters leave rendered links; everything else in the URL stays exactly as it was."""

from __future__ import annotations

from webferret.net.canonical import strip_tracking


def test_strip_tracking_keeps_every_other_part_as_it_was() -> None:
    url = "https://twitter.com/x/status/1?ref_src=twsrc%5Etfw&ref_url=a%3Ab&lang=en"
    assert strip_tracking(url) == "https://twitter.com/x/status/1?lang=en"
    assert strip_tracking("https://ex.org/a?B=1&utm_source=x&c=2#frag") == "https://ex.org/a?B=1&c=2#frag"
    assert strip_tracking("https://ex.org/a?q=a%20b&flag") == "https://ex.org/a?q=a%20b&flag"
    assert strip_tracking("https://ex.org/a?fbclid=1") == "https://ex.org/a"
    assert strip_tracking("https://shop.ex.org/?srsltid=AfmBOoq2-6l8ggH") == "https://shop.ex.org/"


def test_a_session_id_is_no_part_of_a_page_s_address() -> None:
    """A session id a server writes into its links (PHP, Java servlets, ASP, ColdFusion)."""
    from webferret.net.canonical import canonical_url

    assert strip_tracking("https://x.example/p?PHPSESSID=ab12&id=4") == "https://x.example/p?id=4"
    assert strip_tracking("https://x.example/cart;jsessionid=0A1B?x=1") == "https://x.example/cart?x=1"
    assert strip_tracking("https://x.example/cart;JSESSIONID=0A1B") == "https://x.example/cart"
    assert canonical_url("https://x.example/a;jsessionid=9/b?ASPSESSIONIDQQ=z&CFID=1&CFTOKEN=2") == (
        "https://x.example/a/b"
    )
    assert strip_tracking("https://x.example/p;v=2?sid=7") == "https://x.example/p;v=2?sid=7"  # not ids
