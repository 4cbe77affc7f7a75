"""The loopback web of the store tests: articles with ETag / Last-Modified, conditional requests answered.

It is the tier tests' server (`tiers_web`) with one fallback route that serves `docs` by path, answers a
matching `If-None-Match` / `If-Modified-Since` with 304 and records every answer's status, so a test can
tell a download from a revalidation from no request at all.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import tiers_web


def article(title: str, words: str, paragraphs: int = 6) -> str:
    body = "\n".join(
        f"<p>{words} Paragraph {i} goes on about the subject at some length so that the "
        f"extractor sees a real article with real sentences in it, number {i}.</p>"
        for i in range(paragraphs)
    )
    return (
        f"<!doctype html><html><head><title>{title}</title></head><body>"
        f"<article><h1>{title}</h1>{body}</article></body></html>"
    )


@dataclass
class Doc:
    body: str
    etag: str | None = None
    last_modified: str | None = None

    def unchanged(self, headers: dict[str, str]) -> bool:
        """Whether a conditional request names this version (headers lower-cased)."""
        return bool(
            (self.etag and headers.get("if-none-match") == self.etag)
            or (self.last_modified and headers.get("if-modified-since") == self.last_modified)
        )


@dataclass
class Web:
    """What the server serves (`docs` by path) and what it was asked (`requests`, headers lower-cased)."""

    docs: dict[str, Doc] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    base: str = ""

    def url(self, path: str) -> str:
        return self.base + path

    def hits(self, path: str, status: int | None = None) -> int:
        return sum(1 for r in self.requests if r["path"] == path and status in (None, r["status"]))

    def answer(self, hit: tiers_web.Hit) -> tiers_web.Reply:
        doc = self.docs.get(hit.path)
        status = 404 if doc is None else 304 if doc.unchanged(hit.headers) else 200
        self.requests.append({"path": hit.path, "status": status, "headers": hit.headers})
        headers = {"content-type": "text/html; charset=utf-8"}
        if doc and doc.etag:
            headers["etag"] = doc.etag
        if doc and doc.last_modified:
            headers["last-modified"] = doc.last_modified
        body = doc.body.encode() if doc and status == 200 else b"" if status == 304 else b"missing"
        return status, headers, body


@contextmanager
def serve() -> Iterator[Web]:
    web = Web()
    with tiers_web.serve() as site:
        site.fallback = web.answer
        web.base = site.base
        yield web


def loopback_ferret(home: Path, **settings: object) -> Any:
    """A `Ferret` with its store in `home` that may read the loopback web."""
    from webferret.ferret import Ferret

    return Ferret(home=home, allow_hosts=["127.0.0.1"], **settings)
