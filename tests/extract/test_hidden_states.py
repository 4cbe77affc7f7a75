"""What a page shows only on a reader's action: an accordion's header button holds the question it
opens (kept, as a heading), a form's "Thank you!" and "Oops!" states wait hidden for a submission
(left out)."""

from __future__ import annotations

import pytest

from webferret.extract.htmlpage import extract_html
from webferret.extract.types import ExtractOptions

WORDS = "Ferrets sleep fourteen hours a day and play hard for the rest of it, in short bursts. "


def _markdown(body: str, article: bool) -> str:
    kind = '<meta property="og:type" content="article">' if article else ""
    page = f"<html><head>{kind}<title>Ferret care</title></head><body><main>{body}</main></body></html>"
    return extract_html(page, "https://care.example/ferrets", ExtractOptions()).content


@pytest.mark.parametrize("article", [True, False])
def test_an_accordions_header_button_keeps_its_question(article: bool) -> None:
    entries = "".join(
        f'<div class="faq"><button class="faq__header" aria-expanded="false"><div><h3>{q}</h3></div></button>'
        f'<div class="faq__body collapse"><p>{a} {WORDS * 2}</p></div></div>'
        for q, a in (("How long do ferrets sleep?", "Long."), ("Do ferrets need company?", "Often."))
    )
    markdown = _markdown(f"<h1>Ferret care</h1><p>{WORDS * 4}</p><h2>Questions</h2>{entries}", article)
    assert "### How long do ferrets sleep?\n\nLong." in markdown
    assert "### Do ferrets need company?\n\nOften." in markdown


@pytest.mark.parametrize("article", [True, False])
def test_a_forms_hidden_states_are_left_out(article: bool) -> None:
    form = (
        '<div class="w-form"><form><input name="email"><input type="submit" value="Send"></form>'
        '<div class="form__success w-form-done"><div>Thank you! We will write back.</div></div>'
        '<div class="w-form-fail"><div>Oops! Something went wrong.</div></div></div>'
    )
    markdown = _markdown(f"<h1>Ferret care</h1><p>{WORDS * 5}</p>{form}<p>{WORDS * 3}</p>", article)
    assert "Ferrets sleep" in markdown and "Thank you" not in markdown and "Oops" not in markdown
