"""TLS contexts, made once per process, with the `ssl` module alone.

Loading a CA store takes tens of milliseconds that OpenSSL spends without the GIL, so a program
loads it in a thread as it starts (`prepare_tls`). Without httpx to import first, that thread has
the store ready before the main thread, still importing, asks for it. The contexts are those httpx
itself makes for `verify=True` (`httpx.create_ssl_context`): certifi's CA store, or, for a client
that trusts the environment, the file `SSL_CERT_FILE` names, else the folder `SSL_CERT_DIR` names.
"""

from __future__ import annotations

import contextlib
import os
import ssl
import threading
import typing
from functools import cache

_LOCK = threading.RLock()  # a second caller waits for the context being made, not makes another


def certifi_context() -> ssl.SSLContext:
    """certifi's CA store, as httpx verifies by default; one per process (contexts are shareable)."""
    with _LOCK:
        return _certifi()


def env_context() -> ssl.SSLContext:
    """The CA store the environment names (`SSL_CERT_FILE`, else `SSL_CERT_DIR`), else certifi's."""
    with _LOCK:
        return _from_env(*env_cas())


def env_cas() -> tuple[str | None, str | None]:
    """The CA file and the CA folder the environment names (`SSL_CERT_FILE`, else `SSL_CERT_DIR`;
    an empty variable names none), for clients that load a CA store themselves (curl): (None, None)
    when it names neither, and certifi's store is the one."""
    cafile = os.environ.get("SSL_CERT_FILE") or None
    return (cafile, None) if cafile else (None, os.environ.get("SSL_CERT_DIR") or None)


@cache
def _certifi() -> ssl.SSLContext:
    import certifi

    return ssl.create_default_context(cafile=certifi.where())


@cache
def _from_env(cafile: str | None, capath: str | None) -> ssl.SSLContext:
    """The context of the CAs the environment names; a file or folder that cannot be one is a
    `FerretError(invalid_argument)` naming the variable (each request needing it fails so, saying
    why; a missing file was an `internal` FileNotFoundError, a missing folder a certificate that
    no CA signed)."""
    if cafile:
        try:
            return ssl.create_default_context(cafile=cafile)
        except (OSError, ssl.SSLError) as exc:  # not there, unreadable, or no PEM certificate in it
            _refuse(f"SSL_CERT_FILE names {cafile!r}, which holds no CA certificate one can load ({exc})")
    if capath:
        if not os.path.isdir(capath):
            _refuse(f"SSL_CERT_DIR names {capath!r}, which is no folder")
        return ssl.create_default_context(capath=capath)
    return _certifi()


def _refuse(said: str) -> typing.NoReturn:
    from webferret.models import ErrorCode, FerretError

    message = f"cannot check certificates: {said} (name your CA certificates, or unset it for certifi's)"
    raise FerretError(ErrorCode.INVALID_ARGUMENT, message)


def prepare_tls(engines: bool = False) -> None:
    """Load the CA store now, e.g. in a thread at start, so no request waits for it. The fetcher
    and the search client share one (`env_context`), so `engines` no longer changes anything. A
    store that cannot be loaded is left to the call that needs it to say, not said from a thread."""
    with contextlib.suppress(Exception):
        env_context()
