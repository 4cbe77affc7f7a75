"""The browser tier reads a page's bytes in the charset the other tiers read them in (`fetch.charset`):
a page with no charset label, or a wrong one, renders its own characters, not mojibake."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
import pytest_asyncio
from chromium import CHROMIUM, needs_chromium
from tiers_web import loopback_policy, serve

from webferret.config import Settings
from webferret.fetch.browser import BrowserTier
from webferret.fetch.types import FetchOptions

pytestmark = [
    needs_chromium,
    pytest.mark.asyncio(loop_scope="module"),
]
SETTINGS = Settings(chromium_path=CHROMIUM, browser_no_sandbox=True)  # tests run as root
OPTS = FetchOptions(timeout=20, max_bytes=1_000_000)
WORDS = "Crème brûlée à Zürich, naïve façade"
PAGE = f"<html><head><title>Café</title></head><body><p>{WORDS}</p></body></html>"


@pytest_asyncio.fixture(loop_scope="module", scope="module")
async def tier() -> AsyncIterator[BrowserTier]:
    browser = BrowserTier(SETTINGS)
    yield browser
    await browser.aclose()


@pytest.mark.parametrize(
    ("body", "content_type"),
    [
        (PAGE.encode("utf-8"), "text/html"),  # no label at all
        (PAGE.encode("utf-8"), "text/html; charset=iso-8859-1"),  # a server's default label, wrong
        (PAGE.encode("cp1252"), "text/html; charset=utf-8"),  # a single-byte page labelled UTF-8
        (PAGE.replace("<head>", '<head><meta charset="utf-8">').encode("cp1252"), "text/html"),
    ],
    ids=["unlabelled-utf8", "utf8-labelled-latin1", "cp1252-labelled-utf8", "cp1252-meta-utf8"],
)
async def test_a_page_renders_in_the_charset_the_other_tiers_read(
    tier: BrowserTier, body: bytes, content_type: str
) -> None:
    with serve() as site:
        site.page("/page", body, content_type=content_type)
        policy = loopback_policy()
        raw = await tier.fetch(await policy.vet(site.base + "/page"), OPTS, policy)
    text = raw.body.decode("utf-8")
    assert WORDS in text and "<title>Café</title>" in text
