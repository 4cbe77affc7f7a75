"""Dialogs a page holds until it is asked for them, gone before anything reads the page.

The HTML of a page carries boxes it only shows on demand: a `<dialog>` without `open`, an element
with the `popover` attribute (browsers keep both out of sight until a script or a button opens them:
a forum's "allow notifications" help in every browser's steps, a vendor's product menu), and the
dialogs of consent platforms. None of them is what a reader came for, and a main-content choice
sometimes kept them.

A consent platform (OneTrust, Cookiebot, Usercentrics, Quantcast, Didomi, TrustArc, Complianz,
CookieYes, Civic, Ensighten) writes its banner and its preference centre into the page itself, and
its scripts show them over the content. In the HTML they are hundreds of words about "Strictly
Necessary Cookies" and "Targeting Cookies", which a reader of the page never came for and which a
main-content choice sometimes keeps (a forum's thread ended in OneTrust's "Privacy Preference
Center"). Each platform names its dialog's root with an id of its own, so the root goes, with
everything in it (its banner is shown at once, so it holds neither `popover` nor a closed `<dialog>`).

A page that is nothing but a consent wall (its content behind a redirect) has no such dialog in
its content: it is told by its words (`classify.COOKIE_WALL`), not here.

A modal the page's script builds as an element of role `dialog` (or `alertdialog`, or `aria-modal`),
closed with `hidden` or `aria-hidden="true"`, is a closed dialog too: a shop's size guide, its country
picker, its quick view, a widget's "Oops! Looks like we're having trouble connecting" notice. These
stay in the page while the main content is chosen (the block model learned the pages with them, and
taking them out first moves its choices on pages they do not touch: out of fold, 45 pages changed,
23 for the worse), and the main content's lines that are a closed modal's text, and nowhere else on
the page, go after (`drop_modal_lines`). A main content that would lose more than `MODAL_SHARE` of
its words that way is a page that shows its content in a modal (an overlay reader), and stays whole.
"""

from __future__ import annotations

import re
from collections import Counter

from lxml import etree, html

from webferret.extract import hints, signup
from webferret.extract.blocks import drop_outermost, outermost
from webferret.extract.words import count_words

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
for _root in ROOTS:
    hints.word(_root)
_HINT = re.compile(r"""id=["']?(?:""" + "|".join(re.escape(root) for root in ROOTS) + r")\b")
"""A root's id in the HTML text: a cheap look before the tree is searched, run only when a root's name
is in the page (`hints`: one pass for every name; the pattern alone reads the whole text, 0.2 ms on
an article page's 170 KB)."""
_CONSENT = etree.XPath("//*[" + " or ".join(f"@id='{root}'" for root in ROOTS) + "]")
_CLOSED = etree.XPath("//*[@popover] | //dialog[not(@open)]")
_CLOSED_HINTS = (hints.word("popover"), hints.word("<dialog"))


def drop_dialogs(tree: html.HtmlElement, text: str) -> int:
    """The dialogs of `tree` (parsed from the HTML text `text`) removed, in place, the text after each
    kept; how many (one inside another goes with it). The tree is searched only for what the text
    may hold."""
    roots: list[html.HtmlElement] = []
    if hints.holds_any(text, ROOTS) and _HINT.search(text) is not None:
        roots += _CONSENT(tree)
    if hints.holds_any(text, _CLOSED_HINTS):
        roots += _CLOSED(tree)
    return drop_outermost(roots)


_MODALS = etree.XPath(
    "//*[(@role='dialog' or @role='alertdialog' or @aria-modal='true') and (@hidden or @aria-hidden='true')]"
)
MODAL_SHARE = 0.5
"""At most, of the main content's words that a closed modal's lines may take (see the module)."""
_MODAL_MARKS = ("role=dialog", 'role="dialog"', "role='dialog'", "alertdialog", "aria-modal")
_MODAL_HINTS = tuple(hints.word(mark) for mark in _MODAL_MARKS)


def modal_lines(tree: html.HtmlElement, text: str) -> set[str]:
    """The lines of `tree`'s closed modals (see the module; `text`: the page's HTML) that the page shows
    nowhere else: each text of a modal, its spaces collapsed."""
    if not hints.holds_any(text, _MODAL_HINTS):
        return set()
    found = _MODALS(tree)
    if not found:
        return set()
    inside: Counter[str] = Counter()
    for modal in outermost(found):
        inside.update(" ".join(piece.split()) for piece in modal.itertext())
    inside.pop("", None)
    everywhere = Counter(line for piece in tree.itertext() if (line := " ".join(piece.split())) in inside)
    return {line for line, count in inside.items() if everywhere[line] <= count}


def drop_modal_lines(element: etree._Element, tree: html.HtmlElement, text: str) -> int:
    """`element` (the main content) less its lines that are a closed modal's (`modal_lines` of the page
    `tree`, its HTML `text`), in place, unless they are most of it; how many went."""
    lines = modal_lines(tree, text)
    nodes = signup.line_nodes(element, lines) if lines else []
    if not nodes:
        return 0
    gone = sum(count_words(" ".join(node.itertext())) for node in outermost(nodes))
    if gone > MODAL_SHARE * count_words(" ".join(element.itertext())):
        return 0
    return drop_outermost(nodes)
