"""Typed boundaries shared by every layer: error codes, pages, search hits and the JSON envelope.

These models are the public contract: the JSON Schemas in ``schemas/`` are generated from them
(``python -m webferret.schema``) and a test checks that the committed files are current.
"""

from __future__ import annotations

import re
from datetime import datetime
from enum import StrEnum
from typing import (
    Any,
    Literal,
    NotRequired,  # (pydantic reads this one on Python 3.11)
)

from pydantic import (
    BaseModel,
    ConfigDict,
    Field,
    SerializerFunctionWrapHandler,
    ValidationInfo,
    field_validator,
    model_serializer,
)
from typing_extensions import TypedDict

CONTRACT_VERSION = "1.0"
MAX_CHARS = {"title": 300, "byline": 200, "site_name": 120, "description": 1000, "snippet": 1000, "text": 300}
"""The most characters of a page's or a search result's one-line fields (a link's `text`): a page's
180 KB `<title>` or an engine's 200 KB snippet would flood every answer that names it."""
MAX_CHARS |= {"name": 300, "brand": 120, "sku": 120, "currency": 40, "availability": 60}
MAX_CHARS |= dict.fromkeys(("price", "low_price", "high_price"), 40)  # a product's facts, shown in its header


def clipped(text: str | None, limit: int) -> str | None:
    """`text` cut to at most `limit` characters, at a space when one is near the end, marked `…`."""
    if text is None or len(text) <= limit:
        return text
    cut = text[: limit - 1]
    space = cut.rfind(" ")
    if space > limit * 0.8:
        cut = cut[:space]
    return cut.rstrip() + "…"


_CONTROLS = re.compile(
    r"\x1b\[[0-?]*[ -/]*[@-~]"  # a terminal control sequence (colours, cursor moves, clearing)
    r"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?"  # an operating-system command (a window title, a link)
    r"|\x1b[ -~]?"  # any other escape
    r"|\r(?!\n)|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f]"  # a carriage return alone, other control characters
    # Unicode tag characters: invisible, yet a language model reads them as the ASCII they shadow
    # (instructions hidden from whoever looks at the text), but for a subdivision flag's (England's)
    "|(\U0001f3f4[\U000e0030-\U000e0039\U000e0061-\U000e007a]{1,6}\U000e007f)|[\U000e0000-\U000e007f]"
)


_PASSWORD = re.compile(r"(?<=://)([^/?#@\s:]*):[^/?#\s]*@")


def without_password(text: str | None) -> str | None:
    """`text` with the password of every URL in it left out (`https://ada@host/`): a URL's
    `user:password@` is sent (as Basic auth), never shown, stored or said in an error."""
    return _PASSWORD.sub(r"\1@", text) if text and "@" in text else text


_USERINFO = re.compile(r"(?<=://)[^/?#@\s]*@")


def without_userinfo(text: str | None) -> str | None:
    """`text` with no `user:password@` at all: the base a page's own links are made absolute
    against (they are the page's URLs, not the caller's credentials)."""
    return _USERINFO.sub("", text, count=1) if text and "@" in text else text


def has_password(url: str) -> bool:
    """Whether `url` carries a password (`https://user:password@host/`)."""
    return without_password(url) != url


# one scan finds none in almost every text
_ANY_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\U000e0000-\U000e007f]")


def printable(text: str | None) -> str | None:
    """`text` without terminal escape sequences and control characters (tabs and line ends kept): a
    page's text could otherwise retitle, recolour or clear the terminal that shows it. Nor does it
    keep Unicode tag characters, which show nothing but hide text a language model reads."""
    return _CONTROLS.sub(r"\1", text) if text and _ANY_CONTROL.search(text) else text


_BIDI_CONTROLS = re.compile("[\u202a-\u202e\u2066-\u2069]")  # embeddings, overrides, isolates


def _clip(value: str | None, info: ValidationInfo) -> str | None:
    """A one-line field as shown: printable, without the direction controls that could show a title
    or snippet reversed ("Trojan Source"; the marks U+200E/U+200F stay), clipped."""
    if value and not value.isascii():
        value = _BIDI_CONTROLS.sub("", value)
    return clipped(printable(value), MAX_CHARS[info.field_name or ""])


class ErrorCode(StrEnum):
    """Every error webferret reports, with one meaning each (see the README's error table)."""

    INVALID_URL = "invalid_url"
    UNSUPPORTED_SCHEME = "unsupported_scheme"
    BLOCKED_ADDRESS = "blocked_address"
    DNS_FAILURE = "dns_failure"
    CONNECT_FAILED = "connect_failed"
    TIMEOUT = "timeout"
    TOO_LARGE = "too_large"
    TOO_MANY_REDIRECTS = "too_many_redirects"
    HTTP_ERROR = "http_error"
    RATE_LIMITED = "rate_limited"
    UNSUPPORTED_CONTENT = "unsupported_content"
    EMPTY_CONTENT = "empty_content"
    INVALID_ARGUMENT = "invalid_argument"
    BLOCKED_BY_SITE = "blocked_by_site"
    NEEDS_JAVASCRIPT = "needs_javascript"
    BROWSER_UNAVAILABLE = "browser_unavailable"
    NOT_FOUND = "not_found"
    ROBOTS_DISALLOWED = "robots_disallowed"
    QUOTA_EXCEEDED = "quota_exceeded"
    ENGINE_ERROR = "engine_error"
    PROXY_ERROR = "proxy_error"
    NO_RESULTS = "no_results"
    UNAUTHORIZED = "unauthorized"
    FORBIDDEN = "forbidden"
    INTERNAL = "internal"


class ErrorInfo(BaseModel):
    """What went wrong, as a value: a code from `ErrorCode` and a message naming the culprit."""

    model_config = ConfigDict(frozen=True)

    code: ErrorCode
    message: str
    status: int | None = Field(default=None, description="HTTP status, for http_error and rate_limited")
    retry_after: float | None = Field(default=None, description="seconds, when the server said")
    vendor: str | None = Field(default=None, description="anti-bot vendor, for blocked_by_site")

    _no_password = field_validator("message")(without_password)


class FerretError(Exception):
    """Raised inside a layer and turned into an `ErrorInfo` at the layer's boundary."""

    def __init__(
        self,
        code: ErrorCode,
        message: str,
        *,
        status: int | None = None,
        retry_after: float | None = None,
        vendor: str | None = None,
    ) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.status = status
        self.retry_after = retry_after
        self.vendor = vendor
        self.trail: list[dict[str, Any]] = []  # the tiers tried before giving up (fetch.ladder)

    def __reduce__(self) -> tuple[Any, ...]:
        """Pickled (a process pool's worker raising it, `copy`) with its code and every field."""
        return (_rebuilt, (type(self), self.code, self.message), dict(self.__dict__))

    def info(self) -> ErrorInfo:
        return ErrorInfo(
            code=self.code,
            message=self.message,
            status=self.status,
            retry_after=self.retry_after,
            vendor=self.vendor,
        )


def _rebuilt(kind: type[FerretError], code: ErrorCode, message: str) -> FerretError:
    """A pickled `FerretError` (or subclass) made again; its fields come back as its state."""
    error = kind.__new__(kind, message)
    FerretError.__init__(error, code, message)
    return error


def validation_problem(error: Any) -> str:
    """What one of a pydantic `ValidationError`'s `errors()` says: a validator's own ValueError in its
    own words (without pydantic's "Value error, " in front), else pydantic's message."""
    raised = (error.get("ctx") or {}).get("error")
    if error.get("type") == "value_error" and raised is not None:
        return str(raised)
    if error.get("type") in ("bool_parsing", "bool_type"):  # pydantic's words say not what it reads
        return "expected true or false (also read: yes or no, on or off, 1 or 0)"
    return str(error["msg"])


PageType = Literal["article", "forum", "product", "listing", "docs", "homepage", "search", "other"]
FetchedVia = Literal["http", "impersonate", "browser", "store", "revalidated", "file"]
OutputFormat = Literal["markdown", "text", "html"]


class Link(BaseModel):
    """An outgoing link of a page."""

    model_config = ConfigDict(frozen=True)

    url: str
    text: str = ""
    in_main: bool = False
    nofollow: bool = Field(
        default=False,
        description="every link of the page to it is `rel=nofollow`: a crawl does not follow it (left "
        "out when false)",
    )

    _clipped = field_validator("text")(_clip)

    @model_serializer(mode="wrap")
    def _plain_unsaid(self, dump: SerializerFunctionWrapHandler) -> LinkFields:
        """The link's fields, `nofollow` only where it is true (most links are plain)."""
        fields: LinkFields = dump(self)
        if not self.nofollow:
            fields.pop("nofollow", None)
        return fields


class LinkFields(TypedDict):
    """A `Link` as it is written (its schema when written: `nofollow` only when true)."""

    url: str
    text: str
    in_main: bool
    nofollow: NotRequired[bool]


class Product(BaseModel):
    """What a product page declares about its product (schema.org `Product` in JSON-LD, else Open
    Graph product tags): prices as the page writes them, without thousands separators."""

    name: str | None = None
    brand: str | None = None
    sku: str | None = None
    price: str | None = None
    low_price: str | None = Field(default=None, description="the lowest of several offers' prices")
    high_price: str | None = Field(default=None, description="the highest of several offers' prices")
    currency: str | None = Field(default=None, description="ISO 4217 code, as declared")
    availability: str | None = Field(default=None, description='schema.org availability as words: "in stock"')
    rating: float | None = None
    best_rating: float | None = None
    reviews: int | None = Field(default=None, description="number of reviews (or ratings) behind `rating`")

    _clipped = field_validator(
        "name", "brand", "sku", "price", "low_price", "high_price", "currency", "availability"
    )(_clip)


class Page(BaseModel):
    """One fetched (or extracted) document. A failed page carries `error` and `ok=false`."""

    url: str | None = Field(description="the URL as asked for; null for a page read from standard input")
    final_url: str | None = Field(default=None, description="the URL after redirects and rewrites")
    status: int | None = None
    ok: bool = False
    content_type: str | None = None
    title: str | None = None
    byline: str | None = None
    site_name: str | None = None
    published: str | None = Field(default=None, description="YYYY-MM-DD or null")
    modified: str | None = Field(default=None, description="YYYY-MM-DD or null")
    description: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    image: str | None = None
    page_type: PageType | None = None
    og_type: str | None = None
    product: Product | None = Field(default=None, description="price, availability, rating of a product page")
    jsonld: list[Any] = Field(
        default_factory=list,
        description="the page's JSON-LD blocks as it wrote them, parsed (HTML; at most 100,000 characters)",
    )
    quality: float | None = Field(default=None, ge=0.0, le=1.0)
    word_count: int = 0
    tokens: int | None = Field(default=None, description="estimated tokens of `content`")
    format: OutputFormat = "markdown"
    content: str = ""
    links: list[Link] | None = None
    handle: str | None = Field(default=None, description="store handle `site~hash12`")
    duplicate_of: str | None = None
    fetched_via: FetchedVia | None = None
    fetched_at: datetime | None = None
    error: ErrorInfo | None = None
    meta: dict[str, Any] = Field(default_factory=dict, description="tier trail, timings, clipping")

    _clipped = field_validator("title", "byline", "site_name", "description")(_clip)
    _printable = field_validator("content")(printable)
    _no_password = field_validator("url", "final_url", "canonical_url")(without_password)

    @classmethod
    def failed(cls, url: str | None, error: ErrorInfo, **fields: Any) -> Page:
        return cls(url=url, ok=False, error=error, **fields)


class FetchedPages(BaseModel):
    """The `data` of `fetch` and `extract` with `--json`."""

    pages: list[Page]


class Source(BaseModel):
    """One engine's sighting of a result."""

    model_config = ConfigDict(frozen=True)

    engine: str
    rank: int = Field(ge=1)


class Hit(BaseModel):
    """A search result, merged across engines by canonical URL."""

    url: str
    title: str = ""
    snippet: str = ""
    published: str | None = None
    score: float = 0.0
    sources: list[Source] = Field(default_factory=list)
    reachable: bool | None = None
    tokens: int | None = None
    handle: str | None = None
    extra: dict[str, Any] = Field(default_factory=dict, description="engine-specific fields")

    _clipped = field_validator("title", "snippet")(_clip)


class Envelope(BaseModel):
    """The one JSON shape every `--json` answer has."""

    contract_version: str = CONTRACT_VERSION
    ok: bool
    data: dict[str, Any] | None = None
    error: ErrorInfo | None = None
    meta: dict[str, Any] = Field(default_factory=dict)
