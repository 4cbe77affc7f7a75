"""What the store answers: a stored page, a page of a document, a passage."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Literal

from pydantic import BaseModel, Field

from webferret.models import Link, OutputFormat, Page


@dataclass(frozen=True)
class StoredPage:
    """The newest stored version of one handle, with what revalidation needs."""

    id: int
    handle: str
    page: Page
    content_hash: str
    fetched_at: float
    etag: str | None
    last_modified: str | None
    exempt: bool = False
    private: bool = False  # read with a caller's own headers: it answers no fetch (`freshness.usable`)
    document: str | None = None  # the handle of the document it is (its own, unless it is a variant)


class OpenedPage(BaseModel):
    """Page `page` of `pages` of a stored document (`webferret open`)."""

    handle: str
    page: int = Field(ge=1)
    pages: int = Field(ge=1)
    content: str
    title: str | None = None
    url: str
    tokens: int = 0
    next: str | None = Field(default=None, description="the command that reads the next page")
    outline: str | None = Field(
        default=None,
        description="on the first page of a document of 3 pages or more with headings to list: the "
        "command that lists its headings with the pages they are on",
    )
    format: OutputFormat = Field(default="markdown", description="the reading's format (a variant's own)")
    fetched_at: datetime | None = Field(
        default=None,
        description="when the version read was fetched: a reader paging on sees the document change",
    )
    links: list[Link] | None = Field(
        default=None,
        description="with `links`: the document's outgoing links, its main content's first (null when "
        "the store holds none for it: a page stored before webferret kept every page's links)",
    )
    links_total: int | None = Field(
        default=None, description="with `links`, when they were cut at `link_limit`: how many it has"
    )


class Heading(BaseModel):
    """One heading of a stored document's outline."""

    level: int = Field(ge=1, le=6)
    title: str
    page: int = Field(ge=1, description="the page `open` shows it on, at the outline's page_tokens")
    tokens: int = Field(ge=0, description="the section's size: the heading to the next of its level or above")


class DocumentOutline(BaseModel):
    """A stored document's headings with their pages (`webferret open HANDLE --outline`)."""

    handle: str
    url: str
    title: str | None = None
    pages: int = Field(ge=1)
    page_tokens: int = Field(ge=1, description="the page size the page numbers are counted in")
    tokens: int = Field(ge=0, description="the whole document's")
    format: OutputFormat = "markdown"
    fetched_at: datetime | None = None
    headings: list[Heading] = Field(
        description="in document order; none for a plain-text reading or a page without headings"
    )


class Passage(BaseModel):
    """A passage of a stored page that matches a query (`webferret find`)."""

    handle: str
    url: str
    title: str | None = None
    page: int = Field(ge=1, description="the page of the document (at the store's page_tokens)")
    text: str
    score: float = Field(description="BM25, higher is better")


class FoundPassages(BaseModel):
    """The `data` of `find` with `--json`."""

    query: str
    passages: list[Passage]


class StoreStats(BaseModel):
    """What `webferret store stats` shows."""

    path: str
    schema_version: int
    search: str = Field(description="fts5 or fallback")
    pages: int = Field(description="documents (a page read another way is a version of its document)")
    versions: int
    passages: int
    bytes: int
    oldest: str | None = None
    newest: str | None = None


class ListedPage(BaseModel):
    """One stored document as `webferret store list` shows it: the reading its handle opens."""

    handle: str
    url: str
    title: str | None = None
    tokens: int = 0
    format: OutputFormat = "markdown"
    fetched_at: datetime
    versions: int = Field(ge=1, description="its stored readings: versions of its text and variants")


class StoredPages(BaseModel):
    """The `data` of `store list` with `--json`: the newest documents first."""

    site: str | None = Field(default=None, description="the host asked for (its subdomains included)")
    total: int = Field(ge=0, description="documents stored (of that site)")
    pages: list[ListedPage]


class PageDiff(BaseModel):
    """What changed between a stored document's newest reading and the one before it
    (`webferret open HANDLE --diff`)."""

    handle: str
    url: str
    title: str | None = None
    status: Literal["changed", "new"] = Field(
        description="`new`: only one reading is stored (a reading fetched again unchanged is the same one)"
    )
    fetched_at: datetime = Field(description="when the newest reading was fetched")
    previous_fetched_at: datetime | None = Field(default=None, description="when the one before it was")
    added: int = Field(default=0, ge=0, description="lines added")
    removed: int = Field(default=0, ge=0, description="lines removed")
    diff: str = Field(
        default="", description="a unified diff of the two texts by lines, without file headers"
    )
