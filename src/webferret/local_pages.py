"""Pages from bytes already in hand (a file, standard input, a body posted to the HTTP API),
extracted with the same pipeline and answered with the same contract as fetched pages."""

from __future__ import annotations

from typing import TYPE_CHECKING

from webferret.models import Page, without_password

if TYPE_CHECKING:
    from webferret.extract.types import ExtractOptions
    from webferret.ferret import Ferret


async def page_of(
    ferret: Ferret, body: bytes, content_type: str | None, url: str | None, xopts: ExtractOptions
) -> Page:
    """The page `body` holds (its kind from `content_type`, else sniffed), as if read from `url`
    (its links made absolute against it; None: they stay relative, and the page has no URL). It is
    not stored: no status, no trail, no handle; its tokens are counted where it was extracted. A gzip
    file in it unpacks as far as a fetched body's would (`max_bytes`, at least 10 MiB)."""
    from webferret.fetch.types import RawResponse

    url = without_password(url)
    headers = {"content-type": content_type} if content_type else {}
    base = url or ""
    raw = RawResponse(url=base, final_url=base, status=0, headers=headers, body=body, fetched_via="file")
    page = await ferret.page_from_raw(raw, xopts.unpacking(ferret.settings.max_bytes))
    meta = {key: value for key, value in page.meta.items() if key == "extract"}
    tokens = page.tokens if page.ok else None
    update = {"status": None, "meta": meta, "tokens": tokens, "url": url}
    return page.model_copy(update=update | ({} if url else {"final_url": None}))
