"""Who may call the HTTP API (see `app`): the token, loopback `Host` names, no web page's request."""

from __future__ import annotations

import hmac
from urllib.parse import urlsplit

from starlette.requests import Request

from webferret.models import Envelope, ErrorCode
from webferret.present.envelopes import error_envelope

LOOPBACK_NAMES = frozenset({"localhost", "127.0.0.1", "::1"})


class Guard:
    """Who may call (see `app`'s docstring); `refusal(request)` is None for a call let in. A blank
    token is no token (`Settings` drops it): it would let in a bearer of nothing, past the Host check."""

    def __init__(self, token: str | None, host: str) -> None:
        self.token = token.strip() if token and token.strip() else None
        self.names = LOOPBACK_NAMES | {host.lower().strip("[]")}

    def refusal(self, request: Request) -> Envelope | None:
        headers = request.headers
        if headers.get("sec-fetch-site", "").lower() in ("cross-site", "same-site"):
            return error_envelope(
                ErrorCode.FORBIDDEN, "a web page's request: the API answers programs, not pages"
            )
        origin = headers.get("origin")
        if origin is not None and not _same_place(origin, headers.get("host", "")):
            return error_envelope(
                ErrorCode.FORBIDDEN, f"a request from {origin[:200]}: the API answers programs, not pages"
            )
        if self.token is not None:
            scheme, _, given = headers.get("authorization", "").strip().partition(" ")
            if scheme.lower() != "bearer" or not hmac.compare_digest(
                given.strip().encode(), self.token.encode()
            ):
                return error_envelope(
                    ErrorCode.UNAUTHORIZED, "give the API token as 'Authorization: Bearer TOKEN'"
                )
            return None
        named = _host_of("//" + headers.get("host", ""))
        if named not in self.names:
            message = (
                f"Host {headers.get('host', '')[:200]!r}: without a token the API answers loopback names only"
            )
            return error_envelope(ErrorCode.FORBIDDEN, message)
        return None


def _same_place(origin: str, host: str) -> bool:
    """Is the page an `Origin` names served where the call went (`Host`: the same name and port)?"""
    try:
        parts = urlsplit(origin)
        return bool(parts.netloc) and parts.netloc.lower() == host.strip().lower()
    except ValueError:
        return False


def _host_of(url: str) -> str | None:
    try:
        return (urlsplit(url).hostname or "").lower() or None
    except ValueError:
        return None
