"""Reddit: the old.reddit.com search results page (`GET /search?q=...`), parsed from its HTML."""

from __future__ import annotations

from typing import Any
from urllib.parse import urlsplit

from webferret.extract.classes import has_class
from webferret.models import ErrorCode, FerretError, Hit
from webferret.search.engines._common import clean_text, iso_date, make_hit
from webferret.search.types import Engine, EngineQuery, EngineResponse, RequestSpec

NAME = "reddit"
ORIGIN = "https://old.reddit.com"
_ROWS = f"//div[{has_class('search-result-link')}]"
_WALL_MARKS = ("<title>welcome to reddit", "pagetype=login", 'pagetype="login"')
_BLOCK_MARKS = ("whoa there, pardner", "you've been blocked by network security", "too many requests")


def build_request(query: EngineQuery) -> RequestSpec:
    params = {"q": query.text, "sort": "relevance", "t": query.time_range or "all", "type": "link"}
    return RequestSpec(url=f"{(query.base_url or ORIGIN).rstrip('/')}/search", params=params)


def check(response: EngineResponse) -> None:
    lowered = response.text[:20000].lower()
    marks = (*_WALL_MARKS, *_BLOCK_MARKS)  # a results page is none: its titles may say "too many requests"
    refused = "search-result" not in response.text and any(mark in lowered for mark in marks)
    if response.status in (403, 429) or refused:
        raise FerretError(
            ErrorCode.RATE_LIMITED,
            f"Reddit refused the anonymous search (HTTP {response.status}); try again later",
            status=response.status,
        )


def permalink(href: str) -> str:
    """A result link as `https://www.reddit.com/...` (the form other engines list), query dropped."""
    path = urlsplit(href).path if href.startswith("http") else href.split("?")[0]
    return f"https://www.reddit.com{path}"


def _first(row: Any, path: str) -> Any:
    found = row.xpath(path)
    return found[0] if found else None


def _row_hit(row: Any, rank: int) -> Hit | None:
    link = _first(row, ".//a[contains(@class, 'search-title')]")
    if link is None or not link.get("href"):
        return None
    url = permalink(str(link.get("href")))
    body = _first(row, ".//div[contains(@class, 'search-result-body')]")
    stamp = _first(row, ".//span[contains(@class, 'search-time')]/time/@datetime")
    comments = _first(row, ".//a[contains(@class, 'search-comments')]/text()")
    subreddit = _first(row, ".//a[contains(@class, 'search-subreddit-link')]/text()")
    score = _first(row, ".//span[contains(@class, 'search-score')]/text()")
    snippet = clean_text(body.text_content()) if body is not None else ""
    return make_hit(
        NAME,
        rank,
        url,
        link.text_content(),
        snippet[:400],
        published=iso_date(str(stamp)) if stamp else None,
        subreddit=clean_text(subreddit),
        comments=clean_text(comments),
        points=clean_text(score),
    )


def parse_response(body: str, query: EngineQuery) -> list[Hit]:
    from lxml import html  # here: lxml is not needed before any engine request leaves

    tree = html.fromstring(body)
    hits: list[Hit] = []
    for row in tree.xpath(_ROWS):
        hit = _row_hit(row, len(hits) + 1)
        if hit is not None:
            hits.append(hit)
    return hits


ENGINE = Engine(
    name=NAME,
    group=NAME,
    build_request=build_request,
    parse_response=parse_response,
    categories=("social",),
    site="reddit.com",
    check=check,
    time_ranges=True,
)
