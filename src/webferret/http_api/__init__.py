"""`webferret api`: the core over plain HTTP and JSON, for programs that are not MCP clients
(`params`: what each endpoint takes; `calls`: what each does; `guard`: who may call; `openapi`: the
API described; `app`: the server)."""
