"""webferret: self-hosted web search and web reading for AI agents."""

from __future__ import annotations

TYPE_CHECKING = False  # as `typing.TYPE_CHECKING`: `typing` is not imported by the program's start

__version__ = "0.1.0"

__all__ = [
    "ConfigError",
    "CrawlOptions",
    "CrawlResult",
    "DocumentOutline",
    "Envelope",
    "ErrorCode",
    "ErrorInfo",
    "Ferret",
    "FerretError",
    "Hit",
    "MapOptions",
    "OpenedPage",
    "Page",
    "Passage",
    "SearchResult",
    "Settings",
    "SiteMap",
    "__version__",
    "crawl",
    "fetch",
    "fetch_many",
    "map_site",
    "outline",
    "search",
]  # `find` and `open` too, as attributes (`webferret.open`): a star import must not hide the built-in open

if TYPE_CHECKING:
    from typing import Any

    from webferret.config import ConfigError, Settings
    from webferret.crawler import CrawlOptions, CrawlResult
    from webferret.ferret import Ferret
    from webferret.models import Envelope, ErrorCode, ErrorInfo, FerretError, Hit, Page
    from webferret.search.types import SearchResult
    from webferret.site_map import MapOptions, SiteMap
    from webferret.store.types import DocumentOutline, OpenedPage, Passage
    from webferret.sync_api import crawl, fetch, fetch_many, map_site, outline, search
    from webferret.sync_api import find as find
    from webferret.sync_api import open as open

_LAZY = {
    "ConfigError": "webferret.config",
    "Settings": "webferret.config",
    "Ferret": "webferret.ferret",
    "CrawlOptions": "webferret.crawler",
    "CrawlResult": "webferret.crawler",
    "crawl": "webferret.sync_api",
    "fetch": "webferret.sync_api",
    "fetch_many": "webferret.sync_api",
    "find": "webferret.sync_api",
    "map_site": "webferret.sync_api",
    "open": "webferret.sync_api",
    "outline": "webferret.sync_api",
    "search": "webferret.sync_api",
    "Envelope": "webferret.models",
    "ErrorCode": "webferret.models",
    "ErrorInfo": "webferret.models",
    "FerretError": "webferret.models",
    "Hit": "webferret.models",
    "Page": "webferret.models",
    "SearchResult": "webferret.search.types",
    "MapOptions": "webferret.site_map",
    "SiteMap": "webferret.site_map",
    "OpenedPage": "webferret.store.types",
    "DocumentOutline": "webferret.store.types",
    "Passage": "webferret.store.types",
}


def __dir__() -> list[str]:
    """The public names too (`help(webferret)`, a shell's completion), imported or not yet."""
    return sorted({*globals(), *_LAZY})


def __getattr__(name: str) -> Any:
    """Import the public names on first use, so `webferret --help` stays fast."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'webferret' has no attribute {name!r}")
    import importlib

    return getattr(importlib.import_module(module), name)
