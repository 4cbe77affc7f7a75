"""What is wrong with a request the MCP SDK refuses as `Invalid request parameters`.

The SDK answers -32602 `Invalid request parameters`, and nothing more, both to a request whose params
do not fit its method (`tools/call` whose `arguments` is a string, as a host that sends them JSON-encoded
does, or that has no `name`) and to a request sent before `initialize`: the client learned neither
which field was wrong nor that it had to initialize first. `NamedProblems`, a middleware of the
server (both transports), keeps the code and says which.
"""

from __future__ import annotations

from typing import Any

from mcp.server.context import CallNext, HandlerResult, ServerRequestContext
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS
from pydantic import ValidationError

from webferret.models import validation_problem
from webferret.remote_text import one_line

PROBLEM_CHARS = 300
_JSON_KINDS = {
    str: "a string",
    list: "an array",
    int: "a number",
    float: "a number",
    bool: "true or false",
    type(None): "null",
}
_OBJECT_TYPES = {"dict_type", "model_type"}
"""pydantic's refusals of a value that is no JSON object: a dict's, and a model's (`_meta`, `clientInfo`,
`capabilities`), which named the SDK's class (`a valid dictionary or instance of Implementation`)."""


def params_problems(method: str, exc: ValidationError) -> str:
    """`Invalid params of METHOD: params.FIELD: problem; ...`, each field as the request names it."""
    problems = []
    for error in exc.errors():
        loc = [str(part) for part in error["loc"]]
        if loc and loc[0] != "params":  # the SDK validates the params inside a stub request
            loc = ["params", *loc]
        problem = validation_problem(error)
        if error["type"] in _OBJECT_TYPES:  # pydantic's "a valid dictionary (or instance of Meta)"
            problem = f"expected a JSON object, not {_JSON_KINDS.get(type(error['input']), 'that')}"
        problems.append(f"{'.'.join(loc) or 'params'}: {problem}")
    return f"Invalid params of {one_line(method, 100)}: " + one_line("; ".join(problems), PROBLEM_CHARS)


class NamedProblems:
    """Server middleware: the SDK's bare `Invalid request parameters` said with what was wrong."""

    async def __call__(self, ctx: ServerRequestContext[Any, Any], call_next: CallNext) -> HandlerResult:
        try:
            return await call_next(ctx)
        except ValidationError as exc:
            raise MCPError(code=INVALID_PARAMS, message=params_problems(ctx.method, exc)) from None
        except MCPError as exc:  # the SDK's own refusal of a request before the handshake
            before_handshake = ctx.method != "initialize" and ctx.session.client_params is None
            if exc.error.code != INVALID_PARAMS or exc.error.data != "" or not before_handshake:
                raise
            said = (
                f"{one_line(ctx.method, 100)} before initialize: the session is not initialized "
                "(send initialize, then notifications/initialized, first)"
            )
            raise MCPError(code=INVALID_PARAMS, message=said) from None
