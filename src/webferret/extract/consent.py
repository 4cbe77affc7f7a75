"""Cookie-consent dialogs of the common consent platforms, gone before anything reads the page.

A consent platform (OneTrust, Cookiebot, Usercentrics, Quantcast, Didomi, TrustArc, Complianz,
CookieYes, Civic, Ensighten) writes its banner and its preference centre into the page itself, and
its scripts show them over the content. In the HTML they are hundreds of words about "Strictly
Necessary Cookies" and "Targeting Cookies", which a reader of the page never came for and which a
main-content choice sometimes keeps (a forum's thread ended in OneTrust's "Privacy Preference
Center"). Each platform names its dialog's root with an id of its own, so the root goes, with
everything in it.

A page that is nothing but a consent wall (its content behind a redirect) has no such dialog in
its content: it is told by its words (`classify.COOKIE_WALL`), not here.
"""

from __future__ import annotations

import re

from lxml import etree, html

from webferret.extract.blocks import drop_keep_tail

ROOTS = (
    "onetrust-consent-sdk",  # OneTrust: banner and preference centre
    "onetrust-banner-sdk",
    "onetrust-pc-sdk",
    "CybotCookiebotDialog",  # Cookiebot
    "usercentrics-root",  # Usercentrics
    "qc-cmp2-container",  # Quantcast Choice
    "didomi-host",  # Didomi
    "truste-consent-track",  # TrustArc
    "cmplz-cookiebanner-container",  # Complianz
    "cookie-law-info-bar",  # CookieYes (GDPR Cookie Consent)
    "ccc",  # Civic Cookie Control
    "ensNotifyBanner",  # Ensighten
)
_HINT = re.compile(r"""id=["']?(?:""" + "|".join(re.escape(root) for root in ROOTS) + r")\b")
"""A root's id in the HTML text: a cheap look before the tree is searched (a pattern that starts with
the literal `id=` is searched for that first, 0.2 ms on an article page's 170 KB, where a look for
each root's name took 1 ms)."""
_FOUND = etree.XPath("//*[" + " or ".join(f"@id='{root}'" for root in ROOTS) + "]")


def has_dialogs(text: str) -> bool:
    """Whether the HTML text `text` may hold a consent platform's dialog (`drop_dialogs` then looks)."""
    return _HINT.search(text) is not None


def drop_dialogs(tree: html.HtmlElement) -> int:
    """The consent platforms' dialogs of `tree` removed, in place (the text after each kept); how many
    (a root inside another goes with it)."""
    roots = _FOUND(tree)
    found = set(roots)
    dropped = 0
    for node in roots:
        parent = node.getparent()
        if parent is not None and not any(ancestor in found for ancestor in node.iterancestors()):
            drop_keep_tail(node, parent)
            dropped += 1
    return dropped
