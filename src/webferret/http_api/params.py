"""The parameters of each HTTP API endpoint: a query string's or a JSON body's, checked alike.

The names are the CLI's flags with `_` for `-` (`link_limit`, `whole_page`, `page_tokens`); a flag
given more than once on the CLI is a parameter given more than once in a query string, or a list in a
JSON body (`url`, `exclude`, `include`, `action`, `header`, `handle`). A boolean flag given without a
value (`?links`) is true. What the core checks itself (a scope, a step, a glob) it refuses with a
message of its own.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import AliasChoices, ConfigDict, Field, ValidationError, field_validator

from webferret.config import Seconds
from webferret.fetch.types import Tier
from webferret.json_args import JsonArgs
from webferret.limits import (
    MAX_CRAWL_DEPTH,
    MAX_CRAWL_PAGES,
    MAX_LISTED,
    MAX_MAP_URLS,
    MAX_PASSAGES,
    MAX_QUERY_CHARS,
    MAX_QUERY_INPUT,
    MAX_READ,
    MAX_REGION_CHARS,
    MIN_PAGE_TOKENS,
)
from webferret.models import OutputFormat, validation_problem
from webferret.search.types import engine_names

MAX_API_URLS = 100
"""The most URLs one `/fetch` reads (a longer list is several calls, or the CLI's `--urls-from`)."""


class Params(JsonArgs):
    """One endpoint's parameters (`JsonArgs`: an unknown name, or true for a number, is refused);
    `REPEATED`: those that are lists (given once or more)."""

    model_config = ConfigDict(populate_by_name=True)
    REPEATED: ClassVar[frozenset[str]] = frozenset()

    @classmethod
    def names(cls) -> list[str]:
        """The parameter names it takes, as a caller writes them, those it needs first."""
        fields = sorted(cls.model_fields.items(), key=lambda item: not item[1].is_required())
        return [_alias(name, field) for name, field in fields]

    @classmethod
    def from_query(cls, items: list[tuple[str, str]]) -> Params:
        """From a query string's (name, value) pairs: a list parameter collects every value; any
        other given twice is refused; a boolean given without a value is true."""
        given: dict[str, Any] = {}
        repeated, spelled = cls._repeated(), cls._spelled()
        for written, value in items:
            name = spelled.get(written, written)  # `urls` is `url`, `query` is `q`
            if name in repeated:
                given.setdefault(name, []).append(value)
            elif name in given:
                raise ParamError(f"parameter {name!r} is given twice: it takes one value")
            else:
                given[name] = value
        for key in cls._booleans():
            if given.get(key) == "":
                given[key] = True
        return cls.checked(given)

    @classmethod
    def checked(cls, given: dict[str, Any]) -> Params:
        """The parameters of a JSON body (or `from_query`'s), or `ParamError` naming what is wrong:
        each written by any of its names (`query` for `q`), but once; a list one as a lone value too."""
        named: dict[str, Any] = {}
        repeated, spelled = cls._repeated(), cls._spelled()
        for written, value in given.items():
            name = spelled.get(written, written)
            if name in named:
                wants = "its values as one list, under one name" if name in repeated else "one value"
                raise ParamError(f"parameter {name!r} is given twice (as {written!r} too): it takes {wants}")
            named[name] = [value] if name in repeated and isinstance(value, str) else value
        try:
            return cls.model_validate(named)
        except ValidationError as exc:
            raise ParamError(_said(exc, cls)) from None

    @classmethod
    def _spelled(cls) -> dict[str, str]:
        """Every name a parameter may be written by -> the name it is known by."""
        return {
            spelling: _alias(name, field)
            for name, field in cls.model_fields.items()
            for spelling in _spellings(name, field)
        }

    @classmethod
    def _booleans(cls) -> set[str]:
        """The parameters that are switches (`links`, `fresh`): only they take true or false."""
        return {
            _alias(name, field)
            for name, field in cls.model_fields.items()
            if field.annotation in (bool, bool | None)
        }

    @classmethod
    def _repeated(cls) -> set[str]:
        return {_alias(name, cls.model_fields[name]) for name in cls.REPEATED}


class ParamError(ValueError):
    """A parameter the endpoint does not take, or a value it cannot take (`invalid_argument`)."""


def _spellings(name: str, field: Any) -> list[str]:
    """The names a parameter is given by: its aliases (`q`, `query`), else its own."""
    alias = field.validation_alias
    return [str(choice) for choice in alias.choices] if isinstance(alias, AliasChoices) else [name]


def _alias(name: str, field: Any) -> str:
    return _spellings(name, field)[0]


def _said(exc: ValidationError, model: type[Params]) -> str:
    """The first problem of `exc`, naming the parameter (and, for an unknown one, those taken)."""
    errors = exc.errors(include_url=False)
    error = next((e for e in errors if e["type"] == "extra_forbidden"), errors[0])  # a typo first
    parts = [str(part) for part in error["loc"] if not isinstance(part, int)]
    where = ".".join(parts) if parts else "body"  # a parameter without a name (`?=x`) is named ''

    if error["type"] == "extra_forbidden":
        return f"unknown parameter {where!r} (this endpoint takes {', '.join(model.names())})"
    if error["type"] == "missing":
        return f"parameter {where!r} is missing"
    return f"parameter {where!r}: {validation_problem(error)}"


def counted(default: int | None, most: int, said: str) -> Any:
    """The field of a count `n` (1 to `most`), which may be written `results`."""
    return Field(
        default=default, ge=1, le=most, validation_alias=AliasChoices("n", "results"), description=said
    )


class SearchParams(Params):
    """`/search`: `webferret search`."""

    REPEATED = frozenset({"engines"})

    query: str = Field(
        validation_alias=AliasChoices("q", "query"),
        min_length=1,
        max_length=MAX_QUERY_INPUT,
        description="what to search for; bangs such as !gh, !w, !r pick one engine",
    )
    n: int | None = counted(None, 50, "results (10)")
    engines: list[str] | None = Field(default=None, description="engines to use, e.g. searxng,github (auto)")
    site: str | None = Field(default=None, max_length=253, description="only results from this host")
    time: Literal["day", "week", "month", "year"] | None = Field(
        default=None, description="only results of the past day, week, month or year"
    )
    region: str | None = Field(
        default=None, max_length=MAX_REGION_CHARS, description="country-language, e.g. de-de"
    )
    verify: bool | None = Field(default=None, description="fetch every result to drop dead links (true)")
    verify_timeout: Seconds | None = Field(default=None, description="per-page verify timeout, s")
    engine_timeout: Seconds | None = Field(default=None, description="per-engine timeout, s")
    fresh: bool = Field(
        default=False, description="verify over the network: no stored page, no dead link remembered"
    )
    read: int | None = Field(
        default=None, ge=1, le=MAX_READ, description="also answer the first N results' text (`data.read`)"
    )
    page_tokens: int | None = Field(
        default=None, ge=MIN_PAGE_TOKENS, description="with read: tokens per page"
    )

    _engines = field_validator("engines", mode="before")(engine_names)


class FetchLimits(Params):
    """How the pages of a call are read: `--timeout`, `--budget`, `--tier`, `--fresh`."""

    timeout: Seconds | None = Field(default=None, description="per-page timeout, s")
    budget: Seconds | None = Field(default=None, description="the whole call's time budget, s")
    tier: Tier | None = Field(default=None, description="auto (escalates), http, impersonate or browser")
    fresh: bool = Field(default=False, description="read anew, not from the store")


class ReadingParams(Params):
    """How a page is turned into text: `/fetch`'s, `/r/`'s and `/extract`'s."""

    REPEATED = frozenset({"exclude"})

    format: OutputFormat | None = Field(default=None, description="markdown (default), text or html")
    links: bool = Field(default=False, description="also list the page's outgoing links")
    link_limit: int | None = Field(
        default=None, ge=1, le=1000, description="most links listed (20); implies links"
    )
    selector: str | None = Field(
        default=None, max_length=500, description="keep only the elements matching this CSS"
    )
    exclude: list[str] = Field(
        default_factory=list, max_length=20, description="drop the elements matching CSS first"
    )
    whole_page: bool = Field(default=False, description="the whole body, not only the main content")
    max_chars: int | None = Field(default=None, ge=1, description="clip the page's text at N characters")


class FetchParams(FetchLimits, ReadingParams):
    """`/fetch`: `webferret fetch`."""

    REPEATED = frozenset({"url", "exclude", "action", "header"})

    url: list[str] = Field(
        validation_alias=AliasChoices("url", "urls"),
        min_length=1,
        max_length=MAX_API_URLS,
        description=f"the pages to read (1 to {MAX_API_URLS})",
    )
    wait_for: str | None = Field(
        default=None, max_length=500, description="render in the browser and wait for this CSS selector"
    )
    action: list[str] = Field(
        default_factory=list,
        description="browser steps before reading: click:CSS, type:CSS=TEXT, press:KEY, scroll[:N], "
        "wait:S, wait-for:CSS",
    )
    header: list[str] = Field(
        default_factory=list, description="'NAME: VALUE' sent with every request (a cookie)"
    )


class HandleParams(Params):
    """`/diff`: one stored document."""

    handle: str = Field(min_length=1, max_length=2048, description="a handle site~hash12, or the page's URL")


class OutlineParams(HandleParams):
    """`/outline`: one stored document, counted in pages."""

    page_tokens: int | None = Field(default=None, ge=MIN_PAGE_TOKENS, description="tokens per page (4000)")


class OpenParams(OutlineParams):
    """`/open`: `webferret open`."""

    page: int = Field(default=1, ge=1, description="which page of the document")
    links: bool = Field(default=False, description="also list the document's links")
    link_limit: int | None = Field(
        default=None, ge=1, le=1000, description="most links listed (20); implies links"
    )


class FindParams(Params):
    """`/find`: `webferret find`."""

    REPEATED = frozenset({"handle"})

    query: str = Field(
        validation_alias=AliasChoices("q", "query"),
        min_length=1,
        max_length=MAX_QUERY_CHARS,
        description="words to look for across the stored pages",
    )
    handle: list[str] | None = Field(
        default=None, description="search only these stored pages (handles or URLs)"
    )
    site: str | None = Field(default=None, max_length=253, description="search only this host's pages")
    n: int = counted(5, MAX_PASSAGES, "most passages answered")


class StoredParams(Params):
    """`/stored`: `webferret store list`."""

    site: str | None = Field(
        default=None, max_length=253, description="only this host's pages (subdomains too)"
    )
    n: int = counted(20, MAX_LISTED, "most pages listed, newest first")


class SiteParams(FetchLimits):
    """What `/map` and `/crawl` share: where they start and which links they take."""

    REPEATED = frozenset({"include", "exclude"})

    url: str = Field(min_length=1, max_length=8192, description="the page to start from")
    scope: str | None = Field(default=None, description="only URLs under this prefix")
    include: list[str] = Field(
        default_factory=list, description="only paths matching these globs, e.g. /docs/*"
    )
    exclude: list[str] = Field(default_factory=list, description="never paths matching these globs")
    robots: bool | None = Field(default=None, description="honour robots.txt (setting respect_robots)")


class MapParams(SiteParams):
    """`/map`: `webferret map`."""

    search: str | None = Field(
        default=None,
        max_length=MAX_QUERY_CHARS,
        description="keep the URLs whose link text or path holds these words",
    )
    limit: int = Field(default=100, ge=1, le=MAX_MAP_URLS, description="most URLs listed")
    sitemap: bool = Field(default=True, description="also read the site's sitemaps")


class CrawlParams(SiteParams):
    """`/crawl`: `webferret crawl`."""

    depth: int = Field(default=2, ge=0, le=MAX_CRAWL_DEPTH, description="link hops from the start")
    limit: int = Field(default=20, ge=1, le=MAX_CRAWL_PAGES, description="most pages read")
    sitemap: bool = Field(default=False, description="also read the pages the site's sitemaps list")
    max_chars: int | None = Field(
        default=None, ge=1, description="streamed: clip each page's text at N characters"
    )


class ExtractParams(ReadingParams):
    """`/extract`: `webferret extract -`; the document is the call's body, these the query string."""

    url: str | None = Field(
        default=None,
        max_length=8192,
        description="the page's address: its links are made absolute against it",
    )

    @field_validator("url")
    @classmethod
    def _absolute(cls, value: str | None) -> str | None:
        """An absolute URL, checked as `webferret extract --url` checks it (any scheme)."""
        from webferret.models import FerretError
        from webferret.net.urltext import absolute_url

        if value is not None:
            try:
                absolute_url(value, None)
            except FerretError as exc:
                raise ValueError(exc.message) from None
        return value
