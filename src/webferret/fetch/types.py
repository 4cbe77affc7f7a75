"""What goes into a fetch tier and what comes out of it."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal

if TYPE_CHECKING:
    from webferret.config import Settings

Tier = Literal["auto", "http", "impersonate", "browser"]


@dataclass(frozen=True)
class FetchOptions:
    """Limits and switches of one fetch call; defaults come from `Settings`."""

    timeout: float = 30.0
    budget: float = 120.0
    max_bytes: int = 10 * 1024 * 1024
    max_redirects: int = 5
    tier: Tier = "auto"
    allow_private_hosts: bool = False
    allow_hosts: tuple[str, ...] = ()
    user_agent: str = "webferret/0.1"
    per_host_concurrency: int = 2
    concurrency: int = 8
    retry_after_max: float = 5.0
    headers: tuple[tuple[str, str], ...] = ()
    screenshot: str | None = None
    mobile: bool = False
    wait_for: str | None = None  # browser tier: wait until this CSS selector is in the page

    def __post_init__(self) -> None:
        if self.wait_for is not None:
            check_css(self.wait_for, "wait-for selector")  # as the CLI, MCP and library say it

    @classmethod
    def from_settings(cls, settings: Settings, **overrides: Any) -> FetchOptions:
        base = cls(
            timeout=settings.timeout,
            budget=settings.budget,
            max_bytes=settings.max_bytes,
            max_redirects=settings.max_redirects,
            tier=settings.tier,
            allow_private_hosts=settings.allow_private_hosts,
            allow_hosts=tuple(settings.allow_hosts),
            user_agent=settings.user_agent,
            per_host_concurrency=settings.per_host_concurrency,
            concurrency=settings.concurrency,
            retry_after_max=settings.retry_after_max,
        )
        return base.with_(**overrides)

    def with_(self, **overrides: Any) -> FetchOptions:
        clean = {key: value for key, value in overrides.items() if value is not None}
        if "allow_hosts" in clean:
            clean["allow_hosts"] = tuple(self.allow_hosts) + tuple(clean["allow_hosts"])
        return replace(self, **clean)


def check_css(css: str, named: str) -> None:
    """Raise `FerretError(invalid_argument)`, `bad <named> 'css': why`, when `css` does not parse."""
    from cssselect import SelectorError, parse

    from webferret.models import ErrorCode, FerretError

    try:
        if not parse(css):
            raise SelectorError("it selects nothing")
    except SelectorError as exc:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"bad {named} {css!r}: {exc}") from None


@dataclass
class RawResponse:
    """The bytes a tier got for a URL, after redirects, before extraction.

    A tier returns one for every HTTP status (the caller decides what a 404 or a block means);
    it raises `FerretError` for failures below HTTP (DNS, connect, timeout, caps, policy).
    """

    url: str
    final_url: str
    status: int
    headers: Mapping[str, str]
    body: bytes
    fetched_via: str = "http"
    elapsed_ms: float = 0.0
    trail: list[dict[str, Any]] = field(default_factory=list)
    screenshot: str | None = None

    @property
    def content_type(self) -> str | None:
        value = self.headers.get("content-type")
        return value or None


def struck_trail(progress: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The hops begun before a timeout: those that answered as they are, the one it struck marked."""
    return [hop if "status" in hop else {**hop, "error": "timeout"} for hop in progress]
