"""Forum posts' signatures, gone before anything reads the page (`extract.signatures`)."""

from __future__ import annotations

from lxml import html

from webferret.extract import signatures
from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

POST = (
    "I would like to install some flavour of Linux as the main system of an old laptop, and run two "
    "Windows versions as virtual machines under it. Is anyone here doing this, and what would you suggest?"
)
REPLY = (
    "I run Proxmox with Ubuntu and TrueNAS as my main machines, and Windows 10 in a container works "
    "well so far for my CAD software. Getting the graphics card shared was the only hard part."
)
SIGNATURE = "Lathe: Myford Super 7. Mill: Sieg SX3. Buy me a coffee at my workshop page, thank you!"


def _thread(signature_class: str = "message-signature") -> str:
    return (
        "<html><head><title>Proxmox or Ubuntu</title></head><body><main>"
        f"<article><div class='post'><p>{POST}</p></div><aside class='{signature_class}'><p>{SIGNATURE}</p>"
        f"</aside></article><article><div class='post'><p>{REPLY}</p></div><aside class='{signature_class}'>"
        f"<p>{SIGNATURE}</p></aside></article></main></body></html>"
    )


def test_a_members_signature_under_each_post_is_not_content() -> None:
    for name in ("message-signature", "signaturecontainer", "postsignature postmsg", "ipsEntry__Signature"):
        content = extract_html(_thread(name), "https://forum.example/t/1", ExtractOptions()).content
        assert POST in content and REPLY in content and "Myford" not in content, name


def test_a_box_longer_than_a_signature_stays_and_the_text_after_one_too() -> None:
    long = " ".join(["word"] * (signatures.MAX_WORDS + 1))
    page = (
        f"<html><body><div><p>Kept.</p><div class='signature'>{SIGNATURE}</div> and after it"
        f"<section class='signature-dishes'><p>{long}</p></section></div></body></html>"
    )
    tree = html.fromstring(page)
    assert signatures.drop_signatures(tree, page) == 1
    text = " ".join(tree.text_content().split())
    assert text.startswith("Kept. and after it") and "Myford" not in text


def test_a_page_without_the_word_is_not_searched() -> None:
    page = "<html><body><div class='signature'><p>A motto.</p></div></body></html>"
    assert signatures.drop_signatures(html.fromstring(page), page.replace("signature", "sig")) == 0


def test_a_signature_in_any_case_of_the_name_and_inside_another_counts_once() -> None:
    page = (
        "<html><body><p>Kept.</p><div class='signature-wrapper'><div class='signature-content'>"
        f"<p>{SIGNATURE}</p></div></div><div class='ipsEntry__Signature'>A motto.</div></body></html>"
    )
    tree = html.fromstring(page)
    assert signatures.drop_signatures(tree, page) == 2
    assert " ".join(tree.text_content().split()) == "Kept."


def test_an_asker_marked_in_a_card_named_signature_is_still_the_page_s_byline() -> None:
    """Stack Exchange writes a question's asker in `<div class="post-signature owner">`: the card is no
    content, but the author it marks is the page's."""
    card = (
        "<div class='post-signature owner'><div class='user-info'>asked Feb 4, 2014"
        "<div class='user-details' itemprop='author' itemscope itemtype='http://schema.org/Person'>"
        "<a href='/users/2911408/vader' itemprop='url'>Vader</a><meta itemprop='name' content='Vader'>"
        "</div></div></div>"
    )
    page = (
        "<html><head><title>Catch every exception?</title></head><body>"
        "<main itemscope itemtype='https://schema.org/QAPage'>"
        f"<div itemprop='mainEntity' itemscope itemtype='https://schema.org/Question'><p>{POST}</p>{card}"
        "</div></main></body></html>"
    )
    extracted = extract_html(page, "https://stackoverflow.com/questions/21553327", ExtractOptions())
    assert extracted.byline == "Vader"
    assert "asked Feb 4" not in extracted.content
