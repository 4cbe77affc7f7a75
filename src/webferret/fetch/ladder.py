"""The tier ladder: which tiers a fetch tries, and when it climbs to the next one.

`--tier auto` (the default) tries `http`; on a detected block it climbs to `impersonate`, and on a
block or a JavaScript shell to `browser` (a shell skips `impersonate`, which runs no JavaScript). A
body in a content encoding the http tier does not decode (brotli or zstd, sent unasked) is read by
the next tier.
A bare 403 (no vendor's mark) climbs to `impersonate` alone (`BARE_403`). A terminal answer (404,
401, 451, a geo block, a rate limit) is never escalated. A fixed tier
(`http`, `impersonate`, `browser`) is tried alone. Still blocked after the last tier: `blocked_by_site`
naming the vendor; a JavaScript shell where the browser may not run: `needs_javascript`. A shell these
verdicts pass that extraction then finds (a spinner under a long menu) is read again by the browser
after extraction (`webferret.page_failures.late_shell`).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from webferret.fetch.blocks import CONTENT, BodyView, Verdict, classify, js_shell
from webferret.fetch.body import UnreadEncoding
from webferret.fetch.types import RawResponse, Tier
from webferret.models import ErrorCode, FerretError, without_password

AUTO = ("http", "impersonate", "browser")
JUDGED_APART = 256 * 1024
"""Bytes of a body from which its verdict is made in a thread: parsing it holds the event loop up
(a 10 MB page of small elements 0.4 s), where other calls' requests and answers wait."""
Attempt = Callable[[str], Awaitable[RawResponse]]
BARE_403 = Verdict(blocked=True, reason="HTTP 403 with no wall's mark: perhaps its TLS fingerprint refused")
"""The http tier's 403 that no vendor marks: a server that refuses clients by their TLS fingerprint
answers so, and the impersonate tier, a browser's fingerprint, is asked once. Its own bare 403 is
the page's answer (`http_error`): the browser shows the same fingerprint; so is the http tier's when
the impersonate tier then fails on its own (a time-out, a refused redirect)."""


def plan(tier: Tier) -> tuple[str, ...]:
    """The tiers to try, in order."""
    return AUTO if tier == "auto" else (tier,)


def judge(raw: RawResponse, tier: str, climbs: bool = False) -> Verdict:
    """The verdict on one tier's answer; a rendered page (browser) is never called a shell. `climbs`:
    a tier is left above this one (a bare 403 of the http tier then climbs: `BARE_403`)."""
    view = BodyView(raw.body, raw.content_type)  # decoded once, parsed at most once, for both verdicts
    verdict = classify(raw.status, raw.headers, raw.body, raw.content_type, view)
    if raw.status == 403 and tier == "http" and climbs and verdict == CONTENT:
        return BARE_403
    if verdict.blocked or verdict.terminal or tier == "browser" or not 200 <= raw.status < 300:
        return verdict
    return js_shell(raw.body, raw.content_type, view)


def next_tier(steps: tuple[str, ...], index: int, verdict: Verdict) -> int | None:
    """Index of the tier to climb to, or None to stop here."""
    if not verdict.escalate:
        return None
    later = range(index + 1, len(steps))
    if verdict.js_shell:
        return next((i for i in later if steps[i] == "browser"), None)
    return next(iter(later), None)


async def climb(tier: Tier, attempt: Attempt, start: str | None = None) -> RawResponse:
    """Run `attempt(tier_name)` up the ladder, from `start` when it is one of its tiers (a walled
    host's, `fetch.walls`); the answer carries the trail of every tier tried, its first hop naming
    the tiers skipped (`skipped_tiers`)."""
    steps = plan(tier)
    trail: list[dict[str, Any]] = []
    index, verdict = (steps.index(start) if start in steps else 0), CONTENT
    skipped, last = list(steps[:index]), None
    while True:
        name = steps[index]
        try:
            raw = await attempt(name)
        except FerretError as exc:
            if isinstance(exc, UnreadEncoding) and index + 1 < len(steps):
                hop = {"url": without_password(exc.url), "status": exc.status, "via": name}
                trail.append(hop | {"error": exc.code.value, "reason": exc.message})
                index += 1  # the next tier's client decodes it
                continue
            if not verdict.escalate:  # the tier before did not fail by a wall: this one's own error
                exc.trail = [*trail, *exc.trail]
                raise
            if verdict is BARE_403 and last is not None:  # asked once more in vain: its 403 stands
                failed = exc.trail or [{"via": name, "error": exc.code.value, "reason": exc.message}]
                last.trail = [*trail, *failed]
                return last
            raise final_error(verdict, trail, (name, exc)) from None
        big = len(raw.body) >= JUDGED_APART
        climbs = index + 1 < len(steps)
        verdict = await asyncio.to_thread(judge, raw, name, climbs) if big else judge(raw, name, climbs)
        trail.extend(_marked(raw, name, verdict))
        last = raw
        if skipped:  # (once: on the first hop)
            trail[0]["skipped_tiers"], skipped = skipped, []
        nxt = next_tier(steps, index, verdict)
        if nxt is None:
            if verdict.escalate:
                raise final_error(verdict, trail)
            raw.trail = trail
            return raw
        index = nxt


def final_error(
    verdict: Verdict, trail: list[dict[str, Any]], failed: tuple[str, FerretError] | None = None
) -> FerretError:
    """`blocked_by_site` (vendor named) or `needs_javascript` once no tier is left to try;
    `browser_unavailable` when the browser the page needs could not be started (so a client knows to
    install or fix chromium, not that the site refused). The trail ends with the hops of the tier
    that `failed`, the one its error struck marked with it."""
    tried = ", ".join(dict.fromkeys(hop["via"] for hop in trail))
    note = f"; the {failed[0]} tier then failed: {failed[1].message}" if failed else ""
    status = trail[-1]["status"] if trail else None
    if failed is not None:
        struck = failed[1].trail or [{"via": failed[0], "error": failed[1].code.value}]
        trail = [*trail, *struck]
    if failed is not None and failed[1].code == ErrorCode.BROWSER_UNAVAILABLE:  # the page needs it
        why = (
            "only renders with JavaScript"
            if verdict.js_shell
            else f"is walled ({verdict.vendor or 'unknown'})"
        )
        message = f"the page {why}: {verdict.reason}; tried {tried}; the browser tier it needs failed: "
        error = FerretError(ErrorCode.BROWSER_UNAVAILABLE, message + failed[1].message, status=status)
        error.trail = trail
        return error
    if verdict.js_shell:
        hint = note or ". Use --tier browser or auto (WEBFERRET_TIER)"
        message = f"the page only renders with JavaScript ({verdict.reason}); tried {tried}{hint}"
        error = FerretError(ErrorCode.NEEDS_JAVASCRIPT, message, status=status)
    else:
        vendor = verdict.vendor or "unknown"
        message = f"blocked by {vendor}: {verdict.reason}; tried {tried}{note}"
        error = FerretError(ErrorCode.BLOCKED_BY_SITE, message, status=status, vendor=vendor)
    error.trail = trail
    return error


def _marked(raw: RawResponse, tier: str, verdict: Verdict) -> list[dict[str, Any]]:
    """The hops of one attempt, the last one marked with the verdict."""
    hops = [dict(hop) for hop in raw.trail] or [
        {"url": without_password(raw.final_url), "status": raw.status}
    ]
    for hop in hops:
        hop.setdefault("via", tier)
    last = hops[-1]
    last["verdict"] = verdict.kind
    if verdict.vendor:
        last["vendor"] = verdict.vendor
    if verdict.reason:
        last["reason"] = verdict.reason
    return hops
