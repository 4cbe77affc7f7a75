"""The caller's request headers (a cookie, a token) stay with the asked URL's origin, in every tier."""

from __future__ import annotations

from pathlib import Path

import pytest
from chromium import CHROMIUM, needs_chromium
from tiers_web import Site, serve

from webferret.ferret import Ferret
from webferret.fetch.types import FetchOptions, same_origin

STYLE = '<link rel="stylesheet" href="/style.css">'
SECRET = ("Authorization", "Bearer s3cret")
ARTICLE = (
    "<html><head><title>Burrows</title></head><body><article><h1>Burrows</h1>"
    + "<p>Ferrets dig long burrows and explore every one of them with great care and patience.</p>" * 4
    + "</article></body></html>"
)


def _ferret(home: Path) -> Ferret:
    return Ferret(home=home, allow_hosts=["127.0.0.1"], chromium_path=CHROMIUM, browser_no_sandbox=True)


def _got_secret(site: Site, path: str) -> list[bool]:
    return [hit.headers.get("authorization") == SECRET[1] for hit in site.hits if hit.path == path]


@pytest.mark.parametrize("tier", ["http", "impersonate"])
async def test_headers_go_to_the_asked_origin_and_not_past_a_redirect_off_it(
    tmp_path: Path, tier: str
) -> None:
    with serve() as home_site, serve() as other:
        other.page("/article", ARTICLE)
        home_site.page("/article", ARTICLE)
        home_site.page("/away", "", status=302, location=other.base + "/article")
        home_site.page("/stay", "", status=302, location="/article")
        async with _ferret(tmp_path) as ferret:
            opts = ferret.fetch_options(tier=tier, headers=(SECRET, ("X-Team", "ferrets")))
            away = await ferret.fetch(home_site.base + "/away", options=opts, fresh=True)
            stay = await ferret.fetch(home_site.base + "/stay", options=opts, fresh=True)
    assert away.ok and stay.ok and away.final_url == other.base + "/article"
    assert _got_secret(home_site, "/away") == [True] and _got_secret(home_site, "/stay") == [True]
    assert _got_secret(home_site, "/article") == [True]  # the same origin, after a redirect
    assert _got_secret(other, "/article") == [False]  # another port is another origin
    assert all("x-team" not in hit.headers for hit in other.hits)


@needs_chromium
async def test_the_browser_sends_them_with_the_page_and_its_own_files_only(tmp_path: Path) -> None:
    with serve() as home_site, serve() as other:
        other.page("/app.js", "document.body.insertAdjacentHTML('beforeend', '<p>from a script</p>');",
                   content_type="text/javascript")  # fmt: skip
        home_site.page("/style.css", "p { color: black; }", content_type="text/css")
        home_site.page(
            "/app",
            ARTICLE.replace("</body>", f'{STYLE}<script src="{other.base}/app.js"></script></body>'),
        )
        async with _ferret(tmp_path) as ferret:
            opts = ferret.fetch_options(tier="browser", headers=(SECRET, ("If-None-Match", '"v1"')))
            page = await ferret.fetch(home_site.base + "/app", options=opts, fresh=True)
    assert page.ok, page.error
    assert _got_secret(home_site, "/app") == [True] and _got_secret(home_site, "/style.css") == [True]
    assert _got_secret(other, "/app.js") == [False]
    revalidated = {hit.path: "if-none-match" in hit.headers for hit in home_site.hits + other.hits}
    assert revalidated == {"/app": True, "/style.css": False, "/app.js": False}  # the page's own only


def test_revalidation_headers_go_with_the_page_only() -> None:
    opts = FetchOptions(headers=(("If-None-Match", '"v1"'), SECRET))
    page, elsewhere = "https://a.example/x", "https://b.example/y"
    assert opts.for_request("https://a.example:443/z", page).headers == opts.headers
    assert opts.for_request(elsewhere, page).headers == (("If-None-Match", '"v1"'),)  # a redirect's hop
    assert opts.for_request("https://a.example/s.css", page, document=False).headers == (SECRET,)
    assert opts.for_request(elsewhere, page, document=False).headers == ()
    assert FetchOptions().for_request(elsewhere, page) == FetchOptions()


@pytest.mark.parametrize(
    ("one", "other", "same"),
    [
        ("http://a.example/x", "http://A.EXAMPLE:80/y", True),
        ("https://a.example/", "https://a.example:443/", True),
        ("http://a.example/", "https://a.example/", False),
        ("http://a.example/", "http://a.example:8080/", False),
        ("http://a.example/", "http://b.a.example/", False),
        ("http://a.example:99999/", "http://a.example/", False),
    ],
)
def test_same_origin(one: str, other: str, same: bool) -> None:
    assert same_origin(one, other) is same


def test_cli_header_goes_out_and_a_stored_copy_does_not_answer(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from webferret.cli import main

    with serve() as site:
        site.page("/members", ARTICLE)
        argv = [
            "fetch",
            site.base + "/members",
            "--allow-host",
            "127.0.0.1",
            "--home",
            str(tmp_path),
            "--json",
        ]
        assert main(argv) == 0  # stored, read without the cookie
        assert main([*argv, "--header", "Cookie: session=abc", "--header", "X-Team:ferrets"]) == 0
    capsys.readouterr()
    first, second = site.hits
    assert "cookie" not in first.headers
    assert second.headers["cookie"] == "session=abc" and second.headers["x-team"] == "ferrets"


def test_cli_a_page_read_with_a_cookie_is_opened_but_answers_no_later_fetch(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    from webferret.cli import main

    with serve() as site:
        site.page("/account", ARTICLE)
        home = ["--home", str(tmp_path)]
        argv = ["fetch", site.base + "/account", "--allow-host", "127.0.0.1", *home, "--json"]
        assert main([*argv, "--header", "Cookie: session=abc"]) == 0
        handle = json.loads(capsys.readouterr().out)["data"]["pages"][0]["handle"]
        assert main(argv) == 0  # without the cookie: to the network, not the copy the cookie read
        again = json.loads(capsys.readouterr().out)["data"]["pages"][0]
        assert main(argv) == 0  # that reading was stored like any page, and answers
        third = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert [("cookie" in hit.headers) for hit in site.hits] == [True, False]
    assert again["fetched_via"] != "store" and third["fetched_via"] == "store"
    assert again["handle"] == third["handle"] == handle
    assert main(["open", handle, "--home", str(tmp_path)]) == 0  # the owner still opens what was read
    assert "Ferrets dig long burrows" in capsys.readouterr().out


def test_cli_a_password_in_the_url_is_sent_never_shown_nor_stored(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    import json
    import sqlite3

    from webferret.cli import main

    linked = ARTICLE.replace("</p>", ' See <a href="/account/next">the next burrow</a>.</p>', 1)
    with serve() as site:
        site.page("/account", linked)
        secret = site.base.replace("://", "://ada:s3cret@") + "/account"
        argv = ["fetch", secret, "--allow-host", "127.0.0.1", "--home", str(tmp_path), "--json", "--links"]
        assert main(argv) == 0
        first = capsys.readouterr().out
        assert main(argv) == 0  # read with credentials: never answered from the store
        again = json.loads(capsys.readouterr().out)["data"]["pages"][0]
    assert [hit.headers.get("authorization") for hit in site.hits] == ["Basic YWRhOnMzY3JldA=="] * 2
    page = json.loads(first)["data"]["pages"][0]
    assert page["url"] == site.base.replace("://", "://ada@") + "/account" and "s3cret" not in first
    assert again["fetched_via"] == "http" and again["handle"] == page["handle"]
    rows = sqlite3.connect(tmp_path / "store.sqlite3").execute("SELECT url, page_json, private FROM pages")
    assert all("s3cret" not in url + data and private for url, data, private in rows)
    # the page's own links are its URLs: made absolute without the caller's user or password
    assert f"[the next burrow]({site.base}/account/next)" in page["content"]
    assert [link["url"] for link in page["links"]] == [f"{site.base}/account/next"]
    assert not any(b"s3cret" in path.read_bytes() for path in tmp_path.glob("store.sqlite3*"))
    closed = "http://ada:s3cret@127.0.0.1:9/x"
    assert main(["fetch", closed, "--allow-host", "127.0.0.1", "--home", str(tmp_path)]) == 1
    assert "s3cret" not in "".join(capsys.readouterr())


@pytest.mark.parametrize(
    ("header", "says"),
    [
        ("nocolon", "is no header: write it NAME: VALUE"),
        ("Bad Name: x", "bad header name 'Bad Name'"),
        ("Host: evil.example", "header 'Host' belongs to the connection"),
        # tunnelled, the page's requests never reach the proxy: the site would get its credentials
        ("Proxy-Authorization: Basic YWRhOnB3", "put the proxy's user and password in the proxy URL"),
        ("X-Name: Zoë", "bad value of header 'X-Name': ASCII only"),
    ],
)
def test_cli_refuses_a_bad_header(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], header: str, says: str
) -> None:
    from webferret.cli import main

    with pytest.raises(SystemExit) as raised:
        main(["fetch", "https://example.org/", "--header", header, "--home", str(tmp_path)])
    assert raised.value.code == 2 and says in capsys.readouterr().err


@pytest.mark.parametrize(
    ("headers", "says"),
    [
        ((("Bad Name", "x"),), "bad header name"),
        ((("X-Ok", "two\r\nlines"),), "text on one line, no NUL"),
        ((("X-Ok", 7),), "text on one line, no NUL"),
        ((("Cookie", "name=Zoë"),), "ASCII only (percent-encode"),
        ((("Transfer-Encoding", "chunked"),), "belongs to the connection"),
        ((("proxy-connection", "keep-alive"),), "is the proxy's, and would go to the site"),
        ("Cookie: a=b", "headers: (name, value) pairs or a mapping"),
        ([("Cookie",)], "headers: (name, value) pairs or a mapping"),
    ],
)
def test_library_refuses_bad_headers(tmp_path: Path, headers: object, says: str) -> None:
    from webferret.models import FerretError

    with pytest.raises(FerretError) as raised:
        Ferret(home=tmp_path).fetch_options(headers=headers)
    assert raised.value.code == "invalid_argument" and says in raised.value.message


def test_library_takes_headers_as_a_mapping(tmp_path: Path) -> None:
    opts = Ferret(home=tmp_path).fetch_options(headers={"Cookie": "a=b"})
    assert opts.headers == (("Cookie", "a=b"),) and opts.credentials


def test_an_error_message_names_a_url_without_its_password() -> None:
    from webferret.models import ErrorCode, ErrorInfo, without_password

    info = ErrorInfo(
        code=ErrorCode.TIMEOUT, message="the budget ran out before http://ada:pa@ss@h.example/x was read"
    )
    assert info.message == "the budget ran out before http://ada@h.example/x was read"
    assert without_password("https://h.example/?q=a:b@c") == "https://h.example/?q=a:b@c"
