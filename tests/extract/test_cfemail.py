"""Cloudflare's obfuscated e-mail addresses are read as the page's script would show them."""

from __future__ import annotations

from webferret.extract.cfemail import decode
from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions


def _encoded(address: str, key: int = 0x42) -> str:
    return f"{key:02x}" + "".join(f"{b ^ key:02x}" for b in address.encode())


def test_decode_reverses_the_xor_with_the_leading_key_byte() -> None:
    assert decode(_encoded("jane@example.org")) == "jane@example.org"
    assert decode("zz") is None and decode("42") is None


def test_addresses_come_back_in_text_code_and_links() -> None:
    hexed = _encoded("press@example.org")
    page = (
        "<html><body><article><h1>Contact</h1>"
        + "<p>The harbour office answers letters about tides and moorings every weekday morning. " * 4
        + f'Write to <a href="/cdn-cgi/l/email-protection" class="__cf_email__" data-cfemail="{hexed}">'
        "[email&#160;protected]</a> for a berth.</p>"
        f'<pre><code>git config user.email "<span class="__cf_email__" data-cfemail="{hexed}">'
        '[email&#160;protected]</span>"\ngit commit</code></pre>'
        f'<p>Or <a href="/cdn-cgi/l/email-protection#{_encoded("desk@example.org")}">mail the desk</a>.</p>'
        "</article></body></html>"
    )
    out = extract_html(page, "https://example.org/contact", ExtractOptions())
    assert "Write to press@example.org for a berth." in out.content  # a mailto: link reads as its text
    assert 'git config user.email "press@example.org"' in out.content
    assert "protected]" not in out.content and "email-protection" not in out.content
