"""Write the JSON Schemas of the public models: `python -m webferret.schema [DIR]` (default `schemas/`)."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

from webferret.models import Envelope, Hit, Page


def schemas() -> dict[str, dict[str, Any]]:
    """File name -> JSON Schema, for every model in the JSON contract."""
    return {
        "envelope.schema.json": Envelope.model_json_schema(),
        "page.schema.json": Page.model_json_schema(),
        "hit.schema.json": Hit.model_json_schema(),
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
