"""Runs extraction off the event loop."""

from __future__ import annotations

import asyncio
from concurrent.futures import ThreadPoolExecutor

from webferret.extract.document import extract_document
from webferret.extract.types import Extracted, ExtractOptions
from webferret.fetch.types import RawResponse


class Extractor:
    """Extraction in a worker pool, so a batch never blocks the event loop."""

    def __init__(self, workers: int | None = None) -> None:
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="webferret-extract")

    async def extract(self, raw: RawResponse, options: ExtractOptions) -> Extracted:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(
            self._pool,
            lambda: extract_document(
                raw.body, url=raw.final_url, content_type=raw.content_type, options=options
            ),
        )

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)
