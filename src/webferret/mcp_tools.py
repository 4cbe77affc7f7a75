"""The agent tools (`web_search`, `web_fetch`, `web_open`, `web_crawl`, `web_map`): arguments, policy,
core calls.

Transport-free: each tool takes its validated arguments and answers an `Answer` (fenced Markdown
for the model plus the same data as JSON) or raises `FerretError` (a structured tool error).
`mcp_server.py` puts them on the wire.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass
from typing import Any, Literal, TypeVar

from pydantic import BaseModel, Field, field_validator, model_validator

from webferret.arguments import check_batch
from webferret.config import Settings
from webferret.fetch.robots import RobotsPolicy
from webferret.fetch.robots_cache import home_robots
from webferret.fetch.types import Tier
from webferret.json_args import JsonArgs
from webferret.limits import (
    MAX_LISTED,
    MAX_PASSAGES,
    MAX_QUERY_INPUT,
    MAX_READ,
    MAX_REGION_CHARS,
    MAX_URLS_SETTING,
    MCP_CRAWL_PAGES,
    MCP_LINK_LIMIT,
    MCP_MAP_URLS,
)
from webferret.models import ErrorCode, ErrorInfo, FerretError, OutputFormat, Page
from webferret.net.domains import DomainFilter
from webferret.present import agent as views
from webferret.present.fence import Fence
from webferret.present.pages import counted, failure_text
from webferret.present.shares import answer_budget, page_shares
from webferret.search.types import engine_names
from webferret.store.types import ListedPage, Passage
from webferret.tokens import content_tokens

_Stored = TypeVar("_Stored", ListedPage, Passage)

TimeRange = Literal["day", "week", "month", "year"]
"""`webferret.search.types.TIME_RANGES` as a schema can name them (a test keeps the two equal)."""


SETTING_DEFAULTS = ("results", "verify", "max_tokens", "link_limit")
"""The arguments whose default is the setting of the same name: the tools' schemas name the value the
server's settings give it (`mcp_server.tool_list`), not the shipped default."""


class _ToolArgs(JsonArgs):
    """A tool's arguments (`JsonArgs`: an unknown name, or true for a number, is refused)."""


class WebSearchArgs(_ToolArgs):
    """Search the web: several engines at once, fused, each result checked by fetching it."""

    query: str = Field(
        min_length=1, max_length=MAX_QUERY_INPUT, description="what to search for; bangs !gh !w !r work"
    )
    results: int | None = Field(default=None, ge=1, le=50, description="how many results")
    engines: list[str] | None = Field(
        default=None, description="engines to use, e.g. ['searxng'] (default auto)"
    )
    site: str | None = Field(default=None, description="only results from this host, e.g. docs.python.org")
    time_range: TimeRange | None = Field(
        default=None, description="only results of the past day, week, month or year"
    )
    region: str | None = Field(
        default=None,
        max_length=MAX_REGION_CHARS,
        description="country-language, e.g. de-de or fr-fr (default: the engines')",
    )
    verify: bool | None = Field(default=None, description="fetch every result to drop dead links")
    fresh: bool | None = Field(
        default=None,
        description="verify every result over the network: no stored copy, no dead link remembered "
        "from a recent search",
    )
    read: int | None = Field(
        default=None,
        ge=1,
        le=MAX_READ,
        description="also answer the text of the first N results (each its first page of max_tokens), "
        "to save a web_fetch",
    )
    max_tokens: int | None = Field(
        default=None,
        ge=100,
        le=100_000,
        description="with read: tokens per page read",
    )

    _engines = field_validator("engines", mode="before")(engine_names)  # models send "searxng,github" too


class WebFetchArgs(_ToolArgs):
    """Read web pages as clean Markdown; a long page answers its first page and a handle."""

    urls: list[str] = Field(
        min_length=1,
        max_length=MAX_URLS_SETTING,  # the setting max_urls (8 by default) is the call's own cap
        description="1 to 8 http(s) URLs",
    )
    format: OutputFormat | None = Field(default=None, description="body format: markdown, text or html")
    max_tokens: int | None = Field(default=None, ge=100, le=100_000, description="tokens per page answered")
    selector: str | None = Field(
        default=None, max_length=500, description="keep only the elements matching this CSS selector"
    )
    exclude: list[str] | None = Field(
        default=None, max_length=20, description="CSS selectors of elements to drop before extraction"
    )
    whole_page: bool | None = Field(default=None, description="the whole page, not only its main content")
    links: bool | None = Field(
        default=None, description="also list each page's outgoing links, its main content's first"
    )
    link_limit: int | None = Field(
        default=None, ge=1, le=MCP_LINK_LIMIT, description="most links listed (implies links)"
    )
    wait_for: str | None = Field(
        default=None, max_length=500, description="render in the browser and wait for this CSS selector"
    )
    actions: list[str] | None = Field(
        default=None,
        max_length=20,
        description="render in the browser and do these steps before reading, in order: click:CSS, "
        "type:CSS=TEXT, press:KEY, scroll[:N], wait:SECONDS, wait-for:CSS (e.g. 'click:#load-more')",
    )
    tier: Tier | None = Field(
        default=None,
        description="read with this tier: auto (default), http, impersonate or browser; a stored copy "
        "answers only if that tier read it",
    )
    fresh: bool | None = Field(
        default=None,
        description="read anew: a page read in the last minutes is otherwise answered from the store",
    )

    def fetch_overrides(self) -> dict[str, Any]:
        """The fetch options these arguments ask for (`FetchOptions` has `wait_for` pick the browser,
        and refuses it a tier without one)."""
        asked = {"tier": self.tier, "wait_for": self.wait_for, "actions": tuple(self.actions or ()) or None}
        return {name: value for name, value in asked.items() if value is not None}


LISTED_PAGES = 30  # web_open without a handle or search: the pages stored last
PASSAGES = 10  # web_open with a search: the best passages
STORED_ROBOTS_WAIT = 3.0
"""Seconds a listing or a search of stored pages waits for their sites' robots.txt (once a day a site,
from the network): a site that no longer answers holds it no longer, its pages shown (unread)."""

_VIEWS = {  # web_open's answers that are not a page: each takes a handle and nothing that reads a page
    "outline": "lists one stored document's headings",
    "diff": "compares one stored document's readings",
}


class WebOpenArgs(_ToolArgs):
    """Read a stored page by handle: page K of N, or the passages that match `search` (of every stored
    page, search results included, when no handle is given); with neither, list the pages stored
    last."""

    handle: str | None = Field(
        default=None,
        min_length=3,
        max_length=300,
        description="a handle `site~hash12` from a result; omit it with `search` to search every stored "
        "page, or omit both to list the pages stored last",
    )
    page: int | None = Field(
        default=None, ge=1, description="which page to read (default 1); with search, which ten passages"
    )
    search: str | None = Field(default=None, max_length=500, description="answer passages matching this")
    max_tokens: int | None = Field(default=None, ge=100, le=100_000, description="tokens per page")
    links: bool | None = Field(
        default=None, description="also list the page's outgoing links (kept for every stored page) to follow"
    )
    link_limit: int | None = Field(
        default=None, ge=1, le=MCP_LINK_LIMIT, description="most links listed (implies links)"
    )
    outline: bool | None = Field(
        default=None,
        description="list the document's headings with the page each is on and its size, to read "
        "only the pages needed (pages counted at max_tokens)",
    )
    diff: bool | None = Field(
        default=None,
        description="show what changed between the page's newest reading and the one before it "
        "(a fetch says `changed since ...` when it found the page changed)",
    )
    site: str | None = Field(
        default=None,
        min_length=1,
        max_length=253,
        description="without a handle: list or search only this host's stored pages (its subdomains too)",
    )

    @model_validator(mode="after")
    def _handle_or_search(self) -> WebOpenArgs:
        if self.search is not None and not self.search.strip():
            raise ValueError("the search is blank: give words to look for across the stored pages")
        if self.site is not None and self.handle is not None:
            raise ValueError("site narrows the stored pages listed or searched: it takes no handle")
        if self.handle is None and self.search is None:
            given = [name for name in ("page", "links", "link_limit") if getattr(self, name)]
            if given:
                raise ValueError(f"{given[0]} reads one stored page: give its handle")
        for view, does in _VIEWS.items():
            if getattr(self, view):
                others = ("search", "page", "links", "link_limit", *(name for name in _VIEWS if name != view))
                clash = [name for name in others if getattr(self, name)]
                if clash:
                    raise ValueError(f"{view} {does}: it takes a handle and not {clash[0]}")
                if self.handle is None:
                    raise ValueError(f"{view} {does}: give its handle")
        return self


class WebCrawlArgs(_ToolArgs):
    """Read a site by following its links from one page, within a scope; every page into the store."""

    url: str = Field(min_length=1, max_length=2000, description="the http(s) page to start from")
    depth: int | None = Field(default=None, ge=0, le=3, description="link hops from url (default 1)")
    limit: int | None = Field(
        default=None, ge=1, le=MCP_CRAWL_PAGES, description="most pages read (default 10)"
    )
    scope: str | None = Field(
        default=None,
        max_length=2000,
        description="follow only links under this URL prefix on url's host (default: the folder of the "
        "page url leads to)",
    )
    include: list[str] | None = Field(
        default=None,
        max_length=20,
        description="follow only URL paths matching one of these globs, e.g. '/docs/*'",
    )
    exclude: list[str] | None = Field(
        default=None, max_length=20, description="never follow paths matching these globs"
    )
    sitemap: bool | None = Field(
        default=None, description="also read the pages the site's sitemaps list (in scope, to the limit)"
    )
    fresh: bool | None = Field(default=None, description="read every page anew, not from the store")


class WebMapArgs(_ToolArgs):
    """List a site's URLs from one page's links and its sitemaps, without reading them."""

    url: str = Field(min_length=1, max_length=2000, description="an http(s) page of the site")
    search: str | None = Field(
        default=None,
        min_length=1,
        max_length=200,
        description="only URLs whose link text or path holds these words, best first",
    )
    limit: int | None = Field(
        default=None, ge=1, le=MCP_MAP_URLS, description="most URLs listed (default 50)"
    )
    scope: str | None = Field(
        default=None,
        max_length=2000,
        description="list only URLs under this prefix on url's host (default: the host url leads to)",
    )
    include: list[str] | None = Field(
        default=None, max_length=20, description="list only URL paths matching one of these globs"
    )
    exclude: list[str] | None = Field(
        default=None, max_length=20, description="never list paths matching these"
    )
    sitemap: bool | None = Field(default=None, description="read the site's sitemaps too (default true)")
    fresh: bool | None = Field(default=None, description="read the page anew, not from the store")


TOOLS: dict[str, type[BaseModel]] = {
    "web_search": WebSearchArgs,
    "web_fetch": WebFetchArgs,
    "web_open": WebOpenArgs,
    "web_crawl": WebCrawlArgs,
    "web_map": WebMapArgs,
}


class BatchFailed(FerretError):
    """A `web_fetch` batch where every URL failed: the first URL's code, and each URL's own error."""

    def __init__(self, code: ErrorCode, message: str, pages: list[dict[str, Any]]) -> None:
        super().__init__(code, message)
        self.pages = pages


@dataclass(frozen=True)
class Answer:
    text: str
    data: dict[str, Any]


async def first_page_entry(ferret: Any, page: Page, max_tokens: int) -> dict[str, Any]:
    """A page's JSON for agents; a page longer than `max_tokens` carries only its first page
    (`page`, `pages` and its `handle` say how to read on)."""
    entry = page.model_dump(mode="json", exclude={"jsonld"})  # `links` only when the call asked for them
    if not page.ok:
        return entry
    tokens = content_tokens(page)
    entry.update(tokens=tokens, page=1, pages=1)
    if tokens <= max_tokens:
        return entry
    if page.handle and hasattr(ferret, "open"):
        opened = await ferret.open(page.handle, 1, page_tokens=max_tokens)
        entry.update(content=opened.content, page=opened.page, pages=opened.pages, outline=opened.outline)
        return entry
    cut = len(page.content) * max_tokens // max(tokens, 1)
    entry["content"] = page.content[:cut] + "\n\n[clipped: no store to continue from]"
    return entry


async def first_page_entries(
    ferret: Any, pages: list[Page], max_tokens: int, answer_tokens: int
) -> list[dict[str, Any]]:
    """Each page's `first_page_entry`, the pages sharing `answer_tokens` (`page_shares`); a page
    answered at a page size under `max_tokens` says which in `page_tokens`, the size its next page is
    read at. A page the answer shows once already (`views.repeats_of`) takes no share of its own: asked
    again, it is counted (`pages`, `next`) at the size it is shown at."""
    idents = [{"url": p.url, "handle": p.handle, "ok": p.ok, "duplicate_of": p.duplicate_of} for p in pages]
    repeats = views.repeats_of(idents)
    shown = [i for i, page in enumerate(pages) if page.ok and i not in repeats]
    sizes = page_shares([content_tokens(pages[i]) for i in shown], max_tokens, answer_tokens)
    share = dict(zip(shown, sizes, strict=True))
    entries = []
    for index, page in enumerate(pages):
        first = repeats.get(index, ("", None))[1]  # the entry shown for the same page, when it is one
        size = share.get(index) or (max_tokens if first is None else share.get(first, max_tokens))
        entry = await first_page_entry(ferret, page, size)
        if size < max_tokens and entry.get("pages", 1) > 1:
            entry["page_tokens"] = size
        entries.append(entry)
    return entries


def as_tool_calls(entry: dict[str, Any], max_tokens: int | None) -> None:
    """Name how to read on from a page's first page (`next`, `outline`) as the tool calls its text
    names, at the page size the call asked for (or the smaller one its share of the answer was,
    `page_tokens`), not as the store's CLI commands."""
    handle = entry["handle"]
    max_tokens = entry.get("page_tokens") or max_tokens
    if entry.get("page", 1) < entry.get("pages", 1):
        entry["next"] = views.open_call(handle, entry["page"] + 1, max_tokens)
    if entry.get("outline"):
        entry["outline"] = views.outline_call(handle, max_tokens)


class AgentTools:
    """One server's tools over one `Ferret`; search quotas are counted per client session."""

    def __init__(self, ferret: Any, settings: Settings) -> None:
        self.ferret = ferret
        self.settings = settings
        self.domains = DomainFilter.of(settings.allowed_domains, settings.blocked_domains)
        self._searches: dict[str, int] = {}
        self._robots: RobotsPolicy | None = None

    def fence(self) -> Fence:
        return Fence.new(datamark=self.settings.datamark)

    # -- web_search --------------------------------------------------------------------------
    def _spend_search(self, session: str) -> None:
        quota = self.settings.search_quota
        used = self._searches.get(session, 0)
        if quota and used >= quota:
            raise FerretError(
                ErrorCode.QUOTA_EXCEEDED,
                f"this session used its {counted(quota, 'search', 'searches')}"
                " (setting search_quota); read stored pages with "
                "web_open or ask the user to raise the quota",
            )
        self._searches[session] = used + 1

    async def web_search(self, args: WebSearchArgs, session: str = "stdio") -> Answer:
        from webferret.search.types import SearchOptions

        options = SearchOptions.from_settings(
            self.settings,
            results=args.results,
            engines=args.engines,
            site=args.site,
            time_range=args.time_range,
            region=args.region,
            verify=args.verify,
            fresh=args.fresh,
            refuse=self.domains.refusal if self.domains.active else None,
            admit=self._admission,
        )
        from webferret.search.reading import check_read

        check_read(args.read, options.verify, args.max_tokens, "max_tokens")  # before a search is spent
        self._spend_search(session)
        try:
            result = await self.ferret.search(args.query, options)
        except FerretError as exc:
            if exc.code == ErrorCode.INVALID_ARGUMENT:  # a call refused for its arguments spends none
                self._searches[session] -= 1
            raise
        if result.error is not None:
            raise FerretError(result.error.code, result.error.message)
        data = result.model_dump(mode="json")
        fence = self.fence()
        text = views.render_search(data, fence)
        if args.read:
            from webferret.search.reading import mark_shares, read_shared

            page_tokens = args.max_tokens or self.settings.max_tokens
            budget = answer_budget(self.settings.answer_tokens, args.max_tokens)
            read, sizes = await read_shared(self.ferret, result, args.read, page_tokens, budget)
            data["read"] = [page.model_dump(mode="json") for page in read]
            mark_shares(data["read"], sizes, page_tokens)  # each its share of the answer
            for entry in data["read"]:  # the calls that continue, as the text names them (not commands)
                as_tool_calls(entry, args.max_tokens)
            if read:
                text += "\n\n" + views.render_read(data["read"], data["results"], fence, args.max_tokens)
        return Answer(text, data)

    # -- web_fetch ---------------------------------------------------------------------------
    def _robots_policy(self) -> RobotsPolicy:
        if self._robots is None:
            self._robots = home_robots(self.ferret)
        return self._robots

    async def _refusal(self, url: str) -> ErrorInfo | None:
        """Why the agent may not fetch `url` (not a URL, domain lists, robots.txt), or None."""
        from webferret.net.policy import parse_url

        try:
            parse_url(url)  # a URL that is none is said to be so, not looked up for robots.txt
        except FerretError as exc:
            return exc.info()
        return await self._admit(url)

    async def _admit(self, url: str) -> ErrorInfo | None:
        """Why the agent may not read the page at `url` (domain lists, robots.txt), or None: asked of
        every URL it gives, and of every page a fetch is then led to (`FetchOptions.admit`: a
        redirect's hop, where a script navigates), so a redirect leads nowhere the lists refuse."""
        reason = self.domains.refusal(url)
        if reason:
            return ErrorInfo(code=ErrorCode.INVALID_ARGUMENT, message=reason)
        if not self.settings.respect_robots:
            return None
        return await self._robots_refusal(url)

    @property
    def _admission(self) -> Any:
        """`_admit`, when the lists or robots.txt can refuse anything."""
        return self._admit if self.domains.active or self.settings.respect_robots else None

    async def _robots_refusal(self, url: str) -> ErrorInfo | None:
        """Why robots.txt forbids the agent to fetch `url` (or why it could not be read), or None:
        for `web_fetch`, and for each page `web_search` fetches to verify it."""
        if not url.lower().startswith(("http://", "https://")):
            return None
        try:
            await self._robots_policy().check(url)
        except FerretError as exc:
            return exc.info()
        return None

    async def web_fetch(self, args: WebFetchArgs) -> Answer:
        check_batch(len(args.urls), self.settings.max_urls)  # before any robots.txt is asked for
        max_tokens = args.max_tokens or self.settings.max_tokens
        checked = await asyncio.gather(*(self._refusal(url) for url in args.urls))
        refusals = dict(zip(args.urls, checked, strict=True))
        allowed = [url for url in args.urls if refusals[url] is None]
        xopts = self.ferret.extract_options(
            format=args.format,
            selector=args.selector,
            exclude=tuple(args.exclude or ()),
            whole_page=args.whole_page,
            links=args.links or args.link_limit is not None,
            link_limit=args.link_limit,
        )
        options = self.ferret.fetch_options(**args.fetch_overrides(), admit=self._admission)
        fetched = iter(
            await self.ferret.fetch_many(allowed, options=options, extract=xopts, fresh=bool(args.fresh))
            if allowed
            else []
        )
        pages = [Page.failed(url, refusals[url]) if refusals[url] else next(fetched) for url in args.urls]
        entries = await first_page_entries(
            self.ferret, pages, max_tokens, answer_budget(self.settings.answer_tokens, args.max_tokens)
        )
        for entry in entries:
            if entry.get("handle") and entry.get("page", 1) < entry.get("pages", 1):  # as the text says
                as_tool_calls(entry, args.max_tokens)
        if not any(entry["ok"] for entry in entries):
            code = entries[0]["error"]["code"]
            pages = [{"url": entry["url"], "error": entry["error"]} for entry in entries]
            raise BatchFailed(
                ErrorCode(code), "; ".join(failed_line(entry, code) for entry in entries), pages
            )
        text = views.render_pages(entries, self.fence(), args.max_tokens)
        for index in views.repeated(entries):  # one line in the text: the page is above, not again
            entries[index] = {**entries[index], "content": "", "links": None}
        return Answer(text, {"pages": entries, "max_tokens": max_tokens})

    # -- web_crawl ---------------------------------------------------------------------------
    async def web_crawl(self, args: WebCrawlArgs) -> Answer:
        from webferret.crawler import CrawlOptions

        await self._check_start(args.url)  # a start that is no URL is said to be so, not its scope
        options = CrawlOptions(
            depth=1 if args.depth is None else args.depth,
            limit=args.limit or 10,
            scope=args.scope,  # none: the folder of the page the start landed on, as the CLI's
            include=tuple(args.include or ()),
            exclude=tuple(args.exclude or ()),
            robots=self.settings.respect_robots,
            sitemap=bool(args.sitemap),
        )
        self._check_scope(args.url, args.scope)
        fetch = self.ferret.fetch_options(admit=self._admission)
        result = await self.ferret.crawl(args.url, options, fetch=fetch, fresh=bool(args.fresh))
        data = result.model_dump(mode="json")
        if not any(page["ok"] for page in data["pages"]):  # nothing read: the tool failed, as the CLI's does
            entries = [page for page in data["pages"] if page.get("error")]
            code = entries[0]["error"]["code"] if entries else ErrorCode.NOT_FOUND.value
            said = "; ".join(failed_line(entry, code) for entry in entries) or "the crawl read no page"
            pages = [{"url": entry["url"], "error": entry["error"]} for entry in entries]
            raise BatchFailed(ErrorCode(code), said, pages)
        return Answer(views.render_crawl(data, self.fence()), data)

    async def _check_start(self, url: str) -> None:
        """Refuse a crawl's or map's start as a fetch of it is refused (not a URL, the domain lists,
        robots.txt)."""
        refused = await self._refusal(url)
        if refused is not None:
            raise FerretError(refused.code, refused.message)

    def _check_scope(self, url: str, scope: str | None) -> None:
        """Refuse a crawl's or map's scope that the domain lists refuse, or off its start's host:
        what they list is on that host alone. None (the agent named none): the crawl or map scopes
        itself by where the start landed, each page it reads admitted as a fetch's (`_admission`:
        a redirect's hop to a host the lists refuse is not read)."""
        from webferret.crawl_rules import site_of

        if scope is None:
            return
        outside = self.domains.refusal(scope)
        if outside:
            raise FerretError(ErrorCode.INVALID_ARGUMENT, outside)
        if site_of(scope) != site_of(url):
            message = f"scope {scope!r} is not on the host and port of {url!r}"
            raise FerretError(ErrorCode.INVALID_ARGUMENT, message)

    # -- web_map -----------------------------------------------------------------------------
    async def web_map(self, args: WebMapArgs) -> Answer:
        from webferret.site_map import MapOptions

        await self._check_start(args.url)
        self._check_scope(args.url, args.scope)
        options = MapOptions(
            limit=args.limit or 50,
            search=args.search,
            scope=args.scope,  # none: the host the start landed on, as the CLI's
            include=tuple(args.include or ()),
            exclude=tuple(args.exclude or ()),
            robots=self.settings.respect_robots,
            sitemap=args.sitemap is not False,
        )
        fetch = self.ferret.fetch_options(admit=self._admission)
        result = await self.ferret.map_site(args.url, options, fetch=fetch, fresh=bool(args.fresh))
        if not result.urls and result.start_error is not None:  # nothing to go on: failed, as the CLI's map
            said = result.start_error.message
            why = "no sitemap listed a URL" if options.sitemap else "sitemaps were not asked (sitemap: false)"
            raise FerretError(result.start_error.code, f"the start page could not be read, and {why}: {said}")
        data = result.model_dump(mode="json")
        return Answer(views.render_map(data, self.fence()), data)

    # -- web_open ----------------------------------------------------------------------------
    async def web_open(self, args: WebOpenArgs) -> Answer:
        if args.search:
            return await self._passages(args)
        if args.handle is None:
            return await self._listed(args.site)
        page_tokens = args.max_tokens or self.settings.max_tokens
        if args.outline:
            return await self._outline(args.handle, page_tokens, args.max_tokens)
        if args.diff:
            diff = await self.ferret.diff(args.handle)
            await self._refuse_stored(diff.handle, diff.url)
            data = diff.model_dump(mode="json")
            text = views.render_diff(data, self.fence(), page_tokens)
            every = data["diff"].split("\n")
            shown = views.diff_shown(every, page_tokens)
            if shown != every:  # the structured content holds what the text shows (cut, or narrowed)
                data.update(diff="\n".join(shown), diff_lines=len(every))
            return Answer(text, data)
        links = bool(args.links) or args.link_limit is not None
        opened = await self.ferret.open(
            args.handle, args.page or 1, page_tokens=page_tokens, links=links, link_limit=args.link_limit
        )
        await self._refuse_stored(opened.handle, opened.url)
        data = opened.model_dump(mode="json")
        outlined = opened.page == 1 and opened.outline is not None
        hint = views.continue_hint(
            opened.handle, opened.page, opened.pages, args.max_tokens, outlined=outlined
        )
        data["next"] = views.open_call(opened.handle, opened.page + 1, args.max_tokens) if hint else None
        if data.get("outline"):  # the call that lists its headings, as the text names it (not a command)
            data["outline"] = views.outline_call(opened.handle, args.max_tokens)
        stored = await self.ferret.stored(args.handle)  # the header counts the document, not this page
        entry = views.opened_entry(data, stored.page.tokens if stored is not None else None)
        text = views.render_pages([entry], self.fence(), args.max_tokens)
        if links and opened.links is None:
            fetch = f"web_fetch(urls=[{opened.url!r}], links=true)"
            text += "\n" + views.safe_message(f"No links are stored for this page; {fetch} reads them.")
        return Answer(text, data)

    async def _refuse_stored(self, handle: str, url: str, withheld: set[str] | None = None) -> None:
        """A stored page is not the agent's to read when the domain lists refuse its URL (stored
        before the lists said so, or by another face), when it was read under an SSRF exemption
        (`--allow-host`, by the CLI) this server does not have (`_withheld`), or when robots.txt
        disallows it and this server honours robots.txt (a stored copy of an unreachable site's
        page is read)."""
        reason = self.domains.refusal(url) if url else None
        if reason:
            raise FerretError(ErrorCode.INVALID_ARGUMENT, reason)
        if handle in (await self._withheld() if withheld is None else withheld):
            message = (
                f"{handle} was read from a private address under an exemption of the address guard "
                "(--allow-host or --allow-private-hosts) this server does not have"
            )
            raise FerretError(ErrorCode.BLOCKED_ADDRESS, message)
        if self.settings.respect_robots and url:  # read by a face that ignored robots.txt: not for the agent
            refused = await self._robots_refusal(url)
            if refused is not None and refused.code == ErrorCode.ROBOTS_DISALLOWED:  # (unreachable: read on)
                raise FerretError(refused.code, f"{handle}: {refused.message}")

    def _shown(self, url: str | None, handle: str | None, withheld: set[str]) -> bool:
        """Whether a stored page listed or found may be shown to the agent: neither refused by the
        domain lists nor `withheld` (the filter of a listing and of a search; `_refuse_stored` says
        why of one page asked for)."""
        return not (url and self.domains.refusal(url)) and handle not in withheld

    async def _robots_kept(self, found: list[_Stored], wanted: int) -> list[_Stored]:
        """`found` without the pages robots.txt disallows, when this server honours it, kept in order
        and checked until `wanted` are kept (the rest follow unchecked): a listing or a search of
        every stored page asks robots.txt only of the sites of what it shows, as `_refuse_stored`
        asks of one page (a robots.txt that cannot be read, or not within `STORED_ROBOTS_WAIT`, refuses
        nothing)."""
        if not self.settings.respect_robots:
            return found
        kept: list[_Stored] = []
        verdicts: dict[str, bool] = {}
        index = 0
        loop = asyncio.get_running_loop()
        ends = loop.time() + STORED_ROBOTS_WAIT
        while index < len(found) and len(kept) < wanted:
            batch = found[index : index + wanted - len(kept)]
            index += len(batch)
            urls = list(dict.fromkeys(item.url for item in batch if item.url and item.url not in verdicts))
            checks = [asyncio.ensure_future(self._disallowed(url)) for url in urls]
            try:
                if checks:
                    await asyncio.wait(checks, timeout=max(0.0, ends - loop.time()))
            except asyncio.CancelledError:  # the call was: its checks are
                for check in checks:
                    check.cancel()
                raise
            for url, check in zip(urls, checks, strict=True):  # unanswered in time: unread, refuses nothing
                verdicts[url] = not (check.done() and check.exception() is None and check.result())
                check.cancel()
            kept += [item for item in batch if not item.url or verdicts[item.url]]
        return kept + found[index:]

    async def _disallowed(self, url: str) -> bool:
        """Whether robots.txt disallows `url` (one that cannot be read disallows nothing here)."""
        refused = await self._robots_refusal(url)
        return refused is not None and refused.code == ErrorCode.ROBOTS_DISALLOWED

    async def _withheld(self) -> set[str]:
        """The handles of stored documents read under an SSRF exemption this server's settings do
        not cover: an agent reads no private page the guard would keep it from fetching."""
        from webferret.store.freshness import exemption_covers

        exempt = await self.ferret.exempt_documents()
        return {handle for handle, hosts in exempt.items() if not exemption_covers(hosts, self.settings)}

    async def _outline(self, handle: str, page_tokens: int, asked_tokens: int | None) -> Answer:
        outline = await self.ferret.outline(handle, page_tokens)
        await self._refuse_stored(outline.handle, outline.url)
        data = views.cut_outline(outline.model_dump(mode="json"))  # the structured content: as shown
        return Answer(views.render_outline(data, self.fence(), asked_tokens), data)

    async def _listed(self, site: str | None) -> Answer:
        withheld = await self._withheld()
        if not self.domains.active and not withheld and not self.settings.respect_robots:
            listed = await self.ferret.list_stored(site, LISTED_PAGES)
        else:  # the pages refused (lists, withheld, robots.txt) are left out before the newest are taken
            listed = await self.ferret.list_stored(site, MAX_LISTED)
            allowed = [page for page in listed.pages if self._shown(page.url, page.handle, withheld)]
            total = len(allowed) if listed.total <= MAX_LISTED else listed.total  # (robots.txt unasked)
            shown = await self._robots_kept(allowed, LISTED_PAGES)
            total -= len(allowed) - len(shown)  # those it disallowed among the ones checked
            listed = listed.model_copy(update={"pages": shown[:LISTED_PAGES], "total": total})
        data = listed.model_dump(mode="json")
        return Answer(views.render_listed(data, self.fence()), data)

    async def _passages(self, args: WebOpenArgs) -> Answer:
        """The passages matching `search`, ten a page (`page`: the next ten), best first."""
        withheld = await self._withheld()
        if args.handle is not None:  # one document the agent may not open (lists, guard, robots.txt): said so
            stored = await self.ferret.stored(args.handle)
            if stored is not None:
                handle = stored.page.handle or args.handle
                await self._refuse_stored(handle, stored.page.final_url or stored.page.url, withheld)
        page = args.page or 1
        start = (page - 1) * PASSAGES
        # one more than the page holds says whether another follows; refused ones are left out first
        filtered = self.domains.active or bool(withheld) or self.settings.respect_robots
        most = MAX_PASSAGES if filtered else min(start + PASSAGES + 1, MAX_PASSAGES)
        found = await self.ferret.find(args.search, [args.handle] if args.handle else None, most, args.site)
        found = [p for p in found if self._shown(p.url, p.handle, withheld)]
        if args.handle is None:  # (one page's robots.txt was asked above)
            found = await self._robots_kept(found, start + PASSAGES + 1)
        shown = found[start : start + PASSAGES]
        more = len(found) > start + PASSAGES
        following = views.passages_call(args.search or "", args.handle, page + 1, args.site) if more else None
        data = {
            "handle": args.handle,
            "search": args.search,
            "site": args.site,
            "page": page,
            "passages": [passage.model_dump(mode="json") for passage in shown],
            "next": following,
        }
        size = self.settings.page_tokens  # passages are numbered in the store's pages
        # named when web_open's default (max_tokens) cuts other pages, or when this call asked for others
        asked = {self.settings.max_tokens, args.max_tokens or size}
        counted_in = size if asked != {size} else None
        text = views.render_passages(data, self.fence(), page_tokens=counted_in)
        if more:
            text += f"\nThe next {PASSAGES} passages: {data['next']}."
        elif not shown and start and len(found) >= MAX_PASSAGES:  # the cap, not what matched
            last = -(-MAX_PASSAGES // PASSAGES)
            best = f"a search answers its best {MAX_PASSAGES} passages (pages 1-{last})"
            text += f"\nPage {page} is past the last: {best}."
        elif not shown and start:
            text += f"\nPage {page} is past the last of the {counted(len(found), 'passage')} found."
        return Answer(text, data)


def failed_line(entry: dict[str, Any], code: str) -> str:
    """`URL: message` of a failed page as the CLI's failure line says it (`failure_text`), with its
    code first when it differs from the answer's `code`."""
    error = entry["error"]
    return failure_text(error["code"], entry["url"], error["message"], show_code=error["code"] != code)
