"""Arguments a caller writes in JSON (an MCP tool's, an HTTP API call's): a name the model has not is
refused, and so is a JSON true or false for a number, which pydantic's lax mode reads as 1 or 0
(`depth: false` crawled the start page alone, `results: true` answered one result)."""

from __future__ import annotations

from typing import Annotated, Any, get_args, get_origin

from pydantic import BaseModel, ConfigDict, ValidationInfo, field_validator


class JsonArgs(BaseModel):
    """A call's arguments as a JSON object gives them; subclasses name the fields."""

    model_config = ConfigDict(extra="forbid")

    @field_validator("*", mode="before")
    @classmethod
    def _no_switch_for_a_number(cls, value: Any, info: ValidationInfo) -> Any:
        field = cls.model_fields.get(info.field_name or "")
        if isinstance(value, bool) and field is not None and _numeric(field.annotation):
            raise ValueError(f"it is no switch: give a number, not {str(value).lower()}")
        return value  # (a text or a choice given true or false: pydantic refuses it, saying what it takes)


def _numeric(annotation: Any) -> bool:
    """Whether a field of this type takes a number (`int | None`, `Seconds | None`, a constrained
    float in a union): one pydantic would read true into."""
    if get_origin(annotation) is Annotated:
        return _numeric(get_args(annotation)[0])
    return annotation in (int, float) or any(_numeric(kind) for kind in get_args(annotation))
