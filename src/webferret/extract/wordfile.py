"""Word documents (.docx) as Markdown: mammoth turns the document into plain semantic HTML (headings
from its styles, lists, tables, links, emphasis), rendered by the same Markdown writer as a page;
title, author and dates from its properties (`zipped.core_properties`).

The whole document is its content (no main-content choice). Images are left as their alt text (mammoth
would inline them as data URIs), nothing outside the file is opened (mammoth's external file access
stays off), and a file whose parts unpack too far is refused before it is read (`zipped`).
"""

from __future__ import annotations

import io

from lxml import html

from webferret.extract import zipped
from webferret.extract.textual import file_name
from webferret.extract.types import Extracted, ExtractOptions
from webferret.extract.whole import first_heading, whole_document

DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document"


def extract_docx(body: bytes, url: str | None, options: ExtractOptions) -> Extracted:
    """The Word document in `body` as Markdown (or text) with its properties; `FerretError` says why not."""
    what = f"the Word document at {url or 'input'}"
    archive = zipped.checked(body, what)
    import mammoth

    images = mammoth.images.img_element(_no_src)
    try:
        converted = mammoth.convert_to_html(io.BytesIO(body), convert_image=images)
    except Exception as exc:  # a damaged part: mammoth raises many kinds
        raise zipped.unreadable(what, exc) from None
    root = html.fragment_fromstring(converted.value or "", create_parent="div")
    title = first_heading(root) or file_name(url)
    fields = zipped.described(archive, title)
    extra = {"document": "docx"}
    return whole_document(root, url, options, what=what, content_type=DOCX_TYPE, fields=fields, extra=extra)


def _no_src(image: object) -> dict[str, str]:
    """An image as its alt text alone (mammoth would inline its bytes as a data URI)."""
    return {}
