"""Soft hyphens (U+00AD, `&shy;`): where a long word may break across lines, shown only when it
does. A page hyphenating for narrow screens writes them inside its words ("extra&shy;ordinary"), and
read as text they split each word in two for the full-text index (`find extraordinary` missed the
page), cost tokens and survive copy and paste as invisible garbage. They go before the page is
parsed, so no text, title or attribute keeps them; the word reads whole, as a browser shows it on
one line.
"""

from __future__ import annotations

import json
import re
from typing import Any

_SOFT_HYPHEN = re.compile(
    r"\xad|&(?:shy;|#0*173(?:;|(?![0-9]))|#[xX]0*[aA][dD](?:;|(?![0-9a-fA-F])))"
    # as a browser reads them: a number with leading zeros, or without its ';' (where no digit
    # follows, which would make it another number); `&shy` without one unless a letter, digit or
    # '=' follows (in an attribute, `?a=1&shy=2`, that is no reference)
    r"|&shy(?![A-Za-z0-9=])"
)


def unhyphenated(text: str) -> str:
    """`text` (an HTML document) without its soft hyphens, raw or written as character references."""
    return _SOFT_HYPHEN.sub("", text) if _SOFT_HYPHEN.search(text) else text


_JSON_ESCAPED = re.compile(r"\\u00[aA][dD]")


def unhyphenated_json(value: Any, text: str) -> Any:
    """`value`, read from the JSON `text` (a page's JSON-LD), without soft hyphens in its strings:
    escaped there (`"Donau\\u00addampf"`, as `json_encode` writes them), they pass `unhyphenated`
    and came back in a title or a byline once the JSON was read."""
    if _JSON_ESCAPED.search(text) is None:
        return value
    written = json.dumps(value, ensure_ascii=False)
    return json.loads(written.replace("\xad", "")) if "\xad" in written else value
