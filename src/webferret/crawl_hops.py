"""The pages a crawl is led to past the links it judged: a redirect's hop, a meta refresh, where a
browser's script navigates, where a stored page's redirect ended.

A link is judged before it is requested (`crawl_rules.Follow`, `crawl_rules.robots_allowed`); the page it
leads to is judged the same way, through the fetch's `admit` hook, before that page is requested:
in the crawl's scope, past its globs, a document, and where robots.txt allows it. A redirect then
takes a crawl nowhere a link could not. A refused page is a failed page of the crawl, its error
saying why and the page that led there. The start page is the caller's own ask: where its redirects
end is not judged (it sets the default scope). The pages the crawl read are kept by `ReadOnce`:
a hop to one of them is not requested again (`read_again`), nor one to a page the fetch of another
link of the batch was led to first (links redirecting to one page at once request it once), and the
link that led there is counted as `same_page`, as a link to that page is.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import replace
from typing import TYPE_CHECKING

from webferret.crawl_rules import page_key, stated_key
from webferret.models import ErrorCode, ErrorInfo, FerretError

if TYPE_CHECKING:
    from webferret.crawl_rules import Follow
    from webferret.fetch.robots import RobotsPolicy
    from webferret.fetch.types import FetchOptions
    from webferret.models import Page

REFUSED = {
    "out_of_scope": "it is outside the crawl's scope {scope}",
    "excluded": "the crawl's include and exclude globs leave it out",
    "not_a_page": "it is no document a crawl reads (an image, media, a font, a style, a script, an archive)",
}
"""Why a page a crawl was led to is not read, by the reason a link to it would not be followed."""
READ_ALREADY = "was not read again: the crawl read that page already"
READING = "was not read twice: another link of the crawl is reading that page"
_READ_AGAIN = re.compile(rf"\S+ (?:{READ_ALREADY}|{READING}) \(led there from \S+\)")
"""The error of a hop refused for `READ_ALREADY` or `READING` (a URL holds no blank:
`url_without_blanks`)."""


def judging_hops(
    opts: FetchOptions, follow: Follow, robots: RobotsPolicy | None, once: ReadOnce | None = None
) -> FetchOptions:
    """`opts` whose `admit` refuses a page the crawl would not follow a link to (`follow`, then
    `robots` when robots.txt is honoured), after the caller's own `admit` (an agent's domain lists),
    and a page the crawl read already, or another link's fetch is reading (`once`: `read_again`
    tells those refusals)."""
    asked = opts.admit

    async def admit(url: str) -> ErrorInfo | None:
        if asked is not None and (refused := await asked(url)) is not None:
            return refused
        why = follow.refusal(url)
        if why is not None:
            message = f"{url} was not read: " + REFUSED[why].format(scope=follow.scope)
            return ErrorInfo(code=ErrorCode.INVALID_ARGUMENT, message=message)
        if once is not None and (taken := once.taken(url)) is not None:
            return ErrorInfo(code=ErrorCode.INVALID_ARGUMENT, message=f"{url} {taken}")
        return await robots_refusal(url, robots)

    return replace(opts, admit=admit)


def read_again(page: Page) -> bool:
    """Whether `page` failed because where its link led, the crawl had read already (`judging_hops`)."""
    error = page.error
    return (
        error is not None
        and error.code == ErrorCode.INVALID_ARGUMENT
        and _READ_AGAIN.fullmatch(error.message) is not None
    )


async def robots_refusal(url: str, robots: RobotsPolicy | None) -> ErrorInfo | None:
    """Why robots.txt forbids reading `url` (or why it could not be read), or None. A robots.txt the
    guard refuses to ask for refuses nothing here: reading the page says why (as for a link)."""
    if robots is None:
        return None
    from webferret.fetch.robots import POLICY_REFUSALS

    try:
        await robots.check(url)
    except FerretError as exc:
        return None if exc.code in POLICY_REFUSALS else exc.info()
    except ValueError:  # no URL to ask robots.txt about: its fetch says why
        return None
    return None


class ReadOnce:
    """The pages a crawl read, by where they ended, each listed (and written) once: links of one
    level read at once that lead to one page (redirecting there, or one of them its own link)
    request it once (`taken`; where a stored page's redirect ended is judged outside a fetch, and
    claims nothing: no request is made there).
    A page that names another URL of its site its canonical one (`<link rel="canonical">`) is read
    as that page too: a link or a hop there is not requested, and a page whose text is the one
    read at its canonical URL already is that page, listed there."""

    def __init__(self) -> None:
        self._read_from: dict[str, str] = {}  # canonical URL of a page read -> the link first read there
        self._texts: dict[str, int] = {}  # canonical URL of a page read -> the hash of its text
        self._named: dict[str, tuple[str, int]] = {}  # a page's canonical URL -> the link, its text
        self._claims: dict[str, str] = {}  # a page of the batch, or its fetches were led to -> whose

    def first(self, url: str, page: Page) -> bool:
        """Whether `page`, read from the link `url`, is the crawl's first reading of its page (asked
        again of the same link, the answer is the same); not when its link led to a page read
        already, which was not requested again (`read_again`), nor when it is a copy of a page read
        already: its canonical URL's, the same text, or the canonical URL itself of a page read with
        the same text. A page whose text is not the one read under its URL (a list's page 2 naming
        page 1 its canonical one, in either order) is no copy: it is listed too."""
        if read_again(page):
            return False
        key = page_key(page.final_url or url)
        if self._read_from.setdefault(key, url) != url:
            return False
        text = hash(page.content)
        self._texts.setdefault(key, text)
        named = self._named.get(key)
        if named is not None and named[0] != url and named[1] == text:
            return False  # the page at the canonical URL another page named, with the same text
        stated = stated_key(page, url)
        if stated is None or self._named.get(stated, ("",))[0] == url:
            return True
        if stated in self._read_from:
            return self._texts[stated] != text
        link, named_text = self._named.setdefault(stated, (url, text))  # the first page naming it
        return link == url or named_text != text

    def has(self, url: str) -> bool:
        """Whether the crawl read the page at `url` (from any link), or a page read names it its
        canonical URL."""
        return page_key(url) in self._read_from or page_key(url) in self._named

    def batch(self, urls: list[str]) -> None:
        """A batch of links begins, at `urls`: each link's page is its own fetch's, and the pages
        its fetches are led to are claimed anew (`taken`)."""
        self._claims = {page_key(url): page_key(url) for url in urls}

    def taken(self, url: str) -> str | None:
        """Why the page at `url`, where a fetch of the batch was led, is not requested: the crawl
        read it already (`READ_ALREADY`), or it is another link's of the batch, or the fetch of
        another link was led there first (`READING`: links redirecting to one page request it
        once); else None, and the page is this fetch's (its other tiers' hops there are its own).
        A hop asked about outside a fetch is not claimed."""
        from webferret.fetch.fetcher import fetching  # (running: a fetch imported it)

        key = page_key(url)
        if key in self._read_from or key in self._named:
            return READ_ALREADY
        owner = fetching()
        if owner is None:
            return None
        return None if self._claims.setdefault(key, page_key(owner)) == page_key(owner) else READING

    def unread(
        self, links: list[tuple[str, str | None]], skipped: Counter[str]
    ) -> list[tuple[str, str | None]]:
        """The `links` (URL, found on) to pages not read yet; the others are counted as `same_page`."""
        kept = [link for link in links if not self.has(link[0])]
        skipped["same_page"] += len(links) - len(kept)
        return kept
