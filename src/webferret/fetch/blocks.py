"""Block detection: is this answer an anti-bot wall, a terminal refusal, a JavaScript shell, or content?

Pure functions over (status, headers, body). Header markers are checked first (cheap and certain),
then terminal statuses (a stealthier client from the same address does not help there), then body
markers gated by size and status, so an ordinary article that merely mentions Cloudflare or a
captcha is never taken for a wall.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING

from webferret.fetch.script_redirect import sends_on
from webferret.remote_text import quoted

if TYPE_CHECKING:
    from lxml import html as lxml_html

# Only the head of a big body is searched for markers; walls are small.
SCAN_BYTES = 512 * 1024
# Pages with more visible letters than this are content, whatever strings they contain.
# (Letters, not characters: challenge pages hide kilobytes of obfuscated `+!![]` script in divs.)
WALL_LETTERS_MAX = 1200
# A JavaScript shell shows fewer visible letters than this.
SHELL_LETTERS_MAX = 150
# ...or, when a single-page app's root is still empty and the page has scripts, fewer than this: the
# header, footer, search box and menus a server renders around the app's mount point (a shop's item
# page: 829 letters around an empty `#root`; pages with content of their own show 10,000 and more).
EMPTY_ROOT_LETTERS_MAX = 2000
LETTERS_CHUNK = 4096
TERMINAL_STATUSES = {
    401: "authentication required",
    404: "not found",
    410: "gone",
    451: "unavailable for legal reasons",
}


@dataclass(frozen=True)
class Verdict:
    """What a response is: `blocked` (escalate), `terminal` (do not), `js_shell`, or none (content)."""

    blocked: bool = False
    terminal: bool = False
    js_shell: bool = False
    vendor: str | None = None
    reason: str = ""

    @property
    def kind(self) -> str:
        """One word for the trail: terminal, blocked, js_shell or ok."""
        if self.terminal:
            return "terminal"
        return "blocked" if self.blocked else "js_shell" if self.js_shell else "ok"

    @property
    def escalate(self) -> bool:
        """True when another tier might get through."""
        return (self.blocked or self.js_shell) and not self.terminal


CONTENT = Verdict()


@dataclass(frozen=True)
class Marker:
    vendor: str
    reason: str
    pattern: re.Pattern[str]
    # strong markers count on an error status whatever the page size; weak ones only on a wall-sized page
    strong: bool = False


def _m(vendor: str, reason: str, pattern: str, strong: bool = False) -> Marker:
    return Marker(vendor, reason, re.compile(pattern, re.IGNORECASE), strong)


BODY_MARKERS: tuple[Marker, ...] = (
    _m("cloudflare", "Cloudflare challenge", r"_cf_chl_opt|/cdn-cgi/challenge-platform/|cf-chl-", True),
    _m("cloudflare", "Cloudflare JavaScript challenge", r"jschl[_-](vc|answer)|cf_chl_jschl", True),
    _m("cloudflare", "Cloudflare bot fight mode", r"__CF\$cv\$params|/cdn-cgi/bm/cv/", True),
    _m("cloudflare", "Cloudflare 'Just a moment' interstitial", r"<title>\s*Just a moment\.\.\.\s*</title>"),
    _m("cloudflare", "Cloudflare 'Attention Required' page", r"<title>\s*Attention Required! \| Cloudflare"),
    _m("cloudflare", "Cloudflare wait page", r"<title>\s*Please Wait\.\.\. \| Cloudflare"),
    _m("datadome", "DataDome captcha", r"captcha-delivery\.com|ct\.captcha-delivery|var dd=\{", True),
    _m("perimeterx", "PerimeterX/HUMAN block", r"window\._pxAppId|/px/captcha/|px-captcha|_pxhd", True),
    _m("akamai", "Akamai Bot Manager interstitial", r"bm-verify=|/_sec/verify\?provider=|_abck", True),
    _m("akamai", "Akamai access denied", r"<title>\s*Access Denied\s*</title>[\s\S]*errors\.edgesuite\.net"),
    _m("imperva", "Imperva/Incapsula block", r"_Incapsula_Resource|Incapsula incident ID|/_incapsula_", True),
    # its challenge's `gokuProps`: not its JavaScript integration (`token.awswaf.com/.../challenge.js`,
    # `AwsWafIntegration`), which a site's own pages run to hold a token for their requests
    _m("aws-waf", "AWS WAF challenge", r"window\.gokuProps\b", True),
    _m("ddos-guard", "DDoS-Guard browser check", r"/\.well-known/ddos-guard/|check\.ddos-guard\.net", True),
    _m("duckduckgo", "DuckDuckGo anomaly challenge", r"anomaly\.js\?|anomaly-modal", True),
    _m("google", "Google 'enable JavaScript' wall", r"/httpservice/retry/enablejs|/sorry/index\?", True),
    _m("baidu", "Baidu security verification", r"<title>\s*百度安全验证\s*</title>"),
    _m("perimeterx", "PerimeterX denial page", r"<title>\s*Access to this page has been denied"),
    # a title that says captcha or sign in is a wall only with the form or widget of one: a short help
    # page "How to sign in with SSO" or "What is a CAPTCHA?" is content
    _m("captcha", "captcha wall", r"<title>[^<]{0,40}captcha[\s\S]*?(?:<form|altcha|data-sitekey)"),
    _m(
        "captcha",
        "captcha wall",
        r"""class=["'][^"']*\b(?:g-recaptcha|h-captcha|cf-turnstile)|data-sitekey=|<altcha-widget""",
    ),
    _m("captcha", "bot check", r"are you a robot|verify you are (a )?human|unusual traffic from your"),
    _m(
        "login wall",
        "login wall",
        r"""pageType=login|<title>[^<]{0,40}\b(log ?in|sign ?in)\b[\s\S]*?type=["']?password""",
    ),
)

GEO_BLOCK = re.compile(
    r"not available in your (country|region)|unavailable in your (country|region)|"
    r"geo[- ]?(blocked|restricted)|blocked in your (country|region)",
    re.IGNORECASE,
)
JS_NOTICE = re.compile(
    r"(enable|turn on|activate) javascript|javascript (is )?(required|disabled|needed)|"
    r"requires javascript|need(s)? javascript|without javascript",
    re.IGNORECASE,
)
SPA_ROOTS = ("root", "app", "__next", "__nuxt", "svelte", "main-app", "application")


def classify(
    status: int,
    headers: Mapping[str, str],
    body: bytes,
    content_type: str | None = None,
    view: BodyView | None = None,
) -> Verdict:
    """Classify one response. `headers` must look up names case-insensitively (httpx, curl_cffi do).

    `view` is `BodyView(body, content_type)` when the caller has one (shared with `js_shell`, the
    body is then decoded and parsed once)."""
    verdict = header_verdict(status, headers)
    if verdict is not None:
        return verdict
    if status in TERMINAL_STATUSES:
        return Verdict(terminal=True, reason=f"HTTP {status}: {TERMINAL_STATUSES[status]}")
    if status == 429:
        return Verdict(terminal=True, reason="HTTP 429: rate limited")
    view = view if view is not None else BodyView(body, content_type)
    if status >= 400 and GEO_BLOCK.search(view.visible):
        return Verdict(terminal=True, reason=f"HTTP {status}: geo or legal block")
    return marker_verdict(status, view.head, wall_sized=not view.more_letters(WALL_LETTERS_MAX))


def header_verdict(status: int, headers: Mapping[str, str]) -> Verdict | None:
    """Vendor verdicts from response headers alone, or None."""
    server = (headers.get("server") or "").lower()
    cookies = (headers.get("set-cookie") or "").lower()
    if headers.get("cf-mitigated"):
        reason = f"cf-mitigated: {quoted(headers.get('cf-mitigated'), 40)}"
        return Verdict(blocked=True, vendor="cloudflare", reason=reason)
    if status in (403, 503) and server == "cloudflare" and headers.get("cf-ray"):
        return Verdict(blocked=True, vendor="cloudflare", reason=f"Cloudflare answered HTTP {status}")
    if status >= 400 and (headers.get("x-datadome") or "datadome=" in cookies or server == "datadome"):
        return Verdict(blocked=True, vendor="datadome", reason=f"DataDome answered HTTP {status}")
    if status >= 400 and ("_px" in cookies or any(k.lower().startswith("x-px") for k in headers)):
        return Verdict(blocked=True, vendor="perimeterx", reason=f"PerimeterX/HUMAN answered HTTP {status}")
    if status == 403 and ("akamaighost" in server or headers.get("akamai-grn")):
        return Verdict(blocked=True, vendor="akamai", reason="Akamai answered HTTP 403")
    if status >= 400 and (headers.get("x-iinfo") or "incap_ses" in cookies):
        return Verdict(blocked=True, vendor="imperva", reason=f"Imperva/Incapsula answered HTTP {status}")
    if headers.get("x-amzn-waf-action"):  # `challenge` (HTTP 202) or `captcha` (405)
        reason = f"AWS WAF asked for a {quoted(headers.get('x-amzn-waf-action'), 40)} (HTTP {status})"
        return Verdict(blocked=True, vendor="aws-waf", reason=reason)
    if status in (403, 503) and server == "ddos-guard":
        return Verdict(blocked=True, vendor="ddos-guard", reason=f"DDoS-Guard answered HTTP {status}")
    return None


def body_verdict(status: int, text: str, visible: str) -> Verdict:
    """Vendor or wall markers in the body; weak markers only count on a small page or an error status."""
    return marker_verdict(status, text, wall_sized=not more_letters(visible, WALL_LETTERS_MAX))


def marker_verdict(status: int, text: str, *, wall_sized: bool) -> Verdict:
    """`body_verdict` once it is known whether the page is wall-sized (at most `WALL_LETTERS_MAX`
    visible letters)."""
    for marker in BODY_MARKERS:
        if not (wall_sized or (marker.strong and status >= 400)):
            continue
        if marker.pattern.search(text):
            return Verdict(blocked=True, vendor=marker.vendor, reason=f"{marker.reason} (HTTP {status})")
    return CONTENT


def js_shell(body: bytes, content_type: str | None = None, view: BodyView | None = None) -> Verdict:
    """A static page that only renders with JavaScript: little text plus a notice or an empty SPA root.

    `view` as in `classify`."""
    view = view if view is not None else BodyView(body, content_type)
    markup = view.markup if view.is_markup else None
    if markup is None:
        return CONTENT
    if markup.more_letters(EMPTY_ROOT_LETTERS_MAX, noscript=False):
        return CONTENT
    few_letters = not markup.more_letters(SHELL_LETTERS_MAX, noscript=False)
    if (few_letters or markup.has_script) and markup.empty_root:
        reason = f"the page is an empty single-page-app root (#{markup.empty_root})"
        return Verdict(js_shell=True, reason=reason)
    if not few_letters:
        return CONTENT
    if JS_NOTICE.search(markup.notice) or JS_NOTICE.search(markup.bare):
        return Verdict(js_shell=True, reason="the page asks for JavaScript and shows almost no text")
    if markup.script_redirect:
        return Verdict(js_shell=True, reason="the page shows almost no text and a script sends it on")
    if markup.has_script and not markup.bare:
        return Verdict(js_shell=True, reason="the page has scripts and no text")
    return CONTENT


class BodyView:
    """A response body as the verdicts read it: its first `SCAN_BYTES` decoded once, whether it
    is HTML, and (only when a verdict asks) its parse, made once for `classify` and `js_shell`."""

    def __init__(self, body: bytes, content_type: str | None = None) -> None:
        self.body = body
        self.head = body[:SCAN_BYTES].decode("utf-8", "replace")
        self.is_markup = bool(body) and looks_like_markup(content_type, self.head)

    @cached_property
    def markup(self) -> Markup | None:
        return read_markup(self.body) if self.is_markup else None

    @property
    def visible(self) -> str:
        """The text a reader sees: from the parse for HTML (none if it does not parse), else the head."""
        if not self.is_markup:
            return self.head
        return self.markup.visible if self.markup is not None else ""

    def more_letters(self, limit: int) -> bool:
        """`more_letters(self.visible, limit)`, without building the whole text of a long page."""
        if not self.is_markup:
            return more_letters(self.head, limit)
        return self.markup is not None and self.markup.more_letters(limit)


DROPPED = ("script", "style", "template", "head", "svg")
"""Elements whose text a reader does not see (`<noscript>` is seen, or not, depending on the verdict)."""


class Markup:
    """What the verdicts read from an HTML body, from one parse; each part is read from the tree
    only when a verdict asks for it, in the order the parts strip the tree (`visible`, then `bare`,
    then `empty_root`): a long page is content once its text is known to be long."""

    def __init__(self, tree: lxml_html.HtmlElement) -> None:
        self.tree = tree
        self.notice = " ".join(el.text_content() for el in tree.iter("noscript"))  # the `<noscript>` text
        self.scripts = [script.text or "" for script in tree.iter("script")]  # read before the strip
        self.has_script = bool(self.scripts)
        self.onload = [body.get("onload") or "" for body in tree.iter("body", "frameset")]

    @property
    def script_redirect(self) -> bool:
        """Whether an inline script sends the reader to another page as it loads (`sends_on`)."""
        page_code = "\n".join([*self.scripts, *self.onload])
        return any(sends_on(script, page_code) for script in self.scripts)

    @cached_property
    def raw_visible(self) -> str:
        """The text a reader sees, `<noscript>` included (whitespace as in the page)."""
        return _text_of(self.tree, DROPPED)

    @cached_property
    def raw_bare(self) -> str:
        """`raw_visible` without `<noscript>`."""
        _ = self.raw_visible  # the tree is stripped of the rest first
        return _text_of(self.tree, ("noscript",))

    @property
    def visible(self) -> str:
        return " ".join(self.raw_visible.split())

    @property
    def bare(self) -> str:
        return " ".join(self.raw_bare.split())

    @cached_property
    def empty_root(self) -> str | None:
        """The id of the first empty single-page-app root (in what a reader sees)."""
        _ = self.raw_bare  # the tree is stripped first
        return empty_root(self.tree)

    def more_letters(self, limit: int, *, noscript: bool = True) -> bool:
        """`more_letters(visible or bare, limit)` (whitespace has no letters: no need to collapse it)."""
        return more_letters(self.raw_visible if noscript else self.raw_bare, limit)


def read_markup(body: bytes) -> Markup | None:
    """Parse `body` once for `classify` and `js_shell`; None when it holds no HTML document."""
    tree = _parse(body)
    return Markup(tree) if tree is not None else None


def empty_root(tree: lxml_html.HtmlElement) -> str | None:
    """The id of the first single-page-app root (`SPA_ROOTS`) in `tree` that holds no text yet."""
    return next((name for name in SPA_ROOTS if _empty(tree.find(f".//*[@id='{name}']"))), None)


def _empty(element: lxml_html.HtmlElement | None) -> bool:
    return element is not None and not element.text_content().strip()


def visible_text(body: bytes) -> str:
    """The text a reader would see (scripts, styles and templates dropped), whitespace collapsed."""
    markup = read_markup(body)
    return markup.visible if markup is not None else ""


def letters(text: str) -> int:
    """How many letters `text` has (any script)."""
    return sum(map(str.isalpha, text))


def more_letters(text: str, limit: int) -> bool:
    """`letters(text) > limit`, reading only as much of a long text as it takes to know."""
    count = 0
    for start in range(0, len(text), LETTERS_CHUNK):
        count += letters(text[start : start + LETTERS_CHUNK])
        if count > limit:
            return True
    return False


def _parse(body: bytes) -> lxml_html.HtmlElement | None:
    from lxml import etree, html  # here, not at import: a fetch imports it only once a page is in

    from webferret.extract.starttags import parseable

    try:
        return html.document_fromstring(parseable(body))
    except (ValueError, TypeError, etree.ParserError):
        return None


def _text_of(tree: lxml_html.HtmlElement, drop: tuple[str, ...]) -> str:
    """The text left once `drop` elements are stripped from `tree` (in place; their tails stay)."""
    from lxml import etree

    etree.strip_elements(tree, *drop, with_tail=False)
    return str(tree.text_content())


def looks_like_markup(content_type: str | None, head: str) -> bool:
    if content_type and "html" in content_type.lower():
        return True
    return "<html" in head[:4096].lower() or "<!doctype html" in head[:4096].lower()
