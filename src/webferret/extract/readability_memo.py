"""trafilatura's readability fallback computed once for its two runs on one page.

A page the chooser hands to trafilatura runs trafilatura twice on the same tree: the reference run (plain
text, for the classifier's features) and the output run (formatting and links). Each run compares its
own choice with readability-lxml's (trafilatura's fork), and both hand readability the same input: the
page's raw tree pruned the same way (the options that differ act on other copies). Readability's answer
is a function of that input, so inside `shared()` a second call on an identical tree (the same
serialization) reuses the first's answer, a string that trafilatura parses anew each time; outside it,
nothing changes.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import trafilatura.external
from lxml import etree

_Readability = trafilatura.external.ReadabilityDocument
_LOCAL = threading.local()


class _SharedReadability(_Readability):  # type: ignore[misc,valid-type]
    """readability-lxml's Document whose summary, inside `shared()`, is computed once per input."""

    def summary(self) -> str:
        answers: dict[tuple[bytes, object], str] | None = getattr(_LOCAL, "answers", None)
        doc = getattr(self, "doc", None)  # the fork's attributes: another trafilatura may lack them
        if answers is None or doc is None:
            return super().summary()
        key = (etree.tostring(doc), getattr(self, "min_text_length", None))  # before summary() edits it
        answer = answers.get(key)
        if answer is None:
            answer = answers[key] = super().summary()
        return answer


@contextmanager
def shared() -> Iterator[None]:
    """Readability answers shared by the trafilatura runs of this block (this thread only)."""
    outer = getattr(_LOCAL, "answers", None)
    _LOCAL.answers = {} if outer is None else outer
    try:
        yield
    finally:
        _LOCAL.answers = outer


trafilatura.external.ReadabilityDocument = _SharedReadability
