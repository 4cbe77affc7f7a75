"""A link inside a sentence that shows only an image or an icon reads as its name (`extract.imagelinks`)."""

from __future__ import annotations

import re

from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

LEAD = "<p>The river board publishes a yearly report with counts from every weir, and a map of the beats.</p>"
TAIL = "<p>Permits are sold by the day and by the week, and pay for the bailiffs who watch the river.</p>"


def markdown(sentence: str) -> str:
    body = f"<article><h1>Links</h1>{LEAD}{sentence}{TAIL}</article>"
    document = f"<html><head><title>Links</title></head><body>{body}</body></html>".encode()
    options = ExtractOptions()
    return extract_document(
        document, url="https://ex.example/", content_type="text/html", options=options
    ).content


def test_an_image_link_in_a_sentence_reads_as_its_alt_text() -> None:
    text = markdown(
        '<p>See the map: <a href="/map"><img src="/m.png" alt="Map of the beats"></a>, it is free.</p>'
    )
    assert "See the map: [Map of the beats](https://ex.example/map), it is free." in text


def test_an_icon_link_reads_as_its_title_or_label_and_a_nameless_one_leaves_its_words() -> None:
    text = markdown(
        '<p>Read the report <a href="/report" title="Annual report"><span class="icon"></span></a>, '
        'or ask <a href="/ask" aria-label="the bailiffs"><i class="fa"></i></a> at night, '
        'or <a href="/x"><img src="/x.png"></a> write to us.</p>'
    )
    assert "Read the report [Annual report](https://ex.example/report), or ask" in text
    assert "[the bailiffs](https://ex.example/ask) at night, or write to us." in " ".join(text.split())
    assert "(https://ex.example/x)" not in text


def test_a_link_with_text_or_alone_in_its_line_is_left_as_it_is() -> None:
    text = markdown(
        '<p>See <a href="/map"><img src="/m.png" alt="a map">the map</a> now.</p><p><a href="/big">'
        '<img src="/photo.jpg" alt="The weir at dawn"></a></p>'
    )
    assert "See [the map](https://ex.example/map) now." in text
    assert "The weir at dawn" not in text


def test_permalinks_card_pictures_and_pictures_named_as_their_words_are_left_as_they_are() -> None:
    text = markdown(
        '<h2><a href="#walks" aria-label="permalink"><svg></svg></a>Walks by the river</h2>'
        '<p><a href="/game/ada"><img src="/a.jpg" alt="Ada cover"></a>Ada and the weir, a game.</p>'
        '<p>Our pick: <a href="/game/tay"><img src="/t.jpg" alt="Tay Trail"></a>Tay Trail, for two.</p>'
    )
    assert "permalink" not in text and "## Walks by the river" in text
    named = re.compile(r"(?<!!)\[(Ada cover|Tay Trail)")  # its picture may show: `[![Ada cover](...)](...)`
    assert named.search(text) is None


def test_a_link_of_a_space_leaves_the_space() -> None:
    text = markdown(
        '<p>The base is <a href="/a">strategically located</a><a href="/b"> </a>near the border.</p>'
    )
    assert "strategically located](https://ex.example/a) near the border." in text


def test_the_classifiers_choice_leaves_images_out_and_the_whole_page_keeps_them() -> None:
    """The main content the block classifier chooses leaves images out, as trafilatura's does (a help
    page's 43 icons, each `![](https://.../loft.png)`, cost an agent tokens and say nothing);
    `whole_page` keeps them."""
    import gzip

    from simweb import shared_dir

    options = ExtractOptions()
    path = shared_dir() / "bench" / "multitype" / "dev" / "html" / "0239.html.gz"
    raw = gzip.decompress(path.read_bytes())
    chosen = extract_document(raw, url="https://ex.example/", content_type="text/html", options=options)
    assert chosen.extra is not None and chosen.extra["selector"] == "learned"
    assert chosen.word_count > 100 and "![" not in chosen.content
    whole = ExtractOptions(whole_page=True)
    kept = extract_document(raw, url="https://ex.example/", content_type="text/html", options=whole)
    assert "![](https://ex.example/images/command_icons/loft.png)" in kept.content
