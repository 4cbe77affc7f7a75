"""Cookie-consent dialogs of the consent platforms, gone before anything reads the page
(`extract.consent`)."""

from __future__ import annotations

from lxml import html

from webferret.extract import consent
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
    tree = html.fromstring(
        "<html><body><div><p>Kept.</p>"
        '<div id="CybotCookiebotDialog"><p>This website uses cookies.</p></div> and after it'
        "</div>" + CENTRE + "</body></html>"
    )
    assert consent.drop_dialogs(tree) == 2  # OneTrust's banner and centre go with their root
    text = " ".join(tree.text_content().split())
    assert text == "Kept. and after it"


def test_a_page_without_a_platforms_id_is_not_searched() -> None:
    assert not consent.has_dialogs(_page("<div id='cookies'><p>We use cookies.</p></div>"))
    assert all(consent.has_dialogs(f'<div id="{root}"></div>') for root in consent.ROOTS)
