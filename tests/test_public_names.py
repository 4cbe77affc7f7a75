"""The package's public names: each one in `__all__` is there at the top level, imported on first use
(so `webferret --help` stays fast), and the library's answers and errors can be named from it."""

from __future__ import annotations

import subprocess
import sys

import webferret


def test_every_public_name_resolves() -> None:
    for name in webferret.__all__:
        assert getattr(webferret, name) is not None, name
    from webferret import FerretError, OpenedPage, Passage, SearchResult
    from webferret.models import FerretError as ModelsError

    assert FerretError is ModelsError and {OpenedPage.__name__, Passage.__name__} == {"OpenedPage", "Passage"}
    assert "results" in SearchResult.model_fields


def test_importing_the_package_imports_none_of_them() -> None:
    code = "import sys, webferret; print(sorted(m for m in sys.modules if m.startswith('webferret.')))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "[]", done.stdout
