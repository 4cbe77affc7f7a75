"""One `Settings` object: environment `WEBFERRET_*`, an optional TOML file, defaults for everything.

Nothing else in webferret reads the environment for its own settings. A bad value fails at start
with a `ConfigError` that names the setting, never a silent fallback.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, ValidationError, field_validator
from pydantic_settings import (
    BaseSettings,
    NoDecode,
    PydanticBaseSettingsSource,
    SettingsConfigDict,
    TomlConfigSettingsSource,
)

MiB = 1024 * 1024


def default_home() -> Path:
    """The XDG cache dir for webferret (`$XDG_CACHE_HOME/webferret`, else `~/.cache/webferret`)."""
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "webferret"


def default_config_file() -> Path:
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "webferret" / "config.toml"


class ConfigError(ValueError):
    """A setting has a bad value; the message names the setting and what it wanted."""


CommaList = Annotated[list[str], NoDecode]


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
    max_bytes: int = Field(default=10 * MiB, gt=0, description="cap on decompressed body bytes")
    timeout: float = Field(default=30.0, gt=0, description="per-page timeout, seconds")
    budget: float = Field(default=120.0, gt=0, description="per-call time budget, seconds")
    max_redirects: int = Field(default=5, ge=0, le=50)
    max_urls: int = Field(default=8, ge=1, le=1000, description="most URLs in one fetch call")
    per_host_concurrency: int = Field(default=2, ge=1, le=64)
    concurrency: int = Field(default=8, ge=1, le=256, description="pages fetched at once in a batch")
    retry_after_max: float = Field(default=5.0, ge=0, description="longest Retry-After honoured once")
    user_agent: str = Field(
        default="Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) "
        "Chrome/131.0.0.0 Safari/537.36 webferret/0.1",
    )
    allow_hosts: CommaList = Field(default_factory=list, description="hosts/IPs exempt from the SSRF guard")
    allow_private_hosts: bool = False
    tier: Literal["auto", "http", "impersonate", "browser"] = "auto"
    impersonate: str = Field(default="chrome", description="curl_cffi browser fingerprint")
    chromium_path: str = "/usr/bin/chromium"
    browser_ws: str | None = Field(default=None, description="CDP endpoint of an existing browser")
    browser_no_sandbox: bool = False
    browser_heap_mb: int = Field(default=512, ge=64)

    # reading
    format: Literal["markdown", "text"] = "markdown"
    max_tokens: int = Field(default=4000, ge=100, description="budget of one answer on agent faces")
    page_tokens: int = Field(default=4000, ge=100, description="tokens per page when paging a document")
    link_limit: int = Field(default=20, ge=0)
    fresh_seconds: float = Field(default=600.0, ge=0)
    dedup_threshold: float = Field(default=0.9, gt=0, le=1)

    # searching
    searxng_url: str | None = None
    engines: CommaList = Field(default_factory=lambda: ["auto"])
    results: int = Field(default=10, ge=1, le=100)
    engine_timeout: float = Field(default=8.0, gt=0)
    verify: bool = True
    verify_timeout: float = Field(default=10.0, gt=0)
    max_comments: int = Field(default=10, ge=0)
    engine_min_interval: float = Field(
        default=1.0, ge=0, description="seconds between two calls of one engine"
    )
    github_token: str | None = Field(
        default=None,
        validation_alias=AliasChoices("github_token", "WEBFERRET_GITHUB_TOKEN", "GITHUB_TOKEN"),
        description="GitHub token for the github engine (env GITHUB_TOKEN); anonymous when unset",
        repr=False,
    )

    # agent faces
    respect_robots: bool = True
    allowed_domains: CommaList = Field(default_factory=list)
    blocked_domains: CommaList = Field(default_factory=list)
    search_quota: int = Field(default=50, ge=0, description="searches per MCP session; 0 = unlimited")
    datamark: bool = False

    @field_validator("allow_hosts", "engines", "allowed_domains", "blocked_domains", mode="before")
    @classmethod
    def _split_commas(cls, value: Any) -> Any:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
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
        path = Path(os.environ.get("WEBFERRET_CONFIG") or default_config_file())
        sources: list[PydanticBaseSettingsSource] = [init_settings, env_settings]
        if path.is_file():
            sources.append(TomlConfigSettingsSource(settings_cls, toml_file=path))
        return tuple(sources)


def load_settings(**overrides: Any) -> Settings:
    """Build `Settings` from overrides, env and TOML; a bad value raises `ConfigError` naming it."""
    clean = {key: value for key, value in overrides.items() if value is not None}
    try:
        return Settings(**clean)
    except ValidationError as exc:
        problems = []
        for err in exc.errors():
            name = ".".join(str(part) for part in err["loc"]) or "settings"
            env = f"WEBFERRET_{name.upper()}"
            problems.append(f"setting '{name}' ({env}): {err['msg']} (got {err.get('input')!r})")
        raise ConfigError("; ".join(problems)) from None
    except Exception as exc:  # a malformed TOML file, for one
        raise ConfigError(f"cannot read settings: {exc}") from None
