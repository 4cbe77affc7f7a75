"""One `Settings` object: environment `WEBFERRET_*`, an optional TOML file, defaults for everything.

Nothing else in webferret reads the environment for its own settings. A bad value fails at start
with a `ConfigError` that names the setting, never a silent fallback.
"""

from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Annotated, Any, Literal, get_origin

from pydantic import AliasChoices, Field, ValidationError, ValidationInfo, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

from webferret.anycase import env_value, one_spelling
from webferret.limits import (
    MAX_BYTES,
    MAX_CONCURRENCY,
    MAX_PAGE_TOKENS,
    MAX_SECONDS,
    MAX_URLS_SETTING,
    MIN_PAGE_TOKENS,
    is_weight,
)
from webferret.tomlfile import read_toml
from webferret.xdg import xdg_dir

MiB = 1024 * 1024


def default_home() -> Path:
    """The XDG cache dir for webferret (`$XDG_CACHE_HOME/webferret`, else `~/.cache/webferret`)."""
    return Path(xdg_dir("XDG_CACHE_HOME", "~/.cache") or "") / "webferret"


def default_config_file() -> Path:
    return Path(xdg_dir("XDG_CONFIG_HOME", "~/.config") or "") / "webferret" / "config.toml"


class ConfigError(ValueError):
    """A setting has a bad value; the message names the setting and what it wanted."""


CommaList = Annotated[list[str], NoDecode]
WeightMap = Annotated[dict[str, float], NoDecode]
Seconds = Annotated[float, Field(gt=0, le=MAX_SECONDS, allow_inf_nan=False)]
"""A time limit: a number of seconds above 0, at most a day (a call always ends)."""


def _seconds(what: str) -> str:
    """The description of a `Seconds` setting, with its bound (the README's table shows it)."""
    return f"{what}, seconds, at most {MAX_SECONDS:g}"


def _wait(default: float, description: str, most: float | None = None) -> Any:
    """The field of a wait in seconds that may be 0: finite (an endless one would never end), at most
    `most` when given."""
    return Field(default=default, ge=0, le=most, allow_inf_nan=False, description=description)


def config_file() -> Path | None:
    """The TOML file in use: `$WEBFERRET_CONFIG` (which must be a file; `/dev/null` names none),
    else the XDG one if present. One that is there but no file (a directory, a FIFO, a link to
    nothing) is a `ValueError` naming it, as a missing `$WEBFERRET_CONFIG` is: it would be skipped
    without a word."""
    named = env_value(os.environ, "WEBFERRET_CONFIG")
    if named:
        try:  # `~/x.toml` from an MCP client's env, which no shell expands
            path = expanded(named)
        except ValueError as exc:
            raise ValueError(f"WEBFERRET_CONFIG names {named}: {exc}") from None
        if path == Path(os.devnull):
            return None
        problem = _not_a_file(path)
        if problem:
            raise ValueError(f"WEBFERRET_CONFIG names {named}, which {problem}")
        return path
    path = default_config_file()
    problem = _not_a_file(path)
    if problem and (path.exists() or path.is_symlink()):  # a link to a file moved away is no absence
        raise ValueError(f"{path} (the default config file) {problem}")
    return None if problem else path


def expanded(path: str | Path) -> Path:
    """`path` with a leading `~` (or `~user`) read as that home folder, or a ValueError saying there
    is none (`~nouser/x`: pathlib's RuntimeError, which named no setting)."""
    try:
        return Path(path).expanduser()
    except RuntimeError:
        first = Path(path).parts[0]
        raise ValueError(
            f"{first} names no home folder (no such user, or none set): write the path in full"
        ) from None


def _not_a_file(path: Path) -> str | None:
    """What is wrong with `path` as a config file (it does not exist, it is a directory), or None."""
    if path.is_file():
        return None
    if path.is_symlink() and not path.exists():
        return f"is a link to {os.readlink(path)}, which does not exist"
    if not path.exists():
        return "does not exist"
    return "is a directory, not a file" if path.is_dir() else "is no regular file (a FIFO, a device)"


def _url_problem(text: str, schemes: tuple[str, ...] = ("http", "https")) -> str | None:
    """Why `text` is no URL of `schemes` a request can be sent to (no host, a bad port, a space), or
    None."""
    from webferret.models import FerretError
    from webferret.net.urltext import absolute_url

    if any(char.isspace() for char in text):
        return "it holds a space"
    try:
        absolute_url(text, schemes).port  # noqa: B018 (the port is read to check it)
    except FerretError as exc:
        return exc.message
    except ValueError as exc:  # `urlsplit`'s port: not a number, or past 65535
        return str(exc)
    return None


class Settings(BaseSettings):
    """Every limit and switch, with its default. Env: `WEBFERRET_<NAME>`; TOML: `<name> = ...`."""

    model_config = SettingsConfigDict(
        env_prefix="WEBFERRET_",
        extra="forbid",
        frozen=True,
        validate_default=True,
    )

    # where things live
    home: Path = Field(default_factory=default_home, description="store and cache directory")

    # fetching
    max_bytes: int = Field(
        default=10 * MiB,
        gt=0,
        le=MAX_BYTES,
        description=f"cap on decompressed body bytes, at most {MAX_BYTES}",
    )
    timeout: Seconds = Field(default=30.0, description=_seconds("per-page timeout"))
    budget: Seconds = Field(default=120.0, description=_seconds("per-call time budget"))
    max_redirects: int = Field(default=5, ge=0, le=50, description="redirects followed (each hop re-checked)")
    max_urls: int = Field(
        default=8,
        ge=1,
        le=MAX_URLS_SETTING,
        description=(
            "most URLs in one library `fetch_many` or MCP `web_fetch` call (the CLI takes any number)"
        ),
    )
    per_host_concurrency: int = Field(
        default=2, ge=1, le=64, description="pages fetched at once from one host"
    )
    concurrency: int = Field(
        default=8, ge=1, le=MAX_CONCURRENCY, description="pages fetched at once in a batch"
    )
    dns_cache_seconds: float = _wait(
        60.0, "how long a resolved host name is kept (0: ask the system each time)", MAX_SECONDS
    )
    retry_after_max: float = _wait(5.0, "longest Retry-After honoured once, seconds", MAX_SECONDS)
    user_agent: str = Field(
        default="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/131.0.0.0 Safari/537.36 webferret/0.1",
        description="User-Agent of the http tier",
    )
    allow_hosts: CommaList = Field(default_factory=list, description="hosts/IPs exempt from the SSRF guard")
    allow_private_hosts: bool = Field(
        default=False, description="lift the private-address guard (deliberate internal fetches)"
    )
    proxy: str | None = Field(
        default=None,
        description="forward proxy for everything sent out: http://[user:pass@]host:port or socks5://...",
    )
    no_proxy: CommaList = Field(
        default_factory=lambda: ["localhost", "127.0.0.0/8", "::1"],
        description="hosts, domains, addresses or networks reached without the proxy (* for all)",
    )
    tier: Literal["auto", "http", "impersonate", "browser"] = Field(
        default="auto", description="fetch tier: auto escalates http -> impersonate -> browser"
    )
    impersonate: str = Field(default="chrome", description="curl_cffi browser fingerprint")
    chromium_path: str = Field(
        default="/usr/bin/chromium", description="the Chromium the browser tier drives"
    )
    browser_ws: str | None = Field(default=None, description="CDP endpoint of an existing browser")
    browser_no_sandbox: bool = Field(
        default=False, description="start Chromium with --no-sandbox (root, containers)"
    )
    browser_heap_mb: int = Field(default=512, ge=64, description="V8 heap cap of the browser, MiB")

    # reading
    format: Literal["markdown", "text", "html"] = Field(
        default="markdown", description="body format: markdown, text or html"
    )
    max_tokens: int = Field(
        default=4000,
        ge=100,
        description="tokens of each page (or listing, outline, diff) an agent face answers: a call "
        "that reads several pages answers each at most this",
    )
    answer_tokens: int = Field(
        default=20000,
        ge=MIN_PAGE_TOKENS,
        description="tokens, at most, of the pages one agent call answers together (web_fetch of "
        "several URLs, web_search with read, fetch --agent, search --agent --read): each long page "
        "is then answered a shorter first page, with the call that reads on at that size (a "
        "max_tokens asked above it raises it)",
    )
    page_tokens: int = Field(
        default=4000,
        ge=MIN_PAGE_TOKENS,
        le=MAX_PAGE_TOKENS,
        description="tokens per page when paging a document",
    )
    link_limit: int = Field(default=20, ge=1, description="most links listed with --links")
    fresh_seconds: float = _wait(600.0, "a stored page younger than this is served without network")
    dedup_threshold: float = Field(
        default=0.9, gt=0, le=1, description="Jaccard similarity above which two pages are near-duplicates"
    )

    # searching
    searxng_url: str | None = Field(
        default=None, description="a SearXNG instance (JSON API) to search through"
    )
    engines: CommaList = Field(
        default_factory=lambda: ["auto"], description="search engines: auto, or a comma list"
    )
    engine_weights: WeightMap = Field(
        default_factory=dict,
        description="rank-fusion weight per engine, e.g. `wikipedia=2,reddit=0.5` (others count 1)",
    )
    results: int = Field(default=10, ge=1, le=100, description="search results listed")
    region: str | None = Field(
        default=None,
        description="search region, country-language (us-en, de-de; wt-wt none): engines' own when unset",
    )
    engine_timeout: Seconds = Field(default=8.0, description=_seconds("per-engine timeout"))
    verify: bool = Field(
        default=True, description="fetch every search candidate (drop dead links, count tokens)"
    )
    verify_timeout: Seconds = Field(default=10.0, description=_seconds("per-page timeout of verification"))
    unreachable_seconds: float = _wait(
        600.0,
        "a search candidate that could not be read is listed unreachable without asking again for this "
        "long, at most fresh_seconds (0: always ask)",
    )
    max_comments: int = Field(default=10, ge=0, description="top comments shown of a Reddit thread")
    engine_min_interval: float = _wait(
        1.0,
        "seconds between two calls of one engine (at most an hour: a longer wait is kept across "
        "processes, the engine asked no more)",
        3600,
    )
    github_token: str | None = Field(
        default=None,
        validation_alias=AliasChoices("WEBFERRET_GITHUB_TOKEN", "github_token", "GITHUB_TOKEN"),
        description="GitHub token for the github engine (env GITHUB_TOKEN); anonymous when unset",
        repr=False,
    )

    # agent faces
    respect_robots: bool = Field(
        default=True, description="honour robots.txt for fetches an agent starts (MCP)"
    )
    allowed_domains: CommaList = Field(
        default_factory=list, description="agent faces: only these domains (and subdomains)"
    )
    blocked_domains: CommaList = Field(
        default_factory=list,
        description="agent faces: never these domains (and subdomains; an IP address however written: "
        "`2130706433` is `127.0.0.1`)",
    )
    search_quota: int = Field(default=50, ge=0, description="searches per MCP session; 0 = unlimited")
    datamark: bool = Field(default=False, description="interleave a marker between words of fenced page text")

    # the HTTP API
    api_token: str | None = Field(
        default=None,
        description="token `webferret api` asks of every call (Authorization: Bearer); needed to listen "
        "past loopback",
        repr=False,
    )

    # keeping warm
    serve: str = Field(
        default="auto",
        description="hand CLI calls to a running `webferret serve`: auto (its default socket), "
        "start (the same, and start one in the background when none answers), off, or the "
        "socket's absolute path",
    )

    def __init__(self, *, given_as: Mapping[str, str] | None = None, **values: Any) -> None:
        """Settings from `values`, the environment and the TOML file, in that order; a bad value
        raises `ConfigError` naming the setting and where it came from: a value of `values` as
        `given_as` names it (a command's flag, `--home`), else as given as an argument."""

        def make() -> None:
            one_spelling(values, "given as arguments")
            super(Settings, self).__init__(**values)

        _checked(make, values, given_as or {})

    @field_validator("*", mode="before")
    @classmethod
    def _no_bool_as_a_number(cls, value: Any, info: ValidationInfo) -> Any:
        """TOML's `true` (or a caller's `True`) is no number, though pydantic would read it as 1."""
        if isinstance(value, bool) and cls.model_fields[str(info.field_name)].annotation in (int, float):
            raise ValueError("a number, not true or false")
        return value

    @field_validator("*", mode="before")
    @classmethod
    def _a_word_as_written(cls, value: Any, info: ValidationInfo) -> Any:
        """A choice (`tier`, `format`) or a switch read without spaces around it, a choice in any
        case: ` browser ` from a YAML or JSON client's env, or `Browser`, was refused as no tier."""
        if not isinstance(value, str):
            return value
        annotation = cls.model_fields[str(info.field_name)].annotation
        if get_origin(annotation) is Literal:
            return value.strip().lower()
        return value.strip() if annotation is bool else value

    @field_validator("home", mode="before")
    @classmethod
    def _check_home(cls, value: Any) -> Any:
        if isinstance(value, str):  # ` /srv/pages` (a YAML or JSON client's env): ` ` is no folder of it,
            value = value.strip()  # whose leading space made it a folder named ` ` where a call ran
        if isinstance(value, str | Path) and not str(value).strip():  # an unset variable in a script
            raise ValueError("empty: name a directory (an empty one would mean the current directory)")
        if isinstance(value, str | Path):  # `~/x` from a TOML file or an MCP client's env, no shell's:
            return expanded(value)  # not a folder named `~` in whatever directory a call runs
        return value

    @field_validator("user_agent")
    @classmethod
    def _check_user_agent(cls, value: str) -> str:
        """Sent as a header on every request of the http tier: one that cannot be sent fails them all."""
        value = value.strip()
        if not value or not (value.isascii() and value.isprintable()):
            raise ValueError("printable ASCII text on one line, not empty (it is sent as a header)")
        return value

    @field_validator("impersonate")
    @classmethod
    def _check_impersonate(cls, value: str) -> str:
        """One of curl_cffi's fingerprints. The default is one, and is taken without importing
        curl_cffi (a start that never uses the impersonate tier does not pay for it). Read without
        spaces around it, in any case (` Chrome `), as the tier's choice is."""
        value = value.strip().lower()
        if value == cls.model_fields["impersonate"].default:
            return value
        from webferret.fetch.impersonate import fingerprints

        known = fingerprints()
        if value not in known:
            current = [name for name in known if not any(map(str.isdigit, name))]
            versions = [name for name in known if name not in current]
            raise ValueError(
                f"one of curl_cffi's fingerprints: {', '.join(current)} (its current version of each), "
                f"or a version: {', '.join(versions)}"
            )
        return value

    @field_validator("chromium_path")
    @classmethod
    def _check_chromium_path(cls, value: str) -> str:
        """`~/x` read in the home folder (a TOML file's or an MCP client's value, which no shell
        expanded: the browser tier failed, `executable doesn't exist at ~/x`), and a bare name such as
        `chromium-browser` found on PATH, as a shell finds a command."""
        if not value.strip():  # an unset variable in a script
            raise ValueError("empty: name the Chromium executable the browser tier starts")
        if value.startswith("~"):
            return str(expanded(value))
        if os.sep not in value:
            import shutil

            return shutil.which(value) or value  # (one not found: the browser tier says so, naming it)
        return value

    @field_validator("api_token", "github_token")
    @classmethod
    def _check_token(cls, value: str | None) -> str | None:
        """A token goes in a header (`webferret api` asks one of every call; the github engine sends
        one): a blank one is none (an unset variable in a script: the API then listens on loopback
        only, GitHub is asked anonymously), spaces around it are no part of it, and a header carries
        visible ASCII only: a token with another character (`é`, a line break) could never be sent,
        and every call would fail (`unauthorized`, or the github engine failing each search)."""
        token = value.strip() if value and value.strip() else None
        odd = next((n for n, char in enumerate(token or "", 1) if not " " <= char <= "~"), None)
        if odd is not None:  # the token is a secret: the message names where, never what
            raise ValueError(
                f"an HTTP header carries only visible ASCII characters, and character {odd} of the "
                "token is none: no request could carry it (got a secret: not shown)"
            )
        return token

    @field_validator("proxy")
    @classmethod
    def _check_proxy(cls, value: str | None) -> str | None:
        from webferret.net.proxy import proxy_url

        if value is None or not value.strip():
            return None  # an empty variable turns the proxy off
        return proxy_url(value)

    @field_validator(
        "allow_hosts", "no_proxy", "engines", "allowed_domains", "blocked_domains", mode="before"
    )
    @classmethod
    def _split_commas(cls, value: Any) -> Any:
        """A comma list as text (the environment's), or a list (TOML's, a caller's): each entry
        without spaces around it, as the text's are (`engines = [" wikipedia"]` was no engine)."""
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        if isinstance(value, list | tuple):
            return [entry.strip() if isinstance(entry, str) else entry for entry in value]
        return value

    @field_validator("allow_hosts")
    @classmethod
    def _check_allow_hosts(cls, value: list[str]) -> list[str]:
        from webferret.net.hostspec import allow_host_entry

        return [allow_host_entry(host) for host in value]

    @field_validator("no_proxy")
    @classmethod
    def _check_no_proxy(cls, value: list[str]) -> list[str]:
        from webferret.net.hostspec import no_proxy_entry

        return [no_proxy_entry(entry) for entry in value]

    @field_validator("allowed_domains", "blocked_domains")
    @classmethod
    def _check_domains(cls, value: list[str]) -> list[str]:
        from webferret.net.hostspec import domain_entry

        return [domain_entry(domain) for domain in value]

    @field_validator("region")
    @classmethod
    def _check_region(cls, value: str | None) -> str | None:
        return None if value is None else region(value)

    @field_validator("searxng_url")
    @classmethod
    def _check_searxng_url(cls, value: str | None) -> str | None:
        if value is not None and not value.strip().lower().startswith(("http://", "https://")):
            raise ValueError("expected the instance's http(s) base URL, e.g. http://127.0.0.1:8888")
        if value is not None and ("?" in value or "#" in value):
            raise ValueError("expected the instance's base URL, with no query or fragment (/search is added)")
        if value is not None:
            problem = _url_problem(value.strip())
            if problem:
                raise ValueError(
                    f"expected the instance's http(s) base URL, e.g. http://127.0.0.1:8888: {problem}"
                )
        return value.strip() if value else value

    @field_validator("browser_ws")
    @classmethod
    def _check_browser_ws(cls, value: str | None) -> str | None:
        """A CDP endpoint: checked at start, not when a page first needs the browser."""
        if value is None or not value.strip():
            return None  # an empty variable: webferret starts its own Chromium
        problem = _url_problem(value.strip(), ("ws", "wss", "http", "https"))
        if problem:
            raise ValueError(f"expected the browser's CDP endpoint, e.g. ws://127.0.0.1:9222/...: {problem}")
        return value.strip()

    @field_validator("serve")
    @classmethod
    def _check_serve(cls, value: str) -> str:
        from webferret.handoff import SERVE_WORDS, serve_word  # (read as the hand-off reads it)

        value = serve_word(value)
        if value not in SERVE_WORDS and not value.startswith("/"):
            raise ValueError("expected auto, start, off or an absolute socket path")
        return value

    @field_validator("engines")
    @classmethod
    def _check_engines(cls, value: list[str]) -> list[str]:
        """Every name an engine's (a typo failed every search, naming no setting), in any case; at
        least one (`WEBFERRET_ENGINES=` started `api` and `mcp`, and every search then failed)."""
        value = [name.lower() for name in value]
        if not value:
            raise ValueError("no engine selected (the list is empty): name engines, or auto for the default")
        if value == ["auto"]:
            return value
        from webferret.search.names import ENGINE_NAMES

        unknown = [name for name in value if name not in ("auto", *ENGINE_NAMES)]
        if unknown:
            raise ValueError(
                f"unknown engine {unknown[0]!r}; known: {', '.join(['auto', *sorted(ENGINE_NAMES)])}"
            )
        return value

    @field_validator("engine_weights", mode="before")
    @classmethod
    def _parse_weights(cls, value: Any) -> Any:
        if isinstance(value, dict):  # TOML's table: a `true` in it is no weight (pydantic reads 1)
            for name, weight in value.items():
                if isinstance(weight, bool):
                    raise ValueError(f"each weight must be a number, not true or false (bad entry: {name!r})")
        if isinstance(value, dict):  # its names as the text's are read: without spaces around them
            _one_weight_each(value)
            return {name.strip() if isinstance(name, str) else name: weight for name, weight in value.items()}
        if not isinstance(value, str):
            return value
        weights: dict[str, float] = {}
        for part in filter(None, (p.strip() for p in value.split(","))):
            name, sep, number = part.partition("=")
            _one_weight_each([*weights, name.strip()])
            try:
                weights[name.strip()] = float(number) if sep else float("")
            except ValueError:
                raise ValueError(f"each entry must be ENGINE=WEIGHT (bad entry: {part!r})") from None
        return weights

    @field_validator("engine_weights")
    @classmethod
    def _check_weights(cls, value: dict[str, float]) -> dict[str, float]:
        """Every name an engine's, in any case (as `engines` reads them), with a finite weight >= 0."""
        if not value:  # (the default: no import at every start)
            return value
        from webferret.search.names import ENGINE_NAMES

        value = {name.lower(): weight for name, weight in value.items()}

        for name, weight in value.items():
            if name and name not in ENGINE_NAMES:
                raise ValueError(f"unknown engine {name!r}; known: {', '.join(sorted(ENGINE_NAMES))}")
            if not name or not is_weight(weight):
                raise ValueError(
                    f"each entry must be ENGINE=WEIGHT with a finite weight >= 0 (bad entry: {name!r})"
                )
        return value

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        one_spelling(
            (name for name in os.environ if name.upper().startswith("WEBFERRET_")), "the environment"
        )
        misspelt_variable(os.environ)
        path = config_file()
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if path is not None:
            sources.append(_TomlFile(settings_cls, toml_file=path))
        return tuple(sources)


def _one_weight_each(names: Iterable[str]) -> None:
    """A ValueError for an engine given two weights (`wikipedia=1,Wikipedia=2`): the last one won
    without a word."""
    seen: set[str] = set()
    for name in names:
        engine = str(name).strip().lower()
        if engine in seen:
            raise ValueError(f"engine {engine!r} is given two weights: keep one")
        seen.add(engine)


class _TomlFile(TomlConfigSettingsSource):
    """The TOML settings file, read as `read_toml` reads it (a byte-order mark allowed), a relative
    `home` from the file's folder: from the directory a call ran in, each project had a store."""

    def _read_file(self, file_path: Path) -> dict[str, Any]:  # type: ignore[override]  # a file's path only here
        try:
            values = read_toml(file_path)
        except OSError as exc:  # no permission, a failing disk: "[Errno 5] Input/output error" named no file
            raise ValueError(
                f"{file_path} (the settings file) cannot be read: {exc.strerror or exc}"
            ) from None
        home = values.get("home")
        if isinstance(home, str) and home.strip() and not home.strip().startswith("~"):
            folder = os.path.dirname(os.path.abspath(file_path))
            values["home"] = os.path.join(folder, home.strip())  # (an absolute one is itself)
        return values


def load_settings(given_as: Mapping[str, str] | None = None, **overrides: Any) -> Settings:
    """Build `Settings` from overrides, env and TOML; a bad value raises `ConfigError` naming it, and
    an override as `given_as` names it (a command's flag)."""
    clean = {key: value for key, value in overrides.items() if value is not None}
    return Settings(given_as=given_as, **clean)


def settings_with(settings: Settings, **overrides: Any) -> Settings:
    """`settings` with `overrides` applied and checked as `load_settings` checks them."""
    clean = {key: value for key, value in overrides.items() if value is not None}
    if not clean:
        return settings
    given = {key.lower() for key in clean}  # (read in any case: `Timeout=3` is no second timeout)
    base = {name: value for name, value in settings.model_dump().items() if name not in given}
    return type(settings)(**{**base, **clean})


def _checked(make: Callable[[], None], given: dict[str, Any], given_as: Mapping[str, str]) -> None:
    """Run `make` (pydantic's build of the settings from `given`, env and TOML): what it raises is a
    `ConfigError` naming each refused setting and its source."""
    try:
        make()
    except ValidationError as exc:
        from webferret.models import validation_problem, without_password

        problems = []
        for err in exc.errors():
            loc = [_field_named(str(err["loc"][0])), *err["loc"][1:]] if err["loc"] else []
            name = ".".join(str(part) for part in loc) or "settings"
            where = _source_of(str(loc[0]) if loc else name, given, given_as)
            problem, value = validation_problem(err), err.get("input")
            if err["type"] == "extra_forbidden":  # pydantic's "Extra inputs are not permitted"
                # `WEBFERRET_TIMEOUT = 5` in the file: a variable's name, copied from the environment
                close = closest(name.lower().removeprefix("webferret_"), Settings.model_fields)
                problem = f"no such setting: did you mean '{close}'?" if close else _NO_SUCH_SETTING
            if err["type"] in ("int_parsing", "float_parsing") and isinstance(value, str):
                problem += _without_unit(name, value)
            named = "(got " in problem  # the check named the value it refused already
            shown = "" if named else f" (got {without_password(repr(value))})"
            problems.append(f"setting '{name}' ({where}): {problem}{shown}")
        raise ConfigError("; ".join(problems)) from None
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"cannot read settings: {config_file()} is not valid TOML: {exc}") from None
    except UnicodeDecodeError as exc:  # tomllib decodes the file before it parses it
        raise ConfigError(f"cannot read settings: {config_file()} is not UTF-8 text: {exc}") from None
    except Exception as exc:
        raise ConfigError(f"cannot read settings: {exc}") from None


_WITH_UNIT = re.compile(r"\s*[-+]?[\d.,_]+(?:e[-+]?\d+)?\s*[a-z]+\s*", re.IGNORECASE)
_UNITS = ("seconds", "bytes", "MiB", "tokens")


def _without_unit(name: str, value: str) -> str:
    """What to write when `value` is a number with a unit (`30s`, `10MB`), which no setting reads:
    the number alone, in the setting's unit; else nothing."""
    field = Settings.model_fields.get(name)
    if field is None or not _WITH_UNIT.fullmatch(value):
        return ""
    about = f"{name} {field.description}"
    unit = next((unit for unit in _UNITS if unit in about), None)
    return f"; write the number alone, without a unit{f' (it counts {unit})' if unit else ''}"


def _field_named(name: str) -> str:
    """The setting that `name` is, or is an alias of (`WEBFERRET_GITHUB_TOKEN` is `github_token`)."""
    for field_name, field in Settings.model_fields.items():
        alias = field.validation_alias
        if isinstance(alias, AliasChoices) and name in (str(choice) for choice in alias.choices):
            return field_name
    return name


_NO_SUCH_SETTING = "no such setting (the README's Configuration table lists them)"


def closest(name: str, names: Iterable[str]) -> str | None:
    """The one of `names` that `name` is most likely a misspelling of, or one with a word added
    (`HOME_DIR`, `CONFIG_FILE`, `TIMEOUT_SECONDS`: the variable a user set, ignored without a word),
    or None (none is close)."""
    import difflib

    names = sorted(names)
    close = difflib.get_close_matches(name, names, n=1, cutoff=0.75)
    longer = [known for known in names if name.startswith(f"{known}_")]
    return close[0] if close else max(longer, key=len) if longer else None


def _source_of(name: str, overrides: dict[str, Any], given_as: Mapping[str, str]) -> str:
    """Where a setting's value came from, in the order they win: an argument (as `given_as` names
    it), the environment, TOML."""
    given = next((key for key in overrides if key.lower() == name), None)  # (read in any case)
    if given is not None:
        return given_as.get(given, "given as an argument")
    names = env_names(name)
    for env in names:
        spelt = next((variable for variable in os.environ if variable.upper() == env), None)
        if spelt is not None:
            return spelt
    toml = config_file()
    return str(toml) if toml else " or ".join(names)


def env_names(name: str) -> list[str]:
    """The environment variables a setting is read from (`WEBFERRET_<NAME>`, or its aliases)."""
    field = Settings.model_fields.get(name)
    if field is not None and isinstance(field.validation_alias, AliasChoices):
        names = [str(alias) for alias in field.validation_alias.choices if str(alias).isupper()]
        if names:
            return names
    return [f"WEBFERRET_{name.upper()}"]


def misspelt_variable(environ: Mapping[str, str]) -> None:
    """A ValueError for a `WEBFERRET_*` variable that is no setting but close to one's name
    (`WEBFERRET_TIMOUT`, `WEBFERRET_ALLOWED_HOSTS`): it would be ignored without a word, and the call
    run without the limit or the hosts its user set. A name close to none is left alone (another
    program's: the benchmark's `WEBFERRET_BENCH_NETNS`, an image's `WEBFERRET_VERSION`)."""
    known = {env.removeprefix("WEBFERRET_") for name in Settings.model_fields for env in env_names(name)}
    known.add("CONFIG")
    for variable in sorted(environ):
        name = variable.upper().removeprefix("WEBFERRET_")  # (read in any case, as the settings are)
        if name == variable.upper() or name in known:
            continue
        close = closest(name, known)
        if close:
            raise ValueError(f"{variable} is no setting: did you mean WEBFERRET_{close}?")


REGION = re.compile(r"[a-z]{2}-(?:[a-z]{2}|tzh)")
"""A search region: country and language, as DuckDuckGo spells it (`us-en`, `de-de`; `tzh`, traditional
Chinese, its one language of three letters: `tw-tzh`, `hk-tzh`; `wt-wt` is none;
`webferret.search.regions` reads it as ISO codes)."""


def region(value: str) -> str:
    """`value` as a search region (lower-cased), or ValueError saying what one looks like."""
    value = value.strip().lower()
    if not REGION.fullmatch(value):
        raise ValueError("a country and a language, such as us-en, de-de or fr-fr (wt-wt: no region)")
    from webferret.search.regions import written_the_other_way

    meant = written_the_other_way(value)
    if meant is not None:  # `en-us` would send Wikipedia to us.wikipedia.org, SearXNG `us-EN`
        raise ValueError(
            f"written language first; a region is a country, then a language, as DuckDuckGo writes "
            f"it: did you mean {meant}?"
        )
    return value


def checked_overrides(
    settings: Settings, overrides: dict[str, Any], where: str, options: type | None = None
) -> dict[str, Any]:
    """Per-call `overrides` (of `where`, e.g. `fetch_options`): each one that names a setting is
    checked and read as that setting is (`engines="a,b"` a list, `timeout="5"` a float); a bad one
    raises `FerretError(invalid_argument)` naming it. The others pass as they are, but with the
    `options` dataclass given, a name that is none of its fields (a typo) is refused too."""
    from webferret.models import ErrorCode, FerretError, validation_problem

    if options is not None:
        known = [field.name for field in dataclasses.fields(options)]
        unknown = [name for name in overrides if name not in known]
        if unknown:
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT,
                f"{where}: unknown option(s) {', '.join(map(repr, unknown))}; it takes {', '.join(known)}",
            )
    copy = settings.model_copy()
    checked = dict(overrides)
    for name, value in overrides.items():
        if value is None or name not in Settings.model_fields:
            continue
        try:
            Settings.__pydantic_validator__.validate_assignment(copy, name, value)
        except ValidationError as exc:
            problem = validation_problem(exc.errors()[0])
            raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{where}: {name}={value!r}: {problem}") from None
        checked[name] = getattr(copy, name)
    return checked


def settings_table() -> str:
    """The README's configuration table, made from the `Settings` fields (a test keeps it current)."""
    rows = ["| setting | environment | default | what it does |", "| --- | --- | --- | --- |"]
    for name, field in Settings.model_fields.items():
        env = ", ".join(f"`{alias}`" for alias in env_names(name))
        rows.append(f"| `{name}` | {env} | {_shown_default(name, field)} | {field.description} |")
    return "\n".join(rows)


def _shown_default(name: str, field: Any) -> str:
    if name == "home":
        return "`$XDG_CACHE_HOME/webferret`"
    if name == "user_agent":
        return "a current Chrome User-Agent + `webferret/0.1`"
    value = field.get_default(call_default_factory=True)
    if isinstance(value, list | dict):
        return f"`{','.join(value)}`" if value else "(none)"
    return "(none)" if value is None else f"`{value}`"
