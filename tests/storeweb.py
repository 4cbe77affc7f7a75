"""A tiny real HTTP server on 127.0.0.1 for the store tests: articles with ETag / Last-Modified.

It answers conditional requests with 304 when the validator matches and records every request, so
a test can tell a download from a revalidation from no request at all.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


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


@dataclass
class Web:
    """What the server serves (`docs` by path) and what it was asked (`requests`)."""

    docs: dict[str, Doc] = field(default_factory=dict)
    requests: list[dict[str, Any]] = field(default_factory=list)
    base: str = ""

    def url(self, path: str) -> str:
        return self.base + path

    def hits(self, path: str, status: int | None = None) -> int:
        return sum(1 for r in self.requests if r["path"] == path and status in (None, r["status"]))


def _handler(web: Web) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            doc = web.docs.get(self.path)
            status = 200 if doc else 404
            if doc and (
                (doc.etag and self.headers.get("If-None-Match") == doc.etag)
                or (doc.last_modified and self.headers.get("If-Modified-Since") == doc.last_modified)
            ):
                status = 304
            web.requests.append({"path": self.path, "status": status, "headers": dict(self.headers)})
            body = doc.body.encode() if doc and status == 200 else b"" if status == 304 else b"missing"
            self.send_response(status)
            self.send_header("Content-Type", "text/html; charset=utf-8")
            if doc and doc.etag:
                self.send_header("ETag", doc.etag)
            if doc and doc.last_modified:
                self.send_header("Last-Modified", doc.last_modified)
            if status != 304:
                self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    return Handler


@contextmanager
def serve() -> Iterator[Web]:
    web = Web()
    server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(web))
    web.base = f"http://127.0.0.1:{server.server_address[1]}"
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield web
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
