"""webferret.search: engines, runner, pacing, router, fusion and verification.

Importing this package sets the attribute `webferret.search` to this module, which would hide the
sync facade `webferret.search(query)`. The module is therefore callable and forwards to the facade.
"""

from __future__ import annotations

import sys
import types
from typing import Any


class _SearchPackage(types.ModuleType):
    def __call__(self, query: str, **settings: Any) -> Any:
        """`webferret.search(query, **settings)`: the sync facade (see `webferret.ferret.search`)."""
        from webferret.ferret import search

        return search(query, **settings)


sys.modules[__name__].__class__ = _SearchPackage
