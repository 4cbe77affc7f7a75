"""Human views of pages: a header, the description, the body; one line for a failed page."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from webferret.models import Link, Page, Product
from webferret.present.commands import command
from webferret.present.paging import open_fence
from webferret.remote_text import one_line


def header_line(page: Page) -> str:
    """`site · by AUTHOR · published YYYY-MM-DD · N words` with the parts that are known."""
    parts: list[str] = []
    if page.site_name:
        parts.append(page.site_name)
    if page.byline:
        parts.append(f"by {page.byline}")
    if page.published:
        parts.append(f"published {page.published}")
    if page.product is not None:
        parts.extend(product_facts(page.product))
    parts.append(counted(page.word_count, "word"))
    change = change_fact(page.meta)
    if change:
        parts.append(change)
    if page.meta.get("store_error"):  # read, but `open` and `find` will not know it
        parts.append(f"not stored ({page.meta['store_error']})")
    if page.meta.get("screenshot_missing"):  # asked for, and not written: say why
        parts.append(f"no screenshot: {page.meta['screenshot_missing']}")
    ignored = (page.meta.get("extract") or {}).get("scope_ignored")
    if ignored:  # the scope asked for was not applied: say so, or the whole text reads as the selection
        parts.append(f"scope ignored: {ignored}")
    return " · ".join(parts)


def counted(n: int, noun: str, plural: str | None = None) -> str:
    """`1 result`, `3 results`, `0 results` (`plural` where it is not the noun and an s)."""
    return f"{n} {noun if n == 1 else plural or noun + 's'}"


def product_facts(product: Product) -> list[str]:
    """A product's price, availability and rating as header facts: `19.99-84.99 USD`, `in stock`,
    `rated 4.1 of 5 (407 reviews)`."""
    facts: list[str] = []
    price = f"{product.low_price}-{product.high_price}" if product.low_price else product.price
    if price:
        facts.append(f"{price} {product.currency}" if product.currency else price)
    if product.availability:
        facts.append(product.availability)
    if product.rating is not None:
        rated = f"rated {product.rating:g} of {product.best_rating or 5:g}"
        facts.append(f"{rated} ({product.reviews:,} reviews)" if product.reviews else rated)
    return facts


STDIN_LABEL = "stdin"
EMPTY_URL_LABEL = '""'  # an empty URL given (`fetch ""`): shown as such, not as stdin


def page_name(page: Page) -> str:
    """Where a page came from, as shown: its final URL, else its URL, else `stdin` (a page read
    from standard input has no URL)."""
    return page.final_url or page.url or (STDIN_LABEL if page.url is None else EMPTY_URL_LABEL)


def error_line(page: Page) -> str:
    error = page.error
    name = STDIN_LABEL if page.url is None else page.url  # an empty one: `failure_text` names it
    if error is None:
        return failure_line("internal", name, "page failed without a reason")
    return failure_line(error.code.value, name, error.message)


def failure_line(code: str, url: str, message: str) -> str:
    """`ERROR code: URL: message`, the URL said once (see `failure_text`)."""
    return f"ERROR {failure_text(code, url, message)}"


def failure_text(code: str, url: str, message: str, *, show_code: bool = True) -> str:
    """`code: URL: message` of a failed page (issue 2's line, less `ERROR `), each said once: a
    leading `URL: ` or `code: ` of the message is dropped, a message that ends `at URL` or `from URL`
    loses that end (and `at URL` elsewhere: `the PDF is encrypted`), one that names the URL
    elsewhere says `it` there (`... ran out before it was read`), and the code is left out when
    `show_code` is false (the caller said it already)."""
    if url == STDIN_LABEL:  # the core names a document without a URL `input`
        message = re.sub(r" at input\b", "", message, count=1)
    if url.strip():
        message = message.removeprefix(f"{url}: ").removeprefix(f"{code}: ")
        for tail in (f" at {url}", f" from {url}"):
            message = message.removesuffix(tail)
        named = _naming(url).pattern
        message = re.sub(" at " + named, "", message, count=1)  # "the PDF at URL is..." is the PDF's
        message = re.sub(named, "it", message, count=1)
    else:  # an empty URL: nothing to name, and "" matches everywhere
        url, message = EMPTY_URL_LABEL, message.removeprefix(f"{code}: ")
    return (f"{code}: " if show_code else "") + f"{url}: {message}"


def _naming(url: str) -> re.Pattern[str]:
    """The URL itself in a message (not a longer URL that starts or ends with it)."""
    return re.compile(r"(?<![\w./:-])" + re.escape(url) + r"(?=$|[\s'\"),;\]]|: )")


def render_page(page: Page, *, quiet: bool = False, link_flag: str | None = None) -> str:
    """The human view of one page (or its error line). A list of links cut short says how many of
    the page's it shows, and with `link_flag` (the CLI's `--link-limit`) how to list them all."""
    if not page.ok:
        return error_line(page)
    if quiet:
        return _titled(page)
    lines = [f"# {page.title or page_name(page)}", page_name(page), header_line(page)]
    body = _without_title(page.content.rstrip(), page.title)
    if page.description and not _opens_with(body, page.description):
        lines.append("")
        lines.extend(f"> {line}" if line else ">" for line in page.description.splitlines())
    lines.extend(["", body])
    read_on = (page.meta.get("clipped") or {}).get("next")
    if read_on:  # (`fetch --max-chars`: the stored document's page it was clipped on)
        lines.append(f"[read on where it was clipped: {read_on}]")
    if page.links is not None:
        lines.extend(["", *link_lines(page.links)])
        total = int(page.meta.get("links_total") or 0)
        if total > len(page.links):
            lines.append(links_shown_line(len(page.links), total, link_flag))
    return "\n".join(lines)


def links_shown_line(shown: int, total: int, link_flag: str | None = None) -> str:
    """`(20 of 80 links listed: --link-limit 80 lists them all)` under a list of links cut short
    (without `link_flag`, only the count)."""
    said = f"{shown} of {total} links listed"
    return f"({said}: {link_flag} {total} lists them all)" if link_flag else f"({said})"


def change_fact(meta: Mapping[str, Any]) -> str | None:
    """`changed since 2026-12-01 10:00 UTC` (or `unchanged since ...`): how a page fetched anew
    compares with its reading stored before (`meta.change`); None for a first or a stored reading."""
    change = meta.get("change") or {}
    since = change.get("previous_fetched_at")
    if change.get("status") not in ("same", "changed") or not since:
        return None
    when = utc_minute(since)
    return f"changed since {when}" if change["status"] == "changed" else f"unchanged since {when}"


def link_lines(links: Sequence[Link]) -> list[str]:
    """A page's links as Markdown sections: those in its main content, then the rest of the page
    (the order `extract.links.page_links` gives them)."""
    if not links:
        return ["## Links", "(none)"]
    inside = [link for link in links if link.in_main]
    outside = [link for link in links if not link.in_main]
    lines: list[str] = []
    for heading, group in (("## Links in the content", inside), ("## Other links on the page", outside)):
        if group:
            lines.extend([*([""] if lines else []), heading, *(_link_item(link) for link in group)])
    return lines


def _link_item(link: Link) -> str:
    text = (link.text or link.url).replace("[", "(").replace("]", ")")  # a bracket would end the text early
    return f"- [{text}]({link.url})"


def _words(text: str) -> str:
    return " ".join(text.replace("#", " ").split()).casefold()


def _titled(page: Page) -> str:
    """The body as a document of its own, for pipes: with the opening headline that extraction left out
    as a repeat of the title (`meta.extract.title_left_out`) put back, in the body's own format (an
    HTML body's as an `<h1>` line before it)."""
    body = page.content
    extract = page.meta.get("extract")
    if not page.title or not (isinstance(extract, dict) and extract.get("title_left_out")):
        return body
    if page.format == "html":
        head = f"<h1>{html.escape(page.title, quote=False)}</h1>"
        return f"{head}\n{body}" if body.strip() else head
    head = f"# {page.title}" if page.format == "markdown" else page.title
    return f"{head}\n\n{body}" if body.strip() else head


def _without_title(body: str, title: str | None) -> str:
    """The body less a first heading that only repeats the title (the header above shows it)."""
    first, _, rest = body.partition("\n")
    if title and first.startswith("#") and _words(first) == _words(title):
        return rest.lstrip("\n")
    return body


def _opens_with(body: str, description: str) -> bool:
    """The description is already in the body's opening (a standfirst): no need to quote it too."""
    return _words(description) in _words(body[: len(description) + OPENING_CHARS])


OPENING_CHARS = 600


def clip_page(page: Page, max_chars: int | None) -> Page:
    """Clip the body at `max_chars` and say where, so a reader knows text is missing."""
    clipped = clip_text(page.content, max_chars, page.format) if page.ok else None
    if clipped is None:
        return page
    body, cut = clipped
    meta = {**page.meta, "clipped": {"at": cut, "of": len(page.content)}}
    return page.model_copy(update={"content": body, "meta": meta})


def clip_text(content: str, max_chars: int | None, fmt: str) -> tuple[str, int] | None:
    """`content` clipped at `max_chars` (at a line break or a space, never inside an HTML tag), a
    code block it cuts closed, and a line saying where; and where it was cut (None: it fits)."""
    if not max_chars or len(content) <= max_chars:
        return None
    cut = content.rfind("\n", 0, max_chars + 1)
    if cut <= max_chars // 2:  # no line break late enough: a space, so no word or link target is cut
        space = max(content.rfind(" ", 0, max_chars + 1), content.rfind("\t", 0, max_chars + 1))
        cut = space if space > max_chars // 2 else max_chars
    if fmt == "html":  # a space may stand inside a tag: never cut one in half
        opened = content.rfind("<", 0, cut)
        cut = opened if opened > content.rfind(">", 0, cut) else cut
    body = content[:cut].rstrip()
    fence = open_fence(body)
    body += (f"\n{fence}" if fence else "") + f"\n\n[clipped at {cut} of {len(content)} characters]"
    return body, cut


def outline_lines(outline: Mapping[str, Any], default_page_tokens: int) -> list[str]:
    """`webferret open HANDLE --outline` for a person: the document's facts, its headings, then the
    command that reads a heading's page, at the outline's page size (`--page-tokens` when it is not
    `default_page_tokens`: a page number of another size reads another part of the document)."""
    from webferret.present.disclosure import continue_command
    from webferret.present.outline import outline_table

    headings = outline.get("headings") or []
    facts = [
        f"{outline['pages']} page{'' if outline['pages'] == 1 else 's'} of {outline['page_tokens']} tokens",
        str(outline["handle"]),
        f"{outline['tokens']} tokens",
        f"{len(headings)} heading{'' if len(headings) == 1 else 's'}",
    ]
    lines = [
        f"# {one_line(str(outline.get('title') or outline['url']), 200)}",
        str(outline["url"]),
        " · ".join(facts),
        "",
    ]
    lines.extend(outline_table(headings))
    if not headings and outline.get("format") == "text":
        lines.append("(a plain-text reading has no headings: the Markdown reading's outline has them)")
    if headings:
        later = next((int(heading["page"]) for heading in headings if int(heading["page"]) > 1), 1)
        handle, size = str(outline["handle"]), int(outline["page_tokens"])
        read = continue_command(handle, later, size, default_page_tokens)
        lines.extend(["", f"[read the page a heading is on by its number, e.g.: {read}]"])
    return lines


def utc_minute(stamp: object) -> str:
    """`2026-12-01 10:00 UTC` of an ISO time as the JSON views give it."""
    return str(stamp).replace("T", " ")[:16] + " UTC"


CRAWL_REASONS = {
    "out_of_scope": "out of scope",
    "excluded": "excluded by include/exclude",
    "not_a_page": "not documents",
    "robots": "disallowed by robots.txt",
    "past_depth": "past the depth",
    "past_limit": "past the limit",
    "budget": "left when the time budget ran out",
    "same_page": "led to a page already read",
    "past_link_cap": "past the 1,000 links of a page looked at",
    "nofollow": "marked nofollow by the site (rel=nofollow, a page's robots tags)",
}


def not_followed_text(counts: Mapping[str, int], reasons: Mapping[str, str] = CRAWL_REASONS) -> str:
    """`12 out of scope, 3 past the depth`: a crawl's links not followed, by why."""
    return ", ".join(f"{count} {reasons.get(why, why)}" for why, count in counts.items() if count)


def not_stored_text(errors: Sequence[str]) -> str | None:
    """`2 pages were read but not kept in the page store (...): why`: a crawl's pages without a
    handle, the store's reason said once (every page of a crawl meets the same store); None when
    every page was kept."""
    if not errors:
        return None
    many = len(errors) > 1
    why = errors[0].removeprefix("the page store did not keep this page: ")
    return (
        f"{counted(len(errors), 'page')} {'were' if many else 'was'} read but not kept in the page store "
        f"(open and find do not know {'them' if many else 'it'}): {why}"
    )


def diff_facts(diff: Mapping[str, Any]) -> str:
    """What `open --diff` compared, on one line: the two readings' times and the lines changed."""
    if diff["status"] != "changed":
        return (
            f"only one reading is stored (fetched {utc_minute(diff['fetched_at'])}): nothing to compare yet; "
            "a later fetch that finds the page changed keeps both"
        )
    return (
        f"changed between {utc_minute(diff['previous_fetched_at'])} and {utc_minute(diff['fetched_at'])}: "
        f"{diff['added']} line{'' if diff['added'] == 1 else 's'} added, {diff['removed']} removed"
    )


def diff_lines(diff: Mapping[str, Any]) -> list[str]:
    """`webferret open HANDLE --diff` for a person: the facts, then the unified diff."""
    lines = [f"# {one_line(str(diff.get('title') or diff['url']), 200)}", str(diff["url"])]
    lines.extend([f"{diff['handle']} · {diff_facts(diff)}", ""])
    if diff.get("diff"):
        lines.append(str(diff["diff"]))
    return lines


def map_summary(data: Mapping[str, Any]) -> str:
    """What a map found, on one line: how many URLs, from where, in which scope."""
    total = int(data["total"])
    found = f"{total} URL{'' if total == 1 else 's'}"
    if data.get("search"):
        found += f" matching {one_line(str(data['search']), 80)!r}"
    where = [f"{data.get('from_page', 0)} linked from the page"]
    if data.get("sitemap_urls") is not None:
        where.append(f"{data['sitemap_urls']} listed in its sitemaps")
    shown = f"; the first {len(data['urls'])} shown" if len(data["urls"]) < total else ""
    return f"{found} in scope {data['scope']} ({', '.join(where)}){shown}"


def map_lines(data: Mapping[str, Any]) -> list[str]:
    """`webferret map URL` for a person: a line per URL with its link text, then the summary."""
    lines = [
        f"{entry['url']}" + (f"  {one_line(str(entry['text']), 100)}" if entry.get("text") else "")
        for entry in data["urls"]
    ]
    if data.get("start_error"):
        error = data["start_error"]
        start = one_line(str(data.get("start") or ""), 300)
        lines.append(
            f"ERROR {error['code']}: {one_line(str(error['message']), 300)} (the start page {start})"
        )
    lines.extend(["", map_summary(data)])
    if data.get("not_listed"):
        counts = not_followed_text(data["not_listed"], {})
        lines.append(f"not listed: {counts}")
    if data.get("robots_unread"):
        lines.append(f"robots.txt could not be read: {data['robots_unread']}")
    if data.get("sitemap_unread"):
        lines.append(f"sitemaps not read: {data['sitemap_unread']}")
    if data["urls"]:
        lines.append(f"read them: {command('fetch URL...')}")
    return lines


def opened_lines(opened: Any) -> list[str]:
    """A page of a stored document (`OpenedPage`) for a person: its header, its text, how to go on."""
    lines = [
        f"# {opened.title or opened.url}",
        opened.url,
        f"page {opened.page} of {opened.pages} · {opened.handle} · {opened.tokens} tokens",
        "",
        opened.content.rstrip(),
    ]
    if opened.next:
        lines.extend(["", f"[continue with: {opened.next}]"])
    if opened.outline:
        lines.append(f"[headings and their pages: {opened.outline}]")
    return lines
