"""`webferret api`: the core over plain HTTP and JSON, for programs that are not MCP clients.

`params`: what each endpoint takes; `calls`: what each JSON endpoint does; `markdown`: `/r/` and
`/s/`; `guard`: who may call; `replies`: statuses, errors, bodies, hang-ups; `openapi`: the API
described; `app`: the routes and the server."""
