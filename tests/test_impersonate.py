"""Tier 1 (curl_cffi) against real loopback servers: pinning, fingerprint, caps, errors."""

from __future__ import annotations

import gzip
import json
import socket
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from tiers_web import free_port_on_both, loopback_policy, serve

from webferret.fetch.impersonate import ImpersonateTier, curl_resolve
from webferret.fetch.types import FetchOptions
from webferret.models import ErrorCode, FerretError
from webferret.net.policy import Target

OPTS = FetchOptions(timeout=10, max_bytes=100_000)


@contextmanager
def answering(answer: Callable[[socket.socket], None]) -> Iterator[tuple[int, threading.Thread]]:
    """A loopback server of one connection, answered by `answer` (for answers no HTTP server gives:
    endless, broken): its port and its thread, which the block's end waits for."""
    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = listener.accept()
        with conn:
            conn.recv(65536)
            answer(conn)

    server = threading.Thread(target=serve, daemon=True)
    server.start()
    try:
        yield listener.getsockname()[1], server
    finally:
        server.join(20)
        listener.close()


def pinned(url: str, host: str, port: int, address: str) -> Target:
    return Target(url, "http", host, host, port, address, (address,))


async def test_connects_to_the_vetted_address_not_the_named_one() -> None:
    port = free_port_on_both()
    with serve("127.0.0.1", port) as good, serve("127.0.0.2", port) as decoy:
        for site in (good, decoy):
            site.page("/", f"<html><body><p>served by {site.host}</p></body></html>")
        target = pinned(f"http://127.0.0.2:{port}/", "127.0.0.2", port, "127.0.0.1")
        raw = await ImpersonateTier().fetch(target, OPTS, loopback_policy())
    assert b"served by 127.0.0.1" in raw.body
    assert decoy.hits == []
    assert good.hits[0].headers["host"] == f"127.0.0.2:{port}"
    assert raw.fetched_via == "impersonate" and raw.status == 200


def test_resolve_entries() -> None:
    assert (
        curl_resolve(pinned("http://a.example/", "a.example", 80, "93.184.215.14"))
        == "a.example:80:93.184.215.14"
    )
    assert (
        curl_resolve(pinned("http://a.example/", "a.example", 443, "2001:db8::1"))
        == "a.example:443:[2001:db8::1]"
    )


async def test_sends_a_browser_fingerprint() -> None:
    policy = loopback_policy()
    with serve() as site:
        site.page("/", "<html><body><p>hi</p></body></html>")
        await ImpersonateTier("chrome").fetch(await policy.vet(site.base + "/"), OPTS, policy)
    headers = site.hits[0].headers
    assert "Chrome/" in headers["user-agent"] and "sec-ch-ua" in headers


async def test_a_redirect_is_returned_not_followed() -> None:
    policy = loopback_policy()
    with serve() as site:
        site.page("/a", "", status=302, location="http://127.0.0.2/secret")
        raw = await ImpersonateTier().fetch(await policy.vet(site.base + "/a"), OPTS, policy)
    assert raw.status == 302 and raw.headers["location"] == "http://127.0.0.2/secret"
    assert [h.path for h in site.hits] == ["/a"]


async def test_byte_cap_counts_decompressed_bytes() -> None:
    bomb = gzip.compress(b"a" * 2_000_000)
    policy = loopback_policy()
    with serve() as site:
        site.page("/bomb", bomb, content_encoding="gzip")
        with pytest.raises(FerretError) as caught:
            await ImpersonateTier().fetch(await policy.vet(site.base + "/bomb"), OPTS, policy)
    assert len(bomb) < OPTS.max_bytes
    assert caught.value.code == ErrorCode.TOO_LARGE


async def test_error_statuses_come_back_as_responses_with_headers() -> None:
    policy = loopback_policy()
    with serve() as site:
        site.page("/wall", "<html><body>Just a moment...</body></html>", status=403, cf_mitigated="challenge")
        site.routes["/cookies"] = lambda hit: (200, {"set-cookie": "a=1", "Set-Cookie": "b=2"}, b"")
        raw = await ImpersonateTier().fetch(await policy.vet(site.base + "/wall"), OPTS, policy)
        cookies = await ImpersonateTier().fetch(await policy.vet(site.base + "/cookies"), OPTS, policy)
    assert raw.status == 403 and raw.headers["cf-mitigated"] == "challenge"
    assert cookies.headers["set-cookie"] == "a=1\nb=2"


async def test_plain_http_is_asked_as_chrome_asks_it() -> None:
    """Over plain http curl asked to upgrade to HTTP/2 (`Upgrade: h2c`, `HTTP2-Settings`), which
    Chrome never does: the one tier meant to look like Chrome on the wire gave itself away."""
    policy = loopback_policy()
    with serve() as site:
        site.page("/", "<html><body><p>plain</p></body></html>")
        raw = await ImpersonateTier().fetch(await policy.vet(site.base + "/"), OPTS, policy)
    sent = site.hits[0].headers
    assert b"plain" in raw.body
    assert "upgrade" not in sent and "http2-settings" not in sent, sent


async def test_connect_refused_is_connect_failed() -> None:
    port = free_port_on_both()
    policy = loopback_policy()
    with pytest.raises(FerretError) as caught:
        await ImpersonateTier().fetch(await policy.vet(f"http://127.0.0.1:{port}/"), OPTS, policy)
    assert caught.value.code == ErrorCode.CONNECT_FAILED
    assert str(port) in caught.value.message


async def test_a_body_past_the_cap_ends_its_transfer_there() -> None:
    """An endless body: the read stopped at the cap, but the transfer went on to the page's timeout,
    its chunks queued in memory (gigabytes), and curl's time-out replaced `too_large`."""
    sent = [0]

    def endless(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n")
        chunk = b"<p>endless</p>" * 4000
        frame = b"%x\r\n" % len(chunk) + chunk + b"\r\n"
        try:
            while sent[0] < 2_000_000_000:
                conn.sendall(frame)
                sent[0] += len(chunk)
        except OSError:
            return  # the client hung up: what this test waits for

    with answering(endless) as (port, server), pytest.raises(FerretError) as info:
        policy = loopback_policy()
        target = await policy.vet(f"http://127.0.0.1:{port}/")
        await ImpersonateTier().fetch(target, FetchOptions(timeout=20, max_bytes=100_000), policy)
    assert info.value.code == ErrorCode.TOO_LARGE, info.value
    assert "Content-Length" not in info.value.message  # it had none: it said so all the same
    assert not server.is_alive() and sent[0] < 50_000_000, sent[0]  # it hung up soon after the cap


def test_a_request_cancelled_while_its_headers_come_in_is_a_timeout_not_a_crash(tmp_path: Path) -> None:
    """curl_cffi let go of its callbacks' handles before it took the transfer out of curl: a server
    dripping header lines past the page's timeout ended the whole process with a fatal Python error
    (exit 134, no answer at all)."""
    stop = threading.Event()

    def dripping_headers(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\n")
        while not stop.is_set():
            try:
                conn.sendall(b"X-Drip: 1\r\n")
            except OSError:
                return
            stop.wait(0.2)

    with answering(dripping_headers) as (port, _):
        command = [sys.executable, "-m", "webferret", "fetch", "--tier", "impersonate", "--timeout", "1"]
        command += [
            "--allow-host",
            "127.0.0.1",
            "--json",
            "--home",
            str(tmp_path),
            f"http://127.0.0.1:{port}/",
        ]
        try:
            done = subprocess.run(command, capture_output=True, text=True, timeout=60, check=False)
        finally:
            stop.set()
    assert done.returncode == 1, done.stderr[-2000:]
    assert json.loads(done.stdout)["data"]["pages"][0]["error"]["code"] == "timeout"


async def test_a_content_length_past_the_cap_is_refused_before_the_body() -> None:
    """The http tier refuses a body whose Content-Length is past `max_bytes` before reading it; this
    tier read as far as it went and waited for the rest to its timeout."""

    def huge(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 10" + b"0" * 20)
        conn.sendall(b"\r\n\r\n<p>the first bytes of a very long page</p>")
        conn.settimeout(20)
        try:
            conn.recv(1)  # until the client hangs up
        except OSError:
            return

    with answering(huge) as (port, _), pytest.raises(FerretError) as info:
        policy = loopback_policy()
        target = await policy.vet(f"http://127.0.0.1:{port}/")
        await ImpersonateTier().fetch(target, FetchOptions(timeout=15, max_bytes=100_000), policy)
    assert info.value.code == ErrorCode.TOO_LARGE, info.value
    assert "Content-Length" in info.value.message and "max_bytes" in info.value.message


async def test_a_compression_bomb_is_refused_at_the_cap_not_decoded_into_memory() -> None:
    """curl decodes what one read of the socket brings in one go: the body was counted behind a
    queue, so a bomb of 300 MB was in memory (2 GB from 3 KB of brotli) before `too_large`."""
    import tracemalloc
    import zlib

    packer = zlib.compressobj(9, zlib.DEFLATED, 31)  # gzip
    block = b"a" * (1 << 20)
    bomb = b"".join([*(packer.compress(block) for _ in range(300)), packer.flush()])
    policy = loopback_policy()
    with serve() as site:
        site.page("/bomb", bomb, content_encoding="gzip")
        target = await policy.vet(site.base + "/bomb")
        tracemalloc.start()
        try:
            with pytest.raises(FerretError) as caught:
                await ImpersonateTier().fetch(target, OPTS, policy)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
    assert caught.value.code == ErrorCode.TOO_LARGE, caught.value
    assert peak < 20_000_000, peak  # the cap is 100 KB


@pytest.mark.parametrize("encoding", ["br", "gzip", "deflate"])
async def test_a_body_its_content_encoding_does_not_decode_is_unsupported_content(encoding: str) -> None:
    """A corrupt brotli body was `connect_failed` ("the request failed", curl's write error), as if
    the server could not be reached; a corrupt gzip one is `unsupported_content`, and so is it now."""
    policy = loopback_policy()
    with serve() as site:
        site.page("/corrupt", b"<html><p>not compressed at all</p></html>" * 20, content_encoding=encoding)
        target = await policy.vet(site.base + "/corrupt")
        with pytest.raises(FerretError) as info:
            await ImpersonateTier().fetch(target, OPTS, policy)
    assert info.value.code == ErrorCode.UNSUPPORTED_CONTENT, info.value
    assert "content encoding did not decode" in info.value.message


@pytest.mark.parametrize(
    ("head", "said"),
    [
        (b"Content-Length: 5\r\nContent-Length: 7\r\n", "broken HTTP answer at"),
        (b"X-Big: " + b"a" * 400_000 + b"\r\nContent-Length: 5\r\n", "its headers are too large"),
        (b"Transfer-Encoding: chunked\r\n", "its chunked body is malformed"),  # `hello..` is no chunk
        # each line within curl's limit, 400 KB of them: curl's receive error, not its `TOO_LARGE`
        (
            (b"X-Many: " + b"a" * 1_000 + b"\r\n") * 400 + b"Content-Length: 5\r\n",
            "its headers are too large",
        ),
    ],
    ids=["two-lengths", "huge-header", "bad-chunk", "endless-headers"],
)
async def test_a_broken_answer_is_an_http_error_as_the_http_tier_says(head: bytes, said: str) -> None:
    """Both were `connect_failed` ("the request failed"), as if the server could not be reached."""

    def broken(conn: socket.socket) -> None:
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n" + head + b"\r\nhello..")

    with answering(broken) as (port, _), pytest.raises(FerretError) as info:
        policy = loopback_policy()
        target = await policy.vet(f"http://127.0.0.1:{port}/")
        await ImpersonateTier().fetch(target, FetchOptions(timeout=20), policy)
    assert info.value.code == ErrorCode.HTTP_ERROR and said in info.value.message, info.value
