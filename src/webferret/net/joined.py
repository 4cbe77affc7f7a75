"""A reference (a redirect's `Location`, a link's `href`) resolved against the URL it was found at,
as a browser resolves it.

`urllib.parse.urljoin` follows RFC 3986, where a backslash is just a character of a path. Browsers
follow the WHATWG URL standard, where in an http(s) URL a backslash before the query is a slash:
`/\\evil.example/x` and `http:/\\evil.example/x` lead to the host `evil.example`, `a\\b` is the path
`a/b`. Read as RFC 3986 reads them, a redirect to another host went to a path of this one (another
page than the one a browser shows) and a link named a page no browser would open.
"""

from __future__ import annotations

import re
from urllib.parse import urljoin

_SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.\-]*:")
_WEB = ("http:", "https:")


def join_url(base: str, ref: str) -> str:
    """`ref` resolved against `base` (`urljoin`), its backslashes before the query read as slashes
    where the result is an http(s) URL (see the module's note). `ValueError` as `urljoin` raises it."""
    if "\\" in ref:
        scheme = _SCHEME.match(ref)
        web = ref[: scheme.end()].lower() in _WEB if scheme else base[:6].lower().startswith(_WEB)
        if web:
            cut = min((at for at in (ref.find("?"), ref.find("#")) if at >= 0), default=len(ref))
            ref = ref[:cut].replace("\\", "/") + ref[cut:]
    return urljoin(base, ref)
