"""Check a `--json` answer against the committed JSON Schemas (`schemas/`)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import jsonschema

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def fits(value: Any, name: str) -> None:
    """Raise `jsonschema.ValidationError` unless `value` fits `schemas/<name>.schema.json`."""
    schema = json.loads((SCHEMAS / f"{name}.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(value, schema)


def fits_envelope(envelope: dict[str, Any], data: str) -> None:
    """The envelope fits its schema, and its `data` (when there is any) the schema named `data`."""
    fits(envelope, "envelope")
    if envelope["data"] is not None:
        fits(envelope["data"], data)
