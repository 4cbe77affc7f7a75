"""The pages the simulated sites serve: the extraction benchmark's HTML and the shared fixture pages."""

from __future__ import annotations

import gzip
import hashlib
import html as markup
import re
from dataclasses import dataclass
from pathlib import Path

_TITLE = re.compile(rb"<title[^>]*>(.*?)</title>", re.IGNORECASE | re.DOTALL)
_TAGS = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class Doc:
    """One HTML page: its slug, title and body both raw and gzip-compressed."""

    slug: str
    title: str
    html: bytes
    gz: bytes


def _candidates(start: Path | None) -> tuple[Path, Path]:
    repo = (start or Path(__file__)).resolve().parents[2]
    return repo.parent / "shared", repo.parent.parent / "shared"


def shared_dir(start: Path | None = None) -> Path | None:
    """The shared folder: `<repo>/../shared` (CI) or the sibling of the worktrees' folder (here)."""
    return next((candidate for candidate in _candidates(start) if candidate.is_dir()), None)


def corpus_problem(start: Path | None = None) -> str | None:
    """Why the simulated sites would have no pages to serve (the shared folder or its pages missing),
    or None."""
    shared = shared_dir(start)
    if shared is None:
        looked = " and ".join(str(candidate) for candidate in _candidates(start))
        return f"the page corpus is missing: no shared/ folder beside the repository (looked for {looked})"
    pages = shared / "bench" / "extraction" / "html"
    if not any(pages.glob("*.html.gz")):
        return f"the page corpus is missing: no pages in {pages}"
    return None


def _title_of(html: bytes, fallback: str) -> str:
    match = _TITLE.search(html[:200_000])
    if not match:
        return fallback
    text = markup.unescape(_TAGS.sub("", match.group(1).decode("utf-8", "replace")))  # as SearXNG sends it
    text = " ".join(text.split())
    return text[:150] or fallback


def _doc(slug: str, html: bytes, gz: bytes | None = None) -> Doc:
    return Doc(slug=slug, title=_title_of(html, slug), html=html, gz=gz or gzip.compress(html, 6))


def load_corpus(shared: Path, limit: int | None = None) -> list[Doc]:
    """Every page, in a stable order; `limit` keeps the first N (for the smoke test)."""
    docs: list[Doc] = []
    for path in sorted((shared / "bench" / "extraction" / "html").glob("*.html.gz")):
        if limit is not None and len(docs) >= limit:
            return docs
        gz = path.read_bytes()
        docs.append(_doc(path.name.removesuffix(".html.gz")[:16], gzip.decompress(gz), gz))
    pages = shared / "fixtures" / "pages"
    for path in sorted(pages.rglob("*.html")):
        if limit is not None and len(docs) >= limit:
            break
        if path.name.startswith("expected"):
            continue
        slug = hashlib.sha256(str(path.relative_to(pages)).encode()).hexdigest()[:16]
        docs.append(_doc(slug, path.read_bytes()))
    return docs
