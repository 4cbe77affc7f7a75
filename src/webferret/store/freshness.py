"""Freshness: when a stored page may answer without the network, and how to revalidate it."""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import urlsplit

from webferret.extract.types import ExtractOptions, scope_ignored
from webferret.fetch.types import FetchOptions
from webferret.models import FetchedVia, Page
from webferret.store.handles import canonical_url
from webferret.store.types import StoredPage
from webferret.store.variants import key_of


def exempt_fetch(options: FetchOptions) -> bool:
    """Does a fetch with `options` lift any of the SSRF guard?"""
    return bool(options.allow_private_hosts or options.allow_hosts)


def permitted(stored: StoredPage, options: FetchOptions) -> bool:
    """May a call with `options` be answered `stored`? A page fetched under an SSRF exemption only
    when this call has the exemption too (all private hosts, or the page's host by name); a page
    read with a caller's own headers (a cookie, a token) never: it may hold what they unlocked."""
    if stored.private:
        return False
    if not stored.exempt:
        return True
    hosts = {urlsplit(url).hostname for url in (stored.page.url, stored.page.final_url) if url}
    return exemption_covers({host for host in hosts if host}, options)


def exemption_covers(hosts: set[str], options: FetchOptions | Any) -> bool:
    """Does the SSRF exemption of `options` (a `FetchOptions`, or `Settings`: `allow_private_hosts`,
    `allow_hosts`) cover a page read from `hosts` under one: all private hosts, or each host by name?"""
    if options.allow_private_hosts:
        return True
    allowed = {host.strip().lower().strip("[]") for host in options.allow_hosts}
    return bool(hosts) and hosts <= allowed


def variant_of(xopts: ExtractOptions) -> str:
    """The variant (`variants.key_of`) a read with `xopts` gives, and is answered from the store by."""
    return key_of(xopts.format, xopts.scope())


def document_variant(xopts: ExtractOptions) -> str | None:
    """The variant a document that is no HTML (a PDF, JSON, text) is kept as when read with `xopts`,
    where that is not `variant_of(xopts)`: its `--format html` is Markdown and a scope is not applied
    to it, so such a read is answered by the copy a read without them kept. None where it is the same."""
    key = key_of("markdown" if xopts.format == "html" else xopts.format, None)
    return key if key != variant_of(xopts) else None


def document_kind(page: Page) -> str | None:
    """The kind of a page that is no HTML (`meta.extract.kind`: pdf, json, text...), or None."""
    extract = page.meta.get("extract")
    kind = extract.get("kind") if isinstance(extract, dict) else None
    return kind if isinstance(kind, str) else None


def usable(stored: StoredPage | None, xopts: ExtractOptions, options: FetchOptions) -> StoredPage | None:
    """`stored`, the copy of the reading `xopts` asks for (looked up by its `variant_of`: the same
    format and scope), if it has the links `xopts` asks for and `options` permit it (a tier asked for
    by name, not `auto`, is answered only by a page that tier read)."""
    if stored is None or not permitted(stored, options):
        return None
    if xopts.links and (stored.page.links is None or _cut_short(stored.page, xopts.link_limit)):
        return None  # stored without links (an older webferret), or with fewer than this call wants
    if options.tier != "auto" and read_via(stored.page) != options.tier:
        return None  # `--tier http` after a browser read asks for a plain reading, and the reverse
    return stored


def _cut_short(page: Page, limit: int) -> bool:
    """Was `page` stored with fewer links than it has (`meta.links_total`) and than `limit` asks?"""
    total = page.meta.get("links_total")
    return isinstance(total, int) and len(page.links or []) < min(limit, total)


def read_via(page: Page) -> str:
    """The tier that read a stored page: its trail's last hop (`fetched_via` is not stored)."""
    trail = page.meta.get("trail")
    last = trail[-1] if isinstance(trail, list) and trail else None
    return str(last.get("via") or "") if isinstance(last, dict) else ""


CLOCK_SLACK = 300.0
"""How far ahead of the clock a stored reading may be dated and still have an age: a store shared by
machines whose clocks differ a little. Further ahead, the clock that dated it has since been set
back (it ran ahead, then was corrected), and how old the reading is cannot be known."""


def is_fresh(stored: StoredPage, fresh_seconds: float, now: float | None = None) -> bool:
    """Was `stored` fetched (or revalidated) less than `fresh_seconds` ago? A reading dated further
    ahead than `CLOCK_SLACK` is not: its age is unknown (it stayed fresh until the clock caught up)."""
    age = (now if now is not None else time.time()) - stored.fetched_at
    return -CLOCK_SLACK <= age < fresh_seconds


def with_validators(options: FetchOptions, stored: StoredPage | None) -> FetchOptions:
    """`options` plus If-None-Match / If-Modified-Since from `stored`, when it has them."""
    if stored is None:
        return options
    extra: list[tuple[str, str]] = []
    if stored.etag:
        extra.append(("If-None-Match", stored.etag))
    if stored.last_modified:
        extra.append(("If-Modified-Since", stored.last_modified))
    if not extra:
        return options
    return options.with_(headers=(*options.headers, *extra))


def validates(stored: StoredPage, answered_at: str | None) -> bool:
    """Does a 304 answered at `answered_at` (where the request's redirects ended) speak of `stored`,
    which was read where its own ended? A URL that redirected to another page (`/maintenance`) and
    answers itself again is asked with that page's validators, and a static server's 304 (its file
    not modified since the other page's date) said nothing of its own page."""
    read_at = stored.page.final_url or stored.page.url
    return answered_at is not None and canonical_url(answered_at) == canonical_url(read_at or "")


def served(page: Page, xopts: ExtractOptions, via: FetchedVia, asked: str | None = None) -> Page:
    """A stored page as a fetch answer (`via` "store" or "revalidated"), links as `xopts` asks;
    `asked`: the URL the call asked for, when the page was stored under another (a redirect's start)."""
    update: dict[str, object] = {"fetched_via": via}
    meta = {key: value for key, value in page.meta.items() if key != "screenshot"}  # that call's picture
    kind = document_kind(page)
    if kind is not None:  # a scope is said ignored when this call asked for one, not when that one did
        ignored = {"scope_ignored": scope_ignored(kind)} if xopts.scope() is not None else {}
        extract = {key: value for key, value in meta["extract"].items() if key != "scope_ignored"}
        meta["extract"] = extract | ignored
    if meta != page.meta:
        update["meta"] = meta
    if asked is not None and asked != page.url:
        update["url"] = asked
    return as_asked(page.model_copy(update=update), xopts)


def as_asked(page: Page, xopts: ExtractOptions) -> Page:
    """`page` with the links `xopts` asks for: none without `links`, else the first `link_limit`,
    and then `meta.links_total` says how many it has (as a reading the store cut says it: a crawl
    counts those past the ones it looked at, also of a page a map stored with more). A page is read
    and stored with all its links (`ferret.STORED_LINKS` at most, more when asked), so that a later
    call can list them from the store."""
    if not xopts.links:
        return page if page.links is None else page.model_copy(update={"links": None})
    if page.links is None or len(page.links) <= xopts.link_limit:
        return page
    total = max(len(page.links), int(page.meta.get("links_total") or 0))
    return page.model_copy(
        update={"links": page.links[: xopts.link_limit], "meta": {**page.meta, "links_total": total}}
    )
