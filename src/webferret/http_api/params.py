"""The parameters of each HTTP API endpoint: a query string's or a JSON body's, checked alike.

The names are the CLI's flags with `_` for `-` (`link_limit`, `whole_page`, `page_tokens`); a flag
given more than once on the CLI is a parameter given more than once in a query string, or a list in a
JSON body (`url`, `exclude`, `include`, `action`, `header`, `handle`). A boolean flag given without a
value (`?links`) is true. What the core checks itself (a scope, a step, a glob) it refuses with a
message of its own.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

from pydantic import AliasChoices, BaseModel, ConfigDict, Field, ValidationError, field_validator

from webferret.fetch.types import Tier
from webferret.limits import (
    MAX_CRAWL_DEPTH,
    MAX_CRAWL_PAGES,
    MAX_MAP_URLS,
    MAX_PASSAGES,
    MAX_QUERY_CHARS,
    MAX_READ,
    MIN_PAGE_TOKENS,
)
from webferret.models import OutputFormat

MAX_API_URLS = 100
"""The most URLs one `/fetch` reads (a longer list is several calls, or the CLI's `--urls-from`)."""

Seconds = float


class Params(BaseModel):
    """One endpoint's parameters; `REPEATED`: those that are lists (given once or more)."""

    model_config = ConfigDict(extra="forbid", populate_by_name=True)
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
        spelled = {spelling: _alias(name, field) for name, field in cls.model_fields.items()
                   for spelling in _spellings(name, field)}  # fmt: skip
        repeated = {_alias(name, cls.model_fields[name]) for name in cls.REPEATED}
        for written, value in items:
            name = spelled.get(written, written)  # `urls` is `url`, `query` is `q`
            if name in repeated:
                given.setdefault(name, []).append(value)
            elif name in given:
                raise ParamError(f"parameter {name!r} is given twice: it takes one value")
            else:
                given[name] = value
        for name, field in cls.model_fields.items():
            key = _alias(name, field)
            if field.annotation in (bool, bool | None) and given.get(key) == "":
                given[key] = True
        return cls.checked(given)

    @classmethod
    def checked(cls, given: dict[str, Any]) -> Params:
        """The parameters of a JSON body (or `from_query`'s), or `ParamError` naming what is wrong."""
        try:
            return cls.model_validate(given)
        except ValidationError as exc:
            raise ParamError(_said(exc, cls)) from None


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
    where = ".".join(str(part) for part in error["loc"] if not isinstance(part, int)) or "body"
    if error["type"] == "extra_forbidden":
        return f"unknown parameter {where!r} (this endpoint takes {', '.join(model.names())})"
    if error["type"] == "missing":
        return f"parameter {where!r} is missing"
    return f"parameter {where!r}: {error['msg']}"


def _comma_list(value: Any) -> Any:
    """`engines=a,b` (or given twice) as a list of names."""
    values = value if isinstance(value, list) else [value]
    if not all(isinstance(item, str) for item in values):
        return value
    return [name.strip().lower() for item in values for name in item.split(",") if name.strip()]


class SearchParams(Params):
    """`/search`: `webferret search`."""

    REPEATED = frozenset({"engines"})

    query: str = Field(validation_alias=AliasChoices("q", "query"), min_length=1, max_length=MAX_QUERY_CHARS)
    n: int | None = Field(default=None, ge=1, le=50, validation_alias=AliasChoices("n", "results"))
    engines: list[str] | None = None
    site: str | None = Field(default=None, max_length=253)
    time: Literal["day", "week", "month", "year"] | None = None
    region: str | None = Field(default=None, max_length=5)
    verify: bool | None = None
    verify_timeout: Seconds | None = Field(default=None, gt=0)
    engine_timeout: Seconds | None = Field(default=None, gt=0)
    fresh: bool = False
    read: int | None = Field(default=None, ge=1, le=MAX_READ)
    page_tokens: int | None = Field(default=None, ge=MIN_PAGE_TOKENS)

    _engines = field_validator("engines", mode="before")(_comma_list)


class FetchLimits(Params):
    """How the pages of a call are read: `--timeout`, `--budget`, `--tier`, `--fresh`."""

    timeout: Seconds | None = Field(default=None, gt=0)
    budget: Seconds | None = Field(default=None, gt=0)
    tier: Tier | None = None
    fresh: bool = False


class FetchParams(FetchLimits):
    """`/fetch`: `webferret fetch`."""

    REPEATED = frozenset({"url", "exclude", "action", "header"})

    url: list[str] = Field(
        validation_alias=AliasChoices("url", "urls"), min_length=1, max_length=MAX_API_URLS
    )
    format: OutputFormat | None = None
    links: bool = False
    link_limit: int | None = Field(default=None, ge=1, le=1000)
    selector: str | None = Field(default=None, max_length=500)
    exclude: list[str] = Field(default_factory=list, max_length=20)
    whole_page: bool = False
    max_chars: int | None = Field(default=None, ge=1)
    wait_for: str | None = Field(default=None, max_length=500)
    action: list[str] = Field(default_factory=list)
    header: list[str] = Field(default_factory=list)

    @field_validator("url", mode="before")
    @classmethod
    def _one_or_more(cls, value: Any) -> Any:
        return [value] if isinstance(value, str) else value


class HandleParams(Params):
    """`/outline` and `/diff`: one stored document."""

    handle: str = Field(min_length=1, max_length=2048)
    page_tokens: int | None = Field(default=None, ge=MIN_PAGE_TOKENS)


class OpenParams(HandleParams):
    """`/open`: `webferret open`."""

    page: int = Field(default=1, ge=1)
    links: bool = False
    link_limit: int | None = Field(default=None, ge=1, le=1000)


class FindParams(Params):
    """`/find`: `webferret find`."""

    REPEATED = frozenset({"handle"})

    query: str = Field(validation_alias=AliasChoices("q", "query"), min_length=1, max_length=MAX_QUERY_CHARS)
    handle: list[str] | None = None
    site: str | None = Field(default=None, max_length=253)
    n: int = Field(default=5, ge=1, le=MAX_PASSAGES)


class StoredParams(Params):
    """`/stored`: `webferret store list`."""

    site: str | None = Field(default=None, max_length=253)
    n: int = Field(default=20, ge=1, le=1000)


class SiteParams(FetchLimits):
    """What `/map` and `/crawl` share: where they start and which links they take."""

    REPEATED = frozenset({"include", "exclude"})

    url: str = Field(min_length=1, max_length=8192)
    scope: str | None = None
    include: list[str] = Field(default_factory=list)
    exclude: list[str] = Field(default_factory=list)
    robots: bool | None = Field(default=None, description="honour robots.txt (setting respect_robots)")


class MapParams(SiteParams):
    """`/map`: `webferret map`."""

    search: str | None = Field(default=None, max_length=MAX_QUERY_CHARS)
    limit: int = Field(default=100, ge=1, le=MAX_MAP_URLS)
    sitemap: bool = True


class CrawlParams(SiteParams):
    """`/crawl`: `webferret crawl`."""

    depth: int = Field(default=2, ge=0, le=MAX_CRAWL_DEPTH)
    limit: int = Field(default=20, ge=1, le=MAX_CRAWL_PAGES)
    sitemap: bool = False
    max_chars: int | None = Field(default=None, ge=1, description="streamed: each page's text clipped")
