"""SearXNG (and its predecessor searx): any instance's JSON API, `GET /search?q=...&format=json`.

Keeps each result's upstream `engines`, `score`, `category` and date. SearXNG sends `publishedDate`
in ISO 8601; searx sends a display string there plus `pubdate` (`2024-01-06 12:00:00+0000`). Titles
and snippets are read as text: some upstreams send them with markup and entities. A result the
instance dates nowhere but in its snippet (Google's `30 Jan 2025 ... text`) is dated by it
(`snippet_dates`), as a results page's own snippets are.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from webferret.models import ErrorCode, FerretError, Hit
from webferret.remote_text import quoted
from webferret.search.engines._common import clean_text, iso_date, load_json, make_hit, text_or_markup
from webferret.search.engines.snippet_dates import leading_date
from webferret.search.regions import locale
from webferret.search.types import Engine, EngineQuery, EngineResponse, RequestSpec

NAME = "searxng"
GROUP = "searxng"

# Upstream engine name -> the index it really draws from (its correlation group in fusion).
UPSTREAM_GROUPS = {
    "duckduckgo": "bing",
    "bing": "bing",
    "yahoo": "bing",
    "qwant": "bing",
    "ecosia": "bing",
    "google": "google",
    "google cse": "google",
    "startpage": "google",
    "brave": "brave",
    "mojeek": "mojeek",
    "wikipedia": "wikipedia",
    "github": "github",
    "reddit": "reddit",
    "yandex": "yandex",
}


def build_request(query: EngineQuery) -> RequestSpec:
    if not query.base_url:
        raise FerretError(
            ErrorCode.INVALID_ARGUMENT,
            "no SearXNG instance configured: set WEBFERRET_SEARXNG_URL or pass --searxng-url",
        )
    base = query.base_url.rstrip("/")
    params = {"q": query.with_site_operator(), "format": "json", "pageno": "1"}
    if query.time_range:
        params["time_range"] = query.time_range  # the instance leaves out engines that cannot limit
    if query.region:
        params["language"] = language(query.region)
    return RequestSpec(url=f"{base}/search", params=params, headers=HEADERS)


HEADERS = {"Accept": "application/json, text/html;q=0.9", "Accept-Language": "*"}
"""What SearXNG's limiter (`server.limiter`) asks of a request to /search before it answers it, as a
browser's: an Accept naming text/html and an Accept-Language (else HTTP 429, "bot detected"). `*`
names no language, so the instance keeps its own default as it does without the header."""


def language(region: str) -> str:
    """A region (`at-de`: country, language) as SearXNG's `language` (`de-AT`; `jp-jp` is `ja-JP`,
    `uk-en` `en-GB`); `wt-wt` is `all`."""
    found = locale(region)
    return found.tag if found else "all"


def check(response: EngineResponse) -> None:
    if response.status == 403:
        raise FerretError(
            ErrorCode.ENGINE_ERROR,
            "the SearXNG instance refused format=json (HTTP 403): enable `json` in its settings.yml "
            "under `search.formats` (e.g. formats: [html, json])",
            status=403,
        )
    if response.status == 429:  # the runner reads its Retry-After
        raise FerretError(
            ErrorCode.RATE_LIMITED,
            "the SearXNG instance answered HTTP 429 Too Many Requests: its limiter (`server.limiter` in "
            "settings.yml) took this machine for a bot or counted too many of its API requests; add "
            "the machine's address to `botdetection.ip_lists.pass_ip` in the instance's limiter.toml, "
            "or turn the limiter off for an instance of your own",
            status=429,
        )
    if response.status == 404:
        raise FerretError(
            ErrorCode.ENGINE_ERROR,
            "the SearXNG instance has no /search (HTTP 404): searxng_url must be its base URL, "
            "the address that opens its search page (e.g. http://127.0.0.1:8888)",
            status=404,
        )


def _published(item: dict[str, Any]) -> str | None:
    return iso_date(item.get("publishedDate")) or iso_date(item.get("pubdate"))


def _upstream(item: dict[str, Any]) -> list[str]:
    engines = item.get("engines")
    names = [str(name) for name in engines] if isinstance(engines, list) else []
    if not names and item.get("engine"):
        names = [str(item["engine"])]
    return sorted(set(names))


def _words(value: Any) -> str:
    """A title or snippet as text: a string, or a number written out; anything else (a list or an
    object an upstream's own JSON engine passed on, as a custom `json_engine` may) is no text."""
    if isinstance(value, str):
        return value
    return str(value) if isinstance(value, int | float) and not isinstance(value, bool) else ""


def _address(value: Any) -> bool:
    """Is `value` a result's URL as an instance writes one (text, not blank)? A number or a list
    there is no address."""
    return isinstance(value, str) and bool(value.strip())


def _hit(item: dict[str, Any], rank: int, now: datetime) -> Hit:
    upstream = _upstream(item)
    raw_date = item.get("publishedDate")
    published = _published(item)
    snippet = clean_text(text_or_markup(_words(item.get("content"))))
    if published is None:
        published, snippet = leading_date(snippet, now)
    return make_hit(
        NAME,
        rank,
        item["url"],
        text_or_markup(_words(item.get("title"))),
        snippet,
        published=published,
        engines=upstream,
        groups=sorted({UPSTREAM_GROUPS.get(name, f"searxng:{name}") for name in upstream}),
        searxng_score=item.get("score"),
        category=item.get("category"),
        published_display=raw_date if raw_date and iso_date(raw_date) is None else None,
        pubdate=item.get("pubdate") or None,
    )


def parse_response(body: str, query: EngineQuery, now: datetime | None = None) -> list[Hit]:
    """The instance's results in its order; a date a snippet opens with counts back from `now`
    (`3 days ago`), else the clock."""
    data = load_json(body, NAME)
    if not isinstance(data, dict) or not isinstance(data.get("results"), list):
        raise FerretError(ErrorCode.ENGINE_ERROR, "SearXNG answer has no `results` list")
    items = [item for item in data["results"] if isinstance(item, dict) and _address(item.get("url"))]
    failed = warnings(body)
    if not items and failed:  # nothing, and engines that failed: no answer, not an empty one
        said = "; ".join(warning.removeprefix("searxng: ") for warning in failed)
        raise FerretError(ErrorCode.ENGINE_ERROR, f"no upstream engine of the instance answered ({said})")
    now = now or datetime.now(UTC)
    return [_hit(item, rank, now) for rank, item in enumerate(items, start=1)]


def warnings(body: str, query: EngineQuery | None = None) -> list[str]:
    """`unresponsive_engines` (`[[name, reason], ...]`) as readable warnings; and, for a `query` limited
    to a period that found nothing, why that may be (an instance asks only its upstream engines that
    can limit by time: with none of those, every search of a period answers nothing)."""
    data = load_json(body, NAME)
    entries = data.get("unresponsive_engines") if isinstance(data, dict) else None
    found = []
    for entry in entries or []:
        if isinstance(entry, list | tuple) and entry:
            reason = quoted(entry[1], 40) if len(entry) > 1 else "no reason given"  # "timeout", "CAPTCHA"
            found.append(f"searxng: upstream engine {quoted(entry[0], 40)} did not answer: {reason}")
    results = data.get("results") if isinstance(data, dict) else None
    if query is not None and query.time_range and not found and not results:
        found.append(
            f"searxng: nothing found in the past {query.time_range}: the instance asks only its upstream "
            "engines that can limit results by time; search without a period (--time, time_range) to "
            "ask them all"
        )
    return found


ENGINE = Engine(
    name=NAME,
    group=GROUP,
    build_request=build_request,
    parse_response=parse_response,
    categories=("general",),
    check=check,
    warnings=warnings,
    time_ranges=True,
)
