"""E-mail addresses a CDN hid from scrapers, given back.

Cloudflare's e-mail obfuscation serves every address of a page as "[email protected]" with the address
in a `data-cfemail` attribute (and `mailto:` links as `/cdn-cgi/l/email-protection#...`), XOR-ed with a
key byte that leads the hex string; a script puts the addresses back in the browser. A reader that runs
no script decodes them the same way, so an address in a contact line or a code sample reads as written.
"""

from __future__ import annotations

from lxml import html

MARKER = "/cdn-cgi/l/email-protection"


def decode(hexed: str) -> str | None:
    """The address Cloudflare encoded as `hexed` (key byte, then the address's bytes XOR-ed with it);
    None when it is not such a string."""
    try:
        raw = bytes.fromhex(hexed.strip())
    except ValueError:
        return None
    if len(raw) < 2:
        return None
    key = raw[0]
    try:
        text = bytes(b ^ key for b in raw[1:]).decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text if text.isprintable() else None


def reveal(tree: html.HtmlElement) -> None:
    """Put the page's obfuscated addresses back in place: an element's `data-cfemail` as its text, a
    protected link's target as its `mailto:`."""
    for node in tree.xpath("//*[@data-cfemail]"):
        address = decode(node.get("data-cfemail") or "")
        if address is None:
            continue
        for child in list(node):
            node.remove(child)  # their tails go with them: the placeholder text is all they hold
        node.text = address
        del node.attrib["data-cfemail"]
        if node.tag == "a" and (node.get("href") or "").startswith(MARKER):
            node.set("href", f"mailto:{address}")
    for link in tree.xpath(f'//a[starts-with(@href, "{MARKER}#")]'):
        address = decode(link.get("href", "").partition("#")[2])
        if address is not None:
            link.set("href", f"mailto:{address}")
