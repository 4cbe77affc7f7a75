"""The committed JSON Schemas match the models."""

from pathlib import Path

from webferret.schema import render, schemas

SCHEMAS = Path(__file__).resolve().parent.parent / "schemas"


def test_committed_schemas_are_current() -> None:
    for name, schema in schemas().items():
        committed = (SCHEMAS / name).read_text(encoding="utf-8")
        assert committed == render(schema), (
            f"schemas/{name} is stale: run `uv run python -m webferret.schema`"
        )
