"""Subpackages that share a name with a script facade (`webferret.fetch`, `webferret.search`).

Python binds a subpackage to its parent's attribute as soon as it is imported, which would hide
the facade function of the same name. Such a subpackage is made callable: calling it calls the
facade in `webferret.sync_api`, so `webferret.fetch(url)` works whatever was imported first.
"""

from __future__ import annotations

import sys
import types
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import inspect


def forward_calls(package: str, facade: str) -> None:
    """Make the module `package` callable as `webferret.sync_api.<facade>`."""

    class _CallablePackage(types.ModuleType):
        def __call__(self, *args: Any, **kwargs: Any) -> Any:
            from webferret import sync_api

            return getattr(sync_api, facade)(*args, **kwargs)

        @property
        def __signature__(self) -> inspect.Signature:
            """The facade's own (`inspect.signature`, an editor's call tips), not `(*args, **kwargs)`."""
            import inspect

            from webferret import sync_api

            return inspect.signature(getattr(sync_api, facade))

    sys.modules[package].__class__ = _CallablePackage
