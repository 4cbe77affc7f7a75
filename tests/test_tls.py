"""HTTPS through the pinned transport: SNI and certificate checks use the real host name."""

import json
import shutil
import ssl
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from chromium import CHROMIUM, needs_chromium
from proxyweb import proxy_server
from simweb import SimWeb

from webferret.config import Settings
from webferret.fetch.fetcher import Fetcher
from webferret.fetch.types import FetchOptions, Tier
from webferret.models import ErrorCode, FerretError

KEY = ("-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1")


def _openssl(*args: str, cwd: Path) -> None:
    subprocess.run(["openssl", *args], cwd=cwd, check=True, capture_output=True)


@pytest.fixture(scope="module")
def certs(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A throwaway CA and a leaf certificate for `localhost`, made with the openssl CLI."""
    if shutil.which("openssl") is None:
        pytest.skip("the openssl command is not installed")
    path = tmp_path_factory.mktemp("certs")
    (path / "san.ext").write_text("subjectAltName=DNS:localhost\n")
    _openssl("req", "-x509", *KEY, "-nodes", "-keyout", "ca.key", "-out", "ca.pem",
             "-days", "2", "-subj", "/CN=webferret test CA", cwd=path)  # fmt: skip
    _openssl("req", *KEY, "-nodes", "-keyout", "leaf.key", "-out", "leaf.csr",
             "-subj", "/CN=localhost", cwd=path)  # fmt: skip
    _openssl("x509", "-req", "-in", "leaf.csr", "-CA", "ca.pem", "-CAkey", "ca.key", "-CAcreateserial",
             "-out", "leaf.pem", "-days", "2", "-extfile", "san.ext", cwd=path)  # fmt: skip
    return path


@pytest.fixture
def tls_web(certs: Path) -> Iterator[tuple[SimWeb, list[str | None]]]:
    names: list[str | None] = []
    server = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    server.load_cert_chain(certs / "leaf.pem", certs / "leaf.key")
    server.sni_callback = lambda sock, name, ctx: names.append(name)  # type: ignore[assignment]
    web = SimWeb(tls=server).start()
    yield web, names
    web.stop()


async def resolve_to_loopback(host: str, port: int) -> list[str]:
    return ["127.0.0.1"]


async def fetch(certs: Path, url: str, allow: str) -> int:
    return await fetch_status(url, allow, ssl.create_default_context(cafile=str(certs / "ca.pem")))


async def fetch_status(
    url: str, allow: str, verify: bool | ssl.SSLContext, settings: Settings | None = None, tier: Tier = "http"
) -> int:
    fetcher = Fetcher(settings, resolver=resolve_to_loopback, verify=verify)
    try:
        raw = await fetcher.fetch(url, FetchOptions(allow_hosts=(allow,), timeout=5, tier=tier))
    finally:
        await fetcher.aclose()
    return raw.status


async def test_sni_and_certificate_use_the_host_name(certs: Path, tls_web: tuple[SimWeb, list]) -> None:
    web, names = tls_web
    assert await fetch(certs, f"https://localhost:{web.port}/article", "localhost") == 200
    assert names == ["localhost"]
    assert web.requests[0][1]["host"] == f"localhost:{web.port}"


async def test_a_certificate_for_another_name_is_refused(certs: Path, tls_web: tuple[SimWeb, list]) -> None:
    web, names = tls_web
    with pytest.raises(FerretError) as info:
        await fetch(certs, f"https://other.test:{web.port}/article", "other.test")
    assert info.value.code == ErrorCode.CONNECT_FAILED and "certificate" in info.value.message.lower()
    assert names == ["other.test"] and web.requests == []


@pytest.mark.parametrize("kind", ["http", "socks5"])
async def test_through_a_proxy_sni_and_the_certificate_check_stay_end_to_end(
    certs: Path, tls_web: tuple[SimWeb, list], kind: str
) -> None:
    web, names = tls_web
    verify = ssl.create_default_context(cafile=str(certs / "ca.pem"))
    with proxy_server(kind) as proxy:  # type: ignore[arg-type]
        settings = Settings(proxy=proxy.url, no_proxy=[])
        assert (
            await fetch_status(f"https://localhost:{web.port}/article", "localhost", verify, settings) == 200
        )
        with pytest.raises(FerretError) as info:
            await fetch_status(f"https://other.test:{web.port}/article", "other.test", verify, settings)
    assert proxy.asked == [f"127.0.0.1:{web.port}"] * 2  # the vetted address, never the name
    assert names == ["localhost", "other.test"] and len(web.requests) == 1
    assert info.value.code == ErrorCode.CONNECT_FAILED and "certificate" in info.value.message.lower()


async def test_the_fetcher_trusts_the_cas_ssl_cert_file_names(
    certs: Path, tls_web: tuple[SimWeb, list], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A corporate or test CA in SSL_CERT_FILE, as the search engines (and httpx) already honour."""
    web, _ = tls_web
    monkeypatch.setenv("SSL_CERT_FILE", str(certs / "ca.pem"))
    assert await fetch_status(f"https://localhost:{web.port}/article", "localhost", True) == 200


@pytest.mark.parametrize("tier", ["impersonate", pytest.param("browser", marks=needs_chromium)])
@pytest.mark.parametrize("variable", ["SSL_CERT_FILE", "SSL_CERT_DIR"])
async def test_every_tier_trusts_the_cas_the_environment_names(
    certs: Path, tls_web: tuple[SimWeb, list], monkeypatch: pytest.MonkeyPatch, tier: Tier, variable: str
) -> None:
    """The impersonate and browser tiers (curl) checked certificates against curl_cffi's own store:
    a corporate or test CA the http tier trusted failed them, so a page that climbed the ladder failed."""
    web, _ = tls_web
    url = f"https://localhost:{web.port}/article"
    settings = Settings(chromium_path=CHROMIUM, browser_no_sandbox=True)  # tests run as root
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    with pytest.raises(FerretError) as info:  # certifi's store does not know the test CA
        await fetch_status(url, "localhost", True, settings, tier)
    assert info.value.code == ErrorCode.CONNECT_FAILED and "certificate" in info.value.message
    folder = certs / "cas"
    folder.mkdir(exist_ok=True)
    (folder / "ca.pem").write_bytes((certs / "ca.pem").read_bytes())
    subprocess.run(["openssl", "rehash", str(folder)], check=True, capture_output=True)
    monkeypatch.setenv(variable, str(certs / "ca.pem" if variable == "SSL_CERT_FILE" else folder))
    assert await fetch_status(url, "localhost", True, settings, tier) == 200


@pytest.mark.parametrize(
    ("variable", "name", "says"),
    [
        ("SSL_CERT_FILE", "gone.pem", "which holds no CA certificate"),  # was `internal`, with a traceback
        ("SSL_CERT_FILE", "notes.pem", "which holds no CA certificate"),  # was `internal` (ssl.SSLError)
        ("SSL_CERT_DIR", "gone", "which is no folder"),  # was a certificate no CA signed
    ],
)
def test_a_ca_store_that_cannot_be_loaded_fails_pages_naming_it(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    variable: str,
    name: str,
    says: str,
) -> None:
    from webferret.cli import main
    from webferret.net.tls import prepare_tls

    (tmp_path / "notes.pem").write_text("not a certificate\n")
    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    monkeypatch.setenv(variable, str(tmp_path / name))
    prepare_tls()  # the start-up thread's load says nothing: the pages do
    code = main(["fetch", "--json", "--allow-host", "localhost", "https://localhost:9/"])
    error = json.loads(capsys.readouterr().out)["data"]["pages"][0]["error"]
    assert code == 1 and error["code"] == "invalid_argument"
    assert f"{variable} names '{tmp_path / name}', {says}" in error["message"]


@pytest.mark.parametrize("env", [{}, {"SSL_CERT_FILE": "certifi"}, {"SSL_CERT_DIR": "certifi-dir"}])
def test_contexts_hold_the_cas_httpx_would_load(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, env: dict[str, str]
) -> None:
    """The contexts made without httpx trust what `httpx.create_ssl_context` would, env included."""
    import certifi
    import httpx

    from webferret.net import tls

    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    if "SSL_CERT_FILE" in env:
        bundle = tmp_path / "one.pem"
        bundle.write_text(
            Path(certifi.where()).read_text().split("-----END CERTIFICATE-----")[0]
            + "-----END CERTIFICATE-----\n"
        )
        monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    if "SSL_CERT_DIR" in env:
        monkeypatch.setenv("SSL_CERT_DIR", str(tmp_path))
    ours = tls._from_env(tls.os.environ.get("SSL_CERT_FILE"), tls.os.environ.get("SSL_CERT_DIR"))
    theirs = httpx.create_ssl_context(verify=True, trust_env=True)
    assert ours.cert_store_stats() == theirs.cert_store_stats()
    assert ours.verify_mode == theirs.verify_mode == ssl.CERT_REQUIRED and ours.check_hostname
    assert (
        tls.certifi_context().cert_store_stats()
        == httpx.create_ssl_context(trust_env=False).cert_store_stats()
    )
