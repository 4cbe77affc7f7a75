"""Verification: request every candidate at once, decide them in rank order, answer once settled.

Every candidate is requested at once (the per-host cap still holds), so the network is parallel.
A response is extracted (and kept in the store, so a listed result can be read later offline) only
while its candidate may still be among the first `wanted` listed ones: the first `wanted` candidates
at once, a spare when a better-ranked candidate turned out dead or a near-duplicate. Until then a
spare's response waits after the network step. The answer is settled as soon as the first `wanted`
reachable, non-duplicate candidates are decided in rank order (every better-ranked one decided);
the candidates after them are cancelled (their requests closed; nothing of theirs reaches the store)
and counted as not needed.
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING
from urllib.parse import urlsplit

from webferret.after_answer import holding, later
from webferret.limits import MAX_CONCURRENCY
from webferret.models import ErrorCode, ErrorInfo, Hit, Page
from webferret.net.canonical import canonical_host, edition_host
from webferret.net.domains import host_of
from webferret.present.dedup import StreamCopies, prepare
from webferret.search.types import DroppedDuplicate, Unreachable
from webferret.tokens import content_tokens

if TYPE_CHECKING:
    from webferret.extract.types import ExtractOptions
    from webferret.ferret import Ferret
    from webferret.fetch.types import FetchOptions
    from webferret.search.unreachable import Recalled, UnreachableMemory

Admit = Callable[[str], Awaitable[ErrorInfo | None]]


VETOES = {
    "soft_404": (ErrorCode.NOT_FOUND, "the page says it does not exist (a soft 404)"),
    "empty_shell": (ErrorCode.EMPTY_CONTENT, "the page is an empty JavaScript app shell, not rendered"),
    "login_wall": (ErrorCode.BLOCKED_BY_SITE, "the page is a login wall: its content is for signed-in users"),
    "cookie_wall": (ErrorCode.BLOCKED_BY_SITE, "the page is a cookie wall: its content waits for consent"),
}
"""The extractor's quality vetoes (`meta.extract.quality_veto`) as a search's errors: what was read in
place of the page the engine ranked, which a result promises."""


def vetoed(page: Page) -> ErrorInfo | None:
    """Why a page read is not the page its result promises (a soft 404, an empty shell, a login or
    cookie wall, a redirect to its site's home page), as an error naming where; None for any other."""
    extract = page.meta.get("extract")
    veto = extract.get("quality_veto") if page.ok and isinstance(extract, dict) else None
    if veto not in VETOES:
        return moved_home(page)
    code, why = VETOES[veto]
    return ErrorInfo(code=code, message=f"{why}: {page.final_url or page.url}")


_HOME_SEGMENT = re.compile(r"(?:index|default|home|start)(?:\.\w+)?|[a-z]{2}(?:[-_][a-z]{2})?", re.IGNORECASE)
"""A path segment of a home page's own address (`/index.html`, `/home`) or a language's (`/en`, `/de-de`)."""


def moved_home(page: Page) -> ErrorInfo | None:
    """`not_found` for a page read at its site's home page after a redirect from an address deeper in
    the site: the page the result named is gone (a removed article redirected home; search engines
    read it as a soft 404), and the home page answers no query. None for any other page."""
    if not page.ok or not page.final_url or page.final_url == page.url or _to_a_place(page):
        return None
    try:
        asked, final = urlsplit(page.url), urlsplit(page.final_url)
    except ValueError:
        return None
    segments = [segment for segment in asked.path.split("/") if segment]
    if final.path not in ("", "/") or final.query or all(map(_HOME_SEGMENT.fullmatch, segments)):
        return None
    if not asked.hostname or not final.hostname or _site(asked.hostname) != _site(final.hostname):
        return None
    message = f"the page is gone: it redirects to its site's home page {page.final_url} (a soft 404)"
    return ErrorInfo(code=ErrorCode.NOT_FOUND, message=message)


def _to_a_place(page: Page) -> bool:
    """Did `page`'s last hop name a place in it (`/#contact`, an app's route `/#/about`)? Its address
    is read without it (a fragment is no page of its own), yet a one-page site's `/contact` sent
    there is that section of the home page, not a removed page sent home. An app's own home route
    (`/#/`, `/#!/`) names no place: it is home."""
    trail = page.meta.get("trail")
    last = trail[-1] if isinstance(trail, list) and trail and isinstance(trail[-1], dict) else {}
    url = last.get("url")
    return isinstance(url, str) and bool(url.partition("#")[2].strip("/!"))


def _site(host: str) -> str:
    return edition_host(canonical_host(host))


def unreadable(page: Page) -> bool:
    """A candidate that cannot be listed: dead, refused, not readable (empty, too large, not a
    document, JavaScript only), or read as something else than the page (`vetoed`). Every listed
    result can be opened and read; the others are `unreachable[]`, each with its error, and a spare
    takes their place."""
    return not page.ok or vetoed(page) is not None


def apply_page(hit: Hit, page: Page) -> Hit:
    """The hit marked reachable or not, with the page's token count and store handle (and its
    title, when the engine gave none)."""
    if unreadable(page):
        return hit.model_copy(update={"reachable": False})
    found = {"reachable": True, "tokens": content_tokens(page), "handle": page.handle}
    if not hit.title.strip() and page.title:
        found["title"] = page.title
    return hit.model_copy(update=found)


@dataclass
class Verification:
    """What verification decided: the hits listed (at most `wanted`), the unreachable ones and the
    dropped near-duplicates among the candidates decided, and how many were not needed."""

    kept: list[Hit] = field(default_factory=list)
    unreachable: list[Unreachable] = field(default_factory=list)
    dropped: list[DroppedDuplicate] = field(default_factory=list)
    not_needed: int = 0
    asked: int = 0  # the candidates requested (`verify_hits` requests them as the order needs them)


class RankOrder:
    """Decides candidates in rank order as their pages arrive (in any order)."""

    def __init__(self, hits: Sequence[Hit], wanted: int, threshold: float) -> None:
        self.hits = list(hits)
        self.wanted = wanted
        self.pages: list[Page | None] = [None] * len(self.hits)
        self.cursor = 0  # every candidate before it is decided
        self.outcome = Verification(asked=len(self.hits))
        self._copies = StreamCopies(threshold)  # the listed pages, for near-duplicates
        self._out: set[int] = set()  # candidates that cannot be listed: dead, or decided duplicates

    @property
    def settled(self) -> bool:
        return len(self.outcome.kept) >= self.wanted or self.cursor >= len(self.hits)

    def needed(self) -> list[int]:
        """Candidates that may still be among the first `wanted` listed ones (monotone: a candidate
        needed once stays needed, since candidates only ever drop out)."""
        chosen: list[int] = []
        possible = 0
        for index in range(len(self.hits)):
            if possible >= self.wanted:
                break
            chosen.append(index)
            possible += index not in self._out
        return chosen

    def arrived(self, index: int, page: Page) -> None:
        """Candidate `index`'s page is in: decide every candidate now decidable in rank order."""
        self.pages[index] = page
        if unreadable(page):
            self._out.add(index)
        prepare(page, len(self.hits))  # shingled now, while later pages are still on their way
        while not self.settled and self.pages[self.cursor] is not None:
            self._decide(self.cursor)
            self.cursor += 1
        if self.settled:
            self.outcome.not_needed = self.outcome.asked - self.cursor

    def _decide(self, index: int) -> None:
        page = self.pages[index]
        assert page is not None
        hit = apply_page(self.hits[index], page)
        if not hit.reachable:
            from webferret.search.unreachable import remembered

            when = page.fetched_at if remembered(page) else None
            error = page.error or vetoed(page)
            self.outcome.unreachable.append(Unreachable(url=hit.url, error=error, remembered_at=when))
            return
        original = self._copies.first_copy(page.content, hit.url)  # else it is remembered as listed
        if original is not None:
            self._out.add(index)
            self.outcome.dropped.append(DroppedDuplicate(url=hit.url, duplicate_of=original))
            kept = self.outcome.kept
            kept[:] = [with_sources(listed, hit) if listed.url == original else listed for listed in kept]
            return
        self.outcome.kept.append(hit)


def with_sources(kept: Hit, copy: Hit) -> Hit:
    """`kept`, also naming the engines that listed `copy`, its page under another URL (a mirror, a
    redirect to it): the sightings are the page's, whichever URL carried them."""
    more = [source for source in copy.sources if all(source.engine != own.engine for own in kept.sources)]
    return kept.model_copy(update={"sources": [*kept.sources, *more]}) if more else kept


@dataclass(frozen=True)
class Attempt:
    """How every candidate of one verification is fetched."""

    ferret: Ferret
    fetch: FetchOptions
    extract: ExtractOptions
    deadline: float  # time.monotonic()
    admit: Admit | None = None
    fresh: bool = False  # no stored page answers
    recalled: asyncio.Task[dict[str, Recalled]] | None = None  # failures remembered, by URL

    async def page(self, url: str, gate: asyncio.Event) -> Page:
        """The network step, then (once `gate` is set) extraction; the store write goes on after
        the page is answered (`keep_later`). A response that waited at the gate gets the per-page
        timeout again: the wait was not its own. A candidate `admit` refuses is not fetched, nor
        one whose failure is remembered (unless the store holds a fresh reading of it)."""
        known = (await self.recalled).get(url) if self.recalled is not None else None
        refusal = await self.admit(url) if self.admit is not None and known is None else None
        if refusal is not None:
            return Page.failed(url, refusal)
        got = await self.ferret.fetch_response(
            url, self.fetch, self.extract, self.deadline, self.fresh, None if known is None else known.page
        )
        if isinstance(got, Page):
            return got
        deadline = self.deadline
        if not gate.is_set():
            await gate.wait()
            deadline = time.monotonic() + self.fetch.timeout
        return await self.ferret.finish_page(got, self.fetch, self.extract, deadline, keep_later=True)


def host_waves(urls: Sequence[str], per_host: int) -> int:
    """How many rounds of requests the busiest host takes at `per_host` at a time: the verification's
    deadline is that many per-page timeouts, so a page queued behind others of its host (a `--site`
    search) gets its own timeout rather than what the pages before it left."""
    hosts = Counter(host_of(url) for url in urls)  # as the fetcher keys its per-host cap
    return max((-(-count // max(per_host, 1)) for count in hosts.values()), default=1)


MAX_WAVES = 3
"""A verification takes at most this many `verify_timeout`s, whatever the queues of its hosts."""


async def verify_hits(
    ferret: Ferret,
    hits: Sequence[Hit],
    wanted: int,
    timeout: float,
    first: int | None = None,
    admit: Admit | None = None,
    fresh: bool = False,
    remember: float | None = None,
) -> Verification:
    """Verify `hits` (best first) until the first `wanted` listable ones are decided. The first
    `first` (all when None) are requested at once; when too many of them turn out unlistable, the
    next ones are requested as the rank order needs them, while the time allows. `admit` says why a
    candidate may not be fetched (`SearchOptions.admit`). `fresh`: every candidate is asked over
    the network; else a failure seen within `remember` seconds (the `unreachable_seconds` setting
    when None) answers for its candidate (`unreachable`)."""
    started = time.monotonic()
    options = ferret.fetch_options(  # a candidate's redirects are admitted too
        timeout=timeout,
        budget=timeout,
        concurrency=max(1, min(len(hits), MAX_CONCURRENCY)),  # engines may list hundreds
        admit=admit,
        timed_by="verify_timeout",
    )
    end = started + timeout * MAX_WAVES
    order = RankOrder(hits, wanted, ferret.settings.dedup_threshold)
    from webferret.store.freshness import exempt_fetch  # loaded with the fetch layer by now

    exempt = exempt_fetch(options)
    memory = None if fresh or options.credentials else _memory(ferret, remember)
    recalled = _recall(memory, hits, timeout, exempt)
    ferret.extractor.warm(min(len(hits), wanted))
    extract = ferret.extract_options()
    gates: list[asyncio.Event] = []
    tasks: dict[asyncio.Task[Page], int] = {}

    def request(upto: int) -> list[asyncio.Task[Page]]:
        """Request the candidates before `upto` not asked yet, with a deadline of their own; answer
        their tasks."""
        batch = hits[len(gates) : upto]
        if not batch:
            return []
        waves = host_waves([hit.url for hit in batch], options.per_host_concurrency)
        deadline = min(time.monotonic() + timeout * waves, end)
        attempt = Attempt(ferret, options, extract, deadline, admit, fresh, recalled)
        asked = []
        for hit in batch:
            gates.append(asyncio.Event())
            task = asyncio.create_task(attempt.page(hit.url, gates[-1]))
            tasks[task] = len(gates) - 1
            asked.append(task)
        order.outcome.asked = len(gates)
        return asked

    pending = set(request(len(hits) if first is None else first))
    try:
        while not order.settled:
            needed = order.needed()
            if needed[-1] >= len(gates) and end - time.monotonic() > timeout / 2:
                pending.update(request(needed[-1] + 1 + max(2, wanted // 2)))  # as many spares as at first
            if not pending:
                break
            for index in needed:
                if index < len(gates):
                    gates[index].set()
            done, pending = await asyncio.wait(pending, return_when=asyncio.FIRST_COMPLETED)
            for task in done:
                order.arrived(tasks[task], task.result())
    finally:
        for task in tasks:
            task.cancel()
        ferret.finish_later(list(tasks))  # the answer does not wait for them to wind down
        if memory is not None:
            _note(ferret, memory, order, timeout, exempt)
    return order.outcome


def _memory(ferret: Ferret, remember: float | None) -> UnreachableMemory | None:
    """The home's memory of failures, kept at most as long as a page read since stays fresh (so a
    reading made after a failure answers from the store while the failure is remembered)."""
    from webferret.search.unreachable import memory_at

    settings = ferret.settings
    seconds = min(settings.unreachable_seconds if remember is None else remember, settings.fresh_seconds)
    return memory_at(settings.home, seconds) if seconds > 0 else None


def _recall(
    memory: UnreachableMemory | None, hits: Sequence[Hit], waits: float, exempt: bool
) -> asyncio.Task[dict[str, Recalled]] | None:
    """The failures remembered of `hits`, asked once in a worker thread (none when no file holds any)."""
    if memory is None or not memory.holds():
        return None
    urls = [hit.url for hit in hits]

    def recall() -> dict[str, Recalled]:
        try:
            return memory.recall(urls, waits, exempt)
        except (sqlite3.Error, OSError, ValueError):  # a damaged file: every candidate is asked
            return {}

    return asyncio.create_task(asyncio.to_thread(recall))


def _note(ferret: Ferret, memory: UnreachableMemory, order: RankOrder, waited: float, exempt: bool) -> None:
    """Keep the failures this verification saw and forget the candidates it read, after the answer:
    in a worker thread the session's close waits for, or, in a served call's child, once its client
    has the answer (making the file in a new home took a served search 3-6 ms; a note not written
    yet only means its candidates are asked again)."""
    from webferret.search.unreachable import Failure, lasting_error

    arrived = [(hit.url, page) for hit, page in zip(order.hits, order.pages, strict=True) if page is not None]
    failed = [Failure(url, error, waited, exempt) for url, page in arrived if (error := lasting_error(page))]
    read = [url for url, page in arrived if page.ok and page.fetched_via != "store"]
    if not failed and not read:
        return
    job = memory.note_later(failed, read)
    if holding():
        later(job)
    else:
        ferret.finish_later([asyncio.create_task(asyncio.to_thread(job))])
