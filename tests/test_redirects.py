"""A click-tracking redirect link is shown as where it leads (`net.redirects`)."""

from __future__ import annotations

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions
from webferret.net.redirects import unwrap_redirect


def test_a_redirector_s_link_is_its_destination() -> None:
    assert unwrap_redirect("https://www.google.com/url?q=https://x.org/a&sa=D") == "https://x.org/a"
    assert unwrap_redirect("https://www.facebook.com/l.php?u=https%3A%2F%2Fx.org%2Fp") == "https://x.org/p"
    scanner = "https://nam04.safelinks.protection.outlook.com/?url=https%3A%2F%2Fwww.liberty.edu%2Fi%3FPID%3D3&data=0"
    assert unwrap_redirect(scanner) == "https://www.liberty.edu/i?PID=3"
    # an affiliate's link inside a tracker's, its address encoded twice
    nested = (
        "https://clicks.trx-hub.com/xid/f_1?q=https%253A%252F%252Fwww.dpbolvw.net%252Fclick-884%253Fsid%253D6"
        "%2526url%253Dhttps%25253A%25252F%25252Fstore.hermanmiller.com%25252Fsayl.html&ref=x"
    )
    assert unwrap_redirect(nested) == "https://store.hermanmiller.com/sayl.html"


def test_a_service_that_takes_an_address_is_no_redirect() -> None:
    for url in (
        "https://www.facebook.com/sharer/sharer.php?u=https://x.org/",
        "https://twitter.com/intent/tweet?url=https://x.org/",
        "https://validator.w3.org/check?uri=https://x.org/",
        "https://x.org/search?q=https://y.org/",
        "https://x.org/click?url=https://x.org/inside",  # the same host: a page of the site's own
        "https://x.org/click?url=/relative",
    ):
        assert unwrap_redirect(url) == url


def test_the_markdown_links_to_where_the_link_leads() -> None:
    """A review's shop links went through an affiliate's click counter: the reader saw the counter."""
    words = "".join(f"<p>The tent kept us dry through {n} nights of rain on the ridge.</p>" for n in range(8))
    link = (
        '<p>Buy it at <a href="https://www.avantlink.com/click.php?tt=cl&amp;mi=10&amp;url=https%3A%2F%2F'
        'www.rei.com%2Fproduct%2F211003">REI</a>.</p>'
    )
    page = (
        f"<html><head><title>Tent review</title></head><body><article>{words}{link}</article></body></html>"
    )
    content = extract_html(page, "https://blog.example/tent", ExtractOptions()).content
    assert "[REI](https://www.rei.com/product/211003)" in content and "avantlink" not in content
