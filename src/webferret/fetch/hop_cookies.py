"""Cookies a page's own redirects set, sent with its next hops, as a browser (or `curl -L -b`) sends
them: a site's cookie check answers a redirect to the same URL with `Set-Cookie`, and reads the page
only to a client that comes back with the cookie. The jar lives for one fetch of one page (the tiers
share no cookies between pages); Python's cookie policy decides which host and path each goes to."""

from __future__ import annotations

from collections.abc import Mapping
from email.message import Message
from http.cookiejar import CookieJar, DefaultCookiePolicy
from typing import Any
from urllib.parse import urlsplit
from urllib.request import Request


class HopCookies:
    """The cookies one fetch's redirects have set so far."""

    def __init__(self) -> None:
        # a cookie set without a Domain goes back to its own host only, not to its subdomains
        self._jar = CookieJar(DefaultCookiePolicy(strict_ns_domain=DefaultCookiePolicy.DomainStrictNonDomain))

    def take(self, url: str, headers: Mapping[str, str]) -> None:
        """Keep the cookies the answer from `url` sets."""
        told = _set_cookies(headers)
        if not told:
            return
        info = Message()
        for value in told:
            info["Set-Cookie"] = value
        self._jar.extract_cookies(_Answer(info), Request(url))  # type: ignore[arg-type]

    def for_browser(self, url: str) -> list[dict[str, Any]]:
        """The cookies the answer from `url` set, as Playwright's `BrowserContext.add_cookies` takes
        them: one set without a Domain goes to the host of `url` only (a domain without a leading
        dot; Python's jar names a host without dots `localhost.local`)."""
        host = urlsplit(url).hostname or ""
        given: list[dict[str, Any]] = []
        for cookie in self._jar:
            domain = cookie.domain if cookie.domain_specified else host
            item = {"name": cookie.name, "value": cookie.value or "", "domain": domain}
            item |= {"path": cookie.path or "/", "secure": cookie.secure, "expires": cookie.expires or -1}
            given.append(item | {"httpOnly": cookie.has_nonstandard_attr("HttpOnly")})
        return given

    def header(self, url: str) -> str | None:
        """The `Cookie` value the jar has for `url`, or None."""
        request = Request(url)
        self._jar.add_cookie_header(request)
        return request.unredirected_hdrs.get("Cookie")

    def sent(self, url: str, headers: tuple[tuple[str, str], ...]) -> tuple[tuple[str, str], ...]:
        """`headers` for a request to `url`, the jar's cookies added to a caller's `Cookie`."""
        jar = self.header(url)
        if jar is None or not (jar.isascii() and jar.isprintable()):  # none a header can carry
            return headers
        own = "; ".join(value for name, value in headers if name.lower() == "cookie")
        rest = tuple((name, value) for name, value in headers if name.lower() != "cookie")
        return (*rest, ("Cookie", joined_cookies(own, jar)))


def joined_cookies(caller: str, page: str) -> str:
    """One `Cookie` value of a caller's (`--header`) and those the page's answers set (`page`), the
    page's replacing the caller's of the same name as a browser replaces a cookie: a server reading
    the first of two `session`s saw the stale one the caller sent, never the one it had just set."""
    names = {_name(pair) for pair in page.split(";")}
    kept = [pair.strip() for pair in caller.split(";") if pair.strip() and _name(pair) not in names]
    return "; ".join([*kept, page] if page else kept)


def _name(pair: str) -> str:
    return pair.split("=", 1)[0].strip()


class _Answer:
    """What `CookieJar.extract_cookies` reads of a response: its headers."""

    def __init__(self, info: Message) -> None:
        self._info = info

    def info(self) -> Message:
        return self._info


def _set_cookies(headers: Any) -> list[str]:
    """Every `Set-Cookie` value: httpx's headers list them; the other tiers' join them by newlines."""
    if hasattr(headers, "get_list"):
        return [value for value in headers.get_list("set-cookie") if value]
    joined = next((value for name, value in headers.items() if name.lower() == "set-cookie"), "")
    return [value for value in joined.split("\n") if value.strip()]
