"""Bounds shared by settings, the CLI's flags and the library's arguments (a light module: the CLI
imports it before it parses)."""

import math

MIN_PAGE_TOKENS = 100
"""The smallest page a document is cut into (a setting, a flag or a library argument)."""
MAX_PAGE_TOKENS = 1_000_000_000
"""The largest `page_tokens` setting: more than any document holds (it is one page then), and below
2**32, which the store's stamp of how its passages were paged (`store.pages.paged_stamp`) keeps
apart from the paging's revision (a larger one also passed what SQLite stores: every fetch failed)."""
MAX_PASSAGES = 1000
"""The most passages one `find` answers."""
MAX_QUERY_CHARS = 500
"""The longest search query as the engines are sent it, bangs left out (an engine's URL has room for
it; a longer one is no search)."""
MAX_QUERY_INPUT = 2 * MAX_QUERY_CHARS
"""The longest search query as written that the MCP tool and the HTTP API take, bangs and runs of spaces
included (the search itself then holds it to `MAX_QUERY_CHARS`)."""
MAX_REGION_CHARS = 6
"""The longest search region (`config.REGION`): `tw-tzh`, DuckDuckGo's traditional Chinese of Taiwan."""
MAX_CRAWL_PAGES = 1000
"""The most pages one crawl reads."""
MAX_CRAWL_DEPTH = 10
"""The most link hops a crawl follows from its start."""
MCP_CRAWL_PAGES = 50
"""The most pages one MCP `web_crawl` reads (its answer lists each; `open` reads them)."""
MAX_MAP_URLS = 5000
"""The most URLs one `map` answers (its `total` counts them all)."""
MCP_LINK_LIMIT = 1000
"""The most links one MCP `web_fetch` or `web_open` lists of a page (`link_limit`), as many as the
store keeps of one by default."""
MCP_MAP_URLS = 200
"""The most URLs one MCP `web_map` answers."""
MAX_READ = 10
"""The most results one search reads in the same call (`search --read`, `web_search(read=...)`)."""
MAX_LISTED = 10_000
"""The most stored pages one `store list` answers."""
MAX_SECONDS = 86_400.0
"""The longest `timeout` or `budget` of a call, in seconds (a day: the browser's own clock ends at
about 24 days, and no page takes a day)."""
MAX_BYTES = 2**63 - 1
"""The largest `max_bytes` (a setting, `--max-bytes`, a call's `fetch_options`): what curl takes as a
cap, a signed 64-bit count (a larger one failed every page the impersonate tier read, and the
browser's, as `internal`); far more than any body, so as good as none."""
MAX_CONCURRENCY = 256
"""The most pages one batch fetches at once (the setting `concurrency`, a call's `fetch_options`)."""
MAX_URLS_SETTING = 1000
"""The highest the setting `max_urls` (URLs of one library `fetch_many` or MCP `web_fetch`) may be."""


def is_weight(value: object) -> bool:
    """Whether `value` is a rank-fusion weight (the setting `engine_weights`, a search's `weights`): a
    finite number, 0 or more (0: listed, without a vote), not true or false."""
    return not isinstance(value, bool) and isinstance(value, int | float) and 0 <= value < math.inf
