"""What the extractor is given and what it answers."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, Literal

from pydantic import BaseModel, Field

from webferret.models import Link, OutputFormat, PageType, Product

if TYPE_CHECKING:
    from webferret.config import Settings


def scope_ignored(kind: str) -> str:
    """What `meta.extract.scope_ignored` says of a document of `kind` that is no HTML (`meta.extract.kind`:
    pdf, json, text...) read with a scope: it has no elements to choose."""
    named = {"pdf": "a PDF", "json": "a JSON", "xml": "an XML"}.get(kind, f"a {kind}")
    return f"{named} document has no HTML elements to select or exclude"


UNPACK_LIMIT = 10 * 1024 * 1024
"""The most bytes a gzip file inside a body is unpacked to by default (the default `max_bytes`)."""


@dataclass(frozen=True)
class ExtractOptions:
    """How to turn a document into a page."""

    format: Literal["markdown", "text", "html"] = "markdown"
    links: bool = False
    link_limit: int = 20
    max_comments: int = 10
    selector: str | None = None  # keep only the elements matching this CSS selector (extract.scope)
    exclude: tuple[str, ...] = ()  # drop the elements matching these CSS selectors first
    whole_page: bool = False  # the whole body, not the main content
    unpack_limit: int = UNPACK_LIMIT  # most bytes a gzip file body unpacks to (a fetch: its max_bytes)

    def __post_init__(self) -> None:
        """A list of excludes becomes a tuple (one string is one selector); a bad selector is
        `FerretError(invalid_argument)`."""
        from webferret.arguments import check_switches, check_text, strings_of

        check_switches(self, "links", "whole_page")  # `links="no"` listed them
        excluded = strings_of("exclude", self.exclude, "CSS selectors such as ('nav', '.ads')")
        object.__setattr__(self, "exclude", excluded)
        if self.selector is not None:
            check_text("selector", self.selector)
        for css in excluded:  # (a lone surrogate: lxml cannot compile it, an internal error)
            check_text("exclude", css)
        if self.selector is not None or self.exclude or self.whole_page:
            from webferret.extract.scope import check_scope

            check_scope(self.selector, self.exclude, self.whole_page)

    def unpacking(self, max_bytes: int) -> ExtractOptions:
        """These options for a body fetched under `max_bytes`: a gzip file in it unpacks as far
        (counted decompressed, as the body is), and never less than `UNPACK_LIMIT`."""
        if max_bytes <= self.unpack_limit:
            return self
        return replace(self, unpack_limit=max_bytes)

    def scope(self) -> dict[str, Any] | None:
        """The scope a page read with these options records (`meta.extract.scope`); None by default."""
        if self.selector is None and not self.exclude and not self.whole_page:
            return None
        return {"selector": self.selector, "exclude": list(self.exclude), "whole_page": self.whole_page}

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> ExtractOptions:
        values: dict[str, Any] = {
            "format": settings.format,
            "link_limit": settings.link_limit,
            "max_comments": settings.max_comments,
        }
        values.update({key: value for key, value in overrides.items() if value is not None})
        return cls(**values)


class Extracted(BaseModel):
    """Main content plus metadata of one document. Pure data; the fetch fields are added by the caller."""

    content_type: str | None = None
    title: str | None = None
    byline: str | None = None
    site_name: str | None = None
    published: str | None = None
    modified: str | None = None
    description: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    image: str | None = None
    page_type: PageType | None = None
    og_type: str | None = None
    product: Product | None = None
    quality: float | None = None
    word_count: int = 0
    format: OutputFormat = "markdown"
    content: str = ""
    tokens: int | None = Field(default=None, description="estimated tokens of `content`")
    links: list[Link] = Field(default_factory=list)
    jsonld: list[Any] = Field(default_factory=list)
    extra: dict[str, Any] = Field(default_factory=dict)


@dataclass(frozen=True)
class MainContent:
    """The main content of an HTML page, as chosen by the content selector."""

    markdown: str
    text: str
    extra: dict[str, Any] | None = None
