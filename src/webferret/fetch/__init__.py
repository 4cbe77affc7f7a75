"""webferret.fetch: the fetch tiers behind one `Fetcher` port (see `fetcher.py`).

This package is also callable: `webferret.fetch(url, **settings)` is the script facade
`webferret.ferret.fetch`. The function and this subpackage share a name, and Python binds the
subpackage to `webferret.fetch` as soon as it is imported, so the subpackage forwards calls.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _CallableModule(types.ModuleType):
    def __call__(self, url: str, **settings: Any) -> Any:
        from webferret.ferret import fetch

        return fetch(url, **settings)


sys.modules[__name__].__class__ = _CallableModule
