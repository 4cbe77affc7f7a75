"""The SSRF guard as the upper tiers see it: `vet(url) -> Pin`, the vetted address to connect to.

`Fetcher` builds the `Vet` from `net.policy.UrlPolicy`; the impersonate tier pins curl to the address
(curl's RESOLVE list, so curl never looks the name up itself) and the browser tier asks it for every
request a page makes.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from ipaddress import ip_address
from typing import Any
from urllib.parse import urlsplit


@dataclass(frozen=True)
class Pin:
    """A URL that passed the guard, with the one address webferret may connect to for it."""

    url: str
    host: str
    port: int
    address: str

    def curl_resolve(self) -> str:
        """The `host:port:address` entry of curl's RESOLVE list (IPv6 in brackets)."""
        addr = f"[{self.address}]" if ip_address(self.address).version == 6 else self.address
        host = self.host[1:-1] if self.host.startswith("[") else self.host
        return f"{host}:{self.port}:{addr}"


Vet = Callable[[str], Awaitable[Pin]]


def pin_from_target(url: str, target: Any) -> Pin:
    """A `Pin` from what `UrlPolicy.vet` answers (the vetted address and the URL's host and port)."""
    parts = urlsplit(url)
    default = 443 if parts.scheme == "https" else 80
    address = str(getattr(target, "ip", None) or getattr(target, "address", None) or target)
    host = getattr(target, "host", None) or parts.hostname or ""
    port = getattr(target, "port", None) or parts.port or default
    return Pin(url=url, host=str(host), port=int(port), address=address)
