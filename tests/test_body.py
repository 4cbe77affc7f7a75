"""Content encodings under the byte cap, on the simulated web."""

import gzip
import zlib
from collections.abc import AsyncIterator
from urllib.parse import urlsplit

import pytest
from simweb import SimWeb, article_html

from webferret.fetch.fetcher import Fetcher
from webferret.fetch.types import FetchOptions, Tier
from webferret.models import ErrorCode, FerretError

LOCAL = FetchOptions(allow_hosts=("127.0.0.1",), timeout=5.0)
HTML = article_html("Encoded").encode()


@pytest.fixture
async def fetcher() -> AsyncIterator[Fetcher]:
    fetcher = Fetcher()
    yield fetcher
    await fetcher.aclose()


def raw_deflate(data: bytes) -> bytes:
    compressor = zlib.compressobj(wbits=-15)
    return compressor.compress(data) + compressor.flush()


@pytest.mark.parametrize(
    ("encoding", "body"),
    [
        ("gzip", gzip.compress(HTML)),
        ("x-gzip", gzip.compress(HTML)),
        ("deflate", zlib.compress(HTML)),
        ("deflate", raw_deflate(HTML)),
        ("identity", HTML),
    ],
)
async def test_encodings_decode(fetcher: Fetcher, simweb: SimWeb, encoding: str, body: bytes) -> None:
    url = simweb.add("/encoded", body=body, headers={"Content-Encoding": encoding})
    assert (await fetcher.fetch(url, LOCAL)).body == HTML


async def test_exactly_at_the_cap_is_fine(fetcher: Fetcher, simweb: SimWeb) -> None:
    url = simweb.add("/exact", body=gzip.compress(HTML), headers={"Content-Encoding": "gzip"})
    assert (await fetcher.fetch(url, LOCAL.with_(max_bytes=len(HTML)))).body == HTML
    with pytest.raises(FerretError) as info:
        await fetcher.fetch(url, LOCAL.with_(max_bytes=len(HTML) - 1))
    assert info.value.code == ErrorCode.TOO_LARGE


@pytest.mark.parametrize(
    ("encoding", "body", "tier"),
    [
        ("gzip", b"\x1f\x8b\x08\x00garbage-not-gzip", "auto"),
        ("br", b"\x0b\x02\x80hello", "http"),  # (with `auto`, the impersonate tier reads it: test_ladder)
        ("gzip, br", b"x", "http"),
        ("zstd", b"garbage-not-zstd", "auto"),  # the impersonate tier's curl cannot decode it either
    ],
)
async def test_bad_or_unknown_encodings(
    fetcher: Fetcher, simweb: SimWeb, encoding: str, body: bytes, tier: Tier
) -> None:
    url = simweb.add("/bad-encoding", body=body, headers={"Content-Encoding": encoding})
    with pytest.raises(FerretError) as info:
        await fetcher.fetch(url, LOCAL.with_(tier=tier))
    assert info.value.code == ErrorCode.UNSUPPORTED_CONTENT
    assert urlsplit(url).netloc in info.value.message  # the server named
