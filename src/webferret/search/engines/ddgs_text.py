"""Text backends of the `ddgs` library (DuckDuckGo, Brave, Mojeek, Bing, Yahoo, ...), adapted.

ddgs knows each backend's URL, payload and result XPaths; we take those (`build_payload`,
`extract_results`, `post_extract_results`) and keep the status code ddgs would drop, so a rate limit
or a captcha becomes `rate_limited` instead of an empty answer. A result's fields are read as the
page has them, without ddgs's normalizers (`verbatim`). Its HTTP client (`primp`, with a
browser fingerprint) sends the request, in a worker thread since it is synchronous.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import UTC, datetime
from functools import cache
from typing import Any, ClassVar
from urllib.parse import unquote

from webferret.models import ErrorCode, FerretError, Hit
from webferret.search.engines._common import clean_text, make_hit, unreachable
from webferret.search.engines.snippet_dates import leading_date
from webferret.search.types import Engine, EngineQuery, EngineResponse, RequestSpec

# our name -> (ddgs text backend name, correlation group: the index it really draws from)
BACKENDS = {
    "duckduckgo": ("duckduckgo", "bing"),
    "brave": ("brave", "brave"),
    "mojeek": ("mojeek", "mojeek"),
    "bing": ("bing", "bing"),
    "yahoo": ("yahoo", "bing"),
    "google": ("google", "google"),
    "yandex": ("yandex", "yandex"),
}
TIME_LIMITED = frozenset(("duckduckgo", "brave", "bing", "yahoo", "google"))
"""The backends whose ddgs request limits results by time (`timelimit`); ddgs ignores it for the others
(a test compares this with the installed ddgs)."""
BLOCK_MARKS = (
    "anomaly-modal",
    "anomaly.js",
    "<altcha-widget",
    "/altcha.js",
    "captcha-wrap",
    "g-recaptcha",
    "h-captcha",
    "cf-challenge",
)
RATE_LIMIT_STATUSES = (202, 403, 429)


def installed(name: str) -> bool:
    """Does the installed ddgs ship backend `name` (one of `BACKENDS`) enabled?"""
    from ddgs.engines import ENGINES

    return BACKENDS[name][0] in ENGINES["text"]


def backend_class(name: str) -> Any:
    from ddgs.engines import ENGINES

    backend = BACKENDS[name][0]
    try:
        return ENGINES["text"][backend]
    except KeyError:
        from importlib.metadata import version

        working = ", ".join(sorted(key for key in BACKENDS if installed(key)))
        raise FerretError(
            ErrorCode.ENGINE_ERROR,
            f"the installed ddgs ({version('ddgs')}) has no working text backend {backend!r} (it ships "
            f"it disabled or not at all); its engines that work here: {working}",
        ) from None


DEFAULT_REGION = "us-en"  # ddgs's own default
TIMELIMITS = {"day": "d", "week": "w", "month": "m", "year": "y"}  # `time_range` as ddgs spells it


def _payload(instance: Any, query: EngineQuery) -> dict[str, Any]:
    return dict(
        instance.build_payload(
            query=query.with_site_operator(),
            region=query.region or DEFAULT_REGION,
            safesearch="moderate",
            timelimit=TIMELIMITS.get(query.time_range or ""),
            page=1,
        )
    )


def build_request(name: str, query: EngineQuery) -> RequestSpec:
    """The request ddgs would send for `query` (its payload, method and URL)."""
    instance = backend_class(name)()
    payload = {key: str(value) for key, value in _payload(instance, query).items()}
    if instance.search_method == "GET":
        return RequestSpec(url=instance.search_url, params=payload)
    return RequestSpec(url=instance.search_url, method="POST", data=payload)


@cache
def verbatim(name: str) -> Any:
    """Backend `name`'s class, its results' fields read as the page has them: ddgs's normalizers
    decode every escape of an address (`/My%20Paper.pdf` became `/My+Paper.pdf`, a page of no
    result; `?q=a%26b` became `?q=a&b`, two parameters) and drop what reads as a tag from a text the
    page's parser has already read (`Vec<T> in std` became `Vec in std`, `if a < b and c > d` lost
    its middle). The backend's XPaths and post-processing are ddgs's own."""
    from ddgs.results import TextResult

    class Verbatim(TextResult):
        _normalizers: ClassVar[Mapping[str, Callable[[Any], str]]] = {}

    backend = backend_class(name)
    return type(backend.__name__, (backend,), {"result_type": Verbatim})


def unwrap_redirect(href: str) -> str:
    """DuckDuckGo's `//duckduckgo.com/l/?uddg=TARGET&rut=...` -> TARGET, decoded (its own escapes
    as the target has them); another link as it is, `//host/...` as https."""
    if "uddg=" in href:
        for pair in href.partition("?")[2].split("&"):
            key, _, value = pair.partition("=")
            if key == "uddg" and value:
                return unquote(value)
    return "https:" + href if href.startswith("//") else href


def parse_response(name: str, body: str, now: datetime | None = None) -> list[Hit]:
    """Results in `body` by ddgs's own extraction for backend `name` (`verbatim`), each dated by the
    date its snippet opens with (`snippet_dates`; a relative one counted back from `now`, else the
    clock)."""
    cls = verbatim(name)
    instance = cls.__new__(cls)  # extraction needs no HTTP client
    results = instance.post_extract_results(instance.extract_results(body))
    now = now or datetime.now(UTC)
    hits: list[Hit] = []
    for result in results:
        url = unwrap_redirect(getattr(result, "href", "") or "")
        if not url.startswith(("http://", "https://")):
            continue
        published, snippet = leading_date(clean_text(getattr(result, "body", "") or ""), now)
        hits.append(make_hit(name, len(hits) + 1, url, result.title, snippet, published=published))
    return hits


JS_SHELL = "nrj("
"""DuckDuckGo's results page for browsers, whose results a script loads (`nrj('/d.js?...')`): what it
serves the HTML endpoint when it does not take the request's User-Agent. It has no result markup."""


def lists_results(name: str, body: str) -> bool:
    """Does `body` hold results, as backend `name`'s extraction reads it?"""
    try:
        return bool(parse_response(name, body))
    except Exception:  # a page ddgs cannot read holds none
        return False


def check(response: EngineResponse, name: str | None = None) -> None:
    """Refuse a JavaScript results page, a rate limit's status, and a captcha page. With the backend's
    `name`, a page its extraction reads results from is no captcha page, whatever its text: a
    result's snippet may name a captcha widget (`g-recaptcha`, `h-captcha`)."""
    head = response.text[:200_000]
    if JS_SHELL in head:
        raise FerretError(
            ErrorCode.ENGINE_ERROR,
            "the engine answered its JavaScript results page, which only a browser reads, instead of "
            "results (it did not take the request's User-Agent)",
        )
    mark = next((mark for mark in BLOCK_MARKS if mark in head), None)
    if mark and name is not None and lists_results(name, response.text):
        mark = None
    if response.status in RATE_LIMIT_STATUSES or mark:
        why = f"a captcha page ({mark})" if mark else f"HTTP {response.status}"
        raise FerretError(  # the runner reads its Retry-After
            ErrorCode.RATE_LIMITED,
            f"the engine answered {why}: it is rate-limiting this IP",
            status=response.status,
        )


def _send_sync(name: str, spec: RequestSpec, query: EngineQuery, timeout: float) -> EngineResponse:
    proxy = spec.proxy.url if spec.proxy is not None else None  # the setting `proxy`, credentials and all
    instance = backend_class(name)(proxy=proxy, timeout=max(1, round(timeout)))
    if proxy is None:  # built with none, primp takes the environment's HTTP(S)_PROXY: set, it does not
        instance.http_client.client.proxy = None
    _payload(instance, query)  # some backends set cookies on their client here (Brave)
    kwargs = {"params": dict(spec.params)} if spec.data is None else {"data": dict(spec.data)}
    try:  # ddgs's primp client itself: ddgs's wrapper of its answers drops the headers (Retry-After)
        response = instance.http_client.client.request(spec.method, spec.url, **kwargs)
    except Exception as exc:  # every transport failure, named by its type and words
        raise unreachable(name, spec.url, exc, spec.proxy) from None
    headers = {str(key).lower(): str(value) for key, value in response.headers.items()}
    return EngineResponse(status=response.status_code, headers=headers, text=response.text or "")


def make_engine(name: str) -> Engine:
    """The `Engine` for ddgs backend `name` (see `BACKENDS`)."""

    def build(query: EngineQuery) -> RequestSpec:
        spec = build_request(name, query)
        context = {
            "text": query.text,
            "site": query.site or "",
            "region": query.region or "",
            "time_range": query.time_range or "",
        }
        return replace(spec, context=context)

    async def send(spec: RequestSpec, timeout: float) -> EngineResponse:
        ctx = spec.context
        query = EngineQuery(
            text=ctx["text"],
            site=ctx["site"] or None,
            region=ctx["region"] or None,
            time_range=ctx["time_range"] or None,
        )
        return await asyncio.to_thread(_send_sync, name, spec, query, timeout)

    return Engine(
        name=name,
        group=BACKENDS[name][1],
        build_request=build,
        parse_response=lambda body, query: parse_response(name, body),
        categories=("general",),
        send=send,
        check=lambda response: check(response, name),
        time_ranges=name in TIME_LIMITED,
        installed=lambda: installed(name),
    )
