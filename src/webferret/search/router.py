"""Pick engines for a query, run them in parallel (each with its own timeout), fuse their answers.

`--engines a,b,c` runs those engines side by side; `auto` is a chain that falls back to its next
engine when one fails or answers nothing. One engine failing never fails the search.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

from webferret.limits import MAX_QUERY_CHARS
from webferret.models import ErrorCode, ErrorInfo, FerretError, Hit
from webferret.net.canonical import canonical_host, edition_host
from webferret.net.domains import covers, host_of
from webferret.net.hostspec import site_host
from webferret.remote_text import quoted
from webferret.search.engines import BANGS, auto_chain
from webferret.search.fusion import fuse
from webferret.search.runner import EngineRunner, PacingUnavailable
from webferret.search.types import Engine, EngineAnswer, EngineQuery, EngineReport, SearchOptions, since


def parse_bangs(query: str) -> tuple[str, str | None]:
    """Split `!gh`, `!w`, `!r` out of the query: (text without bangs, site of the last bang)."""
    site = None
    words = []
    for word in query.split():
        if word.lower() in BANGS:
            site = BANGS[word.lower()]
        else:
            words.append(word)
    return " ".join(words), site


def parse_site_operator(text: str) -> tuple[str, str | None]:
    """Split a `site:HOST` written in the query out of it: (text without it, the site as `--site`
    reads it). Only a query's one `site:` naming a host, beside other words, counts: an exclusion
    (`-site:x.org`), a part of a site (`site:x.org/docs`, which the web's engines read), a site in
    an OR (`site:x.org OR rust`: its results need not be on it; an OR of other words,
    `rust OR go site:x.org`, binds first), or a query of nothing else stay as written."""
    words = text.split()
    found = [i for i, word in enumerate(words) if word[:5].lower() == "site:"]
    if len(found) != 1 or len(words) < 2 or _in_an_or(words, found[0]):
        return text, None
    written = words[found[0]][5:]
    if "/" in written.rstrip("/"):
        return text, None
    try:
        site = edition_host(site_host(written))
    except ValueError:
        return text, None
    return " ".join(words[: found[0]] + words[found[0] + 1 :]), site


def _in_an_or(words: list[str], at: int) -> bool:
    """Is the word at `at` one side of an `OR` (or `|`), which binds its neighbours before the words
    around them are all asked for?"""
    return any(word in ("OR", "|") for word in words[max(at - 1, 0) : at] + words[at + 1 : at + 2])


def query_text(query: str) -> tuple[str, str | None]:
    """The query as the engines are sent it (`parse_bangs`: bangs left out, one space between words;
    `parse_site_operator`: a `site:HOST` left out, the engines are sent it as the site's) and the
    site it names (its `site:`, else its bang's); a text that is empty, or longer than
    `MAX_QUERY_CHARS`, is `invalid_argument` (a bang does not count: it is never sent)."""
    text, bang_site = parse_bangs(query)
    text, site = parse_site_operator(text)
    site = site or bang_site
    if not text.strip():
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "the query is empty")
    if len(text) > MAX_QUERY_CHARS:
        raise FerretError(
            ErrorCode.INVALID_ARGUMENT,
            f"the query is {len(text):,} characters long (bangs left out); at most {MAX_QUERY_CHARS}",
        )
    return text, site


def keep_on_site(hits: list[Hit], site: str) -> tuple[list[Hit], list[str]]:
    """The hits on `site` (its host or a subdomain; a URL or `host/path` counts by its host), and a
    warning when engines that ignore the `site:` operator answered with other hosts. Both are read
    as the site they are an edition of, as the merge reads them (`net.canonical.edition_host`): a
    mobile or AMP host is its site's (`en.m.wikipedia.org` is on `en.wikipedia.org`, and the other
    way round), old Reddit is Reddit."""
    domain = site_domain(host_of(site) if "://" in site else site.split("/", 1)[0])
    kept = [hit for hit in hits if covers(domain, site_domain(host_of(hit.url)))]
    if len(kept) == len(hits):
        return kept, []
    from webferret.present.pages import counted

    left = counted(len(hits) - len(kept), "result")
    return kept, [f"{left} not on {domain} left out (the site filter: site, a site: in the query or a bang)"]


def site_domain(host: str) -> str:
    """`host` as a site filter compares it: canonical (`www.` dropped, an international name in its
    own letters) and read as the site it is an edition of."""
    return edition_host(canonical_host(host))


def within(hits: list[Hit], time_range: str, now: datetime) -> tuple[list[Hit], list[str]]:
    """The hits not dated before `time_range` (an engine may list older ones: SearXNG's upstreams
    filter by their own clocks, a page's date may be its first version's), and a warning when some
    are left out. An undated hit stays: the engine that found it was asked for the period."""
    first = since(time_range, now).isoformat()
    kept = [hit for hit in hits if not hit.published or hit.published[:10] >= first]
    if len(kept) == len(hits):
        return kept, []
    from webferret.present.pages import counted

    return kept, [
        f"{counted(len(hits) - len(kept), 'result')} dated before {first} left out (--time {time_range})"
    ]


def works(engine: Engine) -> bool:
    """Can `engine` be asked here (`Engine.installed`)? An engine that cannot is never suggested."""
    return engine.installed is None or engine.installed()


@dataclass
class RouterOutcome:
    """Fused hits plus what each engine did."""

    hits: list[Hit] = field(default_factory=list)
    reports: list[EngineReport] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    text: str = ""
    site: str | None = None


class Router:
    """Runs engines by name through one `EngineRunner`."""

    def __init__(self, engines: Mapping[str, Engine], runner: EngineRunner) -> None:
        self.engines = engines
        self.runner = runner

    def plan(self, names: Sequence[str], site: str | None, searxng: bool) -> list[list[str]]:
        """Slots to run in parallel; each slot is a fallback chain (one engine unless `auto`)."""
        slots: list[list[str]] = []
        named = set(names) - {"auto"}  # asked in their own slots, so never only as `auto` fallbacks
        for name in names:
            if name == "auto":
                chain = auto_chain(searxng, site, dict(self.engines))
                slots.append([engine for engine in chain if engine not in named])
            elif name == "searxng" and "searxng" in self.engines and not searxng:
                raise FerretError(
                    ErrorCode.INVALID_ARGUMENT,
                    "the searxng engine needs an instance: set WEBFERRET_SEARXNG_URL or pass --searxng-url",
                )
            elif name in self.engines:
                slots.append([name])
            else:
                known = ", ".join(["auto", *sorted(self.engines)])
                raise FerretError(ErrorCode.INVALID_ARGUMENT, f"unknown engine {name!r}; known: {known}")
        if not slots:
            raise FerretError(ErrorCode.INVALID_ARGUMENT, "no engine selected (the engines list is empty)")
        unique: list[list[str]] = []
        for chain in slots:  # an engine named twice (`searxng,searxng`, `auto,auto`) is asked once
            chain = [name for name in chain if all(name not in other for other in unique)]
            if chain:
                unique.append(chain)
        return unique

    def check_weights(self, weights: Mapping[str, float]) -> None:
        """Every weighted engine must exist (a typo would otherwise weigh nothing, silently)."""
        unknown = sorted(set(weights) - set(self.engines))
        if unknown:
            known = ", ".join(sorted(self.engines))
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT,
                f"engine_weights names unknown engine(s) {', '.join(unknown)}; known: {known}",
            )

    def timed(self, slots: list[list[str]], time_range: str) -> tuple[list[list[str]], list[str]]:
        """The slots less the engines that cannot limit their results to `time_range` (as SearXNG
        leaves them out), with a warning for each engine named on its own; none left is an error."""
        kept, left_out = [], []
        for chain in slots:
            able = [name for name in chain if self.engines[name].time_ranges]
            if able:
                kept.append(able)
            elif len(chain) == 1:
                left_out.append(chain[0])
        if not kept:
            able = [name for name, engine in self.engines.items() if engine.time_ranges and works(engine)]
            names = ", ".join(sorted(able))
            chosen = ", ".join(left_out) or "the chosen engines"
            raise FerretError(
                ErrorCode.INVALID_ARGUMENT,
                f"{chosen} cannot limit results to the past {time_range}; engines that can: {names}",
            )
        return kept, [
            f"{name} left out: it cannot limit results to the past {time_range}" for name in left_out
        ]

    async def search(self, query: str, options: SearchOptions) -> RouterOutcome:
        text, query_site = query_text(query)
        site = options.site or query_site
        slots = self.plan(options.engines, site, bool(options.searxng_url))
        self.check_weights(options.weights)
        outcome = RouterOutcome(text=text, site=site)
        if options.time_range:
            slots, outcome.warnings = self.timed(slots, options.time_range)
        done = await asyncio.gather(*(self._run_chain(chain, text, site, options) for chain in slots))
        answers = []
        for results in done:
            for name, report, answer in results:
                outcome.reports.append(report)
                if answer is not None:
                    outcome.warnings.extend(answer.warnings)
                    answers.append((name, self.engines[name].group, answer.hits))
        outcome.hits = fuse(answers, weights=options.weights)
        if options.time_range:
            outcome.hits, dated = within(outcome.hits, options.time_range, datetime.now(UTC))
            outcome.warnings.extend(dated)
        return outcome

    def _query(self, engine: Engine, text: str, site: str | None, options: SearchOptions) -> EngineQuery:
        return EngineQuery(
            text=text,
            site=site,
            limit=max(options.results, 10),
            region=options.region,
            time_range=options.time_range,
            base_url=options.searxng_url if engine.name == "searxng" else None,
            token=options.github_token if engine.name == "github" else None,
        )

    async def _run_chain(
        self, chain: list[str], text: str, site: str | None, options: SearchOptions
    ) -> list[tuple[str, EngineReport, EngineAnswer | None]]:
        results = []
        for name in chain:
            engine = self.engines[name]
            report, answer = await self._run_one(engine, self._query(engine, text, site, options), options)
            if site and answer is not None:  # an engine that ignores `site:` counts only its on-site hits
                kept, warnings = keep_on_site(answer.hits, site)
                answer = EngineAnswer(kept, [*answer.warnings, *(f"{name}: {w}" for w in warnings)])
            results.append((name, report, answer))
            if answer is not None and answer.hits:
                break
        return results

    async def _run_one(
        self, engine: Engine, query: EngineQuery, options: SearchOptions
    ) -> tuple[EngineReport, EngineAnswer | None]:
        started = time.monotonic()
        error: ErrorInfo | None = None
        answer: EngineAnswer | None = None
        try:
            await self.runner.turn(engine, query)
            started = time.monotonic()  # waiting for its turn among calls is not the engine's time
            async with asyncio.timeout(options.engine_timeout):
                answer = await self.runner.run(engine, query, options.engine_timeout)
        except PacingUnavailable:
            raise
        except TimeoutError:
            message = f"{engine.name} gave no answer within {options.engine_timeout:g} s (engine_timeout)"
            error = ErrorInfo(code=ErrorCode.TIMEOUT, message=message)
        except FerretError as exc:
            error = exc.info()
        except Exception as exc:  # an engine bug must not fail the search
            error = ErrorInfo(
                code=ErrorCode.ENGINE_ERROR,
                message=f"{engine.name}: {type(exc).__name__}: {quoted(str(exc))}",
            )
        elapsed = round((time.monotonic() - started) * 1000, 1)
        count = len(answer.hits) if answer else 0
        return EngineReport(
            name=engine.name, ok=error is None, count=count, elapsed_ms=elapsed, error=error
        ), answer
