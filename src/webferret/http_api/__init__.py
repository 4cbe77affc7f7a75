"""`webferret api`: the core over plain HTTP and JSON, for programs that are not MCP clients
(`params`: what each endpoint takes; `app`: the endpoints, the guard and the server)."""
