"""JSON Feeds read as a listing of their items (`extract.jsonfeed`), as RSS and Atom feeds are."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from simweb import SimWeb

from webferret.cli import main
from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions
from webferret.models import ErrorCode, FerretError

FEED = {
    "version": "https://jsonfeed.org/version/1.1",
    "title": "Burrow News",
    "home_page_url": "https://burrow.example/",
    "description": "News of ferrets",
    "language": "en-GB",
    "items": [
        {
            "id": "1",
            "url": "https://burrow.example/key",
            "title": "Ferrets find the lost key",
            "content_html": "<p>A ferret found the key under the <b>shed</b>.</p>",
            "date_published": "2025-12-01T23:30:00-05:00",
            "authors": [{"name": "Ada Burrow"}, {"name": "Tom Sett"}],
        },
        {
            "id": "2",
            "url": "/notes/tunnels",
            "content_text": "Long tunnels and short tunnels.",
        },
        {"id": "3", "title": 42, "url": ["no"], "summary": "A field of the wrong type is missing."},
    ],
}


def read(feed: object, content_type: str | None = "application/feed+json", **options: object) -> Extracted:
    return extract_document(
        json.dumps(feed).replace("/", "\\/").encode(),  # as PHP writes it: its slashes escaped
        url="https://burrow.example/feed.json",
        content_type=content_type,
        options=ExtractOptions(**options),
    )


@pytest.mark.parametrize("content_type", ["application/feed+json", "application/json", None])
def test_a_json_feed_is_a_listing_of_its_items(content_type: str | None) -> None:
    """A JSON Feed was shown as the JSON it is written in: a page of braces and keys, titled by its
    file's name, no listing and no links."""
    page = read(FEED, content_type)
    assert page.content == (
        "News of ferrets\n\n"
        "## [Ferrets find the lost key](https://burrow.example/key)\n\n"
        "2025-12-02 · by Ada Burrow, Tom Sett\n\n"
        "A ferret found the key under the shed.\n\n"
        "## [Long tunnels and short tunnels.](https://burrow.example/notes/tunnels)\n\n"
        "## A field of the wrong type is missing.\n"
    )
    assert (page.title, page.page_type, page.canonical_url, page.language) == (
        "Burrow News",
        "listing",
        "https://burrow.example/",
        "en-GB",
    )
    assert [link.url for link in page.links] == [
        "https://burrow.example/key",
        "https://burrow.example/notes/tunnels",
    ]
    assert page.extra["feed"] == "json11" and page.extra["entries"] == 3


def test_a_version_one_feeds_author_is_read_and_a_feed_without_items_says_so() -> None:
    old = {
        "version": "https://jsonfeed.org/version/1",
        "title": "Old",
        "items": [{"id": "1", "title": "One", "author": {"name": "Bea Weir"}}],
    }
    assert read(old).content == "## One\n\nby Bea Weir\n"
    with pytest.raises(FerretError) as caught:
        read({**old, "items": []})
    assert caught.value.code == ErrorCode.EMPTY_CONTENT and "has no entries" in caught.value.message


@pytest.mark.parametrize(
    "other",
    [
        {"version": "https://jsonfeed.org/version/1.1", "items": "none"},
        {"version": "2", "site": "https://jsonfeed.org/", "items": []},
        ["https://jsonfeed.org/version/1.1"],
    ],
)
def test_other_json_that_names_the_site_is_still_json(other: object) -> None:
    assert read(other, "application/json").content.startswith("```json\n")


def test_fetch_reads_a_json_feed(simweb: SimWeb, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    url = simweb.add("/feed.json", json.dumps(FEED), headers={"Content-Type": "application/feed+json"})
    assert main(["fetch", url, "--json", "--home", str(tmp_path), "--allow-host", "127.0.0.1"]) == 0
    page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert page["ok"] and page["page_type"] == "listing" and page["title"] == "Burrow News"
    assert page["content"].startswith("News of ferrets\n\n## [Ferrets find the lost key]")


def test_an_item_with_an_address_or_a_date_no_reader_takes_leaves_the_rest_of_the_feed() -> None:
    """An item whose `url` no URL parser reads (`http://[oops`) or whose date falls before the first
    year once in UTC failed the whole feed as an internal error; as an RSS feed's, such a field is
    missing and the other items are listed."""
    items = [
        {"id": "1", "title": "Broken address", "url": "http://[oops/x", "content_text": "Kept."},
        {"id": "2", "title": "Early date", "date_published": "0001-01-01T00:00:00+01:00"},
        {"id": "3", "title": "Fine", "url": "https://burrow.example/fine"},
    ]
    page = read({**FEED, "items": items})
    assert page.content == (
        "News of ferrets\n\n## Broken address\n\nKept.\n\n## Early date\n\n"
        "## [Fine](https://burrow.example/fine)\n"
    )
