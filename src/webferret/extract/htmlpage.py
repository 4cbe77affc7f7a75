"""HTML in, `Extracted` out: metadata, main content as Markdown (and text), links, page type, quality."""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass, replace

from lxml import etree, html

from webferret.extract import (
    announced,
    boards,
    cells,
    cfemail,
    classify,
    dialogs,
    footnotes,
    formulas,
    forum,
    grids,
    hints,
    inlinequotes,
    lazyimages,
    leadtitle,
    mediawiki,
    nesting,
    popups,
    promos,
    qapage,
    recommended,
    restored,
    scope,
    signatures,
    signup,
    spacing,
    states,
    tablefoot,
    tabs,
    tasklists,
    wikipedia,
    zerofont,
)
from webferret.extract.codeblocks import collect_code_blocks, unwrap_gutter_tables
from webferret.extract.iconcells import spell_icons
from webferret.extract.imagelinks import name_image_links
from webferret.extract.links import main_targets, page_links
from webferret.extract.markdown import to_markdown, to_text
from webferret.extract.metadata import ARTICLE_TYPES, answered_jsonld, base_url, extract_metadata
from webferret.extract.roottag import keep_root_language
from webferret.extract.selector import MainContent, choose_main
from webferret.extract.softhyphens import unhyphenated
from webferret.extract.starttags import parseable
from webferret.extract.stoplists import memoize_stoplists
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.unwrap import code_figures, times_in_sentences, unwrap_holders
from webferret.extract.words import count_words
from webferret.models import ErrorCode, FerretError
from webferret.robots_tags import markup_directives

_KNOWN_TYPES = {"wikipedia": "article", "qapage": "forum", "forum": "forum"}
"""The page type a selector's choice tells (`MainContent.source`)."""
_AS_ASKED = frozenset(("selector", "whole_page"))
"""The sources of a main content the caller chose (`--selector`, `--whole-page`): read as it is."""
_CHOSEN = frozenset(("trafilatura", "learned"))
"""The sources of a main content chosen block by block, which may leave out a list its text announces."""
_PICKED = frozenset(("trafilatura", "learned", "density", "body"))
"""The sources of a main content the main-content choice made (`selector.choose_main`): its Markdown
leaves images out, as trafilatura's copy has none (images make its choice worse, and cost tokens)."""
_XML_DECLARATION = re.compile(r"^\s*<\?xml[^>]*\?>", re.I)
_PARSERS = threading.local()
# what the page's HTML must hold for the edits of `parse_html` that look for it (`hints`)
_FIGURE, _PRE, _TIME = hints.word("<figure"), hints.word("<pre"), hints.word("<time")
_IMAGES = (hints.word("<img"), hints.word("<IMG"))
_CFEMAIL = (hints.word("email-protection"), hints.word("data-cfemail"))


def _parser() -> html.HTMLParser:
    """This thread's parser: an lxml parser must never be used by two threads at once (it crashes).

    Comments and processing instructions are dropped: they would split text nodes (and change
    trafilatura's choices).
    """
    parser = getattr(_PARSERS, "parser", None)
    if parser is None:
        parser = html.HTMLParser(
            remove_comments=True, remove_pis=True, collect_ids=False, default_doctype=False, huge_tree=True
        )
        parser.set_element_class_lookup(_class_lookup())
        _PARSERS.parser = parser
    return parser


def _class_lookup() -> etree.ElementNamespaceClassLookup:
    """lxml.html's element classes, looked up in C: `HtmlElement`, and for the tags lxml.html gives a
    class of their own (form, input, select, textarea, label) that class.

    lxml.html's lookup is a Python method that lxml calls for every element object it creates, on every
    walk of the tree and of its copies (trafilatura's runs, the blocks, the links): about 10,000 calls
    a page. The tags the HTML parser gives are lower-case, as that lookup makes them before it looks.
    """
    lookup = etree.ElementNamespaceClassLookup(
        etree.ElementDefaultClassLookup(
            element=html.HtmlElement,
            comment=html.HtmlComment,
            pi=html.HtmlProcessingInstruction,
            entity=html.HtmlEntity,
        )
    )
    classes = lookup.get_namespace(None)
    classes.update(html.HtmlElementClassLookup._default_element_classes)
    return lookup


def parse_html(text: str, url: str | None) -> html.HtmlElement:
    """An lxml document; an empty or unparseable document is `empty_content`. `text` is read as it
    is: a page's soft hyphens are taken out before (`softhyphens.unhyphenated`)."""
    text = _XML_DECLARATION.sub("", text, count=1)
    if not text.strip():
        raise FerretError(ErrorCode.EMPTY_CONTENT, f"the HTML document at {url or 'input'} is empty")
    parser = _parser()
    try:
        tree = html.document_fromstring(parseable(text), parser=parser)
        if nesting.stopped_deep(parser) or nesting.too_deep(tree):  # (the rest dropped, or too deep)
            tree = html.document_fromstring(parseable(nesting.flattened(text)), parser=parser)
    except (etree.ParserError, ValueError) as exc:
        raise FerretError(
            ErrorCode.EMPTY_CONTENT, f"no HTML could be parsed at {url or 'input'}: {exc}"
        ) from None
    keep_root_language(tree, text)
    unwrap_holders(tree)
    if hints.holds(text, _FIGURE) and hints.holds(text, _PRE):
        code_figures(tree)
    if tabs.has_tabs(text):
        tabs.label_code_tabs(tree, text)
    if hints.holds_any(text, _IMAGES):
        spell_icons(tree)
    if lazyimages.has_late_images(text):
        lazyimages.settle_images(tree)
    name_image_links(tree)
    if hints.holds_any(text, _CFEMAIL):  # rare: the search only when it is there
        cfemail.reveal(tree)
    if formulas.has_formulas(text):
        formulas.spell_formulas(tree, text)
    if mediawiki.has_chrome(text):
        mediawiki.strip_chrome(tree)
    if popups.has_popups(text):
        popups.drop_popups(tree)
    dialogs.drop_dialogs(tree, text)
    if zerofont.has_zero_fonts(text):
        zerofont.drop_zero_fonts(tree)
    states.settle(tree, text)
    if tasklists.has_task_boxes(text):
        tasklists.mark_task_boxes(tree)
    if footnotes.has_backlinks(text):
        footnotes.drop_backlinks(tree)
    if footnotes.has_citation_marks(text):
        footnotes.raise_citation_marks(tree)
    if tablefoot.has_footers(text):
        tablefoot.place_footers(tree)
    if inlinequotes.has_quotations(text):
        inlinequotes.mark_quotations(tree)
    spacing.space_touching(tree)
    return tree


def _main(
    tree: html.HtmlElement, url: str | None, text: str, article: bool, options: ExtractOptions
) -> MainContent | None:
    if options.selector is not None:  # the caller's scope instead of the main-content choice
        return MainContent(element=scope.selected(tree, options.selector, url), source="selector")
    if options.whole_page:
        return MainContent(element=scope.whole_body(tree), source="whole_page")
    if wikipedia.is_mobile_html(tree):
        return MainContent(element=wikipedia.prepare(tree), source="wikipedia")
    if mediawiki.has_chrome(text) and (article_text := mediawiki.content(tree)) is not None:
        return MainContent(element=article_text, source="mediawiki")
    if hints.holds(text, qapage.HINT) and (thread := qapage.thread(tree)) is not None:
        return MainContent(element=thread, source="qapage")
    if hints.holds(text, forum.HINT) and (posts := forum.thread(tree)) is not None:
        return MainContent(element=posts, source="forum")
    if (posts := boards.thread(tree, text)) is not None:
        return MainContent(element=posts, source="forum")
    return choose_main(tree, url, text, article)


@dataclass
class Body:
    """The main content rendered, and who chose it."""

    markdown: str  # "" when the text format is asked for (only what is asked for is rendered)
    plain: str
    selector: str | None
    words: int
    in_main: dict[str, str]  # the main content's link targets, each with its words there
    base: str | None
    markup: str = ""  # `--format html`: the main content as clean HTML (`extract.cleanhtml`)
    untitled: bool = False  # the opening headline, a repeat of the title, left out (`extract.leadtitle`)
    oversized: bool = False  # too many blocks: the densest block, read cheaply (`selector.MAX_BLOCKS`)


def _body(
    tree: html.HtmlElement,
    url: str | None,
    text: str,
    options: ExtractOptions,
    article: bool,
    title: str | None,
    shop: bool,
) -> Body:
    base = base_url(tree, url)  # `<base href>` must be read before the tree is cleaned
    head_title = tree.findtext(".//title")
    if scope.drop_excluded(tree, options.exclude):  # `--exclude`: gone before anything reads the body
        text = html.tostring(tree, encoding="unicode")  # the learned selector re-reads the HTML text
    if unwrap_gutter_tables(tree):  # a highlighter's table of line numbers and code: the code alone
        text = html.tostring(tree, encoding="unicode")
    codes = collect_code_blocks(tree)  # before the selector may flatten them
    if hints.holds(text, _TIME):  # after the metadata read the page's dates from them
        times_in_sentences(tree)
    main = _main(tree, url, text, article, options)
    if main is None:
        return Body("", "", None, 0, set(), base)
    untitled = False
    if main.source not in _AS_ASKED:  # what the page says around its article: the headline again, chrome
        untitled = leadtitle.drop_title(main.element, title, head_title)
        promos.drop_promos(main.element, tree)
        recommended.drop_recommended(main.element)
        if signup.has_signup(text) and (lines := signup.box_lines(tree)):
            signup.drop_lines(main.element, lines)
        dialogs.drop_modal_lines(main.element, tree, text)
    if main.source in _CHOSEN:
        announced.put_back_lists(main.element, tree)
        if shop:  # a category page's products, left out as navigation
            grids.put_back_grid(main.element, tree)
    cells.regroup(main.element, tree)  # a table trafilatura left as bare cells (inside a list item)
    if main.source in _CHOSEN:  # what trafilatura's copy lost: spanning cells, a list's start
        restored.restore_spans(main.element, tree)
        restored.restore_cell_lists(main.element, tree)
        restored.restore_starts(main.element, tree)
    if main.source == "trafilatura":
        restored.restore_headings(main.element, tree)
    # an article's writer repeats a paragraph on purpose (an interview's question, a recipe's line);
    # elsewhere a long block said again is a quotation of a post above, or a promotion repeated
    # (a forum thread is no article, whatever its `og:type` says)
    repeats = article and main.source != "forum"
    # one rendering, the one asked for (`--format html` counts the words of the Markdown's)
    if options.format == "text":
        markdown, plain = "", to_text(main.element, codes=codes, repeats=repeats)
    else:
        images = main.source not in _PICKED
        markdown, plain = to_markdown(main.element, base, codes=codes, repeats=repeats, images=images), ""
    words = count_words(plain or markdown)
    markup = ""
    if options.format == "html":
        from webferret.extract.cleanhtml import clean_html

        markup = clean_html(main, base)
    targets = main_targets(main.element, base)
    return Body(markdown, plain, main.source, words, targets, base, markup, untitled, main.oversized)


def extract_html(text: str, url: str | None, options: ExtractOptions) -> Extracted:
    """Extract one HTML page (pure; tens of milliseconds on a large page)."""
    try:
        return _extracted(text, url, options)
    finally:
        hints.forget()  # the page's text is not kept past its extraction


def _extracted(text: str, url: str | None, options: ExtractOptions) -> Extracted:
    memoize_stoplists()  # justext's stoplist (trafilatura's rescue) built fast, out of the collector's way
    text = unhyphenated(text)  # (the learned selector re-reads the text, as well as the tree)
    tree = parse_html(text, url)
    meta = extract_metadata(tree, url)
    robots = markup_directives(tree)  # before the tree is cut down to the content
    # after the metadata: a question's asker is marked in the card Stack Exchange names `post-signature`
    signatures.drop_signatures(tree, text)
    article = (meta.og_type or "").lower() == "article" or any(t in ARTICLE_TYPES for t in meta.ld_types)
    shop = not grids.other_goods(meta.ld_types, meta.og_type)
    body = _body(tree, url, text, options, article, meta.title, shop)
    signals = classify.Signals(
        url=url,
        title=meta.title,
        ld_types=tuple(meta.ld_types),
        og_type=meta.og_type,
        words=body.words,
        links_in_main=len(body.in_main),
        tree=tree,
    )
    vetoed = classify.veto(tree, signals, body.plain or body.markdown)
    if vetoed == "empty_shell" and classify.empty_app_mount(tree):
        # a script app's empty mount point and a few words around it ("Loading...", a search box,
        # "enable JavaScript"): the page's content is what the app draws, none of it is in this HTML
        body = replace(body, markdown="", plain="", words=0, in_main={}, markup="")
    extra: dict[str, object] = {"selector": body.selector}
    if options.scope() is not None:
        extra["scope"] = options.scope()
    if body.untitled:
        extra["title_left_out"] = True
    if body.oversized:
        extra["too_many_blocks"] = True
    if vetoed:
        extra["quality_veto"] = vetoed
    if robots:
        extra["robots"] = robots  # with the header's, the page's `meta["robots"]`
    return Extracted(
        content_type="text/html",
        title=meta.title,
        byline=meta.byline,
        site_name=meta.site_name,
        published=meta.published,
        modified=meta.modified,
        description=meta.description,
        language=meta.language,
        canonical_url=meta.canonical_url,
        image=meta.image,
        og_type=meta.og_type,
        product=meta.product,
        page_type=_KNOWN_TYPES.get(body.selector or "") or classify.page_type(signals),
        quality=classify.quality(signals, vetoed),
        word_count=body.words,
        format=options.format,
        content={"text": body.plain, "html": body.markup}.get(options.format, body.markdown),
        links=page_links(tree, body.base, body.in_main),
        jsonld=answered_jsonld(meta.jsonld),
        extra=extra,
    )
