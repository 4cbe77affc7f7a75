"""The package's public names: each one in `__all__` is there at the top level, imported on first use
(so `webferret --help` stays fast), and the library's answers and errors can be named from it."""

from __future__ import annotations

from child import run_python

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
    done = run_python(code)
    assert done.stdout.strip() == "[]", done.stdout


def test_an_error_crosses_a_process_pool_whole() -> None:
    import concurrent.futures
    import copy
    import pickle

    from webferret.models import ErrorCode, FerretError

    error = FerretError(ErrorCode.RATE_LIMITED, "slow down", status=429, retry_after=2.0, vendor="x")
    error.trail = [{"tier": "http", "error": "rate_limited"}]
    for again in (pickle.loads(pickle.dumps(error)), copy.copy(error)):
        assert type(again) is FerretError and again.info() == error.info() and again.trail == error.trail
    with concurrent.futures.ProcessPoolExecutor(1) as pool:  # raised in a worker: the pool goes on
        raised = pool.submit(_raise_not_found).exception()
        assert isinstance(raised, FerretError) and raised.code == ErrorCode.NOT_FOUND
        assert pool.submit(abs, -2).result() == 2


def _raise_not_found() -> None:
    from webferret.models import ErrorCode, FerretError

    raise FerretError(ErrorCode.NOT_FOUND, "no such page")


def test_the_sync_facades_keep_their_signatures_whatever_was_imported_first() -> None:
    import inspect

    import webferret.fetch.fetcher  # binds the package over the facade's name
    import webferret.search.types
    from webferret import sync_api

    for name in ("fetch", "search"):
        assert inspect.signature(getattr(webferret, name)) == inspect.signature(getattr(sync_api, name))
