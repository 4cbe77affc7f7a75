"""The checks of a caller's arguments to `Ferret`'s calls: each refuses a bad one with
`FerretError(invalid_argument)`, or gives it back as the call uses it (a handle, a site, a URL list)."""

from __future__ import annotations

from webferret.models import ErrorCode, FerretError
from webferret.net.hostspec import site_host
from webferret.store.handles import looks_like_handle


def check_text(name: str, value: object, text: bool = True) -> None:
    """Refuse `value` (the argument `name`) unless it is a string; with `text`, also one that UTF-8
    cannot write (`is_text`)."""
    if not isinstance(value, str):
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{name}: a string, not {type(value).__name__}")
    if text and not is_text(value):  # a lone surrogate, from JSON (`"\ud800"`) or an undecodable argv byte
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{name}: it has a character that is no text")


def site_text(site: object) -> str | None:
    """A site filter as the store matches it (the host of what was written, lower case:
    `net.hostspec.site_host`), or None; anything that names no host is refused."""
    if site is None:
        return None
    check_text("site", site)
    try:
        return site_host(str(site))
    except ValueError as err:
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"site: {err}") from None


def check_count(name: str, value: object, least: int = 1, most: int | None = None) -> None:
    """Refuse `value` (the argument `name`) unless it is a whole number (not a bool) from `least` to
    `most` (no upper bound when `most` is None)."""
    if not is_whole(value) or value < least or (most and value > most):  # type: ignore[operator]
        span = f"from {least} to {most}" if most else f"of at least {least}"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{name}: a whole number {span}, not {value!r}")


def check_switch(name: str, value: object) -> None:
    """Refuse `value` (the argument `name`) unless it is a bool (`fresh="no"` is truthy)."""
    if not isinstance(value, bool):
        raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{name}: true or false, not {value!r}"[:300])


def check_switches(options: object, *names: str) -> None:
    """Refuse (`invalid_argument`) a switch of `options` that is no bool (`robots="no"` is truthy)."""
    for name in names:
        check_switch(name, getattr(options, name))


def is_whole(value: object) -> bool:
    """Whether `value` is an `int` (a bool is not, nor `"3"` or `3.0`)."""
    return isinstance(value, int) and not isinstance(value, bool)


def globs_of(name: str, globs: object) -> tuple[str, ...]:
    """An `include`/`exclude` option as a tuple of globs (`strings_of`)."""
    return strings_of(name, globs, "globs of paths such as ('/docs/*',)")


def strings_of(name: str, value: object, wanted: str) -> tuple[str, ...]:
    """A list option (globs, CSS selectors, handles) as a tuple of strings: one given as a string is
    that one (never its characters), a list or tuple of strings is taken; anything else is refused,
    saying what is `wanted`."""
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list | tuple) and all(isinstance(item, str) for item in value):
        return tuple(value)
    raise FerretError(ErrorCode.INVALID_ARGUMENT, f"{name}: {wanted}, not {value!r}"[:300])


def is_text(value: object) -> bool:
    """Whether `value` is a string that UTF-8 can write (no lone surrogate)."""
    try:
        str.encode(value)  # type: ignore[arg-type]
    except (UnicodeEncodeError, TypeError):
        return False
    return True


def check_type(name: str, value: object, kind: type, made_by: str) -> None:
    """Refuse `value` (the argument `name`) unless it is None or a `kind`; the error names `made_by`,
    the call that makes one."""
    if value is not None and not isinstance(value, kind):
        raise FerretError(
            ErrorCode.INVALID_ARGUMENT,
            f"{name}: a {kind.__name__} from {made_by}, not {type(value).__name__}",
        )


def handle_text(handle: object) -> str:
    """A handle (or URL) as a caller may type it: spaces around it gone, a handle's letters in lower
    case (handles are lower case); an empty one is `invalid_argument`."""
    check_text("handle", handle)
    text = str(handle).strip()
    if not text:
        raise FerretError(
            ErrorCode.INVALID_ARGUMENT, "the handle is empty (handles come from fetch and search)"
        )
    return text.lower() if looks_like_handle(text.lower()) else text


def url_list(urls: object) -> list[str]:
    """`urls` as a list (any iterable of strings: a list, a tuple, a generator), each without the
    spaces around it (a line pasted with its indent or line break names the same page)."""
    if isinstance(urls, str):  # else each character would be read as a URL
        raise FerretError(ErrorCode.INVALID_ARGUMENT, "urls: a list of URLs, not one string (or use fetch)")
    try:
        return [url.strip() if isinstance(url, str) else url for url in urls]  # type: ignore[attr-defined]
    except TypeError:
        raise FerretError(
            ErrorCode.INVALID_ARGUMENT, f"urls: a list of URLs, not {type(urls).__name__}"
        ) from None


def check_batch(count: int, most: int) -> None:
    """Refuse a call of `count` URLs past `most` (the setting `max_urls`)."""
    if count > most:
        message = f"{count} URLs given; at most {most} per call (setting max_urls)"
        raise FerretError(ErrorCode.INVALID_ARGUMENT, message)
