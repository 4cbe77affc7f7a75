"""What the simulated hosts answer: article pages, redirects, dead links, robots.txt, and SearXNG."""

from __future__ import annotations

import hashlib
import json
import random
from dataclasses import dataclass
from urllib.parse import parse_qs

from bench.simweb.corpus import Doc
from bench.simweb.http import Handler, Request, Response

LAST_MODIFIED = "Tue, 03 Nov 2026 10:00:00 GMT"
NOT_FOUND = (
    b"<!doctype html><html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>"
)


def site_handler(docs: dict[str, Doc], base_url: str) -> Handler:
    """Pages at /a/<slug>, a same-site redirect at /go/<slug>, robots.txt, 404 elsewhere."""

    def handle(request: Request) -> Response:
        if request.method not in ("GET", "HEAD"):
            return Response(405, b"", {"Allow": "GET, HEAD"})
        path = request.path
        if path == "/robots.txt":
            return Response(200, b"User-agent: *\nAllow: /\n", {"Content-Type": "text/plain"})
        kind, _, slug = path.strip("/").partition("/")
        doc = docs.get(slug)
        if doc is None:
            return Response(404, NOT_FOUND, {"Content-Type": "text/html; charset=utf-8"})
        if kind == "go":
            return Response(301, b"", {"Location": f"{base_url}/a/{slug}"})
        if kind != "a":
            return Response(404, NOT_FOUND, {"Content-Type": "text/html; charset=utf-8"})
        return _page(doc, request)

    return handle


def _page(doc: Doc, request: Request) -> Response:
    etag = f'"{doc.slug}-{len(doc.html)}"'
    headers = {
        "Content-Type": "text/html; charset=utf-8",
        "Last-Modified": LAST_MODIFIED,
        "ETag": etag,
        "Cache-Control": "public, max-age=300",
        "Vary": "Accept-Encoding",
    }
    if request.headers.get("if-none-match") == etag:
        return Response(304, b"", headers)
    if "gzip" in request.headers.get("accept-encoding", ""):
        return Response(200, doc.gz, {**headers, "Content-Encoding": "gzip"})
    return Response(200, doc.html, headers)


@dataclass(frozen=True)
class Listing:
    """URLs the fake SearXNG may answer with, grouped by what they do when fetched."""

    live: list[tuple[str, str]]  # (url, title)
    redirects: list[tuple[str, str]]
    missing: list[str]
    dead_host: list[str]


def pick_results(listing: Listing, query: str, count: int = 20) -> list[tuple[str, str]]:
    """A stable answer for `query`: mostly live pages, one redirect, one 404, one dead host (20 in all,
    as a real instance's first page has more than the 10 a search lists)."""
    rng = random.Random(hashlib.sha256(query.encode()).digest())
    chosen = rng.sample(listing.live, min(len(listing.live), max(0, count - 3)))
    chosen.append(rng.choice(listing.redirects))
    chosen.append((rng.choice(listing.missing), "A page that moved away"))
    chosen.append((rng.choice(listing.dead_host), "A site that is gone"))
    rng.shuffle(chosen)
    return chosen[:count]


def searx_handler(listing: Listing) -> Handler:
    """`/search?q=...&format=json` like a SearXNG instance with JSON enabled."""

    def handle(request: Request) -> Response:
        if request.path in ("/healthz", "/"):
            return Response(200, b"OK", {"Content-Type": "text/plain"})
        if request.path == "/config":
            return Response(200, b'{"engines": [], "instance_name": "simweb"}', _JSON)
        if request.path != "/search":
            return Response(404, NOT_FOUND)
        params = parse_qs(request.query)
        if params.get("format", [""])[0] != "json":
            return Response(403, b"format not enabled", {"Content-Type": "text/plain"})
        query = params.get("q", [""])[0]
        page = int(params.get("pageno", ["1"])[0] or 1)
        hits = pick_results(listing, query) if page == 1 else []
        return Response(200, json.dumps(_answer(query, hits)).encode(), _JSON)

    return handle


_JSON = {"Content-Type": "application/json"}


def _answer(query: str, hits: list[tuple[str, str]]) -> dict[str, object]:
    results = [
        {
            "url": url,
            "title": title,
            "content": f"{title}: an article about {query}.",
            "engine": "bing",
            "engines": ["bing", "duckduckgo"],
            "positions": [rank],
            "score": round(2.0 / rank, 4),
            "category": "general",
            "template": "default.html",
            "publishedDate": None,
        }
        for rank, (url, title) in enumerate(hits, start=1)
    ]
    return {
        "query": query,
        "number_of_results": len(results),
        "results": results,
        "answers": [],
        "corrections": [],
        "infoboxes": [],
        "suggestions": [],
        "unresponsive_engines": [],
    }
