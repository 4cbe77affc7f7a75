"""webferret.search.engines: one module per engine; `registry()` names them all."""

from __future__ import annotations

from webferret.search.types import Engine

GENERAL_CHAIN = ("duckduckgo", "brave", "mojeek", "wikipedia")
"""The zero-config `auto` chain when no SearXNG instance is configured."""

BANGS = {"!gh": "github.com", "!w": "wikipedia.org", "!r": "reddit.com"}


def registry() -> dict[str, Engine]:
    """Every engine webferret can run, by name (imports the engine modules on call, not at import)."""
    from webferret.search.engines import ddgs_text, github, reddit, searxng, wikipedia

    engines = {module.ENGINE.name: module.ENGINE for module in (searxng, wikipedia, github, reddit)}
    for name in ddgs_text.BACKENDS:
        engines[name] = ddgs_text.make_engine(name)
    return engines


def auto_chain(searxng_configured: bool, site: str | None, engines: dict[str, Engine]) -> list[str]:
    """The `auto` order: an engine that owns `site` first, then SearXNG when configured, then ddgs."""
    chain = [name for name, engine in engines.items() if site and engine.site and _covers(engine.site, site)]
    if searxng_configured:
        chain.append("searxng")
    chain.extend(name for name in GENERAL_CHAIN if name in engines and name not in chain)
    return chain


def _covers(engine_site: str, site: str) -> bool:
    site = site.lower().removeprefix("www.")
    return site == engine_site or site.endswith("." + engine_site)
