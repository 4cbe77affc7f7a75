"""One look at a page's HTML for every hint word (`extract.hints`): the same answers as `word in page`."""

from __future__ import annotations

import random
import threading
import tracemalloc

import pytest

from webferret.extract import hints
from webferret.extract.document import extract_document
from webferret.extract.types import ExtractOptions

WORDS = ("mw-", "QAPage", "<dialog", "ignature", "café", "日本", "a")


def test_every_answer_is_the_substring_test_on_random_pages() -> None:
    rng = random.Random(7)
    alphabet = [*"<>=\"' abcdefgimnrstuwQAP-", "é", "日", "本", "😀", "\ud800"]
    for name in WORDS:
        hints.word(name)
    for _ in range(300):
        page = "".join(rng.choice(alphabet) for _ in range(rng.randrange(0, 60)))
        for planted in rng.sample(WORDS, 2):  # words put in at random places, whole or cut short
            at = rng.randrange(len(page) + 1)
            cut = planted if rng.random() < 0.5 else planted[: rng.randrange(1, len(planted) + 1)]
            page = page[:at] + cut + page[at:]
        for name in WORDS:
            assert hints.holds(page, name) == (name in page), (page, name)


def test_a_word_never_named_joins_when_first_asked_for() -> None:
    page = "<div class='x-unnamed-hint-7'>text</div>"
    assert hints.holds(page, "fresh") is False  # the page's answer is kept...
    assert hints.holds(page, "x-unnamed-hint-7") is True  # ...and a new word is still looked for
    assert hints.holds(page, "x-unnamed-hint-8") is False


def test_the_answer_is_kept_for_the_very_text_not_an_equal_one() -> None:
    first = "".join(["<dialog open>", "hello"])
    second = "".join(["<p>", "hello"])
    assert hints.holds(first, "<dialog") is True
    assert hints.holds(second, "<dialog") is False
    assert hints.holds(first, "<dialog") is True


def test_any_of_several_words() -> None:
    assert hints.holds_any("<BUTTON>go</BUTTON>", ("<button", "<BUTTON")) is True
    assert hints.holds_any("<p>go</p>", ("<button", "<BUTTON")) is False


def test_threads_each_keep_their_own_page() -> None:
    failures: list[str] = []

    def look(mark: str) -> None:
        for n in range(200):
            page = f"<p>{mark}-{n}</p>" + ("x" * (n % 7))
            if not hints.holds(page, f"{mark}-{n}<") or hints.holds(page, "never-there"):
                failures.append(f"{mark} {n}")

    threads = [threading.Thread(target=look, args=(mark,)) for mark in ("left", "right")]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []


def test_an_extraction_keeps_no_page_text_after_it() -> None:
    """A long-lived thread (a resident server's) holds no page between extractions."""
    html = (
        b"<html><body><article><h1>Salmon</h1><p>"
        + b"The weirs counted salmon. " * 40
        + b"</p></article></body></html>"
    )
    page = extract_document(
        html, url="https://example.org/salmon", content_type="text/html", options=ExtractOptions()
    )
    assert "weirs counted salmon" in page.content
    assert getattr(hints._LOCAL, "last", None) is None


def test_an_empty_word_is_refused() -> None:
    with pytest.raises(ValueError, match="empty"):
        hints.word("")


def test_windowed_answers_are_the_substring_test_across_window_edges(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(hints, "WINDOW", 5)  # words cut by the edges, and found in later windows only
    rng = random.Random(11)
    for name in WORDS:
        hints.word(name)
    for _ in range(300):
        page = "".join(
            rng.choice([*"<>=\"' bcdegimnrstuwQAP-", "é", "日", "本"]) for _ in range(rng.randrange(0, 40))
        )
        for planted in rng.sample(WORDS, 3):
            at = rng.randrange(len(page) + 1)
            page = page[:at] + planted * rng.randrange(1, 4) + page[at:]
        for name in WORDS:
            assert hints.holds(page, name) == (name in page), (page, name)


def test_a_page_repeating_a_word_is_read_without_a_list_of_every_match() -> None:
    """A megabyte of one word held a tuple per match (9 million on a 9 MB comment of 'c': 1.5 GB)."""
    hints.word("zq")
    page = "<p>" + "zq" * 5_000_000 + "<dialog"
    tracemalloc.start()
    try:
        assert hints.holds(page, "zq") and hints.holds(page, "<dialog") and not hints.holds(page, "QAPage")
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
        hints.forget()
    assert peak < 4 * len(page)  # the page's bytes and a window's matches, not 5 million tuples
