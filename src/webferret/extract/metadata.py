"""A page's metadata from JSON-LD, meta tags and `<time>`: title, byline, dates, site, language...

Dates come only from markup that states them (JSON-LD, meta tags, `<time datetime>`), never from
free text, so a copyright line can never become a publication date.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from html import unescape
from typing import Any
from urllib.parse import urlsplit

from lxml import etree, html

from webferret.extract.dates import after_publication, iso_date, local_day
from webferret.extract.microdata import reply_kind
from webferret.extract.sitename import INDEX_DOCUMENT, home_page, squeezed, strip_site
from webferret.extract.softhyphens import unhyphenated_json
from webferret.extract.timetags import Cards, page_cards, time_modified, time_published
from webferret.models import Product
from webferret.net.joined import join_url
from webferret.remote_text import json_value

_SPACE = re.compile(r"\s+")
_JSON_WRAPPERS = re.compile(r"<!\[CDATA\[|\]\]>|<!--|-->")
# every element marked as the headline or an author: one scan of the tree for both questions
_MARKED = etree.XPath('//*[@itemprop="headline" or @itemprop="author" or @rel="author"]')
_ENTITY = re.compile(r"&(?:#\d+|#x[0-9a-f]+|[a-z]+\d*);", re.I)
# "By", "Written by", and a column's label before it ("Analysis by Chris Cillizza", "Opinion by")
_BY = re.compile(
    r"^(?:(?:(?:written|posted|published|analysis|opinion|commentary|review|reporting|story) )?by"
    r"|author):?\s+",
    re.I,
)
# a template's placeholder left unfilled ("page.head.extra.author", "{{ author }}"), a script's empty
# value ("undefined", "null"), a name left empty before its affiliation (", USA TODAY"), or a CMS's
# default account, which names no writer ("admin", WordPress's first user; "Administrator", "Unknown")
_PLACEHOLDER = re.compile(
    r"(?:[a-z_][a-z0-9_]*\.)+(?:author|name|creator|byline|writer)s?|.*(?:\{\{|\$\{|\{%).*"
    r"|undefined|null|none|[,;:/|].*"
    r"|(?:site |super ?|web ?)?admin(?:istrator)?|webmaster|superuser|root|unknown(?: author)?",
    re.I,
)
_SEPARATOR_MARKS = "|-–—:·•»"
PUBLISHED_KEYS = (
    "article:published_time", "og:published_time", "datepublished", "published_time", "publish-date",
    "publishdate", "pubdate", "date", "dc.date.issued", "dc.date", "dcterms.date", "dcterms.created",
    "citation_publication_date", "citation_date", "parsely-pub-date", "sailthru.date", "article.published",
    "og:article:published_time", "date.published", "datecreated", "dc:date", "dc:created", "dcterms:created",
    "dc:issued", "dcterms:issued",
)  # fmt: skip
MODIFIED_KEYS = (
    "article:modified_time", "og:updated_time", "datemodified", "last-modified", "dcterms.modified",
    "dc.date.modified", "article.updated", "og:article:modified_time", "dc:modified", "dcterms:modified",
)  # fmt: skip
ARTICLE_TYPES = (
    "Article",
    "NewsArticle",
    "BlogPosting",
    "Report",
    "TechArticle",
    "ScholarlyArticle",
    "ReportageNewsArticle",
    "AnalysisNewsArticle",
    "OpinionNewsArticle",
)


@dataclass
class Metadata:
    """What the markup says about a page (every field may be missing)."""

    title: str | None = None
    byline: str | None = None
    site_name: str | None = None
    published: str | None = None
    modified: str | None = None
    description: str | None = None
    language: str | None = None
    canonical_url: str | None = None
    image: str | None = None
    og_type: str | None = None
    jsonld: list[Any] = field(default_factory=list)
    ld_types: list[str] = field(default_factory=list)
    product: Product | None = None


def clean(value: Any) -> str | None:
    if not isinstance(value, str):
        return None
    text = _SPACE.sub(" ", value).strip()
    return text or None


def meta_tags(tree: html.HtmlElement) -> dict[str, str]:
    """`<meta>` values keyed by lower-cased name/property/itemprop/http-equiv (first one wins). A
    microdata property of a comment or an answer (`reply_kind`) is that reply's, not the page's, and
    a microdata date in one card of a list (`Cards.holds`) is that card's."""
    dated = [  # `<span itemprop="datePublished" content="2019-09-09">`, `<meta itemprop=...>` too
        node
        for node in _MICRODATA(tree)
        if node.get("itemprop", "").strip().lower() in _MICRODATA_DATES
        and (node.get("content") or node.get("datetime") or "").strip()
        and reply_kind(node) is None
    ]
    cards = page_cards(tree, dated) if dated else None
    in_cards = {node for node in dated if cards is not None and cards.holds(node)}
    found: dict[str, str] = {}
    for meta in tree.iter("meta"):
        content = meta.get("content")
        if content is None:
            continue
        for attr in ("property", "name", "itemprop", "http-equiv"):
            key = (meta.get(attr) or "").strip().lower()
            if (
                key
                and key not in found
                and content.strip()
                and (attr != "itemprop" or (reply_kind(meta) is None and meta not in in_cards))
            ):
                found[key] = content.strip()
    for node in dated:
        key = node.get("itemprop", "").strip().lower()
        if key not in found and node.tag != "meta" and node not in in_cards:
            found[key] = (node.get("content") or node.get("datetime") or "").strip()
    return found


_MICRODATA = etree.XPath("//*[@itemprop]")  # a walk a third as long as one testing the names
_MICRODATA_DATES = frozenset(("datepublished", "datemodified", "datecreated"))


def jsonld_blocks(tree: html.HtmlElement) -> list[Any]:
    blocks: list[Any] = []
    for script in tree.iter("script"):
        if (script.get("type") or "").strip().lower() != "application/ld+json" or not script.text:
            continue
        text = _JSON_WRAPPERS.sub("", script.text).strip().rstrip(";")
        try:
            block = json_value(text)  # an escaped lone surrogate is no text: nothing could write it
        except ValueError:
            continue
        blocks.append(unhyphenated_json(block, text))
    return blocks


JSONLD_CHARS = 100_000
"""At most this many characters of a page's JSON-LD blocks are answered (whole blocks, in page order):
a shop's page can carry megabytes of it."""


def answered_jsonld(blocks: list[Any]) -> list[Any]:
    """The JSON-LD blocks a page is answered with: whole blocks, in page order, up to `JSONLD_CHARS`;
    a block too large for what is left is passed over, not the end (a shop's huge catalogue block
    before its breadcrumb or its article's node)."""
    kept: list[Any] = []
    total = 0
    for block in blocks:
        try:
            text = json.dumps(block, ensure_ascii=False, allow_nan=False)
        except ValueError:  # NaN or Infinity: no JSON
            continue
        if total + len(text) <= JSONLD_CHARS:
            total += len(text)
            kept.append(json.loads(text))
    return kept


def ld_nodes(blocks: list[Any]) -> list[dict[str, Any]]:
    """Every JSON-LD object with an `@type`, flattening lists and `@graph`."""
    nodes: list[dict[str, Any]] = []
    stack = list(blocks)
    while stack:
        item = stack.pop(0)
        if isinstance(item, list):
            stack.extend(item)
        elif isinstance(item, dict):
            if "@type" in item:
                nodes.append(item)
            if isinstance(item.get("@graph"), list):
                stack.extend(item["@graph"])
    return nodes


def ld_types(node: dict[str, Any]) -> list[str]:
    """A node's schema.org types by their short names: `NewsArticle` also for a type written as its
    IRI (`http://schema.org/NewsArticle`) or with a prefix (`schema:NewsArticle`)."""
    kind = node.get("@type")
    return [_SCHEMA_IRI.sub("", str(k)) for k in (kind if isinstance(kind, list) else [kind])]


_SCHEMA_IRI = re.compile(r"^(?:https?://(?:www\.)?schema\.org/|schema:)", re.I)


def names(value: Any) -> list[str]:
    if isinstance(value, list):
        return [name for item in value for name in names(item)]
    if isinstance(value, dict):
        return names(value.get("name"))
    text = clean(value)
    return [text] if _a_name(text) else []


def _a_name(text: str | None) -> bool:
    """Whether an author value can be a name: not a profile URL, nor a number (a Facebook profile id in
    `article:author`), nor a template's unfilled placeholder, a script's empty value or a CMS's default
    account, with its "By" or without ("By admin")."""
    return (
        bool(text)
        and not text.startswith("http")
        and any(ch.isalpha() for ch in text)
        and not _PLACEHOLDER.fullmatch(_BY.sub("", text))
    )


def _image(value: Any) -> str | None:
    if isinstance(value, list):
        return _image(value[0]) if value else None
    if isinstance(value, dict):
        return clean(value.get("url") or value.get("contentUrl"))
    return clean(value)


def _from_jsonld(meta: Metadata, nodes: list[dict[str, Any]], url: str | None) -> None:
    # a page's article may be its WebPage's `mainEntity` rather than a node of its own
    entities = [n["mainEntity"] for n in nodes if isinstance(n.get("mainEntity"), dict)]
    nodes = nodes + [entity for entity in entities if "@type" in entity]
    main = next((n for n in nodes if any(t in ARTICLE_TYPES for t in ld_types(n))), None)
    own = _own_nodes(nodes)
    # a Q&A page's question or a forum's first post, else any node with a date or a headline
    main = main or next((n for n in own if _THREADS.intersection(ld_types(n))), None)
    main = main or next((n for n in own if "datePublished" in n or "headline" in n), None)
    if main is not None:
        ids = {n["@id"]: n for n in nodes if isinstance(n.get("@id"), str)}
        meta.title = clean(main.get("headline")) or clean(main.get("name"))
        publisher = names(_referred(main.get("publisher"), ids))
        meta.byline = ", ".join(_writers(names(_referred(main.get("author"), ids)), publisher)) or None
        meta.published = local_day(main.get("datePublished"), url) or local_day(main.get("dateCreated"), url)
        meta.modified = iso_date(main.get("dateModified"))
        meta.description = clean(main.get("description"))
        meta.image = _image(main.get("image"))
        named = names(main.get("publisher"))  # written in the node (a reference names the company)
        meta.site_name = named[0] if named else None
    site = next((n for n in nodes if "WebSite" in ld_types(n)), None)
    if site is not None and not meta.site_name:
        meta.site_name = clean(site.get("name"))


def _writers(authors: list[str], publishers: list[str]) -> list[str]:
    """The authors, each once; the publisher listed among people (`"author": [{"name": "Jane Roe"},
    {"@type": "Organization", "name": "The Daily Ledger"}]`) left out, as it names the site, not a
    writer (a publisher alone as the author stays: no one else is named)."""
    unique = list(dict.fromkeys(authors))
    sites = {squeezed(name) for name in publishers}
    people = [name for name in unique if squeezed(name) not in sites]
    return people or unique


_REPLY_TYPES = frozenset(("Review", "Comment", "Answer"))
_PRODUCTS = frozenset(("Product", "ProductGroup", "IndividualProduct"))
_THREADS = frozenset(("Question", "DiscussionForumPosting"))
_REPLIED_TO = _PRODUCTS | _THREADS


def _own_nodes(nodes: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The nodes that can speak for the page itself: on a page of a product, a question or a thread,
    not its reviews, answers or comments written as nodes of their own (a reviewer is not the author
    of a shop's page, nor is a review's date the page's). A review alone is the page's (a critic's)."""
    if not any(_REPLIED_TO.intersection(ld_types(n)) for n in nodes):
        return nodes
    return [n for n in nodes if not _REPLY_TYPES.intersection(ld_types(n))]


def _referred(value: Any, ids: dict[str, dict[str, Any]]) -> Any:
    """A JSON-LD value with each reference to a node of the page (`{"@id": ...}` and no name: the
    way Yoast's `@graph` names an article's author) replaced by that node."""
    if isinstance(value, list):
        return [_referred(item, ids) for item in value]
    if isinstance(value, dict) and "name" not in value and isinstance(value.get("@id"), str):
        return ids.get(value["@id"], value)
    return value


class _Marked:
    """The elements marked as the headline or an author (`itemprop`, `rel`), in document order, found in
    one scan of the tree when first asked for."""

    def __init__(self, tree: html.HtmlElement) -> None:
        self.tree = tree
        self._found: list[html.HtmlElement] | None = None

    def _all(self) -> list[html.HtmlElement]:
        if self._found is None:
            self._found = list(_MARKED(self.tree))
        return self._found

    def headlines(self) -> list[html.HtmlElement]:
        """`//*[@itemprop="headline"]`"""
        return [node for node in self._all() if node.get("itemprop") == "headline"]

    def every_author(self) -> list[html.HtmlElement]:
        """`//*[@rel="author" or @itemprop="author"]`"""
        return [n for n in self._all() if n.get("rel") == "author" or n.get("itemprop") == "author"]

    def authors(self) -> list[html.HtmlElement]:
        """`//*[@rel="author" or @itemprop="author"][1]`: of each element's children, the first marked;
        never the author of an answer or of a product's review, nor of one card of a list (a blog's
        index names each post's writer: `Cards.holds`), and the authors of comments on other items
        last (`reply_kind`)."""
        firsts: list[html.HtmlElement] = []
        commenters: list[html.HtmlElement] = []
        parents: set[html.HtmlElement | None] = set()
        every = self.every_author()
        cards = Cards(every)
        for node in every:
            if cards.holds(node):
                continue
            reply = reply_kind(node)
            parent = node.getparent()
            if reply not in ("answer", "review") and parent not in parents:
                parents.add(parent)
                (commenters if reply == "comment" else firsts).append(node)
        return firsts + commenters


def _title(
    tree: html.HtmlElement, tags: dict[str, str], marks: _Marked, url: str | None, headline: str | None
) -> str | None:
    """The page's title: og:title, else the marked headline, else `<title>` (or the `<h1>` it holds),
    else JSON-LD's `headline`. A title that is only the site's name says nothing of a page other than
    the home page: the next source is taken, and the site's name only when no other names the page."""
    site = (
        ""
        if home_page(url)
        else squeezed(clean(tags.get("og:site_name")) or clean(tags.get("application-name")))
    )
    found = _page_title(tree, tags, marks, lambda text: bool(site) and squeezed(text) == site) or headline
    return found or clean(tags.get("og:title")) or clean(tags.get("twitter:title")) or _title_text(tree)


def _title_text(tree: html.HtmlElement) -> str | None:
    """The text of the page's `<title>`: not an icon's (an `<svg>` names its drawing with one,
    "LinkedIn", "Facebook", on pages that write no title of their own in their head)."""
    for node in tree.iter("title"):
        if not any(ancestor.tag == "svg" for ancestor in node.iterancestors()):
            return clean(node.text_content())
    return None


def _page_title(
    tree: html.HtmlElement, tags: dict[str, str], marks: _Marked, site_only: Callable[[str], bool]
) -> str | None:
    own = [text for text in (clean(tags.get("og:title")), clean(tags.get("twitter:title"))) if text]
    title = next((text for text in own if not site_only(text)), None)
    if title:
        return title
    raw = _title_text(tree)
    raw = None if raw and site_only(raw) else raw
    marked = marks.headlines()
    if marked and clean(marked[0].text_content()):
        return clean(marked[0].text_content())
    headings = [h for h in (clean(h.text_content()) for h in tree.iter("h1")) if h]
    if raw and raw[0] in _SEPARATOR_MARKS and raw[1:2] == " ":  # " | Site": the page's own part left empty
        return headings[0] if headings else clean(raw.lstrip(_SEPARATOR_MARKS + " "))
    if not raw:
        return headings[0] if headings else None
    inside = [h for h in headings if h in raw and len(h) * 3 > len(raw)]
    return max(inside, key=len) if inside else raw


_AUTHOR_KEYS = (
    "author", "article:author", "dc.creator", "dc:creator", "citation_author", "citation_authors",
    "parsely-author", "sailthru.author", "byl",
)  # fmt: skip


def _byline(tree: html.HtmlElement, tags: dict[str, str], marks: _Marked) -> str | None:
    stated = [
        names for key in _AUTHOR_KEYS if _a_name(clean(tags.get(key))) and (names := _meta_names(tree, key))
    ]
    if stated:
        found = max(stated, key=len)  # the key naming every author (JMIR's DC.Creator names the first)
        # "Smith, John; Doe, Jane" when the names are written surname first
        return ("; " if any("," in name for name in found) else ", ").join(found)
    for node in marks.authors():
        named = node.xpath('.//*[@itemprop="name"]')  # its text, or a `<meta itemprop="name" content>`
        value = clean((named[0].get("content") or named[0].text_content()) if named else node.text_content())
        if value and _a_name(value) and len(value) < 80 and not _LINK_LABEL.fullmatch(value):
            return value
    return None


_HANDLE = re.compile(r"[a-z0-9]+(?:[-_.][a-z0-9]+)*")
"""An author written as a user name ("kevin-r", "sara.r.peter"): lower case, no space."""


def _stated_byline(
    from_jsonld: str | None, tree: html.HtmlElement, tags: dict[str, str], marks: _Marked, site: str | None
) -> str | None:
    """JSON-LD's author, else the meta tags' or the markup's; a user name or the site's name JSON-LD
    gives ("kevin-r", "Cleveland Clinic") yields to the person's name when the page writes it elsewhere
    (`<meta name="author">`, an element marked as the author). A user name yields only to a name of
    two words or more: a one-word name elsewhere is another user's (a forum thread's JSON-LD names
    its starter, "lulug30"; the first post the page marks may be a reply's, "ShiftKicker")."""
    if from_jsonld and not _stand_in(from_jsonld, site):
        return from_jsonld
    other = _byline(tree, tags, marks)
    if from_jsonld and other and _HANDLE.fullmatch(from_jsonld) and len(other.split()) < 2:
        return from_jsonld
    if other and not _stand_in(other, site):
        return other
    # both stand in, or one is missing: a name written as one over a user name
    stated = [name for name in (from_jsonld, other) if name]
    return next((name for name in stated if not _HANDLE.fullmatch(name)), stated[0] if stated else None)


def _stand_in(name: str, site: str | None) -> bool:
    """Whether an author stands in for a person: a user name ("kevin-r"), or the site's own name (a
    publisher written as the author of its pages: "Cleveland Clinic" on Cleveland Clinic's)."""
    return bool(_HANDLE.fullmatch(name)) or (bool(site) and squeezed(name) == squeezed(site))


def _meta_names(tree: html.HtmlElement, key: str) -> list[str]:
    """Every name the page's `<meta>` tags of one key give, in order, each once: a paper's
    `citation_author` and a page's `author` or `DC.Creator` come one tag per author."""
    found: list[str] = []
    for meta in tree.iter("meta"):
        if any((meta.get(attr) or "").strip().lower() == key for attr in ("name", "property", "itemprop")):
            value = clean(meta.get("content"))
            if value and _a_name(value) and value not in found:
                found.append(value)
    return found


# the label of a link to an author's page, marked as the author ("View more posts", "All posts")
_LINK_LABEL = re.compile(
    r"(?i)(?:(?:view|see|read|browse) )?(?:(?:all|more) )*(?:posts|articles|stories|author profile)"
    r"(?: by(?: this author)?)?\W*"
)


def extract_metadata(tree: html.HtmlElement, url: str | None) -> Metadata:
    """Everything the markup states about the page; JSON-LD first, then meta tags, then the DOM."""
    tags = meta_tags(tree)
    blocks = jsonld_blocks(tree)
    nodes = ld_nodes(blocks)
    meta = Metadata(jsonld=blocks, ld_types=[t for n in nodes for t in ld_types(n)])
    _from_jsonld(meta, nodes, url)
    marks = _Marked(tree)
    meta.title = _title(tree, tags, marks, url, meta.title)
    meta.site_name = _without_empty_parts(
        meta.site_name or clean(tags.get("og:site_name")) or clean(tags.get("application-name"))
    )
    meta.byline = _without_by(_stated_byline(meta.byline, tree, tags, marks, meta.site_name))
    meta.published = (
        meta.published or next(filter(None, (local_day(tags.get(k), url) for k in PUBLISHED_KEYS)), None)
    ) or time_published(tree, url)
    meta.modified = meta.modified or next(filter(None, (iso_date(tags.get(k)) for k in MODIFIED_KEYS)), None)
    meta.modified = after_publication(meta.modified or time_modified(tree), meta.published, url)
    meta.description = clean(tags.get("og:description")) or clean(tags.get("description")) or meta.description
    meta.language = _language(tree, tags)
    meta.og_type = clean(tags.get("og:type"))
    image = meta.image or clean(tags.get("og:image")) or clean(tags.get("twitter:image"))
    base = base_url(tree, url)  # relative addresses resolve against `<base href>`, as a browser's do
    meta.image = join_url(base or "", image) if image else None
    meta.canonical_url = _canonical(tree, tags, base, url)
    for name in ("title", "byline", "site_name", "description"):
        setattr(meta, name, _decoded(getattr(meta, name)))
    meta.title = strip_site(meta.title, meta.site_name, url)
    meta.description = _markup_text(meta.description)
    from webferret.extract.product import product_facts  # it reads JSON-LD with this module's helpers

    meta.product = product_facts(nodes, tags)
    return meta


def _without_empty_parts(name: str | None) -> str | None:
    """A site's name without the separators a template left beside an empty part (`{site} | {tagline}`
    with no tagline: "Ambient Air Solutions |", "MonsGeek - - Make Cool Gears Accessible")."""
    if not name:
        return name
    name = _EMPTY_PART.sub(r"\1", name)
    return name.strip(_SEPARATOR_MARKS + " ") or name


_EMPTY_PART = re.compile(r"(\s[|\-–—·•»])(?:\s[|\-–—·•»])+(?=\s)")


def _decoded(text: str | None) -> str | None:
    """Text with the HTML entities left in it decoded: CMS plugins write `&amp;` and `&#8217;` into
    JSON-LD strings, and escape some attributes twice."""
    return clean(unescape(text)) if text and _ENTITY.search(text) else text


def _markup_text(text: str | None) -> str | None:
    """A description written as HTML (a CMS's excerpt, `<p>We're excited to introduce
    <strong>Mini-SGLang</strong>...`) as its text; one that only names a tag ("The <table> HTML
    element represents...", "The <p> HTML element", MDN's) or holds code is text already: an excerpt's
    markup closes the elements of prose (`</p>`, `</a>`, `</strong>`) or opens a paragraph (`_MARKUP`)."""
    if not text or not _MARKUP.search(text):
        return text
    try:
        return clean(html.fragment_fromstring(text, create_parent="div").text_content())
    except (etree.ParserError, ValueError):
        return text


# the elements an excerpt is written in, closed (a code sample's `</TargetFrameworks>` is text); a
# paragraph opened where the text begins or with attributes, a line broken as `<br />`: a bare `<p>`
# or `<br>` within a sentence names the element (MDN's "The <p> HTML element represents...")
_MARKUP = re.compile(
    r"</(?:p|a|strong|em|b|i|span|div|li|ul|ol|h[1-6])\s*>|^\s*<p\b[^>]*>|<p\s[^>]*>|<br\s*/>", re.I
)


def _without_by(byline: str | None) -> str | None:
    """ "By Jane Roe" -> "Jane Roe"."""
    return (_BY.sub("", byline) or byline) if byline else byline


def _language(tree: html.HtmlElement, tags: dict[str, str]) -> str | None:
    """The page's language tag: its `<html lang>`, else its meta tags'. A value that is no language
    tag (a language's name, `<meta name="language" content="English">`, a template's `{{ lang }}`)
    is passed over for the next."""
    root = tree.getroottree().getroot()
    stated = (
        root.get("lang"),
        root.get("{http://www.w3.org/XML/1998/namespace}lang"),
        tags.get("content-language"),
        tags.get("og:locale"),
        tags.get("language"),
    )
    for value in map(clean, stated):
        tag = value.replace("_", "-").split(",")[0].strip() if value else ""
        if _LANGUAGE_TAG.fullmatch(tag):
            return _language_tag(tag)
    return None


# BCP 47's shape: a language of 2 or 3 letters (or `i-`/`x-` and a private one), subtags of 1 to 8
_LANGUAGE_TAG = re.compile(r"(?:[a-z]{2,3}|[ix])(?:-[a-z0-9]{1,8})*", re.I)


def _language_tag(tag: str) -> str:
    """A language tag in its usual case: `en-US` for `en-us`, `zh-Hant-TW` for `ZH-hant-tw`."""
    parts = tag.strip().split("-")
    out = [parts[0].lower()]
    for part in parts[1:]:
        out.append(part.upper() if len(part) == 2 else part.title() if len(part) == 4 else part.lower())
    return "-".join(out)


def _canonical(tree: html.HtmlElement, tags: dict[str, str], base: str | None, url: str | None) -> str | None:
    """The page's canonical address (`<link rel=canonical>`, else `og:url`), resolved against `base`,
    the first one that can be the page's (`_an_address_of`)."""
    stated = [
        link.get("href", "")
        for link in tree.iter("link")
        if "canonical" in (link.get("rel") or "").lower().split()
    ]
    for value in [*stated, tags.get("og:url", "")]:
        address = join_url(base or "", value.strip()) if value.strip() else None
        if address and _an_address_of(address, url):
            return address
    return None


def _an_address_of(address: str, url: str | None) -> bool:
    """Whether a canonical address the page states can be the page's: its host can be one (a name
    with a dot, not a slug a template put there, `https://packing-list-backpacking-trip`, nor an
    escaped path, `https://blog.example%2Farticles%2F...`), and it is not the site's home page when the
    page read from the web has a path of its own (a template's `<link rel=canonical
    href="https://example.com">` on every page; a home page's `/?utm_source=...` and its index
    document, `/index.html`, are the home page)."""
    parts = urlsplit(address)
    page = urlsplit(url) if url else None
    host, page_host = parts.hostname or "", (page.hostname or "") if page else ""
    if parts.scheme in ("http", "https") and ("%" in host or ("." not in host and host != page_host)):
        return False
    path = INDEX_DOCUMENT.sub("/", page.path) if page else ""
    deep = page is not None and page.scheme in ("http", "https") and path not in ("", "/")
    return not (deep and home_page(address))


def base_url(tree: html.HtmlElement, url: str | None) -> str | None:
    """The URL relative links resolve against: `<base href>` (itself resolved) or the page URL."""
    for base in tree.iter("base"):
        href = (base.get("href") or "").strip()
        if href:
            return join_url(url or "", href)
    return url
