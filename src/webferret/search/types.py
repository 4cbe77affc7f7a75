"""What goes into a search and what comes out: options, engine requests, engine answers, the result."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from datetime import date, datetime, timedelta
from typing import TYPE_CHECKING, Any

from pydantic import BaseModel, Field

from webferret.arguments import check_switches
from webferret.config import region
from webferret.fetch.types import check_seconds
from webferret.limits import is_weight
from webferret.models import ErrorCode, ErrorInfo, FerretError, Hit
from webferret.net.canonical import edition_host
from webferret.net.hostspec import site_host

if TYPE_CHECKING:
    from webferret.config import Settings
    from webferret.net.proxy import Proxy


TIME_RANGES = {"day": 1, "week": 7, "month": 31, "year": 366}
"""`time_range` periods (`--time`), each as the days back a result's date may lie (a month and a year at
their longest)."""


def since(time_range: str, now: datetime) -> date:
    """The first day a result of `time_range` may be dated (one day earlier still, for time zones)."""
    return (now - timedelta(days=TIME_RANGES[time_range] + 1)).date()


def engine_names(value: Any) -> Any:
    """Engine names as a caller writes them (one text or a list of them, each maybe comma-separated:
    `"searxng, GitHub"`, the CLI's `--engines`, an API's `engines=a,b`) as a list of names as the
    engines know them; what is no text, as given, for the caller's own check to refuse."""
    values = value if isinstance(value, (list, tuple)) else [value]
    if not all(isinstance(item, str) for item in values):
        return value
    return [_engine_name(name) for item in values for name in item.split(",") if name.strip()]


def _engine_name(name: Any) -> Any:
    """An engine's name as the engines know it (`DuckDuckGo` is `duckduckgo`); what is no string, as given."""
    return name.strip().lower() if isinstance(name, str) else name


@dataclass(frozen=True)
class SearchOptions:
    """Switches of one search call; defaults come from `Settings`."""

    engines: tuple[str, ...] = ("auto",)
    results: int = 10
    site: str | None = None
    searxng_url: str | None = None
    github_token: str | None = None
    engine_timeout: float = 8.0
    engine_min_interval: float = 1.0
    verify: bool = True
    verify_timeout: float = 10.0
    fresh: bool = False  # verify every candidate over the network: no stored page, no remembered failure
    unreachable_seconds: float = 600.0  # how long a candidate's failure is remembered (0: not at all)
    region: str | None = None  # `config.REGION`; None: each engine's own default
    time_range: str | None = None  # one of `TIME_RANGES`: only results of that recent period
    weights: Mapping[str, float] = field(default_factory=dict)  # rank-fusion weight per engine name
    # why a result may not be listed (the agent faces' domain lists), or None: refused results are
    # dropped before verification, so none of them is fetched and spares take their places
    refuse: Callable[[str], str | None] | None = None
    # why a candidate may not be fetched to verify it (the agent faces' robots.txt), or None: asked
    # just before its fetch; a refused candidate is unreachable with that error, and a spare takes over
    admit: Callable[[str], Awaitable[ErrorInfo | None]] | None = None

    def __post_init__(self) -> None:
        # `DuckDuckGo` is `duckduckgo`, as the CLI reads `--engines` (a model writes names so), in the
        # engines and their weights alike (the setting `engine_weights` reads them so)
        names = tuple(_engine_name(name) for name in self.engines)
        object.__setattr__(self, "engines", names)
        if not isinstance(self.weights, Mapping):
            message = f"weights: a mapping of engine names to weights, not {type(self.weights).__name__}"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
        object.__setattr__(self, "weights", {_engine_name(name): w for name, w in self.weights.items()})
        for name, weight in self.weights.items():  # as the setting `engine_weights` takes them
            if not is_weight(weight):
                message = f"weights: {name}={weight!r}: a weight is a finite number, 0 or more"
                raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
        check_switches(self, "verify", "fresh")  # `fresh="no"` skipped the store
        for name in ("engine_timeout", "verify_timeout"):
            check_seconds(name, getattr(self, name))
        if self.time_range is not None and self.time_range not in TIME_RANGES:
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT,
                f"time range {self.time_range!r}: one of {', '.join(TIME_RANGES)}",
            )
        for name in ("region", "site"):
            if getattr(self, name) is not None and not isinstance(getattr(self, name), str):
                kind = type(getattr(self, name)).__name__
                raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{name}: a string, not {kind}")
        if self.region is not None:
            try:
                object.__setattr__(self, "region", region(self.region))  # `DE-de` is `de-de`
            except ValueError as exc:
                raise FerretError(ErrorCode.INVALID_ARGUMENT, f"region {self.region!r}: {exc}") from None
        if self.site is not None:
            try:
                # `https://x.org/a` is `x.org`; `old.reddit.com` is `reddit.com`, an edition's site
                object.__setattr__(self, "site", edition_host(site_host(self.site)))
            except ValueError as exc:
                raise FerretError(ErrorCode.INVALID_ARGUMENT, f"site: {exc}") from None

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> SearchOptions:
        base = cls(
            engines=tuple(settings.engines),
            results=settings.results,
            searxng_url=settings.searxng_url,
            github_token=settings.github_token,
            engine_timeout=settings.engine_timeout,
            engine_min_interval=settings.engine_min_interval,
            verify=settings.verify,
            verify_timeout=settings.verify_timeout,
            unreachable_seconds=settings.unreachable_seconds,
            region=settings.region,
            weights=dict(settings.engine_weights),
        )
        return base.with_(**overrides)

    def with_(self, **overrides: Any) -> SearchOptions:
        clean = {key: value for key, value in overrides.items() if value is not None}
        if "engines" in clean:
            clean["engines"] = tuple(clean["engines"])
        return replace(self, **clean)


@dataclass(frozen=True)
class EngineQuery:
    """What one engine is asked: the query text (bangs removed), a site filter, how many results.

    `site` is the `--site` host (or a bang's): an engine of the whole web appends it as the `site:`
    operator (`with_site_operator`); an engine of that site (`Engine.site`) needs no operator, and
    reads it its own way (Wikipedia its edition: `de.wikipedia.org` is German)."""

    text: str
    site: str | None = None
    limit: int = 10
    region: str | None = None  # `config.REGION`, or None for the engine's default
    time_range: str | None = None  # one of `TIME_RANGES`, asked only of engines with `time_ranges`
    base_url: str | None = None
    token: str | None = None

    def with_site_operator(self) -> str:
        """The query text with `site:HOST` appended, for engines that understand the operator."""
        return f"{self.text} site:{self.site}" if self.site else self.text


@dataclass(frozen=True)
class RequestSpec:
    """One HTTP request an engine wants sent."""

    url: str
    method: str = "GET"
    params: Mapping[str, str] = field(default_factory=dict)
    data: Mapping[str, str] | None = None
    headers: Mapping[str, str] = field(default_factory=dict)
    context: Mapping[str, str] = field(default_factory=dict, compare=False)
    """values for an engine's own sender (never sent on the wire)"""
    proxy: Proxy | None = field(default=None, compare=False)
    """the proxy (setting `proxy`) an engine's own sender goes through, or None: direct"""


@dataclass(frozen=True)
class EngineResponse:
    """What came back for a `RequestSpec`."""

    status: int
    headers: Mapping[str, str]
    text: str


@dataclass
class EngineAnswer:
    """An engine's parsed answer: its hits in rank order and any warnings it carried."""

    hits: list[Hit] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)


Sender = Callable[[RequestSpec, float], Awaitable[EngineResponse]]


@dataclass(frozen=True)
class Engine:
    """One search engine: typed metadata plus pure request builder and response parser.

    `group` is the upstream index the engine draws from (its correlation group in fusion).
    `send` replaces the runner's HTTP client for engines that bring their own (the ddgs ones).
    `check` inspects a response before parsing and raises `FerretError` for engine-specific refusals.
    `time_ranges`: the engine can limit its results to a recent period (`EngineQuery.time_range`).
    `installed` says whether the engine works here at all (None: it does): a ddgs backend the
    installed ddgs ships disabled (Google, Bing) is known by name, yet no engine to suggest.
    """

    name: str
    group: str
    build_request: Callable[[EngineQuery], RequestSpec]
    parse_response: Callable[[str, EngineQuery], list[Hit]]
    categories: tuple[str, ...] = ("general",)
    needs_key: bool = False
    site: str | None = None
    send: Sender | None = None
    check: Callable[[EngineResponse], None] | None = None
    warnings: Callable[[str, EngineQuery], list[str]] | None = None
    time_ranges: bool = False
    installed: Callable[[], bool] | None = None


class EngineReport(BaseModel):
    """How one engine did in one search."""

    name: str
    ok: bool
    count: int = 0
    elapsed_ms: float = 0.0
    error: ErrorInfo | None = None

    @property
    def failure(self) -> str | None:
        """`name: code: why` when the engine failed, else None."""
        if self.ok or self.error is None:
            return None
        return f"{self.name}: {self.error.code.value}: {self.error.message.removeprefix(self.name + ': ')}"


class Unreachable(BaseModel):
    url: str
    error: ErrorInfo | None = None
    remembered_at: datetime | None = Field(
        default=None,
        description="when an earlier search saw this error: it was not asked again (`unreachable_seconds`)",
    )


class DroppedDuplicate(BaseModel):
    url: str
    duplicate_of: str


class SearchResult(BaseModel):
    """The answer of `Ferret.search`: fused hits, per-engine reports, and what verification dropped."""

    query: str
    results: list[Hit] = Field(default_factory=list)
    engines: list[EngineReport] = Field(default_factory=list)
    unreachable: list[Unreachable] = Field(default_factory=list)
    warnings: list[str] = Field(default_factory=list)
    dropped_duplicates: list[DroppedDuplicate] = Field(default_factory=list)
    candidates: int = Field(default=0, description="results considered before verification")
    not_needed: int = Field(
        default=0,
        description="candidates left unverified: the answer was full before their turn (spares)",
    )
    verified: bool = False

    @property
    def answered(self) -> bool:
        """True when at least one engine answered without an error."""
        return any(report.ok for report in self.engines)

    @property
    def error(self) -> ErrorInfo | None:
        """The search's own error when no engine answered (`engine_error`, naming why each failed),
        else None: one engine answering makes a search whose other engines' errors are in `engines`."""
        if self.answered:
            return None
        failures = [report.failure for report in self.engines if report.failure]
        reasons = "; ".join(failures) or "no engine was run"
        return ErrorInfo(code=ErrorCode.ENGINE_ERROR, message=f"no engine answered: {reasons}")
