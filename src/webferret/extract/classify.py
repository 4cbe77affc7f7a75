"""What kind of page this is (`page_type`) and how much it is worth reading (`quality`, 0-1).

Quality has vetoes: a soft-404, a login wall, a cookie wall or an empty JavaScript shell scores
near zero whatever else the page holds, and the reason is kept in `extra["quality_veto"]`.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from urllib.parse import unquote, urlsplit

from lxml import html

from webferret.extract.blocks import hidden
from webferret.extract.metadata import ARTICLE_TYPES
from webferret.extract.sitename import home_page
from webferret.extract.words import count_words
from webferret.fetch.blocks import SPA_ROOTS, empty_root
from webferret.models import PageType

LD_TYPES: dict[str, PageType] = {
    "Article": "article", "NewsArticle": "article", "BlogPosting": "article", "Report": "article",
    "ScholarlyArticle": "article", "OpinionNewsArticle": "article", "LiveBlogPosting": "article",
    "TechArticle": "docs", "APIReference": "docs", "HowTo": "docs",
    "DiscussionForumPosting": "forum", "QAPage": "forum", "Question": "forum", "SocialMediaPosting": "forum",
    "Product": "product", "ProductGroup": "product", "Offer": "product", "IndividualProduct": "product",
    "ItemList": "listing", "CollectionPage": "listing", "OfferCatalog": "listing",
    "SearchResultsPage": "search",
}  # fmt: skip
OG_TYPES: dict[str, PageType] = {"article": "article", "product": "product", "product.item": "product"}
URL_SHAPES: tuple[tuple[re.Pattern[str], PageType], ...] = (
    (re.compile(r"/(search|results?)(/|$)|[?&](q|query|search|s)="), "search"),
    (re.compile(r"/(questions|forum|forums|thread|threads|topic|topics|t|discussions?|comments)/"), "forum"),
    (re.compile(r"/(product|products|dp|item|p)/|/shop/.+"), "product"),
    (re.compile(r"/(category|categories|tag|tags|collections?|c|archive|browse)(/|$)"), "listing"),
    (re.compile(r"/(docs?|documentation|reference|api|manual|guides?|tutorials?)(/|$)|readthedocs"), "docs"),
    # a post under /blog/, not /blog/ itself (the index of posts: a listing, by its cards)
    (re.compile(r"/(19|20)\d\d/\d\d?/|/(blog|news|articles?|posts?|story)/(?!page/)[^/?#]+"), "article"),
)  # fmt: skip
DOCS_HOST = re.compile(r"^(docs?|developers?|devdocs|learn)\.|\.readthedocs\.io$|^docs\.rs$|\.gitbook\.io$")
DOCS_PATH = re.compile(r"/(docs?|documentation|reference|manual|man-pages)(/|$)")
DOCS_GENERATOR = re.compile(
    r"sphinx|docutils|mkdocs|docusaurus|gitbook|rustdoc|bookdown|vuepress|docsy|starlight|nextra|mintlify"
    r"|antora|doxygen|javadoc|jsdoc",
    re.I,
)
PRODUCT_PATH = re.compile(r"/products?/[^/]+/?$")
FORUM_HOST = re.compile(r"^(forums?|community|bbs|discuss|discussions|boards?)\.")
FORUM_ADDRESS = re.compile(
    r"/(showthread|viewtopic|showtopic)\.php|[?&]topic=|/threads?/|/thread-\d|/t/[^/]+/\d+|/d/\d+-"
)
FORUM_GENERATOR = re.compile(
    r"vbulletin|phpbb|discourse|xenforo|mybb|simple machines|nodebb|flarum|invision|vanilla|discuz", re.I
)
SOFT_404 = re.compile(
    r"\b(404|page not found|not found|page (does not|doesn[’']t) exist|no longer available"
    r"|(could|can) ?not be found|(can|couldn)[’']t be found"
    r"|(can[’']t|cannot|could not|couldn[’']t|unable to) find (that|this|the|your) page"
    r"|(this|that|the) page (is not|isn[’']t|is no longer) available"
    # other languages: German, French, Spanish, Italian, Portuguese, Dutch, Polish, Russian, Japanese, Chinese
    r"|nicht gefunden|introuvable|page non trouvée|no encontrada|non trovata|não encontrada|niet gevonden"
    r"|nie znaleziono|не найдена|ページが見つかりません|页面不存在|找不到页面|頁面不存在)\b",
    re.I,
)
LOGIN_WALL = re.compile(
    r"\b((sign in|log in|login) (to|or create an account to) (continue|view|read|see|access)"
    # German, French, Spanish, Italian, Dutch
    r"|(melden sie sich an|melde dich an),? um (weiterzulesen|fortzufahren|[^.]{0,40} zu (lesen|sehen))"
    r"|connectez-vous pour (continuer|voir|lire|accéder)|inicia sesión para (continuar|ver|leer|acceder)"
    r"|accedi per (continuare|vedere|leggere)|log in om (verder|door) te (gaan|lezen))\b",
    re.I,
)
ASKED_TO_LOG_IN = re.compile(r"\bplease (log|sign) in\b", re.I)
"""A wall on a page of fewer than `FORM_ONLY_WORDS` words; on a longer one a how-to's step ("Please log in
to the dashboard and open Settings")."""
_SAYINGS = re.compile(r"[.!?\n|–—·»]+|\s[-:]\s")
_NAMES_THE_PAGE = re.compile(r"\b(page|url|address|link|seite|página|pagina|strona|страница)s?\b", re.I)
# what a not-found saying may hold besides its phrase: "Error 404 (Not Found)", "File or directory not found"
_FILLER = re.compile(
    r"\b(error|erreur|fehler|fout|errore|erro|błąd|ошибка|oops|whoops|sorry|hmm|uh|oh|http|status|code|file|directory|or|object)\b"
    r"|[\W\d_]+",
    re.I,
)


def says_not_found(text: str) -> bool:
    """Whether a title or a text says the page was not found: one of its sentences (or of a title's
    parts) has a `SOFT_404` phrase and names the page ("The page you requested could not be found"),
    or is that phrase alone ("404 Not Found", "Error: not found"). A phrase in a sentence about
    something else ("zsh: command not found: npm", "Fix 404 Not Found errors in nginx") is a page's
    topic, not the page missing."""
    for saying in _SAYINGS.split(text):
        if SOFT_404.search(saying) and (
            _NAMES_THE_PAGE.search(saying) or not _FILLER.sub("", SOFT_404.sub("", saying))
        ):
            return True
    return False


SOFT_404_WORDS = 300
"""A title that says 404 or "not found" makes a soft 404 only of a page with fewer words than this:
"Understanding the HTTP 404 status code" is an article about it."""
FORM_ONLY_WORDS = 50
"""A password field is a login wall only on a page with fewer words than this: beside more content it
is a sign-in box (a shop's account menu, a forum's header form), not a wall."""
THIN_WORDS = 50
"""Below this many words of content, a page's prose and title count for its quality in proportion."""
COOKIE_WALL = re.compile(
    r"\b(we use cookies (and|to|for|on|so)|(this|our) (web)?site uses cookies|accept (all )?cookies"
    r"|cookie (settings|consent|policy)|consent to (the use of )?cookies|our \d* ?partners (use|store)"
    r"|accept all\b[\s\S]{0,300}\breject all|before you continue"
    # German, French, Spanish, Italian, Dutch consent screens
    r"|wir verwenden cookies|(diese|unsere) (web)?seite verwendet cookies|bevor sie zu google weitergehen"
    r"|alle akzeptieren\b[\s\S]{0,300}\balle ablehnen|nous utilisons des cookies|ce site utilise des cookies"
    r"|tout accepter\b[\s\S]{0,300}\btout refuser|utilizamos cookies|este sitio (web )?utiliza cookies"
    r"|aceptar todo\b[\s\S]{0,300}\brechazar todo|utilizziamo (i )?cookie|questo sito utilizza (i )?cookie"
    r"|accetta tutto\b[\s\S]{0,300}\brifiuta tutto|(wij|we) gebruiken cookies"
    r"|alles accepteren\b[\s\S]{0,300}\balles weigeren)\b",
    re.I,
)

COOKIE_POLICY = re.compile(
    r"cookies?[\s_-]*(policy|notice|statement|declaration|richtlinie|erkl(ä|ae)rung|hinweise|beleid|verklaring)"
    r"|(politique|pol[ií]tica|informativa|d[ée]claration)[\s_-]+([^\W_]+[\s_-]+){0,3}cookies?",
    re.I,
)
"""A title or an address naming a page about the site's cookies: its words are the wall's, its
topic is not a wall (a consent screen is titled by its site, "Before you continue", "Cookie settings").
A word between is its letters without `_`, which parts words: a word that took it could end at every
`_` of `a_a_a_...` and the pattern tried each split (a title of 6,000 such characters took minutes)."""


@dataclass(frozen=True)
class Signals:
    """What the classifier looks at, computed once by the HTML pipeline."""

    url: str | None
    title: str | None
    ld_types: tuple[str, ...]
    og_type: str | None
    words: int
    links_in_main: int
    tree: html.HtmlElement | None = field(default=None, repr=False, compare=False)

    @cached_property
    def repetition(self) -> int:
        """`repetition` of the page, computed only when `page_type` gets that far (a page declaring its
        type never does)."""
        return repetition(self.tree) if self.tree is not None else 0


_ROWS_IN = frozenset(("ul", "ol", "div", "section", "tbody", "main"))


def repetition(tree: html.HtmlElement) -> int:
    """The longest run of sibling elements of one tag and class that each hold a link (cards, rows) in a
    list, div, section, table body or main element.

    One walk up from each link marks the elements holding one (stopping where an earlier walk passed);
    every such element is counted under its parent, tag and class.
    """
    holders: set[html.HtmlElement] = set()
    for link in tree.iter("a"):
        for ancestor in link.iterancestors():
            if ancestor in holders:
                break
            holders.add(ancestor)
    runs: Counter[tuple[html.HtmlElement, str, str]] = Counter()
    for child in holders:
        parent = child.getparent()  # a holder too: the proxy stays the same object
        if parent is not None and parent.tag in _ROWS_IN:
            runs[parent, child.tag, child.get("class", "")] += 1
    return max(runs.values(), default=0)


def page_type(signals: Signals) -> PageType:
    declared = _declared_type(signals.ld_types)
    if declared is not None:
        return declared
    if home_page(signals.url):
        return "homepage"
    parts = urlsplit(signals.url or "")
    host, path = (parts.hostname or "").removeprefix("www."), parts.path.lower()
    target = f"{path}?{parts.query.lower()}"
    if DOCS_HOST.search(host) or DOCS_PATH.search(path):
        return "docs"  # before og:type, which documentation sites often set to "article"
    if FORUM_HOST.search(host) or FORUM_ADDRESS.search(target):
        return "forum"  # so do forums
    generators = _generators(signals.tree)
    if DOCS_GENERATOR.search(generators):
        return "docs"
    if FORUM_GENERATOR.search(generators):
        return "forum"
    if PRODUCT_PATH.search(path):
        return "product"  # and shops that leave og:type to an SEO plugin
    if signals.og_type in OG_TYPES:
        return OG_TYPES[signals.og_type]
    for pattern, kind in URL_SHAPES:
        if pattern.search(target):
            return kind
    if signals.repetition >= 10 and signals.words < 40 * signals.repetition:
        return "listing"
    return "article" if signals.words >= 250 else "other"


def _declared_type(ld_types: tuple[str, ...]) -> PageType | None:
    """The type the page's first typed JSON-LD node says; a product page's one `Product` over the lists
    written before it (a breadcrumb's or a carousel's `ItemList`, the shop's `OfferCatalog` in its
    `Organization`), which made a product page a listing. A page of several products is a listing."""
    kinds = [LD_TYPES[kind] for kind in ld_types if kind in LD_TYPES]
    if not kinds:
        return None
    if kinds[0] == "listing" and sum(kind in _PRODUCT_NODES for kind in ld_types) == 1:
        return "product"
    return kinds[0]


_PRODUCT_NODES = frozenset(("Product", "ProductGroup", "IndividualProduct"))


def _generators(tree: html.HtmlElement | None) -> str:
    """What made the page, as its `<meta name="generator">` tags say (documentation generators such as
    Sphinx, MkDocs, rustdoc; forum software such as vBulletin, phpBB, Discourse)."""
    head = tree.find("head") if tree is not None else None
    if head is None:
        return ""
    return " ".join(
        meta.get("content") or ""
        for meta in head.iter("meta")
        if (meta.get("name") or "").lower() == "generator"
    )


def veto(tree: html.HtmlElement, signals: Signals, text: str) -> str | None:
    """Why the page is not worth reading (soft-404, walls, empty shell), or None."""
    if signals.words < 30 and _is_shell(tree):
        return "empty_shell"
    # a declared article's words name its topic ("How to fix a 404 Not Found error"): a page that
    # was not found declares none
    if not any(kind in ARTICLE_TYPES for kind in signals.ld_types):
        title = signals.title or ""
        if signals.words < SOFT_404_WORDS and any(map(says_not_found, (title, _heading(tree)))):
            return "soft_404"
        if signals.words < 150 and says_not_found(f"{title}\n{text[:300]}"):
            return "soft_404"
    if signals.words < 200:
        if LOGIN_WALL.search(text):
            return "login_wall"
        if signals.words < FORM_ONLY_WORDS and (ASKED_TO_LOG_IN.search(text) or _shown_password(tree)):
            return "login_wall"
        if COOKIE_WALL.search(text) and not _about_cookies(signals):
            return "cookie_wall"
    return None


def _heading(tree: html.HtmlElement) -> str:
    """The page's own heading, its first `<h1>` with words, which titles it as much as its `<title>`
    does: a site's error page keeps the site's title ("Acme Corp") and says "404" there, above menus
    of links a main-content choice may keep (so the text's first lines need not say it). A heading
    the page hides is none of its own (a script app's error view, written into every page)."""
    for node in tree.iter("h1"):
        text = node.text_content().strip()
        if text and _shown(node):
            return text
    return ""


def _about_cookies(signals: Signals) -> bool:
    """Whether the page's title or its address's path names a cookie policy (`COOKIE_POLICY`)."""
    path = urlsplit(signals.url).path if signals.url else ""
    return any(COOKIE_POLICY.search(said) for said in (signals.title or "", unquote(path)))


def _shown_password(tree: html.HtmlElement) -> bool:
    """Whether the page shows a password field: one inside an element it hides is no wall (Discourse's
    app shell holds a sign-in form with `display: none` for its scripts, whatever the topic)."""
    return any(map(_shown, tree.iterfind(".//input[@type='password']")))


def _shown(node: html.HtmlElement) -> bool:
    """Whether the page shows `node`: neither it nor an element around it is hidden (`hidden`), nor is
    it a template's or a `<noscript>`'s."""
    return not hidden(node) and not any(
        hidden(above) or above.tag in ("template", "noscript") for above in node.iterancestors()
    )


def _is_shell(tree: html.HtmlElement) -> bool:
    """Whether the page is a script app's shell: a framework's mount point, or scripts (three or more)
    around a page that shows next to nothing. A shop's or a store's page whose scripts are many and
    whose main content was read short (Best Buy's product, eBay's item: hundreds of words in the HTML)
    is no shell."""
    if _mounts(tree):
        return True
    return sum(1 for _ in tree.iter("script")) >= 3 and _shown_words(tree) < SHELL_WORDS


SHELL_WORDS = 100
"""Fewer words than this in a page's body (scripts and styles left out), with scripts and no mount
point, make it a shell when its main content is nearly empty too."""
_UNSHOWN = frozenset(("script", "style", "noscript", "template"))


def _shown_words(tree: html.HtmlElement) -> int:
    """The words of the page's body, its scripts', styles' and templates' text left out."""
    body = tree.find("body")
    if body is None:
        return 0
    texts = [
        part
        for node in body.iter()
        if isinstance(node.tag, str)
        for part in ((node.text if node.tag not in _UNSHOWN else None), node.tail)
        if part
    ]
    return count_words(" ".join(texts))


def empty_app_mount(tree: html.HtmlElement) -> bool:
    """Whether the page has a script framework's mount point (`<div id="root">`, `#app`, `#__next`...),
    the element a client-side app draws the page into, with nothing drawn in it yet (a page the
    browser rendered has its content there)."""
    return empty_root(tree) is not None


def _mounts(tree: html.HtmlElement) -> list[html.HtmlElement]:
    found = (tree.get_element_by_id(name, None) for name in SPA_ROOTS)
    return [mount for mount in found if mount is not None]


def quality(signals: Signals, vetoed: str | None) -> float:
    """0-1: enough words, a title, mostly prose rather than links; near zero when vetoed."""
    if vetoed:
        return 0.05
    if signals.words == 0:
        return 0.0
    amount = min(signals.words / 400, 1.0) * 0.6
    # a few words say little of prose or title: "esk8.news esk8 calc donate now" is no page of 0.4
    weight = min(signals.words / THIN_WORDS, 1.0)
    prose = max(0.0, 1.0 - signals.links_in_main * 12 / max(signals.words, 1)) * 0.25 * weight
    titled = 0.15 * weight if signals.title else 0.0
    return round(min(amount + prose + titled, 1.0), 3)
