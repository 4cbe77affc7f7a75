"""PDF to Markdown with pypdf: text in reading order, a marker per page, title/author from the metadata.

An encrypted PDF (that an empty password does not open) is `unsupported_content`; a PDF without a
text layer (scanned images) is `empty_content`; both errors say why.
"""

from __future__ import annotations

import io
import logging
import re
import unicodedata
from functools import partial

from pypdf import PdfReader
from pypdf.errors import PdfReadError, PyPdfError

from webferret.extract.dates import iso_date
from webferret.extract.pdfcode import Carried, letter_width
from webferret.extract.pdffields import with_fields
from webferret.extract.pdfhyphens import compounds_of, unbroken
from webferret.extract.pdflayout import Run, collect, page_markdown
from webferret.extract.pdflinks import Placed, annotated_links, distinct
from webferret.extract.pdfrunning import without_running
from webferret.extract.pdfscale import scale_of
from webferret.extract.pdfsize import Drawn
from webferret.extract.pdftables import table_text
from webferret.extract.pdftitle import first_line_title, usable_author, usable_title
from webferret.extract.pdfxmp import xmp_info
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.words import count_words
from webferret.models import ErrorCode, FerretError, Link
from webferret.net.urlpath import file_name
from webferret.remote_text import one_line

logging.getLogger("pypdf").setLevel(logging.ERROR)
SYMBOL_BULLETS = {
    "\uf0b7": "•",
    "\uf0a7": "▪",
    "\uf06e": "■",
    "\uf0d8": "➢",
    "\uf076": "❖",
    "\uf0fc": "✓",
}
"""The list bullets Word draws in its Symbol and Wingdings fonts, which its PDFs map to Unicode's private
use area (U+F000 + the font's code: `\uf0b7` for Symbol's bullet), as the marks they draw."""
_PRESENTATION_FORMS = (*range(0xFB00, 0xFE00), *range(0xFE70, 0xFF00))
"""Unicode's presentation forms: Latin and Hebrew ligatures, and Arabic letters in their initial, medial,
final and isolated shapes and ligatures (Arabic Presentation Forms-A and -B)."""
_LIGATURES = str.maketrans(
    {
        chr(code): shaped
        for code in _PRESENTATION_FORMS
        if (shaped := unicodedata.normalize("NFKC", chr(code)).lstrip(" ")) != chr(code)
    }
    | {"\x7f": "•"}
    | SYMBOL_BULLETS
)
"""The Latin ligatures a font draws as one glyph (ﬁ ﬂ ﬀ ﬃ ﬄ ﬅ ﬆ), as the letters they join: the text is
searched and read by its words, and `ﬁle` is not `file`. So too an Arabic letter in the shape it takes
in its word (`ﻣﺮﺣﺒﺎ`, as Chrome's PDFs map them), as the letter (`مرحبا`); a
vowel mark's spacing form is the mark, without the space Unicode puts before it. And the bullet that
WinAnsiEncoding also draws at code 127 (PDF 1.7, Annex D; ReportLab's lists), which pypdf reads as
the control DEL; and the bullets of the Symbol and Wingdings fonts, as the marks they draw."""


def _open(body: bytes, where: str) -> PdfReader:
    try:
        reader = PdfReader(io.BytesIO(body))
        encrypted = reader.is_encrypted
    except (PdfReadError, PyPdfError, ValueError, KeyError, TypeError) as exc:
        raise FerretError(
            ErrorCode.UNSUPPORTED_CONTENT, f"the PDF at {where} cannot be read: {exc}"
        ) from None
    if encrypted:
        try:
            opened = bool(reader.decrypt(""))
        except (PyPdfError, ValueError, KeyError, TypeError, NotImplementedError) as exc:
            reason = f"is encrypted and cannot be opened ({exc})"
            raise FerretError(ErrorCode.UNSUPPORTED_CONTENT, f"the PDF at {where} {reason}") from None
        if not opened:
            raise FerretError(
                ErrorCode.UNSUPPORTED_CONTENT, f"the PDF at {where} is encrypted and needs a password"
            )
    return reader


def _page_texts(
    reader: PdfReader, where: str, base: str | None
) -> tuple[list[str], list[str], dict[int, str], list[Link]]:
    """Each page's text as pypdf reads it (its lines as drawn), and as Markdown (`pdflayout`); the
    pages that cannot be read, by number, each with why (their text is empty: the others are read, as
    a reader's viewer shows the pages it can); and the web links of the pages' annotations."""
    texts: list[str] = []
    markdowns: list[str] = []
    unreadable: dict[int, str] = {}
    links: list[Link] = []
    try:
        pages = list(reader.pages)
    except Exception as exc:  # a damaged page tree: whatever pypdf raises for it
        raise FerretError(
            ErrorCode.UNSUPPORTED_CONTENT,
            f"the PDF at {where} cannot be read: its list of pages is damaged ({_said(exc)})",
        ) from None
    read: list[tuple[str, list[Run]]] = []
    drawn = Drawn()  # what the pages read so far draw: a budget (`pdfsize`)
    for number, page in enumerate(pages, start=1):
        runs: list[Run] = []
        placed: list[Placed] = []
        widths: dict[int, float] = {}  # each font's monospaced letter width (or 0), by the font's id
        try:
            if refused := drawn.refused(page):
                raise _NotRead(refused)
            text = page.extract_text(visitor_text=partial(_keep_run, runs, placed, widths)) or ""
        except _NotRead as exc:
            unreadable[number] = str(exc)
            text, runs = "", []
        except Exception as exc:  # a damaged page: pypdf raises many kinds
            unreadable[number] = _said(exc)
            text, runs = "", []
        else:
            runs, answers = with_fields(page, runs)  # a form's filled-in values
            text = "\n".join([text, *answers])
        read.append((text.translate(_LIGATURES), runs))
        links += annotated_links(page, placed, base)
    compounds = compounds_of([text for text, _ in read])
    scale = scale_of(collect(runs) for _, runs in read)  # the body's size and the headings' levels
    carried = Carried()  # a listing a page break cuts goes on, indented, on the next page
    for text, runs in read:
        plain = unbroken(text, compounds).strip()
        texts.append(plain)
        if not plain:
            carried.left = None  # a page without text breaks no listing
        markdowns.append(page_markdown(runs, plain, compounds, scale, carried) if plain else "")
    return texts, markdowns, unreadable, distinct(links)


class _NotRead(Exception):
    """A page left unread, and why (not a damaged one: its words are the reason)."""


def _said(exc: Exception) -> str:
    """What went wrong, in one short line (the file's own bytes may be in pypdf's words)."""
    said = one_line(str(exc), 200)
    return f"{type(exc).__name__}: {said}" if said else type(exc).__name__


def _keep_run(
    runs: list[Run],
    placed: list[Placed],
    widths: dict[int, float],
    text: str,
    cm: list[float],
    tm: list[float],
    font: object,
    size: float,
) -> None:
    """pypdf's `visitor_text`: a run of text with where it starts on the page and its font size as
    drawn (`runs`), and again for the words a link annotation holds (`placed`)."""
    if text.strip():
        x, y, shown = tm[4] * cm[0] + cm[4], tm[5] * cm[3] + cm[5], text.translate(_LIGATURES)
        width = widths.get(id(font))
        if width is None:
            width = widths[id(font)] = letter_width(font)
        runs.append(Run(y, abs(size * tm[3] * cm[3]) or size, shown, x, width))
        placed.append((x, y, shown))


def _unmarked(markdown: str) -> str:
    """A page's Markdown as plain text: its headings without their marks, its tables' rows as their
    cells between bars (as an HTML table's are in text), its code without its fences (and a code
    line that opens with `#` kept as it is)."""
    pieces = _FENCED.split(markdown)  # prose, then (fence, code, prose) again and again
    prose = [
        _HEADING_MARK.sub("", _TABLE.sub(lambda table: table_text(table.group()), piece))
        for piece in pieces[::3]
    ]
    codes = pieces[2::3]
    return "".join(text + (codes[at] if at < len(codes) else "") for at, text in enumerate(prose))


_FENCED = re.compile(r"^(`{3,4})\n(.*?)\n\1$", re.M | re.S)
_HEADING_MARK = re.compile(r"^#{1,6} ", re.M)
_TABLE = re.compile(r"^\| .* \|\n\|(?:---\|)+(?:\n\| .* \|)+$", re.M)


def _info(reader: PdfReader) -> dict[str, str | None]:
    try:
        meta = reader.metadata
    except (PyPdfError, ValueError, KeyError, TypeError):
        meta = None
    language = _language(reader)
    info: dict[str, str | None] = {"title": None, "author": None, "created": None, "modified": None}
    if meta is not None:
        info = {
            "title": usable_title(meta.title),
            "author": usable_author(meta.author),
            "created": _day(meta.get("/CreationDate")),
            "modified": _day(meta.get("/ModDate")),
        }
    if not all(info.values()):  # PDF 2.0 deprecates the Info dictionary: its XMP packet says them
        stated = xmp_info(reader)
        info = {key: value or stated.get(key) for key, value in info.items()}
    return info | {"language": language}


def _day(value: object) -> str | None:
    """A PDF date (`D:20240305120000+01'00'`; many writers leave its `D:` out) as `YYYY-MM-DD`."""
    return iso_date(str(value or "").strip().removeprefix("D:")[:8])


_LANGUAGE_TAG = re.compile(r"[A-Za-z]{2,3}(?:-[A-Za-z0-9]{1,8})*")


def _language(reader: PdfReader) -> str | None:
    """The document's language as its catalog's `/Lang` names it (`en-GB`; Chrome and Word write
    it), or None when it names none or no language tag."""
    try:
        said = reader.trailer["/Root"].get_object().get("/Lang")
    except Exception:  # a damaged catalog: whatever pypdf raises for it
        return None
    tag = str(said.get_object()).strip() if said is not None else ""
    return tag if _LANGUAGE_TAG.fullmatch(tag) else None


def extract_pdf(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """The whole PDF as Markdown with `<!-- page N -->` markers (plain text: without them)."""
    where = url or "input"
    reader = _open(body, where)
    texts, markdowns, unreadable, links = _page_texts(reader, where, url)
    if not any(texts):
        if unreadable:
            numbers = ", ".join(map(str, unreadable))
            first = next(iter(unreadable.values()))
            raise FerretError(
                ErrorCode.UNSUPPORTED_CONTENT,
                f"the PDF at {where} cannot be read: no page gave text, and pages {numbers} of "
                f"{len(texts)} are damaged (page {next(iter(unreadable))}: {first})",
            )
        raise FerretError(
            ErrorCode.EMPTY_CONTENT,
            f"the PDF at {where} has no text layer ({len(texts)} pages of images, e.g. a scan); "
            "it needs OCR, which webferret does not do",
        )
    largest = _largest(markdowns[0])
    markdowns = without_running(markdowns)
    markdown = "\n\n".join(_marked(n, text, unreadable.get(n)) for n, text in enumerate(markdowns, 1)) + "\n"
    plain = "\n\n".join(_unmarked(text) for text in markdowns if text) + "\n"
    info = _info(reader)
    extra: dict[str, object] = {"pages": len(texts)}
    if unreadable:
        extra["unreadable_pages"] = [{"page": n, "error": why} for n, why in unreadable.items()]
    return Extracted(
        content_type="application/pdf",
        title=info["title"] or first_line_title(texts, largest, _table_rows(markdowns[0])) or file_name(url),
        byline=info["author"],
        language=info["language"],
        published=info["created"],
        modified=info["modified"],
        page_type="other",
        format=options.format,
        content=plain if options.format == "text" else markdown,
        word_count=count_words(plain),
        links=links,
        extra=extra,
    )


def _table_rows(markdown: str) -> frozenset[str]:
    """A page's table rows (its GFM tables', `pdftables`) as lines of their cells, casefolded."""
    rows = (row for table in _TABLE.finditer(markdown) for row in table_text(table.group()).split("\n"))
    return frozenset(" ".join(row.replace(" | ", " ").split()).casefold() for row in rows)


def _largest(markdown: str) -> str | None:
    """The first of a page's lines set largest (its first `##` heading), or None."""
    found = _LARGEST.search(markdown)
    return found.group(1) if found else None


_LARGEST = re.compile(r"^## (.+)$", re.M)


def _marked(number: int, markdown: str, damaged: str | None) -> str:
    """A page's Markdown under its marker; a page that cannot be read says so in its marker."""
    if damaged is not None:
        return f"<!-- page {number}: cannot be read ({damaged.replace('--', '- -')}) -->"
    return f"<!-- page {number} -->\n\n{markdown}"
