"""GitHub repository search: `GET api.github.com/search/repositories` (token used when given)."""

from __future__ import annotations

import time
from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Any

from webferret.models import ErrorCode, FerretError, Hit
from webferret.remote_text import json_value, quoted
from webferret.search.engines._common import iso_date, load_json, make_hit
from webferret.search.types import Engine, EngineQuery, EngineResponse, RequestSpec, since

NAME = "github"
API = "https://api.github.com/search/repositories"


def build_request(query: EngineQuery) -> RequestSpec:
    headers = {"Accept": "application/vnd.github+json", "X-GitHub-Api-Version": "2022-11-28"}
    if query.token:
        headers["Authorization"] = f"Bearer {query.token}"
    text = query.text
    if query.time_range:  # repositories pushed to in that period
        text += f" pushed:>={since(query.time_range, datetime.now(UTC)).isoformat()}"
    params = {"q": text, "per_page": str(min(max(query.limit, 1), 100))}
    return RequestSpec(url=query.base_url or API, params=params, headers=headers)


def check(response: EngineResponse) -> None:
    """GitHub answers 403 (not 429) when the anonymous rate limit is spent."""
    remaining = response.headers.get("x-ratelimit-remaining")
    if response.status in (403, 429) and (remaining == "0" or "rate limit" in response.text.lower()):
        # as GitHub asks: its Retry-After (the runner reads it), else a spent limit's reset, else the
        # pacer's default rest (a secondary limit: "at least one minute")
        spent = remaining == "0" and "retry-after" not in response.headers
        raise FerretError(
            ErrorCode.RATE_LIMITED,
            "GitHub's search rate limit is spent (set GITHUB_TOKEN for a higher one)",
            status=response.status,
            retry_after=until_reset(response.headers) if spent else None,
        )
    if response.status >= 400 and (said := _said(response.text)):
        token = " (the token: setting github_token, env GITHUB_TOKEN)" if response.status == 401 else ""
        raise FerretError(
            ErrorCode.ENGINE_ERROR,
            f"GitHub refused the search (HTTP {response.status}): {said}{token}",
            status=response.status,
        )


def until_reset(headers: Mapping[str, str]) -> float | None:
    """Seconds until the rate limit's window ends: GitHub names its end (`x-ratelimit-reset`, Unix
    seconds; the search API's window is a minute), which a primary limit's answer gives instead of a
    Retry-After. None when absent or unreadable."""
    reset = headers.get("x-ratelimit-reset", "").strip()
    if not reset.isdigit():
        return None
    return max(0.0, int(reset) - time.time())


def _said(body: str) -> str | None:
    """What GitHub's error answer says (`message`, then each of its `errors[].message`: a 422's
    "Validation Failed" is followed by why, such as a query longer than 256 characters), quoted."""
    try:
        data = json_value(body)
    except ValueError:
        return None
    if not isinstance(data, dict) or not data.get("message"):
        return None
    errors = data.get("errors") if isinstance(data.get("errors"), list) else []
    reasons = [error["message"] for error in errors if isinstance(error, dict) and error.get("message")]
    return "; ".join(quoted(part, 160) for part in [data["message"], *reasons][:4])


def _hit(item: dict[str, Any], rank: int) -> Hit:
    return make_hit(
        NAME,
        rank,
        str(item["html_url"]),
        str(item.get("full_name") or item.get("name") or ""),
        item.get("description") or "",
        published=iso_date(item.get("pushed_at")),
        stars=item.get("stargazers_count"),
        language=item.get("language"),
        topics=item.get("topics"),
        updated_at=item.get("updated_at"),
    )


def parse_response(body: str, query: EngineQuery) -> list[Hit]:
    data = load_json(body, NAME)
    if not isinstance(data, dict) or not isinstance(data.get("items"), list):
        message = data.get("message") if isinstance(data, dict) else None
        raise FerretError(
            ErrorCode.ENGINE_ERROR,
            f"GitHub answer has no `items` list: {quoted(message) if message else 'no message'}",
        )
    items = [item for item in data["items"] if isinstance(item, dict) and item.get("html_url")]
    return [_hit(item, rank) for rank, item in enumerate(items, start=1)]


ENGINE = Engine(
    name=NAME,
    group=NAME,
    build_request=build_request,
    parse_response=parse_response,
    categories=("code",),
    site="github.com",
    check=check,
    time_ranges=True,
)
