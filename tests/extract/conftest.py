"""Fixtures of the extraction tests: the shared captured pages beside the repository."""

from __future__ import annotations

from pathlib import Path

import pytest


def shared_dir() -> Path:
    """`<repo>/../shared` (CI: a copy beside the clone), else `<repo>/../../shared` (a worktree)."""
    repo = Path(__file__).resolve().parents[2]
    near = repo.parent / "shared"
    return near if near.is_dir() else repo.parent.parent / "shared"


@pytest.fixture
def pages_dir() -> Path:
    folder = shared_dir() / "fixtures" / "pages"
    if not folder.is_dir():
        pytest.skip(f"shared fixtures not found at {folder}")
    return folder


@pytest.fixture
def wikipedia_mobile_html() -> bytes:
    path = shared_dir() / "fixtures/engines/wikipedia/rest_v1_page_mobile-html_Canis_lepophagus.html"
    if not path.is_file():
        pytest.skip(f"shared fixture not found at {path}")
    return path.read_bytes()


@pytest.fixture
def article_set_dir() -> Path:
    """The article benchmark's pages (gzipped HTML named by page id)."""
    folder = shared_dir() / "bench" / "extraction" / "html"
    if not folder.is_dir():
        pytest.skip(f"the shared article set was not found at {folder}")
    return folder
