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
