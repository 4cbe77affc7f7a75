"""Pages that close `<body>` or `<html>` before their content ends, read as a browser reads them.

Some templates print `</body></html>` after the site's header and the article after it (a theme
that closes the document in its header part, then renders the post). A browser's parser (the HTML
standard's "after body" and "after after body" modes) notes the stray end tag and reads on, the
rest going into `<body>`. libxml2 (2.14, under lxml) drops everything after `</html>` and puts what
follows `</body>` beside the body instead of in it, so the page's text was lost or out of the body.
"""

from __future__ import annotations

import re
from typing import AnyStr


def for_both(pattern: str, flags: int = 0) -> tuple[re.Pattern[str], re.Pattern[bytes]]:
    """One pattern compiled for text and for bytes, in that order (index it with whether the input is
    bytes); the pattern is ASCII, so both match alike."""
    return re.compile(pattern, flags), re.compile(pattern.encode("ascii"), flags)


_END = for_both(r"</(?:body|html)\s*>", re.IGNORECASE)
# what may follow the first end tag without anything being lost: space, comments, more end tags. A
# comment stops at its first "-->" and the repeat never gives back (possessive), so a hostile tail of
# comments is read once (a lazy `.*?` made it exponential: 20 comments and a letter took 0.16 s)
_TRAILER = for_both(r"(?:\s|<!--(?:(?!-->).)*-->|</(?:body|html)\s*>)*+", re.IGNORECASE | re.DOTALL)


def read_on(page: AnyStr) -> AnyStr:
    """`page` (its text or bytes) without its `</body>` and `</html>` end tags when anything but
    space, comments or more end tags follows the first of them; else `page` as it is."""
    as_bytes = isinstance(page, bytes)
    end, trailer = _END[as_bytes], _TRAILER[as_bytes]
    first = end.search(page)
    if first is None or trailer.fullmatch(page, first.end()) is not None:
        return page
    return end.sub(page[:0], page)
