"""Write the JSON Schemas of the public models: `python -m webferret.schema [DIR]` (default `schemas/`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from webferret.crawler import CrawlResult
from webferret.models import Envelope, FetchedPages, Hit, Page
from webferret.search.present import SearchData
from webferret.site_map import SiteMap
from webferret.store.types import (
    DocumentOutline,
    FoundPassages,
    OpenedPage,
    PageDiff,
    StoredPages,
    StoreStats,
)


def schemas() -> dict[str, dict[str, Any]]:
    """File name -> JSON Schema, for every model in the JSON contract: the envelope, and the `data`
    of each command's `--json` answer (`fetch` and `extract` share one)."""
    return {
        "envelope.schema.json": Envelope.model_json_schema(),
        "page.schema.json": Page.model_json_schema(),
        "hit.schema.json": Hit.model_json_schema(),
        "fetch.schema.json": FetchedPages.model_json_schema(),
        "search.schema.json": SearchData.model_json_schema(),
        "open.schema.json": OpenedPage.model_json_schema(),
        "find.schema.json": FoundPassages.model_json_schema(),
        "outline.schema.json": DocumentOutline.model_json_schema(),
        "diff.schema.json": PageDiff.model_json_schema(),
        "store-stats.schema.json": StoreStats.model_json_schema(),
        "store-list.schema.json": StoredPages.model_json_schema(),
        "crawl.schema.json": CrawlResult.model_json_schema(),
        "map.schema.json": SiteMap.model_json_schema(),
    }


def render(schema: dict[str, Any]) -> str:
    return json.dumps(schema, indent=2, sort_keys=True) + "\n"


def main(argv: list[str] | None = None) -> int:
    target = Path((argv or sys.argv[1:] or ["schemas"])[0])
    target.mkdir(parents=True, exist_ok=True)
    for name, schema in schemas().items():
        (target / name).write_text(render(schema), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
