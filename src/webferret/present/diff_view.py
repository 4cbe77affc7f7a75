"""A diff as an agent face shows it within a token budget (`web_open(handle, diff=true)`)."""

from __future__ import annotations

from collections.abc import Sequence

from webferret.tokens import estimate_tokens

CONTEXT_WORDS = 10
"""Words kept on each side of what differs in a long changed line."""


def diff_shown(lines: Sequence[str], max_tokens: int | None) -> list[str]:
    """The first of a diff's `lines` that fit in `max_tokens` tokens (one at least; all without it).
    A changed line longer than a quarter of them (a long paragraph, a text on one line) is narrowed,
    with the line it became, to the words that differ and a few around them: whole, such a pair did
    not fit, and the diff showed its `@@` line and nothing of the change."""
    if max_tokens is not None:
        lines = narrowed(lines, max_tokens // 4)
    shown: list[str] = []
    spent = 0
    for line in lines:
        spent += estimate_tokens(line) + 1
        if max_tokens is not None and spent > max_tokens and shown:
            break
        shown.append(line)
    return shown


def narrowed(lines: Sequence[str], most: int) -> list[str]:
    """`lines` of a unified diff where each removed line paired with an added one (the first of a
    change's removed lines with its first added, and so on), either longer than `most` tokens, is cut
    to where the two differ, `…` for the words they share before and after."""
    out = list(lines)
    start = 0
    while start < len(out):
        removed_end = _run(out, start, "-")
        end = _run(out, removed_end, "+")
        if removed_end > start and end > removed_end:
            for old, new in zip(range(start, removed_end), range(removed_end, end), strict=False):
                if estimate_tokens(out[old]) > most or estimate_tokens(out[new]) > most:
                    out[old], out[new] = around_change(out[old], out[new])
        start = max(start + 1, end)
    return out


def _run(lines: Sequence[str], start: int, sign: str) -> int:
    """The index past the lines from `start` that begin with `sign`."""
    end = start
    while end < len(lines) and lines[end].startswith(sign):
        end += 1
    return end


def around_change(removed: str, added: str) -> tuple[str, str]:
    """A removed line and the line it became (`-...`, `+...`), each cut to the words that differ and
    `CONTEXT_WORDS` on either side."""
    old, new = removed[1:].split(" "), added[1:].split(" ")
    shared = min(len(old), len(new))
    before = 0
    while before < shared and old[before] == new[before]:
        before += 1
    after = 0
    while after < shared - before and old[-1 - after] == new[-1 - after]:
        after += 1
    return "-" + _kept(old, before, after), "+" + _kept(new, before, after)


def _kept(words: list[str], before: int, after: int) -> str:
    head = max(0, before - CONTEXT_WORDS)
    tail = len(words) - max(0, after - CONTEXT_WORDS)
    return ("… " if head else "") + " ".join(words[head:tail]) + (" …" if tail < len(words) else "")
