"""Where an agent view's one fence opens and closes, for the tests of the agent views."""

from __future__ import annotations

import re

MARKER = re.compile(r"<<<webferret-untrusted-(begin|end) ([0-9a-f]{32})>>>")


def fenced(text: str) -> tuple[int, int]:
    """The span between the answer's begin and end markers (the directive before them names the
    markers with `NONCE`, not with a nonce): exactly one fence, its two markers with one nonce."""
    markers = list(MARKER.finditer(text))
    assert [m.group(1) for m in markers] == ["begin", "end"], text[:400]
    assert markers[0].group(2) == markers[1].group(2)
    return markers[0].end(), markers[1].start()
