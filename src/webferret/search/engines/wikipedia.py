"""Wikipedia: the MediaWiki REST search API, `GET /w/rest.php/v1/search/page?q=...&limit=N`.

The parser also reads the Action API's search shapes (`query.pages` with `index`, `query.search`),
which some mirrors and older captures answer.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import quote

from webferret.models import ErrorCode, FerretError, Hit
from webferret.remote_text import json_value, quoted
from webferret.search.engines._common import load_json, make_hit, strip_markup
from webferret.search.regions import locale
from webferret.search.types import Engine, EngineQuery, EngineResponse, RequestSpec

NAME = "wikipedia"


def edition(site: str | None) -> str | None:
    """The language of the edition a `--site` host names (`de.wikipedia.org`, `de.m.wikipedia.org`:
    `de`), or None (`wikipedia.org`, `www.wikipedia.org`, another site)."""
    if not site or not site.endswith(".wikipedia.org"):
        return None
    label = site.removesuffix(".wikipedia.org").split(".")[0]
    return None if label in ("www", "m") else label


def _origin(query: EngineQuery) -> str:
    """The edition searched: a mirror's base URL, else the one the site names, else the region's
    language, else English."""
    if query.base_url:
        return query.base_url.rstrip("/")
    found = locale(query.region)
    language = edition(query.site) or (found.language if found else "en")
    return f"https://{language}.wikipedia.org"


def build_request(query: EngineQuery) -> RequestSpec:
    params = {"q": query.text, "limit": str(min(max(query.limit, 1), 100))}
    return RequestSpec(url=f"{_origin(query)}/w/rest.php/v1/search/page", params=params)


def article_url(origin: str, title: str) -> str:
    return f"{origin}/wiki/{quote(title.replace(' ', '_'), safe='()_,:-/')}"


def _rest_hits(pages: list[Any], origin: str) -> list[Hit]:
    hits = []
    for page in pages:
        if not isinstance(page, dict) or not page.get("title"):
            continue
        key = page.get("key") or str(page["title"]).replace(" ", "_")
        snippet = strip_markup(str(page.get("excerpt") or ""))
        hits.append(
            make_hit(
                NAME,
                len(hits) + 1,
                f"{origin}/wiki/{quote(str(key), safe='()_,:-/')}",
                str(page["title"]),
                snippet,
                description=page.get("description"),
                pageid=page.get("id"),
            )
        )
    return hits


def _action_hits(query_part: dict[str, Any], origin: str) -> list[Hit]:
    pages = query_part.get("pages")
    entries = list(pages.values()) if isinstance(pages, dict) else list(pages or [])
    if not entries:
        entries = [item for item in query_part.get("search") or [] if isinstance(item, dict)]
    entries = [entry for entry in entries if isinstance(entry, dict) and entry.get("title")]
    entries.sort(key=lambda entry: entry.get("index", 0))
    hits = []
    for rank, entry in enumerate(entries, start=1):
        snippet = entry.get("extract") or entry.get("description") or strip_markup(entry.get("snippet") or "")
        hits.append(
            make_hit(
                NAME,
                rank,
                article_url(origin, str(entry["title"])),
                str(entry["title"]),
                snippet[:400],
                description=entry.get("description"),
                pageid=entry.get("pageid"),
            )
        )
    return hits


def said(data: Any) -> str | None:
    """What a Wikipedia error answer says, quoted: the REST API's message (`messageTranslations`,
    English first, else its `httpReason`), or the Action API's `error` (its `code`, then its `info`).
    Wikipedia refuses a query longer than 300 characters so ("Search request is longer than the
    maximum allowed length. (399 > 300)"). None for an answer that is no error."""
    if not isinstance(data, dict):
        return None
    error = data.get("error")
    if isinstance(error, dict):
        words = [str(error[key]) for key in ("code", "info") if error.get(key)]
        return quoted(": ".join(words), 200) if words else None
    translations = data.get("messageTranslations")
    if isinstance(translations, dict) and translations:
        return quoted(translations.get("en") or next(iter(translations.values())), 200)
    message = error or data.get("httpReason")
    return quoted(message, 200) if message else None


def check(response: EngineResponse) -> None:
    """An HTTP error answer is refused in Wikipedia's own words when it gives some (the REST API
    answers a query it will not run with HTTP 400 and a JSON reason); a rate limit, or an answer
    that says nothing, is the runner's to name by its status."""
    if response.status < 400 or response.status == 429:
        return
    try:
        reason = said(json_value(response.text))
    except ValueError:
        return
    if reason:
        raise FerretError(
            ErrorCode.ENGINE_ERROR,
            f"Wikipedia refused the search (HTTP {response.status}): {reason}",
            status=response.status,
        )


def parse_response(body: str, query: EngineQuery) -> list[Hit]:
    data = load_json(body, NAME)
    origin = _origin(query)
    if isinstance(data, dict) and isinstance(data.get("pages"), list):
        return _rest_hits(data["pages"], origin)
    if isinstance(data, dict) and isinstance(data.get("query"), dict):
        return _action_hits(data["query"], origin)
    if reason := said(data):
        raise FerretError(ErrorCode.ENGINE_ERROR, f"Wikipedia search failed: {reason}")
    if isinstance(data, dict) and "batchcomplete" in data:
        return []
    raise FerretError(ErrorCode.ENGINE_ERROR, "Wikipedia answer has neither `pages` nor `query`")


ENGINE = Engine(
    name=NAME,
    group=NAME,
    build_request=build_request,
    parse_response=parse_response,
    categories=("general", "reference"),
    site="wikipedia.org",
    check=check,
)
