"""Tier 1 (curl_cffi) against real loopback servers: pinning, redirects re-vetted, caps, errors."""

from __future__ import annotations

import gzip

import pytest
from tiers_web import free_port_on_both, pinning_vet, serve

from webferret.fetch.impersonate import ImpersonateTier
from webferret.fetch.types import FetchOptions
from webferret.models import ErrorCode, FerretError

OPTS = FetchOptions(timeout=10, max_bytes=100_000)


async def test_connects_to_the_vetted_address_not_the_named_one() -> None:
    port = free_port_on_both()
    with serve("127.0.0.1", port) as good, serve("127.0.0.2", port) as decoy:
        for site in (good, decoy):
            site.page("/", f"<html><body><p>served by {site.host}</p></body></html>")
        tier = ImpersonateTier(pinning_vet({"127.0.0.2": "127.0.0.1"}))
        raw = await tier.fetch(f"http://127.0.0.2:{port}/", OPTS)
    assert b"served by 127.0.0.1" in raw.body
    assert decoy.hits == []
    assert good.hits[0].headers["host"] == f"127.0.0.2:{port}"
    assert raw.fetched_via == "impersonate" and raw.status == 200


async def test_sends_a_browser_fingerprint() -> None:
    with serve() as site:
        site.page("/", "<html><body><p>hi</p></body></html>")
        await ImpersonateTier(pinning_vet({"127.0.0.1": "127.0.0.1"})).fetch(site.base + "/", OPTS)
    headers = site.hits[0].headers
    assert "Chrome/" in headers["user-agent"] and "sec-ch-ua" in headers


async def test_redirects_are_followed_by_hand_and_re_vetted() -> None:
    with serve() as site:
        site.page("/a", "", status=302, location="/b")
        site.page("/b", "", status=301, location="http://127.0.0.2:9/secret")
        vet = pinning_vet({"127.0.0.1": "127.0.0.1"})
        with pytest.raises(FerretError) as caught:
            await ImpersonateTier(vet).fetch(site.base + "/a", OPTS)
    assert caught.value.code == ErrorCode.BLOCKED_ADDRESS
    assert [h.path for h in site.hits] == ["/a", "/b"]
    assert vet.vetted == [site.base + "/a", site.base + "/b"]


async def test_redirect_loop_and_final_url() -> None:
    with serve() as site:
        site.page("/x", "", status=302, location="/y")
        site.page("/y", "", status=302, location="/x")
        site.page("/go", "", status=307, location="/z")
        site.page("/z", "<html><body><p>there</p></body></html>")
        tier = ImpersonateTier(pinning_vet({"127.0.0.1": "127.0.0.1"}))
        with pytest.raises(FerretError) as caught:
            await tier.fetch(site.base + "/x", OPTS)
        raw = await tier.fetch(site.base + "/go", OPTS)
    assert caught.value.code == ErrorCode.TOO_MANY_REDIRECTS
    assert raw.final_url == site.base + "/z" and raw.url == site.base + "/go"


async def test_byte_cap_counts_decompressed_bytes() -> None:
    bomb = gzip.compress(b"a" * 2_000_000)
    with serve() as site:
        site.page("/bomb", bomb, content_encoding="gzip")
        with pytest.raises(FerretError) as caught:
            await ImpersonateTier(pinning_vet({"127.0.0.1": "127.0.0.1"})).fetch(site.base + "/bomb", OPTS)
    assert len(bomb) < OPTS.max_bytes
    assert caught.value.code == ErrorCode.TOO_LARGE


async def test_error_statuses_come_back_as_responses_with_headers() -> None:
    with serve() as site:
        site.page("/wall", "<html><body>Just a moment...</body></html>", status=403, cf_mitigated="challenge")
        raw = await ImpersonateTier(pinning_vet({"127.0.0.1": "127.0.0.1"})).fetch(site.base + "/wall", OPTS)
    assert raw.status == 403 and raw.headers["cf-mitigated"] == "challenge"


async def test_connect_refused_is_connect_failed() -> None:
    port = free_port_on_both()
    tier = ImpersonateTier(pinning_vet({"127.0.0.1": "127.0.0.1"}))
    with pytest.raises(FerretError) as caught:
        await tier.fetch(f"http://127.0.0.1:{port}/", OPTS)
    assert caught.value.code == ErrorCode.CONNECT_FAILED
    assert str(port) in caught.value.message
