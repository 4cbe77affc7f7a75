"""What goes into a fetch tier and what comes out of it."""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any, Literal
from urllib.parse import urlsplit

from webferret.limits import MAX_SECONDS

if TYPE_CHECKING:
    from webferret.config import Settings
    from webferret.fetch.rate_limits import RateLimits
    from webferret.models import ErrorInfo

Tier = Literal["auto", "http", "impersonate", "browser"]
Admit = Callable[[str], Awaitable["ErrorInfo | None"]]
"""Why a URL may not be read (an agent face's domain lists and robots.txt), or None."""

BROWSER_ONLY = ("screenshot", "wait_for", "mobile", "actions")
"""Options only the browser tier carries out: one asked for picks that tier, and a tier without a
browser (http, impersonate) refuses it. The CLI's flags are their names with dashes."""


def browser_only_asked(values: Mapping[str, Any]) -> str | None:
    """The first option of `BROWSER_ONLY` that `values` (names to values) asks for, or None."""
    return next((name for name in BROWSER_ONLY if values.get(name) not in (None, False, "", ())), None)


def check_seconds(name: str, seconds: object) -> None:
    """A time limit (`name`: the setting or argument it is): a number above 0, at most a day, or
    `invalid_argument` naming it."""
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= MAX_SECONDS:
        from webferret.models import ErrorCode, FerretError

        message = f"{name}: a number of seconds above 0 and at most {MAX_SECONDS:g}, not {seconds!r}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)


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
    actions: tuple[str, ...] = ()  # browser tier: steps done before the page is read (`fetch.actions`)
    # browser tier: the page was read as a JavaScript app's shell (extraction found it): the browser
    # waits, `DRAW_WAIT` at most, until the page shows more than the server sent
    draws_later: bool = False
    # what the caller asks of each further page the fetch is led to (a redirect's hop, a meta
    # refresh, where a browser's script or step navigates), before it is requested: a refusal fails
    # the page with its error (the agent faces' domain lists and robots.txt; the first URL is theirs)
    admit: Admit | None = None
    # the setting a time-out's message names as the one to raise: `timeout` (and `budget`) for a
    # fetch, `verify_timeout` for a search's verification, which sets both from it
    timed_by: str = "timeout"
    # the budget the caller set, when `budget` is what a longer call (a crawl) has left of it: the
    # one a time-out's message names
    budget_set: float | None = None
    # a body longer than `max_bytes` is cut there rather than refused as `too_large` (http and
    # impersonate tiers): robots.txt, of which RFC 9309 has a crawler read the first 500 KiB
    clip: bool = False
    # the sites that answered a page 429 with a Retry-After, shared by the fetches of one call (a
    # crawl's, `fetch.rate_limits`): their next pages are not asked until that wait is over
    rate_limits: RateLimits | None = None

    def __post_init__(self) -> None:
        from webferret.arguments import check_switches

        check_switches(
            self, "mobile", "allow_private_hosts", "draws_later", "clip"
        )  # `mobile="no"` is truthy
        _check_internal(self)
        for name in ("timeout", "budget"):  # a search's verify_timeout sets both
            check_seconds(name if self.timed_by == "timeout" else self.timed_by, getattr(self, name))
        if self.wait_for is not None:
            from webferret.arguments import check_text

            check_text("wait_for", self.wait_for)
            check_css(self.wait_for, "wait-for selector")  # as the CLI, MCP and library say it
        if self.actions:
            from webferret.fetch.actions import parse_actions

            object.__setattr__(self, "actions", parse_actions(self.actions))
        needs = browser_only_asked({name: getattr(self, name) for name in BROWSER_ONLY})
        if needs and self.tier in ("http", "impersonate"):
            from webferret.models import ErrorCode, FerretError

            raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{needs} needs the browser, not tier {self.tier}")
        if needs:  # only the browser waits for an element, takes a picture, acts or renders as a phone
            object.__setattr__(self, "tier", "browser")
        if self.screenshot is not None:  # an empty path too: it was taken for no picture asked
            object.__setattr__(self, "screenshot", screenshot_path(self.screenshot))
            check_screenshot(self.screenshot)
        object.__setattr__(self, "headers", header_pairs(self.headers))
        for name, value in self.headers:
            check_header(name, value)

    @property
    def credentials(self) -> bool:
        """Whether the caller added headers of its own (a cookie, a token): such a call is not
        answered from the store, where a page read without them (a login wall) may be."""
        return any(name.lower() not in REVALIDATION for name, _ in self.headers)

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

    def left_of(self, deadline: float) -> FetchOptions:
        """These options for the rest of a call's budget, up to `deadline` (`time.monotonic()`; not
        yet reached), whose time-out still names the budget the caller set."""
        import time

        left = max(deadline - time.monotonic(), 0.001)  # (a check of the deadline just before it passed)
        return replace(self, budget=left, budget_set=self.budget_set or self.budget)

    def with_(self, **overrides: Any) -> FetchOptions:
        clean = {key: value for key, value in overrides.items() if value is not None}
        if "allow_hosts" in clean:
            clean["allow_hosts"] = tuple(self.allow_hosts) + tuple(clean["allow_hosts"])
        return replace(self, **clean)

    def for_request(self, url: str, asked: str, *, document: bool = True) -> FetchOptions:
        """These options for one request (`url`) of a fetch of `asked`. The caller's `headers` (a
        cookie, a token) go to `asked`'s origin only, as a browser's credentials do: never past a
        redirect to another scheme, host or port, nor to another origin's scripts and styles. The
        store's revalidation headers (`If-None-Match`, `If-Modified-Since`) go to each hop of the page
        itself, not with what the page loads (`document` False)."""
        if not self.headers:
            return self
        own = same_origin(url, asked)
        kept = tuple(
            (name, value)
            for name, value in self.headers
            if (document if name.lower() in REVALIDATION else own)
        )
        return self if kept == self.headers else replace(self, headers=kept)


REVALIDATION = frozenset({"if-none-match", "if-modified-since"})
"""Headers the store adds to revalidate a page (`store.freshness.with_validators`)."""
_TOKEN = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
RESERVED = frozenset(
    {"host", "content-length", "transfer-encoding", "connection", "keep-alive", "te", "trailer", "upgrade"}
)
"""Headers a caller may not set: the connection's own, which webferret writes for the vetted address."""
PROXY_HEADERS = frozenset({"proxy-authorization", "proxy-connection"})
"""Headers meant for a proxy, which never sees a page's requests (they are tunnelled to the page's
address): sent, they would hand the proxy's credentials to every site read."""


def header_pairs(headers: Any) -> tuple[tuple[str, str], ...]:
    """Headers as `(name, value)` pairs: from pairs or a mapping (`{"Cookie": "..."}`); anything
    else is `FerretError(invalid_argument)` saying what is expected."""
    from webferret.models import ErrorCode, FerretError

    items = list(headers.items()) if isinstance(headers, Mapping) else headers
    try:
        pairs = tuple((name, value) for name, value in items)
    except (TypeError, ValueError):
        pairs = None
    if pairs is None:  # a string too: its characters are no pairs
        message = f"headers: (name, value) pairs or a mapping of names to values, not {headers!r:.60}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
    return pairs


def header_of(text: str) -> tuple[str, str]:
    """A header written `NAME: VALUE` (the CLI's `--header`, the HTTP API's `header`) as a checked
    pair; `FerretError(invalid_argument)` saying how to write it, or what is wrong with it."""
    from webferret.models import ErrorCode, FerretError

    name, colon, value = text.partition(":")
    if not colon:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{text!r} is no header: write it NAME: VALUE")
    check_header(name.strip(), value.strip())
    return name.strip(), value.strip()


def check_header(name: str, value: str) -> None:
    """Raise `FerretError(invalid_argument)` naming what is wrong with a request header the caller
    adds: a name that is not an HTTP token, one of `RESERVED`, or a value with a line break, a NUL or
    a character past ASCII (the fetchers send header values as ASCII)."""
    from webferret.models import ErrorCode, FerretError

    if not isinstance(name, str) or not _TOKEN.fullmatch(name):
        problem = f"bad header name {name!r}: an HTTP token (letters, digits, -)"
    elif name.lower() in RESERVED:
        problem = f"header {name!r} belongs to the connection: webferret sets it"
    elif name.lower() in PROXY_HEADERS:
        problem = (
            f"header {name!r} is the proxy's, and would go to the site: put the proxy's user and "
            "password in the proxy URL (setting proxy, http://user:pass@host:port)"
        )
    elif not isinstance(value, str) or any(c in value for c in "\r\n\0"):
        problem = f"bad value of header {name!r}: text on one line, no NUL"
    elif not value.isascii():
        problem = f"bad value of header {name!r}: ASCII only (percent-encode other characters)"
    else:
        return
    raise FerretError(ErrorCode.INVALID_ARGUMENT, problem)


def same_origin(url: str, other: str) -> bool:
    """Whether two URLs share scheme, host and port (a default port written or not)."""

    def origin(text: str) -> tuple[str, str, int | None]:
        try:
            parts = urlsplit(text)
            port = parts.port
        except ValueError:
            return ("", text, None)
        scheme = parts.scheme.lower()
        return scheme, (parts.hostname or "").rstrip("."), port or {"http": 80, "https": 443}.get(scheme)

    return origin(url) == origin(other)


SCREENSHOT_TYPES = (".png", ".jpg", ".jpeg")


def screenshot_path(path: object) -> str:
    """A screenshot's path as text (a `pathlib.Path` is taken), a leading `~` read as the home folder
    (`--screenshot=~/x.png`, which no shell expands, or an agent's or a script's path: the picture
    went to a folder named `~` made in whatever directory the call ran), or `invalid_argument`."""
    import os

    from webferret.arguments import check_text
    from webferret.config import expanded
    from webferret.models import ErrorCode, FerretError

    if isinstance(path, os.PathLike):
        path = os.fspath(path)
    check_text("screenshot", path)
    if not str(path).startswith("~"):
        return str(path)
    try:
        return str(expanded(str(path)))
    except ValueError as exc:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"screenshot path {path!r}: {exc}") from None


def _check_internal(options: FetchOptions) -> None:
    """Refuse (`invalid_argument`) the options the project's own calls set (`fetch_options()` takes
    them too) when one is of the wrong kind: it would fail the page later as an internal error."""
    from webferret.arguments import check_type
    from webferret.fetch.rate_limits import RateLimits
    from webferret.models import ErrorCode, FerretError

    check_type("rate_limits", options.rate_limits, RateLimits, "webferret.fetch.rate_limits.RateLimits()")
    if options.budget_set is not None:
        check_seconds("budget_set", options.budget_set)
    if options.admit is not None and not callable(options.admit):
        why = f"admit: an async function of a URL, not {type(options.admit).__name__}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, why)
    if not isinstance(options.timed_by, str) or not options.timed_by:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"timed_by: a setting's name, not {options.timed_by!r}")


def check_screenshot(path: str) -> None:
    """Raise `FerretError(invalid_argument)` before any fetch for a screenshot path no picture can
    be written to: the browser takes its type from the name, and cannot write over a directory."""
    import os
    from pathlib import Path

    from webferret.models import ErrorCode, FerretError

    target = Path(path)
    folder = next((parent for parent in target.parents if parent.exists()), None)  # made if missing
    if not path.strip():
        why = "is empty: name a file ending in .png or .jpg"
    elif target.is_dir():
        why = "is a directory"
    elif target.suffix.lower() not in SCREENSHOT_TYPES:
        why = "must end in .png or .jpg (the picture's type comes from its name)"
    elif target.exists() and not target.is_file():
        why = "is not a regular file"
    elif folder is not None and not folder.is_dir():
        why = f"cannot be written: {str(folder)!r} is a file, not a folder"
    elif folder is not None and not os.access(folder, os.W_OK | os.X_OK):
        why = f"cannot be written: no permission to write in {str(folder)!r}"
    else:
        return
    raise FerretError(ErrorCode.INVALID_ARGUMENT, f"screenshot path {path!r} {why}")


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
    screenshot_missing: str | None = None  # why the picture asked for was not taken

    @property
    def content_type(self) -> str | None:
        """The body's type as the server says it: its Content-Type, or, where that says nothing of
        the body (none, no valid type, `application/octet-stream`: a download), the type of the file
        name its Content-Disposition gives (`attachment; filename="rivers.csv"` is a CSV file)."""
        from webferret.fetch.sniff import mime_of

        value = self.headers.get("content-type") or None
        if mime_of(value) not in _GENERIC_TYPES:
            return value
        return _attachment_type(self.headers.get("content-disposition")) or value

    @property
    def attachment_name(self) -> str | None:
        """The file name the server gave the body (`Content-Disposition`), or None."""
        return attachment_name(self.headers.get("content-disposition"))


_GENERIC_TYPES = frozenset(
    (
        "",
        "application/octet-stream",
        "binary/octet-stream",
        "application/force-download",
        "application/download",
    )
)


def _attachment_type(disposition: str | None) -> str | None:
    """The type of the file a Content-Disposition names (by its extension) when it is a kind of text
    (`rivers.csv`, `notes.md`), or None: a binary file's bytes say what they are, and a name such as
    `photo.jpg` or `clip.mp4` is no label of the sign-in page a download link answers with."""
    import mimetypes

    from webferret.fetch.sniff import declares_text

    name = attachment_name(disposition)
    guessed = mimetypes.guess_type(name)[0] if name else None
    return guessed if guessed and declares_text(guessed) else None


def attachment_name(disposition: str | None) -> str | None:
    """The file name a Content-Disposition gives (`filename*=UTF-8''...` decoded), its folders and
    blanks left out (a server's name is no path), or None."""
    if not disposition:
        return None
    from email.message import Message

    header = Message()
    header["content-disposition"] = disposition
    try:
        name = header.get_filename()
    except (ValueError, LookupError):  # a charset no codec knows
        return None
    if not isinstance(name, str):
        return None
    base = " ".join(name.replace("\\", "/").rsplit("/", 1)[-1].split())
    return base[:200] or None


def struck_trail(progress: list[dict[str, Any]], error: str = "timeout") -> list[dict[str, Any]]:
    """The hops begun before an error (a timeout, a body past the cap, a refused connection): those
    that answered as they are, the one it struck marked with the error's code."""
    return [hop if "status" in hop else {**hop, "error": error} for hop in progress]
