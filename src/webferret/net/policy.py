"""SSRF policy: which URLs and addresses webferret may connect to.

Contract (implemented in this module):

- `classify_address(ip) -> str | None`: why an address is refused (e.g. "loopback",
  "private", "link-local", ...) or None when it is public.
- `UrlPolicy(allow_private_hosts=False, allow_hosts=())` with
  `async vet(url) -> Target`: checks scheme (http/https, else `unsupported_scheme`), parses the URL
  (`invalid_url`), parses numeric hosts in every spelling, resolves the host once, refuses any
  address `classify_address` refuses (`blocked_address`, naming host and address) unless allowed,
  and answers the vetted address to connect to (`dns_failure` when resolution fails).
"""
