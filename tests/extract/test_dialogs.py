"""Dialogs a page holds until it is asked for them (closed dialogs, popovers, consent platforms'
dialogs), gone before anything reads the page (`extract.dialogs`)."""

from __future__ import annotations

from lxml import html

from webferret.extract import dialogs
from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

POST = (
    "Not sure if this is the right place for this question, but does anyone know what the two ports at the "
    "back of the case are for? The manual says nothing about them, yet they look very intentional."
)
CENTRE = (
    '<div id="onetrust-consent-sdk"><div id="onetrust-banner-sdk"><p>We use cookies and similar '
    "technologies to run this site, to measure how it is used and to show you advertising.</p></div>"
    '<div id="onetrust-pc-sdk" class="otPcCenter ot-hide"><h2>Privacy Preference Center</h2>'
    "<p>When you visit any website, it may store or retrieve information on your browser, mostly in the "
    "form of cookies. This information might be about you, your preferences or your device.</p>"
    "<h3>Strictly Necessary Cookies</h3><p>These cookies are necessary for the website to function and "
    "cannot be switched off in our systems.</p><h3>Performance Cookies</h3><p>These cookies allow us "
    "to count visits and traffic sources so we can measure and improve the performance of our site.</p>"
    "</div></div>"
)


def _page(dialog: str) -> str:
    return (
        "<html><head><title>Two ports on the new case</title></head><body>"
        f"<main><h1>Two ports on the new case</h1><p>{POST}</p><p>Thanks in advance for any help.</p></main>"
        f"{dialog}<footer>About us. Contact.</footer></body></html>"
    )


def test_a_consent_platforms_banner_and_preference_centre_are_not_content() -> None:
    content = extract_html(_page(CENTRE), "https://forum.example/t/1", ExtractOptions()).content
    assert POST in content
    assert "Cookies" not in content and "Privacy Preference" not in content


def test_each_platforms_root_goes_with_everything_in_it_and_the_text_after_it_stays() -> None:
    page = (
        "<html><body><div><p>Kept.</p>"
        '<div id="CybotCookiebotDialog"><p>This website uses cookies.</p></div> and after it'
        "</div>" + CENTRE + "</body></html>"
    )
    tree = html.fromstring(page)
    assert dialogs.drop_dialogs(tree, page) == 2  # OneTrust's banner and centre go with their root
    text = " ".join(tree.text_content().split())
    assert text == "Kept. and after it"


def test_a_page_without_a_platforms_id_is_not_searched() -> None:
    page = _page(CENTRE)
    assert (
        dialogs.drop_dialogs(html.fromstring(page), page.replace('id="', 'data-x="')) == 0
    )  # the text: none
    page = _page("<div id='cookies'><p>We use cookies.</p></div>")
    assert dialogs.drop_dialogs(html.fromstring(page), page) == 0
    for root in dialogs.ROOTS:
        page = f'<html><body><p>Kept.</p><div id="{root}"><p>Cookies.</p></div></body></html>'
        assert dialogs.drop_dialogs(html.fromstring(page), page) == 1


def test_a_closed_dialog_and_a_popover_are_not_content_an_open_dialog_is() -> None:
    help_steps = (
        '<i-card id="pushPrompt" popover><ol><li>Tap the lock icon next to the address bar.</li>'
        "<li>Tap Permissions, then Notifications.</li><li>Adjust your preference.</li></ol></i-card>"
    )
    closed = "<dialog><p>Sign in to follow this topic and get replies by e-mail.</p></dialog>"
    shown = "<dialog open><p>The ports are for the case's lighting hub and its fan controller.</p></dialog>"
    content = extract_html(_page(help_steps + closed), "https://forum.example/t/1", ExtractOptions()).content
    assert POST in content and "lock icon" not in content and "Sign in to follow" not in content
    page = _page(help_steps + closed + shown)
    tree = html.fromstring(page)
    assert dialogs.drop_dialogs(tree, page) == 2
    assert "lighting hub" in tree.text_content() and "lock icon" not in tree.text_content()
    page = _page(closed)
    assert dialogs.drop_dialogs(html.fromstring(page), page.replace("<dialog", "<section")) == 0


def test_a_closed_modal_s_lines_are_left_out_of_the_main_content() -> None:
    notice = "Oops! Looks like we are having trouble connecting to our server."
    guide = "Our fitted sheets fit mattresses up to sixteen inches deep."
    modals = (
        f'<div role="dialog" aria-modal="true" hidden><h2>{notice}</h2><p>Refresh to try again.</p></div>'
        f"<aside class='modal' aria-modal=true aria-hidden=true><h3>Size guide</h3><p>{guide}</p></aside>"
    )
    page = (
        "<html><head><title>Two ports on the new case</title></head><body><main>"
        f"<h1>Two ports on the new case</h1><p>{POST}</p>{modals}<p>Thanks in advance for any help.</p>"
        "</main></body></html>"
    )
    tree = html.document_fromstring(page)
    assert dialogs.modal_lines(tree, page) == {notice, "Refresh to try again.", "Size guide", guide}
    content = extract_html(page, "https://forum.example/t/1", ExtractOptions()).content
    assert POST in content and "Thanks in advance" in content
    assert "Oops" not in content and "Refresh" not in content and "fitted sheets" not in content


def test_a_modal_that_is_open_or_repeats_the_page_keeps_its_lines() -> None:
    shown = f'<div role="dialog" aria-modal="true"><p>{POST}</p></div>'  # open: no hidden mark
    assert dialogs.modal_lines(html.document_fromstring(_page(shown)), _page(shown)) == set()
    # a quick view repeats the product's own words: shown on the page too, so they stay
    quick = f'<div role="dialog" hidden><h2>Quick view</h2><p>{POST}</p></div>'
    assert dialogs.modal_lines(html.document_fromstring(_page(quick)), _page(quick)) == {"Quick view"}
    content = extract_html(_page(quick), "https://forum.example/t/1", ExtractOptions()).content
    assert POST in content
    # no mark of a modal in the text: the tree is not searched
    bare = _page(quick).replace('role="dialog"', 'data-x="y"')
    assert dialogs.modal_lines(html.document_fromstring(bare), bare) == set()


def test_a_page_that_shows_its_content_in_a_closed_modal_keeps_it() -> None:
    # an overlay reader: the whole post inside a modal the page's script opens
    reader = f'<div role="dialog" aria-modal="true" aria-hidden="true"><main><p>{POST}</p></main></div>'
    page = f"<html><head><title>Two ports</title></head><body>{reader}</body></html>"
    assert POST in dialogs.modal_lines(html.document_fromstring(page), page)
    content = extract_html(page, "https://forum.example/t/1", ExtractOptions()).content
    assert POST in content
    element = html.fragment_fromstring(f"<div><p>{POST}</p><p>Size guide</p></div>")
    assert dialogs.drop_modal_lines(element, html.document_fromstring(page), page) == 0
    assert " ".join(element.itertext()) == f"{POST} Size guide"
