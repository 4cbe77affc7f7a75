"""Compact, fenced Markdown views for agents (MCP tools and the CLI's `--agent` view).

Everything that comes from a page or an engine (titles, snippets, bodies, passages) goes inside
the answer's fence; what webferret itself says (counts, handles, how to continue, errors) stays
outside it. Views take the JSON form of the data (`model_dump(mode="json")`), which is also what
the MCP tools answer as structured content, so both carry the same data.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any, Literal

from webferret.limits import MCP_LINK_LIMIT
from webferret.models import Link, Product
from webferret.present.commands import command
from webferret.present.diff_view import diff_shown
from webferret.present.disclosure import OUTLINE_FROM_PAGES
from webferret.present.fence import Fence, neutralize
from webferret.present.pages import (
    change_fact,
    counted,
    failure_line,
    link_lines,
    not_followed_text,
    not_stored_text,
    product_facts,
    utc_minute,
)
from webferret.remote_text import one_line

JSON = Mapping[str, Any]
Style = Literal["mcp", "cli"]


def _open_call(handle: str, flag: str, argument: str, max_tokens: int | None, style: Style) -> str:
    """`web_open(handle=..., ARGUMENT[, max_tokens=N])`, or for `cli` the command `webferret open
    HANDLE FLAG [--page-tokens N] --agent` (the agent view again, so what it answers stays fenced)."""
    if style == "cli":
        tokens = f" --page-tokens {max_tokens}" if max_tokens else ""
        return command(f"open {handle} {flag}{tokens} --agent")
    extra = f", max_tokens={max_tokens}" if max_tokens else ""
    return f'web_open(handle="{handle}", {argument}{extra})'


def open_call(handle: str, page: int, max_tokens: int | None = None, style: Style = "mcp") -> str:
    """The tool call (or, for `cli`, the command) that reads page `page` of a stored document."""
    return _open_call(handle, f"--page {page}", f"page={page}", max_tokens, style)


def passages_call(search: str, handle: str | None, page: int, site: str | None = None) -> str:
    """The tool call that answers page `page` of the passages matching `search` (of one document, or
    of one site's stored pages)."""
    of = f"handle={json.dumps(handle)}, " if handle else ""
    on = f", site={json.dumps(site, ensure_ascii=False)}" if site else ""
    return f"web_open({of}search={json.dumps(search, ensure_ascii=False)}{on}, page={page})"


def outline_call(handle: str, max_tokens: int | None = None, style: Style = "mcp") -> str:
    """The tool call (or command) that lists a stored document's headings with their pages."""
    return _open_call(handle, "--outline", "outline=true", max_tokens, style)


def diff_call(handle: str, style: Style = "mcp") -> str:
    """The tool call (or command) that shows what changed in a stored document since its reading before."""
    return _open_call(handle, "--diff", "diff=true", None, style)


def continue_hint(
    handle: str | None,
    page: int,
    pages: int,
    max_tokens: int | None = None,
    style: Style = "mcp",
    outlined: bool = False,
) -> str:
    """How to read on from page `page` of `pages`; `outlined`: the document has headings to list
    (`OpenedPage.outline`), so its first page also says how to jump to a section."""
    if not handle or page >= pages:
        return ""
    hint = f"Page {page} of {pages}. Continue with {open_call(handle, page + 1, max_tokens, style)}"
    if page == 1 and pages >= OUTLINE_FROM_PAGES and outlined:
        hint += f", or jump to a section: {outline_call(handle, max_tokens, style)} lists the headings' pages"
    return hint + "."


MESSAGE_CHARS = 600  # one error or warning line; the values in it are capped where they are quoted


def safe_message(message: str, nonce: str | None = None, limit: int = MESSAGE_CHARS) -> str:
    """An error message or warning as an agent face shows it outside the fence: one line, no control
    characters, nothing that passes for a fence marker, at most `limit` characters. (The parts of it
    the remote side controls, e.g. a header value, are quoted where the message is built.)"""
    return neutralize(one_line(message, limit), nonce)


def error_text(code: str, message: str) -> str:
    return f"ERROR {code}: {safe_message(message, limit=MESSAGE_CHARS * 8)}"


def _hit_lines(rank: int, hit: JSON) -> list[str]:
    title = hit.get("title") or hit.get("url")
    facts = [
        f"{hit['tokens']} tokens" if hit.get("tokens") else "",
        f"handle {hit['handle']}" if hit.get("handle") else "",
    ]
    facts_text = " · ".join(fact for fact in facts if fact)
    lines = [f"{rank}. {title}", f"   {hit.get('url')}" + (f" ({facts_text})" if facts_text else "")]
    if hit.get("published"):
        lines.append(f"   published {hit['published']}")
    if hit.get("snippet"):
        lines.append("   " + " ".join(str(hit["snippet"]).split()))
    return lines


def render_search(data: JSON, fence: Fence, style: Style = "mcp") -> str:
    """A search answer: a header, the fenced result list, then how to read a result."""
    results: Sequence[JSON] = data.get("results") or []
    dropped = data.get("unreachable") or []
    unreachable = len(dropped)
    remembered = sum(1 for item in dropped if isinstance(item, dict) and item.get("remembered_at"))
    engines = ", ".join(
        f"{report.get('name')} {'ok' if report.get('ok') else 'failed'}"
        for report in data.get("engines") or []
    )
    head = f'Search "{data.get("query", "")}": {counted(len(results), "result")}'
    if unreachable:
        seen = f", {remembered} of them remembered from a recent search" if remembered else ""
        head += f" ({unreachable} unreachable dropped{seen})"
    head += f" · engines: {engines}" if engines else ""
    lines = [fence.directive(), "", head]
    lines.extend(
        f"engine failed: {safe_message(failure, fence.nonce)}"
        for failure in map(_engine_failure, data.get("engines") or [])
        if failure
    )
    lines.extend(
        f"warning: {safe_message(str(warning), fence.nonce)}" for warning in data.get("warnings") or []
    )
    body: list[str] = []
    for rank, hit in enumerate(results, start=1):
        body.extend(_hit_lines(rank, hit))
    lines.extend(["", fence.wrap("\n".join(body) or "(no results)")])
    if results:
        lines.extend(["", f"Read a result with {_read_a_result(style)}."])
    if remembered:
        lines.extend(["", f"Search again with {SEARCH_FRESH[style]} to ask the remembered ones again."])
    return "\n".join(lines)


def _engine_failure(report: JSON) -> str | None:
    """`name: code: why` of an engine that failed beside others that answered (as the human view
    lists it: a rate limit to wait out, a setting to change), else None."""
    error = report.get("error")
    if report.get("ok") or not isinstance(error, dict):
        return None
    name = str(report.get("name"))
    return f"{name}: {error.get('code')}: {str(error.get('message') or '').removeprefix(name + ': ')}"


SEARCH_FRESH = {"mcp": "fresh=true", "cli": "--fresh"}
"""How each face asks every candidate anew (a dead link a recent search found is otherwise not asked)."""


def _read_a_result(style: Style) -> str:
    """How each face reads a search result (a command names the `--home` the call was given)."""
    if style == "mcp":
        return "web_open(handle=...) when it has a handle, else web_fetch(urls=[...])"
    return f"`{command('open HANDLE --agent')}` when it has a handle, else `{command('fetch URL --agent')}`"


def _page_body(entry: JSON) -> str:
    title = entry.get("title") or entry.get("final_url") or entry.get("url")
    content = str(entry.get("content") or "").strip()
    lines = [] if content.startswith(f"# {title}\n") else [f"# {title}"]
    if entry.get("final_url") and entry["final_url"] != entry.get("url"):  # the fence's `source:` is the url
        lines.append(str(entry["final_url"]))
    facts = [entry.get("site_name"), f"published {entry['published']}" if entry.get("published") else None]
    if entry.get("product"):
        facts.extend(product_facts(Product.model_validate(entry["product"])))
    if any(facts):
        lines.append(" · ".join(fact for fact in facts if fact))
    lines.extend(["", content])
    if entry.get("links") is not None:  # asked for: anchor texts are the page's words, so inside the fence
        lines.extend(["", *link_lines([Link.model_validate(link) for link in entry["links"]])])
    return "\n".join(lines)


def render_page_entry(entry: JSON, fence: Fence, max_tokens: int | None = None, style: Style = "mcp") -> str:
    """One page of a fetch answer: facts outside the fence, the page inside, then how to continue."""
    error = entry.get("error")
    if not entry.get("ok") or error:
        error = error or {"code": "internal", "message": "the page failed without a reason"}
        message = safe_message(str(error["message"]), fence.nonce)
        return failure_line(error["code"], safe_message(str(entry.get("url")), fence.nonce), message)
    page, pages = int(entry.get("page") or 1), int(entry.get("pages") or 1)
    facts = [f"page {page} of {pages}"]
    if entry.get("handle"):
        facts.append(f"handle {entry['handle']}")
    if entry.get("tokens"):
        facts.append(f"{entry['tokens']} tokens in all")
    if entry.get("duplicate_of"):
        facts.append(f"duplicate of {entry['duplicate_of']}")
    change = change_fact(entry.get("meta") or {})
    if change:
        changed = change.startswith("changed") and entry.get("handle")
        facts.append(f"{change} ({diff_call(entry['handle'], style)} shows what)" if changed else change)
    parts = [" · ".join(facts), fence.wrap(_page_body(entry), source=str(entry.get("url")))]
    more = _more_links(entry, style)
    if more:
        parts.append(more)
    size = entry.get("page_tokens") or max_tokens  # a page cut smaller for its share of the answer
    hint = _clipped_hint(entry, size, style) or continue_hint(
        entry.get("handle"), page, pages, size, style, bool(entry.get("outline"))
    )
    if hint:
        parts.append(hint)
    return "\n".join(parts)


def _clipped_hint(entry: JSON, max_tokens: int | None, style: Style) -> str:
    """How to read the rest of a page the view clipped (`clipped`: `at` and `of` characters, the
    CLI's `--max-chars`): the page again, whole, then the next one ("" when it was not clipped, or
    has no handle to read it by). The next page starts where this one ends, not where it was clipped."""
    clipped, handle = entry.get("clipped"), entry.get("handle")
    if not clipped or not handle:
        return ""
    page, pages = int(entry.get("page") or 1), int(entry.get("pages") or 1)
    hint = (
        f"Page {page} of {pages} is clipped at {clipped['at']} of its {clipped['of']} characters: "
        f"read all of it with {open_call(handle, page, max_tokens, style)}"
    )
    if page < pages:
        hint += f", then continue with {open_call(handle, page + 1, max_tokens, style)}"
    return hint + "."


def _more_links(entry: JSON, style: Style) -> str:
    """How many links a page has past those listed (`links_total`: an opened page's, or a fetched
    page's `meta`), and the call that lists more, up to what one call lists ("" when all are)."""
    links = entry.get("links")
    total = int(entry.get("links_total") or (entry.get("meta") or {}).get("links_total") or 0)
    if links is None or total <= len(links):
        return ""
    said = f"{len(links)} of {total} links listed"
    more = min(total, MCP_LINK_LIMIT)
    if not entry.get("handle") or len(links) >= more:
        return said + "."
    call = _open_call(
        entry["handle"], f"--links --link-limit {more}", f"links=true, link_limit={more}", None, style
    )
    return f"{said}: {call} lists more."


def opened_entry(opened: JSON, document_tokens: int | None) -> dict[str, Any]:
    """A page of a stored document (`OpenedPage` as JSON) as an entry of `render_pages`: its header
    counts the whole document's tokens (`document_tokens`), as a fetch answer's does."""
    return {**opened, "ok": True, "final_url": opened.get("url"), "tokens": document_tokens}


def render_pages(
    entries: Sequence[JSON], fence: Fence, max_tokens: int | None = None, style: Style = "mcp"
) -> str:
    """Each page's block; a page already in the answer is one line pointing to it (the model has
    it: a second copy would only cost its tokens): a URL asked again, another spelling of it (one
    handle: `#top`, `?utm_source=...`), or a near copy of another page of the call (`duplicate_of`)."""
    blocks: list[str] = []
    repeats = repeated(entries)
    for index, entry in enumerate(entries):
        handle, kind = entry.get("handle"), repeats.get(index)
        named = f" (handle {handle})" if handle else ""
        said = safe_message(
            str(entry.get("url")), fence.nonce
        )  # outside the fence: a URL a map or a page listed
        if kind == "same":
            blocks.append(f"{said}: the same page as above{named}")
        elif kind == "near":
            blocks.append(f"{said}: a near copy of the page {entry['duplicate_of']} in this answer{named}")
        else:
            blocks.append(render_page_entry(entry, fence, max_tokens, style))
    return fence.directive() + "\n\n" + "\n\n".join(blocks)


def repeated(entries: Sequence[JSON]) -> dict[int, str]:
    """The entries `render_pages` shows as one line naming another page of the answer, by index:
    `same` for a page already in it (a URL asked again, another spelling of it), `near` for a near
    copy of another page of the call (`duplicate_of`)."""
    return {index: kind for index, (kind, _) in repeats_of(entries).items()}


def repeats_of(entries: Sequence[JSON]) -> dict[int, tuple[str, int | None]]:
    """`repeated`, each with the index of the entry shown for it: for `same`, the first entry of
    the page (by its URL or handle); for `near`, None."""
    repeats: dict[int, tuple[str, int | None]] = {}
    seen: dict[object, int] = {}  # a shown entry's URL and handle -> its index
    shown = {entry.get("handle") for entry in entries if entry.get("ok") and not entry.get("duplicate_of")}
    for index, entry in enumerate(entries):
        url, handle, copy_of = entry.get("url"), entry.get("handle"), entry.get("duplicate_of")
        first = seen.get(url, seen.get(handle) if handle else None)
        if entry.get("ok") and first is not None:
            repeats[index] = ("same", first)
        elif entry.get("ok") and copy_of and copy_of in shown:
            repeats[index] = ("near", None)
        else:
            for key in (url, handle):
                if key is not None:
                    seen.setdefault(key, index)
    return repeats


OUTLINE_HEADINGS = 200  # an agent's outline: a long reference's every heading would be a page itself


def cut_outline(data: JSON) -> JSON:
    """An outline (`DocumentOutline` as JSON) holding only the headings its view shows, with
    `headings_total` when some are left out: what an agent is sent beside the text."""
    from webferret.present.outline import shown_headings

    headings: Sequence[JSON] = data.get("headings") or []
    shown = shown_headings(headings, OUTLINE_HEADINGS)
    return (
        data if len(shown) == len(headings) else {**data, "headings": shown, "headings_total": len(headings)}
    )


def render_outline(data: JSON, fence: Fence, max_tokens: int | None = None, style: Style = "mcp") -> str:
    """A stored document's outline (`DocumentOutline` as JSON): the facts, the fenced headings (the
    page's words) with their pages, and how to read one (`max_tokens`: the page size asked for).
    With `headings_total`, `headings` are those shown already (`cut_outline`)."""
    from webferret.present.outline import outline_table

    headings: Sequence[JSON] = data.get("headings") or []
    total = int(data.get("headings_total") or len(headings))
    handle = str(data.get("handle"))
    head = (
        f"Outline of {handle}: {counted(int(data['pages']), 'page')} of {data['page_tokens']} tokens, "
        f"{data['tokens']} tokens in all, {counted(total, 'heading')}"
    )
    title = one_line(str(data.get("title") or data.get("url")), 200)
    body = "\n".join([f"# {title}", "", *outline_table(headings, OUTLINE_HEADINGS, total)])
    lines = [fence.directive(), "", head, fence.wrap(body, source=str(data.get("url")))]
    if not headings and data.get("format") == "text":
        lines.append("A plain-text reading has no headings; the Markdown reading's outline has them.")
    later = next((int(heading["page"]) for heading in headings if int(heading["page"]) > 1), 1)
    example = open_call(handle, later, max_tokens, style)
    lines.append(f"Read the page a heading is on with its number, e.g. {example}.")
    return "\n".join(lines)


def render_diff(data: JSON, fence: Fence, max_tokens: int | None = None) -> str:
    """What changed in a stored document (`PageDiff` as JSON): the facts, then the fenced diff (the
    page's words), cut after `max_tokens` tokens at a line's end."""
    from webferret.present.pages import diff_facts

    title = one_line(str(data.get("title") or data.get("url")), 200)
    lines = [fence.directive(), "", f"{data['handle']} · {diff_facts(data)}"]
    if data.get("diff"):
        every = str(data["diff"]).split("\n")
        shown = diff_shown(every, max_tokens)
        lines.append(fence.wrap("\n".join([f"# {title}", "", *shown]), source=str(data.get("url"))))
        if len(shown) < len(every):
            more = counted(len(every) - len(shown), "more line")
            lines.append(f"The diff is cut after {max_tokens} tokens: {more} (more max_tokens shows them).")
    return "\n".join(lines)


def render_listed(data: JSON, fence: Fence) -> str:
    """The pages stored last (`StoredPages` as JSON): a line each with its handle, size and when it
    was fetched, its title (the page's words) fenced, and how to read one."""
    pages: Sequence[JSON] = data.get("pages") or []
    site = f" of {safe_message(str(data['site']), fence.nonce)}" if data.get("site") else ""
    head = f"{counted(int(data.get('total') or 0), 'page')}{site} stored"
    if not pages:
        return f"{head}: web_fetch, web_search and web_crawl keep every page they read."
    head += (
        f"; the {len(pages)} fetched last, newest first:"
        if len(pages) < int(data["total"])
        else ", newest first:"
    )
    body: list[str] = []
    for number, page in enumerate(pages, start=1):
        body.append(f"{number}. {one_line(str(page.get('title') or page.get('url')), 200)}")
        facts = f"{page['handle']} · {page['tokens']} tokens · fetched {utc_minute(page['fetched_at'])}"
        body.append(f"   {page['url']} ({facts})")
    first = pages[0]["handle"]
    lines = [fence.directive(), "", head, fence.wrap("\n".join(body)), ""]
    lines.append(f'Read one with web_open(handle="{first}"), or search them all with web_open(search=...).')
    if len(pages) < int(data["total"]) and not data.get("site"):
        lines.append("The others: web_open(site=HOST) lists one site's stored pages.")
    return "\n".join(lines)


def render_map(data: JSON, fence: Fence, style: Style = "mcp") -> str:
    """A site's map (`SiteMap` as JSON): the summary, the fenced URLs with their link texts (the
    site's words), and how to read them."""
    from webferret.present.pages import map_summary

    lines = [fence.directive(), "", safe_message(map_summary(data), fence.nonce)]
    body = [
        f"- {entry['url']}" + (f" ({one_line(str(entry['text']), 160)})" if entry.get("text") else "")
        for entry in data.get("urls") or []
    ]
    if body:
        lines.append(fence.wrap("\n".join(body), source=str(data.get("final_url") or data.get("start"))))
    error = data.get("start_error")
    if error:
        message = safe_message(str(error["message"]), fence.nonce)
        lines.append(f"The start page could not be read: ERROR {error['code']}: {message}")
    if data.get("not_listed"):
        lines.append("Not listed: " + not_followed_text(data["not_listed"], {}) + ".")
    if data.get("robots_unread"):
        lines.append(robots_unread_line(data, fence))
    if data.get("sitemap_unread"):
        lines.append(sitemap_unread_line(data, fence))
    if len(body) < int(data.get("total") or 0):
        narrow = "search=, include= or scope=" if style == "mcp" else "--search, --include or --scope"
        if data.get("search"):  # a search narrowed it already: the others narrow it further
            narrow = "include= or scope=" if style == "mcp" else "--include or --scope"
        lines.append(f"{int(data['total']) - len(body)} more are not shown: narrow the map with {narrow}.")
    if body:
        read = "web_fetch(urls=[...])" if style == "mcp" else command("fetch URL... --agent")
        lines.append(f"Read the ones you need with {read}.")
    return "\n".join(lines)


def render_read(
    read: Sequence[JSON],
    results: Sequence[JSON],
    fence: Fence,
    max_tokens: int | None = None,
    style: Style = "mcp",
) -> str:
    """The first pages of the results a search read (`OpenedPage` as JSON), each fenced with its
    facts and the call that reads on; `results` (the hits as JSON) give each document's size."""
    sizes = {hit.get("handle"): hit.get("tokens") for hit in results if hit.get("handle")}
    entries = [opened_entry(page, sizes.get(page.get("handle"))) for page in read]
    return "\n\n".join(render_page_entry(entry, fence, max_tokens, style) for entry in entries)


def render_passages(data: JSON, fence: Fence, style: Style = "mcp", page_tokens: int | None = None) -> str:
    """Passages that match a query: of one stored document (`web_open(handle, search=...)`), or of
    every stored page (no handle), each then headed by its page's handle, title and URL.
    `page_tokens`: the page size the passages' page numbers count in, when the call that reads a
    page cuts other pages by default (MCP's `web_open` pages by `max_tokens`)."""
    passages: Sequence[JSON] = data.get("passages") or []
    one = data.get("handle")
    site = f" of {safe_message(str(data['site']), fence.nonce)}" if data.get("site") else ""
    where = one if one else f"the stored pages{site}"  # (the site said: none matching may be its doing)
    head = f'{counted(len(passages), "passage")} of {where} matching "{data.get("search")}"'
    body = []
    for passage in passages:
        score = f"(score {float(passage.get('score') or 0):.3g})"
        if one:
            body.extend([f"## page {passage.get('page')} {score}", ""])
        else:
            body.extend([f"## {passage.get('handle')} page {passage.get('page')} {score}", ""])
            body.extend([f"{passage.get('title') or passage.get('url')} · {passage.get('url')}", ""])
        body.extend([str(passage.get("text") or "").strip(), ""])
    lines = [fence.directive(), "", head, fence.wrap("\n".join(body) or "(no passage matches)")]
    if passages:
        first = passages[0]
        handle, page = str(one or first.get("handle")), int(first.get("page") or 1)
        call = open_call(handle, page, page_tokens, style=style)
        lines.append(f"Read a whole page with {call}.")
    return "\n".join(lines)


def robots_unread_line(data: JSON, fence: Fence) -> str:
    """Why the site's robots.txt could not be read, which kept a crawl's or a map's URLs out."""
    return (
        f"The site's robots.txt could not be read: {safe_message(str(data['robots_unread']), fence.nonce)}."
    )


def sitemap_unread_line(data: JSON, fence: Fence) -> str:
    """The site's sitemaps a crawl or a map could not read, and why (or why none was asked for)."""
    return f"Sitemaps not read: {safe_message(str(data['sitemap_unread']), fence.nonce)}."


def render_crawl(data: JSON, fence: Fence, style: Style = "mcp") -> str:
    """A crawl's answer: a header, the fenced list of pages read (titles are the pages' words), what
    was not followed, and how to read a page or search them all."""
    pages: Sequence[JSON] = data.get("pages") or []
    read = sum(1 for page in pages if page.get("ok"))
    failed = len(pages) - read
    head = f"Crawl of {safe_message(str(data.get('start')), fence.nonce)}: {counted(read, 'page')} read"
    head += f", {failed} failed" if failed else ""
    head += f" · scope {safe_message(str(data.get('scope')), fence.nonce)} · depth {data.get('depth')}"
    body: list[str] = []
    for number, page in enumerate(pages, start=1):
        url = page.get("final_url") or page.get("url")
        if page.get("ok"):
            facts = [f"{page['tokens']} tokens"] if page.get("tokens") else []
            facts += [f"handle {page['handle']}"] if page.get("handle") else []
            facts += ["not stored"] if page.get("store_error") else []
            body.append(
                f"{number}. [depth {page.get('depth')}] {one_line(str(page.get('title') or url), 200)}"
            )
            body.append(f"   {url}" + (f" ({' · '.join(facts)})" if facts else ""))
        else:
            error = page.get("error") or {"code": "internal", "message": "failed without a reason"}
            body.extend(
                [
                    f"{number}. [depth {page.get('depth')}] {url}",
                    f"   ERROR {error['code']}: {one_line(str(error['message']), MESSAGE_CHARS)}",
                ]
            )
    lines = [fence.directive(), "", head, "", fence.wrap("\n".join(body) or "(no page read)")]
    if data.get("crawl_delay"):
        lines.extend(
            [
                "",
                f"robots.txt asks {data['crawl_delay']:g} s between requests: pages were read one at a time.",
            ]
        )
    if data.get("sitemap_urls") is not None:
        lines.extend(["", f"The site's sitemaps listed {data['sitemap_urls']} URLs."])
    if data.get("sitemap_unread"):
        lines.extend(["", sitemap_unread_line(data, fence)])
    skipped = not_followed_text(data.get("not_followed") or {})
    if skipped:
        lines.extend(["", f"Links not followed: {skipped}."])
    if data.get("robots_unread"):
        lines.extend(["", robots_unread_line(data, fence)])
    not_stored = not_stored_text([str(page["store_error"]) for page in pages if page.get("store_error")])
    if not_stored:
        lines.extend(["", safe_message(not_stored, fence.nonce, MESSAGE_CHARS * 4) + "."])
    if any(page.get("handle") for page in pages):
        lines.extend(["", f"Read a page with {_crawl_read(style)}."])
    return "\n".join(lines)


def _crawl_read(style: Style) -> str:
    """How to read on from a crawl; a command an agent is shown keeps `--agent`, so its answer is
    fenced too, and names the `--home` the call was given, so it reads the same store."""
    if style == "mcp":
        return "web_open(handle=...); search them all with web_open(search=...)"
    return f"`{command('open HANDLE --agent')}`; search them all with `{command('find QUERY --agent')}`"
