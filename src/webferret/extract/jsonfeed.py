"""JSON Feeds (https://jsonfeed.org, versions 1 and 1.1) as a listing, as an RSS or Atom feed is
(`feed.listing`): the feed's title and description, then each item as a heading that links to it, with
its date and authors and its summary as text.

A JSON Feed is told by its `version` (`https://jsonfeed.org/version/...`) and its list of `items`,
whatever type it was served as (application/feed+json, application/json, text/plain). Its fields are
read as feedparser names an RSS feed's; a field of the wrong type is as good as missing.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime
from typing import Any

from webferret.extract.feed import listing
from webferret.extract.types import Extracted, ExtractOptions
from webferret.fetch.sniff import mime_of
from webferret.net.joined import join_url

JSON_FEED_TYPE = "application/feed+json"
VERSION = "https://jsonfeed.org/version/"
MARK = b"jsonfeed.org"
"""What a JSON Feed's bytes hold, its version's slashes escaped (`\\/`) or not: other JSON is not
parsed twice."""


def extract_json_feed(
    text: str, url: str | None, content_type: str | None, options: ExtractOptions
) -> Extracted | None:
    """The JSON Feed in `text` as a listing, or None when it is no JSON Feed (other JSON);
    `FerretError` (`empty_content`) for a feed without items."""
    try:
        document = json.loads(text)
    except (ValueError, RecursionError):
        return None
    if not isinstance(document, dict) or not isinstance(document.get("items"), list):
        return None
    version = _string(document.get("version"))
    if not version.startswith(VERSION):
        return None
    base = url or ""
    feed = {
        "title": _string(document.get("title")),
        "subtitle": _string(document.get("description")),
        "language": _string(document.get("language")),
        "link": _link(base, document.get("home_page_url")),
        "image": {"href": _link(base, document.get("icon") or document.get("favicon"))},
    }
    items = [_item(base, item) for item in document["items"] if isinstance(item, dict)]
    mime = mime_of(content_type)
    served = mime if "json" in mime else JSON_FEED_TYPE
    name = "json" + version.removeprefix(VERSION).replace(".", "").strip("/")
    return listing(feed, items, name, url, served, options)


def _item(base: str, item: dict[str, Any]) -> dict[str, Any]:
    """An item's fields as feedparser names an entry's."""
    content = _string(item.get("content_html")) or _string(item.get("content_text"))
    return {
        "title": _string(item.get("title")),
        "link": _link(base, item.get("url") or item.get("external_url")),
        "summary": _string(item.get("summary")),
        "content": [{"value": content}] if content else [],
        "published_parsed": _parsed(item.get("date_published")),
        "updated_parsed": _parsed(item.get("date_modified")),
        "author": _authors(item.get("authors"), item.get("author")),
    }


def _authors(authors: object, author: object) -> str:
    """The names of an item's authors (1.1's `authors`, 1.0's `author`), joined."""
    listed = authors if isinstance(authors, list) else [author]
    return ", ".join(name for one in listed if isinstance(one, dict) and (name := _string(one.get("name"))))


def _string(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _link(base: str, value: object) -> str:
    """`value` read against `base`; '' when it is no text or no URL parser reads it (`http://[x`)."""
    try:
        return join_url(base, _string(value)) if _string(value) else ""
    except ValueError:
        return ""


def _parsed(value: object) -> time.struct_time | None:
    """An RFC 3339 date as feedparser gives an RSS feed's: a UTC `struct_time`; None when it is none
    (or none in UTC)."""
    try:
        moment = datetime.fromisoformat(_string(value).replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        return None
    if moment.tzinfo is not None:
        try:
            moment = moment.astimezone(UTC)
        except OverflowError:  # before the first year or past the last once in UTC
            return None
    return moment.timetuple()
