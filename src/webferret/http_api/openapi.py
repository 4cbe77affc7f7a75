"""The HTTP API described in OpenAPI 3.1 (`GET /openapi.json`), made from the models that check its
parameters (`params`) and its answers (the envelope, and each endpoint's `data` model), so the
description cannot drift from what the server does. A tool that imports OpenAPI (an agent
framework's tool loader, a client generator) calls webferret with it.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from webferret.models import Envelope

REF = "#/components/schemas/{model}"


def document(endpoints: dict[str, Any], version: str, token: bool) -> dict[str, Any]:
    """The OpenAPI document of `endpoints` (`calls.endpoints()`: path -> `calls.Endpoint`), with
    `/r/`, `/s/` and `/extract`; `token`: calls bring a bearer token."""
    from pydantic.json_schema import models_json_schema

    from webferret.http_api.params import ExtractParams
    from webferret.models import FetchedPages

    models: list[tuple[type[BaseModel], Any]] = [
        (Envelope, "serialization"),
        (ExtractParams, "validation"),
        (FetchedPages, "serialization"),
    ]
    for endpoint in endpoints.values():
        models += [(endpoint.params, "validation"), (endpoint.data, "serialization")]
    refs, defs = models_json_schema(models, ref_template=REF)
    schemas = defs.get("$defs", {})
    paths: dict[str, Any] = {}
    for path, endpoint in endpoints.items():
        body_ref = refs[(endpoint.params, "validation")]
        data_ref = refs[(endpoint.data, "serialization")]
        does = endpoint.does
        answer = _answer(does, refs[(Envelope, "serialization")], data_ref, endpoint.lines is not None)
        name = path.strip("/")
        paths[path] = {
            "get": {
                "operationId": name,
                "summary": does,
                "parameters": _query(schemas[_name(body_ref)]),
                "responses": answer,
            },
            "post": {
                "operationId": f"{name}_post",
                "summary": does,
                "requestBody": {"required": True, "content": {"application/json": {"schema": body_ref}}},
                "responses": answer,
            },
        }
    url = {"name": "url", "description": "the page's URL, as it is after /r/ (its query string included)"}
    by_accept = {
        "application/json": {
            "schema": _enveloped(refs[(Envelope, "serialization")], refs[(FetchedPages, "serialization")])
        },
        "image/png": {"schema": {"type": "string", "format": "binary"}},
    }
    summary = "one page as Markdown (or its envelope, or its picture, by Accept)"
    envelope = refs[(Envelope, "serialization")]
    paths["/r/{url}"] = _as_markdown(
        "read", summary, url, _query(schemas["FetchParams"]), envelope, by_accept
    )  # fmt: skip
    query = {"name": "q", "description": "what to search for, after /s/ (`+` or %20 between words)"}
    paths["/s/{q}"] = _as_markdown(
        "search_markdown", "a search as Markdown, as webferret search shows it", query,
        _query(schemas["SearchParams"]), envelope,
    )  # fmt: skip
    extracted = _answer(
        "the page the document holds",
        refs[(Envelope, "serialization")],
        refs[(FetchedPages, "serialization")],
        False,
    )
    paths["/extract"] = {
        "post": {
            "operationId": "extract",
            "summary": "extract a document posted as the body (webferret extract -)",
            "parameters": _query(schemas["ExtractParams"]),
            "requestBody": {
                "required": True,
                "description": "the document: HTML, PDF, a feed, JSON, text...; its kind from Content-Type",
                "content": {"*/*": {"schema": {"type": "string", "format": "binary"}}},
            },
            "responses": extracted,
        }
    }
    described: dict[str, Any] = {
        "openapi": "3.1.0",
        "info": {
            "title": "webferret",
            "version": version,
            "description": "Search the web and read pages as clean Markdown; every page read is kept in a "
            "local store, opened by its handle. Each JSON answer is an envelope: ok, data, error, meta.",
        },
        "paths": paths,
        "components": {"schemas": schemas},
    }
    if token:
        described["components"]["securitySchemes"] = {"token": {"type": "http", "scheme": "bearer"}}
        described["security"] = [{"token": []}]
    return described


def _name(ref: dict[str, Any]) -> str:
    return str(ref["$ref"]).rsplit("/", 1)[-1]


def _query(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """The query parameters of a params model's schema: a list is its name given once per value."""
    required = set(schema.get("required", ()))
    listed = []
    fields = sorted(schema.get("properties", {}).items(), key=lambda item: item[0] not in required)
    for name, field in fields:
        value = _without_null(field)
        parameter: dict[str, Any] = {
            "name": name,
            "in": "query",
            "required": name in required,
            "schema": value,
        }
        if field.get("description"):
            parameter["description"] = field["description"]
        if value.get("type") == "array":
            parameter.update(style="form", explode=True)
        listed.append(parameter)
    return listed


def _without_null(field: dict[str, Any]) -> dict[str, Any]:
    """A field's schema as a query parameter's: an optional one is simply left out, never null."""
    choices = [choice for choice in field.get("anyOf", ()) if choice.get("type") != "null"]
    value = dict(choices[0]) if len(choices) == 1 else {k: v for k, v in field.items() if k != "anyOf"}
    value.pop("description", None)
    value.pop("title", None)
    if field.get("default") is not None:
        value["default"] = field["default"]
    return value


def _enveloped(envelope: dict[str, Any], data: dict[str, Any]) -> dict[str, Any]:
    """The envelope whose `data` is `data`."""
    return {"allOf": [envelope, {"type": "object", "properties": {"data": data}}]}


def _answer(does: str, envelope: dict[str, Any], data: dict[str, Any], streams: bool) -> dict[str, Any]:
    content: dict[str, Any] = {"application/json": {"schema": _enveloped(envelope, data)}}
    if streams:  # asked for with Accept: application/x-ndjson
        content["application/x-ndjson"] = {
            "schema": {
                "type": "string",
                "description": "each page as a JSON line once finished, then the envelope with done: true",
            }
        }
    failed = {"description": "the call failed as a whole: its error says why", "content": {
        "application/json": {"schema": envelope}}}  # fmt: skip
    return {"200": {"description": does, "content": content}, "default": failed}


def _as_markdown(
    operation: str,
    summary: str,
    path: dict[str, Any],
    parameters: list[dict[str, Any]],
    envelope: dict[str, Any],
    also: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """`/r/{url}` or `/s/{q}`: `path` is the path's parameter; the JSON endpoint's other
    `parameters` are `X-Webferret-*` headers; the answer is Markdown (or `also`'s, by `Accept`).
    A failure is its error line, or the error `envelope` (a bad parameter, or JSON asked for)."""
    headers = []
    for parameter in parameters:
        if parameter["name"] == path["name"]:
            continue
        name = "X-Webferret-" + "-".join(part.capitalize() for part in parameter["name"].split("_"))
        listed = parameter["schema"].get("type") == "array"
        schema = parameter["schema"]["items"] if listed else parameter["schema"]
        described = parameter.get("description", "") + (" (repeat the header for more)" if listed else "")
        headers.append(
            {"name": name, "in": "header", "required": False, "schema": schema, "description": described}
        )
    text = {"text/markdown": {"schema": {"type": "string"}}}
    return {
        "get": {
            "operationId": operation,
            "summary": summary,
            "parameters": [{**path, "in": "path", "required": True, "schema": {"type": "string"}}, *headers],
            "responses": {
                "200": {"description": summary, "content": text | (also or {})},
                "default": {
                    "description": "it failed: its error line; a bad parameter (or a failure with "
                    "Accept: application/json) is the error envelope",
                    "content": text | {"application/json": {"schema": envelope}},
                },
            },
        }
    }
