"""Word documents (.docx) as Markdown: mammoth turns the document into plain semantic HTML (headings
from its styles, the Title style's among them, lists, tables, links, emphasis), rendered by the same
Markdown writer as a page; title, author and dates from its properties (`zipped.core_properties`).

The whole document is its content (no main-content choice), less the text Word hides (a run formatted
hidden: mammoth would show it, as a page's `display: none` text is not). Images are left as their alt
text (mammoth would inline them as data URIs), nothing outside the file is opened (mammoth's external
file access stays off), and a file whose parts unpack too far is refused before it is read (`zipped`).
"""

from __future__ import annotations

import io
import zipfile

from lxml import etree, html

from webferret.extract import zipped
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.whole import first_heading, whole_document
from webferret.net.urlpath import file_name

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"
STYLE_MAP = "p[style-name='Title'] => h1:fresh"
"""What mammoth is told beside its own map: Word's Title style sets the document's title, a heading
(mammoth's map makes it a paragraph, and the first section's heading was taken for the title)."""


def extract_docx(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """The Word document in `body` as Markdown (or text) with its properties; `FerretError` says why not."""
    what = f"the Word document at {url or 'input'}"
    archive = zipped.checked(body, what)
    import mammoth

    images = mammoth.images.img_element(_no_src)
    try:
        converted = mammoth.convert_to_html(
            io.BytesIO(_shown(archive, body)), convert_image=images, style_map=STYLE_MAP
        )
    except Exception as exc:  # a damaged part: mammoth raises many kinds
        raise zipped.unreadable(what, exc) from None
    root = html.fragment_fromstring(converted.value or "", create_parent="div")
    for back in _BACK_LINKS(root):  # a note's "↑" back to where it is cited: no word of the document
        back.drop_tree()
    title = first_heading(root) or file_name(url)
    fields = zipped.described(archive, title)
    extra = {"document": "docx"}
    return whole_document(root, url, options, what=what, content_type=DOCX_TYPE, fields=fields, extra=extra)


_BACK_LINKS = etree.XPath("//a[starts-with(@href, '#footnote-ref-') or starts-with(@href, '#endnote-ref-')]")
"""The links mammoth writes after each footnote and endnote, back to where it is cited (`↑`)."""
_W = "http://schemas.openxmlformats.org/wordprocessingml/2006/main"
_HIDDEN_RUNS = etree.XPath(
    "//w:r[w:rPr/w:vanish[not(@w:val) or not(@w:val = '0' or @w:val = 'false' or @w:val = 'off')]]",
    namespaces={"w": _W},
)
"""The runs of a part that Word does not show: those formatted hidden (`<w:vanish/>`)."""
_TEXT_PARTS = ("word/document.xml", "word/footnotes.xml", "word/endnotes.xml")


_NOTE_REFERENCES = etree.XPath("//w:footnoteReference | //w:endnoteReference", namespaces={"w": _W})


def _shown(archive: zipfile.ZipFile, body: bytes) -> bytes:
    """The document in `body` (its `archive`) without the runs Word hides in its text's parts, nor a
    reference to a note cited already (mammoth writes the note out again for each: a document of a few
    KB citing one long footnote a hundred times gave 10 MB) or to a note the file does not hold
    (mammoth failed the whole document on it); `body` itself when it has none."""
    changed: dict[str, bytes] = {}
    notes: set[tuple[str, str | None]] | None = None
    for name in _TEXT_PARTS:
        data = archive.read(name) if name in archive.NameToInfo else b""
        if b"vanish" not in data and b"noteReference" not in data:
            continue
        root = zipped.part(archive, name)
        if notes is None and b"noteReference" in data:
            notes = _notes(archive)
        dropped = [*_HIDDEN_RUNS(root), *_unwritten(root, notes or set())] if root is not None else []
        for node in dropped:
            node.getparent().remove(node)
        if dropped:
            changed[name] = etree.tostring(root, xml_declaration=True, encoding="UTF-8")
    if not changed:
        return body
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as shown:
        for item in archive.infolist():
            shown.writestr(item, changed.get(item.filename) or archive.read(item))
    return out.getvalue()


def _unwritten(root: etree._Element, notes: set[tuple[str, str | None]]) -> list[etree._Element]:
    """A part's references to a footnote or an endnote that an earlier one cites already, or that
    none of the file's `notes` is (`_notes`)."""
    seen: set[tuple[str, str | None]] = set()
    again = []
    for reference in _NOTE_REFERENCES(root):
        key = (etree.QName(reference).localname, reference.get(f"{{{_W}}}id"))
        if key in seen or key not in notes:
            again.append(reference)
        seen.add(key)
    return again


_NOTES = etree.XPath("/w:footnotes/w:footnote | /w:endnotes/w:endnote", namespaces={"w": _W})


def _notes(archive: zipfile.ZipFile) -> set[tuple[str, str | None]]:
    """The notes the file holds, each as its references name it (`footnoteReference`, its id)."""
    held: set[tuple[str, str | None]] = set()
    for name in _TEXT_PARTS[1:]:
        root = zipped.part(archive, name) if name in archive.NameToInfo else None
        for note in _NOTES(root) if root is not None else ():
            held.add((etree.QName(note).localname + "Reference", note.get(f"{{{_W}}}id")))
    return held


def _no_src(image: object) -> dict[str, str]:
    """An image as its alt text alone (mammoth would inline its bytes as a data URI)."""
    return {}
