"""Settings: defaults, env, TOML, and errors that name the setting."""

import json
import os
from pathlib import Path

import pytest
from simweb import SimWeb

from webferret.cli import main
from webferret.config import ConfigError, load_settings
from webferret.limits import MAX_PAGE_TOKENS


def config_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path, text: str) -> Path:
    """A settings file holding `text`, made the one `WEBFERRET_CONFIG` names."""
    config = tmp_path / "config.toml"
    config.write_text(text)
    monkeypatch.setenv("WEBFERRET_CONFIG", str(config))
    return config


def test_defaults(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    settings = load_settings()
    assert settings.max_bytes == 10 * 1024 * 1024
    assert settings.timeout == 30
    assert settings.budget == 120
    assert settings.max_redirects == 5
    assert settings.max_urls == 8
    assert settings.home == tmp_path / "webferret"


def test_an_xdg_folder_given_as_a_relative_path_is_not_used(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The XDG spec calls a relative path in XDG_CACHE_HOME, XDG_CONFIG_HOME or XDG_RUNTIME_DIR invalid:
    it was taken from the working folder, so each folder a command ran in had a store, settings file
    or serve socket of its own; the default is used instead."""
    from webferret.config import default_config_file
    from webferret.handoff import default_socket, serve_setting

    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.chdir(tmp_path)
    for name in ("XDG_CACHE_HOME", "XDG_CONFIG_HOME", "XDG_RUNTIME_DIR"):
        monkeypatch.setenv(name, "relative")
    (tmp_path / "relative" / "webferret").mkdir(parents=True)
    (tmp_path / "relative" / "webferret" / "config.toml").write_text('serve = "start"\n')
    assert load_settings().home == tmp_path / ".cache" / "webferret"
    assert default_config_file() == tmp_path / ".config" / "webferret" / "config.toml"
    assert default_socket() == f"/tmp/webferret-{os.getuid()}/serve.sock"
    assert serve_setting({"XDG_CONFIG_HOME": "relative", "HOME": str(tmp_path)}) == "auto"


def test_env_and_comma_lists(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBFERRET_ALLOW_HOSTS", "a.example, 10.0.0.5")
    monkeypatch.setenv("WEBFERRET_TIMEOUT", "7.5")
    settings = load_settings()
    assert settings.allow_hosts == ["a.example", "10.0.0.5"]
    assert settings.timeout == 7.5


def test_toml_file(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config_file(monkeypatch, tmp_path, 'max_redirects = 2\nsearxng_url = "http://127.0.0.1:8888"\n')
    settings = load_settings()
    assert settings.max_redirects == 2
    assert settings.searxng_url == "http://127.0.0.1:8888"


def test_engine_weights_from_env_and_toml(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("WEBFERRET_ENGINE_WEIGHTS", "Wikipedia=2, reddit=0.5")  # any case, as `engines`
    assert load_settings().engine_weights == {"wikipedia": 2.0, "reddit": 0.5}
    monkeypatch.delenv("WEBFERRET_ENGINE_WEIGHTS")
    config_file(monkeypatch, tmp_path, "[engine_weights]\ngithub = 3\n")
    assert load_settings().engine_weights == {"github": 3.0}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WEBFERRET_TIMEOUT", "nan"),
        ("WEBFERRET_TIMEOUT", "-1"),
        ("WEBFERRET_MAX_BYTES", "lots"),
        ("WEBFERRET_ENGINE_WEIGHTS", "wikipedia"),
        ("WEBFERRET_ENGINE_WEIGHTS", "wikipedia=heavy"),
        ("WEBFERRET_ENGINE_WEIGHTS", "reddit=-1"),
    ],
)
def test_bad_value_names_the_setting(monkeypatch: pytest.MonkeyPatch, name: str, value: str) -> None:
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert name.removeprefix("WEBFERRET_").lower() in str(info.value)


def test_bad_setting_is_a_usage_error_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBFERRET_TIMEOUT", "soon")
    code = main(["fetch", "http://127.0.0.1:9/"])
    err = capsys.readouterr().err
    assert code == 2
    assert "timeout" in err and "Traceback" not in err


def test_readme_configuration_table_is_current() -> None:
    from webferret.config import settings_table

    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    start = readme.index("<!-- settings-table:start")
    start = readme.index("\n", start) + 1
    end = readme.index("<!-- settings-table:end -->")
    assert readme[start:end].strip() == settings_table(), "README's settings table is stale"


def test_a_named_config_file_that_is_missing_is_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`WEBFERRET_CONFIG` pointing nowhere must not fall back to the defaults silently."""
    monkeypatch.setenv("WEBFERRET_CONFIG", str(tmp_path / "nosuch.toml"))
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "WEBFERRET_CONFIG" in str(info.value) and "nosuch.toml" in str(info.value)


def test_a_bad_value_in_the_config_file_names_the_file(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = config_file(monkeypatch, tmp_path, 'timeout = "soon"\n')
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "'timeout'" in str(info.value) and str(config) in str(info.value)


def test_a_config_file_that_is_not_toml_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = config_file(monkeypatch, tmp_path, "timeout = \n")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert f"{config} is not valid TOML" in str(info.value) and "line 1" in str(info.value)


def test_dev_null_as_config_file_means_no_file_settings(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBFERRET_CONFIG", "/dev/null")
    assert load_settings().max_redirects == 5


@pytest.mark.parametrize(
    ("entry", "write"),
    [
        ("127.0.0.1:8800", "'127.0.0.1'"),
        ("[::1]:8080", "'[::1]'"),
        ("http://intranet.example/", "'intranet.example'"),
    ],
)
def test_an_allow_hosts_entry_with_a_port_or_scheme_is_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], entry: str, write: str
) -> None:
    """It could never match a URL's host: refused with what to write, not ignored."""
    monkeypatch.setenv("WEBFERRET_ALLOW_HOSTS", f"a.example,{entry}")
    with pytest.raises(ConfigError, match="allow_hosts") as info:
        load_settings()
    assert write in str(info.value) and str(info.value).count("(got ") == 1  # the value named once
    monkeypatch.delenv("WEBFERRET_ALLOW_HOSTS")
    with pytest.raises(SystemExit) as usage:
        main(["fetch", "--allow-host", entry, "http://127.0.0.1:9/"])
    assert usage.value.code == 2 and f"write {write}" in capsys.readouterr().err


@pytest.mark.parametrize("entry", ["", " ", "intranet example"])
def test_an_empty_or_two_word_allow_host_flag_is_refused(
    entry: str, capsys: pytest.CaptureFixture[str]
) -> None:
    """`--allow-host ""` (an unset variable) or two words was taken, and allowed nothing: the page
    was then `blocked_address` as though the flag were not there."""
    with pytest.raises(SystemExit) as usage:
        main(["fetch", "--allow-host", entry, "http://127.0.0.1:9/"])
    assert usage.value.code == 2
    assert (
        f"argument --allow-host: expected a host name or IP address (got {entry!r})"
        in capsys.readouterr().err
    )


@pytest.mark.parametrize("entry", ["*", "127.0.0.*", "*.intranet.example"])
def test_an_allow_hosts_pattern_is_refused(monkeypatch: pytest.MonkeyPatch, entry: str) -> None:
    """A pattern matched no host, silently: the guard stayed up while the user thought it lifted."""
    monkeypatch.setenv("WEBFERRET_ALLOW_HOSTS", entry)
    with pytest.raises(ConfigError, match="not a pattern"):
        load_settings()


def test_bare_hosts_and_ipv6_literals_are_fine_allow_hosts(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBFERRET_ALLOW_HOSTS", "a.example,::1,[::1],10.0.0.5")
    assert load_settings().allow_hosts == ["a.example", "::1", "[::1]", "10.0.0.5"]


def test_a_searxng_url_without_scheme_is_refused_at_start(capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["search", "ferret", "--searxng-url", "127.0.0.1:8888", "--engines", "searxng", "--json"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 2 and error["code"] == "invalid_argument" and "searxng_url" in error["message"]


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("http://", "has no host"),
        ("https://:8888", "has no host"),
        ("http://[::1", "cannot parse"),
        ("http://127.0.0.1:88888", "Port out of range"),
        ("http://127.0.0.1:port", "Port could not be cast"),
        ("http://searx example/", "holds a space"),
    ],
)
def test_a_searxng_url_no_request_can_go_to_is_refused_at_start(
    url: str, said: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """They were taken, and every search then failed as an `engine_error` from inside the client."""
    code = main(["search", "ferret", "--searxng-url", url, "--engines", "searxng", "--json"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 2 and error["code"] == "invalid_argument", error
    assert "setting 'searxng_url' (--searxng-url)" in error["message"] and said in error["message"]
    monkeypatch.setenv("WEBFERRET_SEARXNG_URL", url)
    with pytest.raises(ConfigError, match="setting 'searxng_url' \\(WEBFERRET_SEARXNG_URL\\)"):
        load_settings()


def test_a_searxng_url_with_a_path_or_an_ipv6_address_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    for url in ("http://[::1]:8888/", "https://searx.example/sub/", "http://127.0.0.1:8888"):
        monkeypatch.setenv("WEBFERRET_SEARXNG_URL", url)
        assert load_settings().searxng_url == url


@pytest.mark.parametrize("endpoint", ["notaurl", "ws://", "ftp://127.0.0.1:9222/", "ws://127.0.0.1:99999/x"])
def test_a_browser_ws_no_browser_can_be_at_is_refused_at_start(
    endpoint: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """It was taken, and said only when a page first needed the browser (`browser_unavailable`)."""
    monkeypatch.setenv("WEBFERRET_BROWSER_WS", endpoint)
    code = main(["fetch", "https://a.example/", "--tier", "browser", "--json"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 2 and error["code"] == "invalid_argument"
    assert error["message"].startswith("setting 'browser_ws' (WEBFERRET_BROWSER_WS): expected the browser's")


def test_a_browser_ws_endpoint_is_taken_and_a_blank_one_is_none(monkeypatch: pytest.MonkeyPatch) -> None:
    for endpoint in ("ws://127.0.0.1:9222/devtools/browser/0a1b", "http://127.0.0.1:9222"):
        monkeypatch.setenv("WEBFERRET_BROWSER_WS", endpoint)
        assert load_settings().browser_ws == endpoint
    monkeypatch.setenv("WEBFERRET_BROWSER_WS", " ")
    assert load_settings().browser_ws is None


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("https://ads.example/", "not a URL or path (got 'https://ads.example/'; write 'ads.example')"),
        ("ads.example/track", "not a URL or path"),
        ("ads.example:443", "without a port: it covers every port (got 'ads.example:443'; write"),
        ("ads example", "expected a domain such as example.org"),
        ('["ads.example"]', "'[' is in no host name; several are written separated by commas"),
        ("ads.example;more.example", "';' is in no host name"),
    ],
)
def test_a_domain_list_entry_that_matches_no_host_is_refused_at_start(
    entry: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`blocked_domains = https://ads.example/` was taken and blocked nothing: an entry is matched
    against a URL's host, which no URL, path or port is."""
    for name in ("blocked_domains", "allowed_domains"):
        monkeypatch.setenv(f"WEBFERRET_{name.upper()}", f"ok.example,{entry}")
        with pytest.raises(ConfigError) as info:
            load_settings()
        assert f"setting '{name}' (WEBFERRET_{name.upper()}): expected a domain" in str(info.value)
        assert said in str(info.value)
        monkeypatch.delenv(f"WEBFERRET_{name.upper()}")


def test_an_allow_hosts_entry_written_as_a_json_list_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    """`WEBFERRET_ALLOW_HOSTS='["10.0.0.5"]'` (a list as other tools read their variables) was one
    host named with brackets and quotes, which exempted nothing; `[::1]` still names an address."""
    monkeypatch.setenv("WEBFERRET_ALLOW_HOSTS", '["10.0.0.5"]')
    with pytest.raises(ConfigError) as refused:
        load_settings()
    assert "setting 'allow_hosts' (WEBFERRET_ALLOW_HOSTS)" in str(refused.value)
    assert "'\"' is in no host name" in str(refused.value)


def test_domain_list_entries_as_written_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBFERRET_BLOCKED_DOMAINS", "ads.example, *.track.example,.cdn.example")
    assert load_settings().blocked_domains == ["ads.example", "*.track.example", ".cdn.example"]


@pytest.mark.parametrize(
    ("entry", "said"),
    [
        ("http://intranet.example/", "not a URL or path (got 'http://intranet.example/'; write"),
        ("intranet.example:8080", "without a port"),
        ("10.0.0.0/99", "expected an address or a network such as 10.0.0.0/8 (got '10.0.0.0/99'"),
    ],
)
def test_a_no_proxy_entry_that_matches_no_request_is_refused_at_start(
    entry: str, said: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each was taken as a name no host is, so the requests it meant went through the proxy."""
    monkeypatch.setenv("WEBFERRET_NO_PROXY", f"localhost,{entry}")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "setting 'no_proxy' (WEBFERRET_NO_PROXY): expected" in str(info.value) and said in str(info.value)


def test_no_proxy_entries_as_the_readme_writes_them_are_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    entries = ["*", "localhost", ".corp.example", "10.0.0.0/8", "10.1.2.3", "::1", "[::1]", "fd00::/8"]
    monkeypatch.setenv("WEBFERRET_NO_PROXY", ",".join(entries))
    assert load_settings().no_proxy == entries


def test_a_bad_value_names_where_it_came_from(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The argument, the variable or the file that held it: only that one, never `/dev/null`."""
    monkeypatch.setenv("WEBFERRET_CONFIG", "/dev/null")
    with pytest.raises(ConfigError) as info:
        load_settings(timeout=-1)
    assert "setting 'timeout' (given as an argument)" in str(info.value)
    monkeypatch.setenv("WEBFERRET_TIMEOUT", "soon")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "setting 'timeout' (WEBFERRET_TIMEOUT)" in str(info.value)
    config = config_file(monkeypatch, tmp_path, 'budget = "soon"\n')
    monkeypatch.delenv("WEBFERRET_TIMEOUT")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert f"setting 'budget' ({config})" in str(info.value)


def test_a_check_s_own_words_reach_the_user(monkeypatch: pytest.MonkeyPatch) -> None:
    """A setting refused by one of webferret's own checks says what that check says, in the setting's
    error and in a per-call option's, without pydantic's "Value error," in front."""
    from webferret.config import checked_overrides
    from webferret.models import FerretError

    monkeypatch.setenv("WEBFERRET_REGION", "xx")
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert "setting 'region' (WEBFERRET_REGION): a country and a language" in str(info.value)
    assert "Value error" not in str(info.value)
    monkeypatch.delenv("WEBFERRET_REGION")
    with pytest.raises(FerretError) as refused:
        checked_overrides(load_settings(), {"region": "xx"}, "search_options")
    assert refused.value.message.startswith("search_options: region='xx': a country and a language")


def test_overrides_apply_to_given_settings_and_are_checked(tmp_path: Path) -> None:
    from webferret.config import ConfigError, Settings
    from webferret.ferret import Ferret

    base = Settings(home=tmp_path)
    assert Ferret(base).settings is base
    tuned = Ferret(base, timeout=5, max_urls=3).settings
    assert (tuned.timeout, tuned.max_urls, tuned.home) == (5, 3, tmp_path)  # they were ignored
    with pytest.raises(ConfigError, match="setting 'timeout'"):
        Ferret(base, timeout=-1)


@pytest.mark.parametrize(
    "args", [["store", "clear", "--yes", "--home", ""], ["store", "stats", "--home", " "]]
)
def test_an_empty_home_is_refused_not_the_default(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path, args: list[str]
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))  # the default home, which must stay untouched
    assert main(args) == 2
    assert "setting 'home' (--home): empty" in capsys.readouterr().err and not list(tmp_path.iterdir())
    monkeypatch.setenv("WEBFERRET_HOME", "")
    with pytest.raises(ConfigError, match="WEBFERRET_HOME"):
        load_settings()


@pytest.mark.parametrize(
    ("name", "value", "said"),
    [
        ("WEBFERRET_IMPERSONATE", "netscape", "one of curl_cffi's fingerprints: chrome, "),
        ("WEBFERRET_IMPERSONATE", "", "one of curl_cffi's fingerprints"),
        ("WEBFERRET_USER_AGENT", "a\nX-Evil: 1", "printable ASCII text on one line"),
        ("WEBFERRET_USER_AGENT", " ", "not empty"),
        ("WEBFERRET_CHROMIUM_PATH", "", "empty: name the Chromium executable"),
    ],
)
def test_a_fetch_setting_no_fetch_could_use_is_refused_at_start(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str, said: str
) -> None:
    """Taken as they were, each failed every fetch later (`connect_failed`, `browser_unavailable`)
    with words of its library, not the setting's."""
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    setting = name.removeprefix("WEBFERRET_").lower()
    assert f"setting '{setting}' ({name}): " in str(info.value) and said in str(info.value)
    assert f"(got {value!r})" in str(info.value)


def test_every_fingerprint_curl_cffi_names_is_taken(monkeypatch: pytest.MonkeyPatch) -> None:
    import typing

    from curl_cffi import BrowserTypeLiteral

    for fingerprint in ("chrome131", "firefox", "safari_ios"):
        assert fingerprint in typing.get_args(BrowserTypeLiteral)
        monkeypatch.setenv("WEBFERRET_IMPERSONATE", fingerprint)
        assert load_settings().impersonate == fingerprint


def test_a_boolean_is_no_number_from_any_source(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """TOML's `true` was read as 1: `timeout = true` a second, `max_bytes = true` one byte."""
    config = config_file(
        monkeypatch, tmp_path, "timeout = true\nmax_bytes = true\n[engine_weights]\ngithub = false\n"
    )
    with pytest.raises(ConfigError) as info:
        load_settings()
    for name in ("timeout", "max_bytes"):
        assert f"setting '{name}' ({config}): a number, not true or false (got True)" in str(info.value)
    assert "not true or false (bad entry: 'github')" in str(info.value)
    monkeypatch.setenv("WEBFERRET_CONFIG", "/dev/null")
    with pytest.raises(ConfigError, match=r"'max_redirects' \(given as an argument\): a number, not true"):
        load_settings(max_redirects=False)


def test_a_config_path_that_is_no_file_is_an_error(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """A directory or a FIFO was skipped as if no file were named (only a missing one was refused)."""
    import os

    fifo = tmp_path / "fifo.toml"
    os.mkfifo(fifo)
    for path, what in ((tmp_path, "is a directory"), (fifo, "is no regular file")):
        monkeypatch.setenv("WEBFERRET_CONFIG", str(path))
        with pytest.raises(ConfigError, match=f"WEBFERRET_CONFIG names {path}, which {what}"):
            load_settings()
    monkeypatch.delenv("WEBFERRET_CONFIG")
    default = tmp_path / "config" / "webferret" / "config.toml"  # under XDG_CONFIG_HOME (conftest)
    default.mkdir(parents=True)
    with pytest.raises(ConfigError, match=f"{default} \\(the default config file\\) is a directory"):
        load_settings()


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("WEBFERRET_TIMEOUT", "inf"),
        ("WEBFERRET_TIMEOUT", "100000"),
        ("WEBFERRET_BUDGET", "1e6"),
        ("WEBFERRET_ENGINE_TIMEOUT", "86401"),
        ("WEBFERRET_VERIFY_TIMEOUT", "inf"),
    ],
)
def test_a_time_limit_past_a_day_is_refused_at_start(
    monkeypatch: pytest.MonkeyPatch, name: str, value: str
) -> None:
    """It was taken, and refused later by the call's options without naming the variable."""
    monkeypatch.setenv(name, value)
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert f"setting '{name.removeprefix('WEBFERRET_').lower()}' ({name}): " in str(info.value)
    assert f"(got {value!r})" in str(info.value)


def test_a_time_limit_past_a_day_in_the_config_file_names_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    config = config_file(monkeypatch, tmp_path, "timeout = inf\nbudget = 86400\n")
    with pytest.raises(ConfigError, match=f"^setting 'timeout' \\({config}\\): .*\\(got inf\\)$"):
        load_settings()
    config.write_text("timeout = 86400\n")
    assert load_settings().timeout == 86400


def test_a_config_file_that_is_not_utf8_is_named(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    config = tmp_path / "config.toml"
    config.write_bytes(b"\xfftimeout = 5\n")
    monkeypatch.setenv("WEBFERRET_CONFIG", str(config))
    with pytest.raises(ConfigError) as info:
        load_settings()
    assert str(info.value).startswith(f"cannot read settings: {config} is not UTF-8 text")


def test_link_limit_takes_what_its_flag_takes(monkeypatch: pytest.MonkeyPatch) -> None:
    """`--link-limit 0` is refused (1 or more); the setting took 0 and listed no links."""
    monkeypatch.setenv("WEBFERRET_LINK_LIMIT", "0")
    with pytest.raises(ConfigError, match=r"setting 'link_limit' \(WEBFERRET_LINK_LIMIT\): .*1"):
        load_settings()
    monkeypatch.setenv("WEBFERRET_LINK_LIMIT", "1")
    assert load_settings().link_limit == 1


ENDLESS = ["ENGINE_MIN_INTERVAL", "RETRY_AFTER_MAX", "FRESH_SECONDS", "UNREACHABLE_SECONDS"]
ENDLESS += ["DNS_CACHE_SECONDS"]


@pytest.mark.parametrize("name", ENDLESS)
def test_an_endless_wait_is_refused(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """`inf` was taken: an engine paced to infinity was asked no more, across processes, even once the
    setting was mended (its next turn kept in the pacing file)."""
    monkeypatch.setenv(f"WEBFERRET_{name}", "inf")
    with pytest.raises(ConfigError, match=name.lower()):
        load_settings()


def test_a_home_under_the_users_folder_is_there_from_any_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`~/...` as a TOML file or an MCP client's `env` gives it (no shell expands it there) was a
    folder named `~` in the directory the call ran in: another store in each."""
    from webferret.config import Settings

    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WEBFERRET_HOME", "~/pages")
    assert load_settings().home == tmp_path / "user" / "pages"
    config = tmp_path / "config.toml"
    config.write_text('home = "~/toml-pages"\n')
    monkeypatch.delenv("WEBFERRET_HOME")
    monkeypatch.setenv("WEBFERRET_CONFIG", str(config))
    assert load_settings().home == tmp_path / "user" / "toml-pages"
    assert Settings(home="~/given").home == tmp_path / "user" / "given"


def test_a_config_path_from_the_home_directory_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`WEBFERRET_CONFIG=~/webferret.toml` as an MCP client's env gives it (no shell expands the `~`,
    as none does `home`'s) was "does not exist"."""
    from webferret.handoff import serve_setting

    monkeypatch.setenv("HOME", str(tmp_path))
    (tmp_path / "webferret.toml").write_text('max_redirects = 3\nserve = "off"\n')
    monkeypatch.setenv("WEBFERRET_CONFIG", "~/webferret.toml")
    assert load_settings().max_redirects == 3
    assert serve_setting({"WEBFERRET_CONFIG": "~/webferret.toml"}) == "off"


@pytest.mark.parametrize("tokens", [2**32 + 4000, 2**63])
def test_a_page_size_past_what_the_store_stamps_is_refused_at_start(
    tokens: int, monkeypatch: pytest.MonkeyPatch, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    """`page_tokens` of 2**63 made every fetch an `internal` OverflowError (SQLite's integers), and one
    of 2**32 or more ran into the paging revision of the store's stamp."""
    monkeypatch.setenv("WEBFERRET_PAGE_TOKENS", str(tokens))
    code = main(["fetch", simweb.url("/article"), "--allow-host", "127.0.0.1", "--json"])
    error = json.loads(capsys.readouterr().out)["error"]
    assert code == 2 and error["code"] == "invalid_argument"
    assert error["message"].startswith("setting 'page_tokens' (WEBFERRET_PAGE_TOKENS): ")


def test_the_largest_page_size_reads_a_document_as_one_page(
    monkeypatch: pytest.MonkeyPatch, simweb: SimWeb, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("WEBFERRET_PAGE_TOKENS", str(MAX_PAGE_TOKENS))
    assert main(["fetch", simweb.url("/article"), "--allow-host", "127.0.0.1", "--json"]) == 0
    handle = json.loads(capsys.readouterr().out)["data"]["pages"][0]["handle"]
    assert main(["open", handle, "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["data"]["pages"] == 1


def test_an_unknown_engine_in_the_settings_is_refused_at_start() -> None:
    """`WEBFERRET_ENGINES=bogus` started `api` and `mcp`, and every search then failed naming no setting."""
    from webferret.search.engines import registry
    from webferret.search.names import ENGINE_NAMES

    assert set(ENGINE_NAMES) == set(registry())  # the names the setting is checked against are the engines'
    for bad in ({"engines": ["brave", "bogus"]}, {"engine_weights": {"brav": 2.0}}):
        with pytest.raises(ConfigError) as caught:
            load_settings(**bad)
        assert "unknown engine 'b" in str(caught.value)
    good = load_settings(engines=["auto", "brave"], engine_weights={"brave": 2.0})
    assert good.engines == ["auto", "brave"]


def test_a_config_file_an_editor_began_with_a_byte_order_mark_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    from webferret.handoff import serve_setting

    config = tmp_path / "config.toml"
    config.write_bytes(b'\xef\xbb\xbftimeout = 5\nserve = "auto"\n')  # as Notepad saves "UTF-8 with BOM"
    monkeypatch.setenv("WEBFERRET_CONFIG", str(config))
    assert load_settings().timeout == 5
    assert serve_setting({"WEBFERRET_CONFIG": str(config)}) == "auto"  # the quick look too (was "off")


@pytest.mark.parametrize("value", ["", " , "])
def test_an_empty_engines_setting_is_refused_at_start(monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    """`WEBFERRET_ENGINES=` (an unset variable in a script) started `api` and `mcp`, and every search
    then failed with "the engines list is empty", naming no setting."""
    monkeypatch.setenv("WEBFERRET_ENGINES", value)
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "setting 'engines' (WEBFERRET_ENGINES): no engine selected" in str(caught.value)
    monkeypatch.delenv("WEBFERRET_ENGINES")
    with pytest.raises(ConfigError, match="setting 'engines' \\(given as an argument\\): no engine"):
        load_settings(engines=[])


@pytest.mark.parametrize("token", ["ghp_s\u00e9kret", "ghp_two\nlines"])
def test_a_github_token_no_header_can_carry_is_refused_at_start(
    token: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`GITHUB_TOKEN=ghp_sékret` was taken, and every search asking the github engine failed it with
    `engine_error: UnicodeEncodeError ...` (a line break: a header httpx refuses), naming no setting."""
    monkeypatch.setenv("GITHUB_TOKEN", token)
    with pytest.raises(ConfigError) as refused:
        load_settings()
    assert "setting 'github_token' (GITHUB_TOKEN): an HTTP header carries only visible ASCII" in str(
        refused.value
    )
    assert "kret" not in str(refused.value) and "lines" not in str(refused.value)  # a secret: never shown


def test_a_github_token_is_read_without_spaces_around_it_and_a_blank_one_is_none(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("GITHUB_TOKEN", " ghp_abc\n")  # `Bearer ghp_abc\n` is no header httpx sends
    assert load_settings().github_token == "ghp_abc"
    monkeypatch.setenv("GITHUB_TOKEN", "  ")  # GitHub is asked anonymously, not with `Bearer   `
    assert load_settings().github_token is None


def test_webferrets_own_github_token_wins_over_the_shells(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A GITHUB_TOKEN kept in the shell for other tools (gh, CI) was taken over the one given to
    webferret itself: the setting's name read the environment without regard to case, so
    `GITHUB_TOKEN` answered for `github_token` before `WEBFERRET_GITHUB_TOKEN` was asked."""
    monkeypatch.setenv("GITHUB_TOKEN", "ghp_shell")
    monkeypatch.setenv("WEBFERRET_GITHUB_TOKEN", "ghp_webferret")
    assert load_settings().github_token == "ghp_webferret"
    assert load_settings(github_token="ghp_argument").github_token == "ghp_argument"
    monkeypatch.delenv("WEBFERRET_GITHUB_TOKEN")
    assert load_settings().github_token == "ghp_shell"
    monkeypatch.setenv("WEBFERRET_GITHUB_TOKEN", "ghp_s\u00e9kret")
    with pytest.raises(ConfigError, match="setting 'github_token' \\(WEBFERRET_GITHUB_TOKEN\\): "):
        load_settings()


@pytest.mark.parametrize(
    ("variable", "meant"),
    [
        ("WEBFERRET_TIMOUT", "WEBFERRET_TIMEOUT"),
        ("webferret_allowed_hosts", "WEBFERRET_ALLOW_HOSTS"),
        ("WEBFERRET_CONFG", "WEBFERRET_CONFIG"),
        ("WEBFERRET_CONFIG_FILE", "WEBFERRET_CONFIG"),  # a setting's name with a word added:
        ("WEBFERRET_HOME_DIR", "WEBFERRET_HOME"),  # ignored without a word, as too far from it
        ("WEBFERRET_VERIFY_TIMEOUT_SECONDS", "WEBFERRET_VERIFY_TIMEOUT"),
    ],
)
def test_a_misspelt_setting_variable_is_refused_naming_the_setting_meant(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], variable: str, meant: str
) -> None:
    """`WEBFERRET_TIMOUT=5` was ignored without a word (a TOML key misspelt so is refused): the call
    ran with the default timeout, and `WEBFERRET_ALLOWED_HOSTS` guarded the hosts it named."""
    monkeypatch.setenv(variable, "5")
    with pytest.raises(ConfigError, match=f"{variable} is no setting: did you mean {meant}\\?"):
        load_settings()
    assert main(["fetch", "http://127.0.0.1:9/"]) == 2
    assert f"did you mean {meant}?" in capsys.readouterr().err


def test_a_variable_close_to_no_setting_is_left_alone(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WEBFERRET_BENCH_NETNS", "1")  # the benchmark's mark, another program's
    monkeypatch.setenv("WEBFERRET_VERSION", "0.1.0")  # as a container image may set it
    monkeypatch.setenv("WEBFERRET_timeout", "5")  # a setting's name in another case is the setting
    assert load_settings().timeout == 5


def test_a_home_with_spaces_around_it_is_that_folder_from_any_directory(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path, simweb: SimWeb
) -> None:
    """`WEBFERRET_HOME=" /srv/pages "` (spaces around it, from a client's YAML or JSON env) was a
    relative path: a store in a folder named ` ` in whatever directory a call ran, without a word."""
    pages = tmp_path / "pages"
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("WEBFERRET_HOME", f" {pages} ")
    assert load_settings().home == pages
    assert main(["fetch", simweb.url("/article"), "--allow-host", "127.0.0.1", "--json"]) == 0
    assert (pages / "store.sqlite3").is_file() and not (tmp_path / " ").exists()
    assert load_settings(home=f"{pages}\n").home == pages  # a line read with its line break


def test_a_home_folder_of_no_user_is_named_with_its_setting(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`home = "~nobody-here/pages"` (or `WEBFERRET_CONFIG=~nobody-here/c.toml`) failed as "cannot
    read settings: Could not determine home directory.", pathlib's words, naming no setting."""
    monkeypatch.setenv("WEBFERRET_HOME", "~nobody-here/pages")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "setting 'home' (WEBFERRET_HOME): ~nobody-here names no home folder" in str(caught.value)
    monkeypatch.delenv("WEBFERRET_HOME")
    monkeypatch.setenv("WEBFERRET_CONFIG", "~nobody-here/c.toml")
    with pytest.raises(ConfigError, match=r"WEBFERRET_CONFIG names ~nobody-here/c\.toml: ~nobody-here names"):
        load_settings()


def test_settings_built_directly_refuse_a_bad_value_with_a_config_error(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`webferret.Settings(...)`, the object `Ferret(settings)` takes, raised pydantic's
    `ValidationError` (with its link to pydantic's site) for a bad value, given or from the
    environment: `except webferret.ConfigError`, as the README has it, did not catch it."""
    from webferret import ConfigError as PublicConfigError
    from webferret import Settings

    with pytest.raises(PublicConfigError, match=r"^setting 'timeout' \(given as an argument\): "):
        Settings(timeout=-1)
    monkeypatch.setenv("WEBFERRET_BUDGET", "soon")
    with pytest.raises(PublicConfigError, match=r"^setting 'budget' \(WEBFERRET_BUDGET\): .*\(got 'soon'\)$"):
        Settings()
    monkeypatch.delenv("WEBFERRET_BUDGET")
    assert Settings(timeout=5).timeout == 5


def test_a_switch_that_is_no_boolean_says_what_it_reads(monkeypatch: pytest.MonkeyPatch) -> None:
    """`WEBFERRET_VERIFY=maybe` was refused as "Input should be a valid boolean, unable to interpret
    input", which says not what a switch takes."""
    monkeypatch.setenv("WEBFERRET_VERIFY", "maybe")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert (
        "setting 'verify' (WEBFERRET_VERIFY): expected true or false (also read: yes or no, on or off, "
        "1 or 0) (got 'maybe')"
    ) in str(caught.value)
    monkeypatch.setenv("WEBFERRET_VERIFY", "off")
    assert load_settings().verify is False


def test_a_relative_home_in_the_config_file_is_under_the_file_s_folder(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`home = "pages"` in `~/.config/webferret/config.toml` was read from the directory each call ran
    in: a store in every project a call was made from. A flag or variable is still read from there."""
    folder = tmp_path / "config" / "webferret"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text('home = "pages"\n')
    elsewhere = tmp_path / "project"
    elsewhere.mkdir()
    monkeypatch.chdir(elsewhere)
    assert load_settings().home == folder / "pages"  # the XDG file (XDG_CONFIG_HOME is tmp_path/config)
    monkeypatch.setenv("WEBFERRET_CONFIG", "../config/webferret/config.toml")
    assert load_settings().home == folder / "pages"
    monkeypatch.setenv("WEBFERRET_HOME", "here")
    assert load_settings().home == Path("here")  # the environment's, as a shell reads it


def test_a_byte_cap_past_what_curl_takes_is_refused_at_start(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], simweb: SimWeb
) -> None:
    """`WEBFERRET_MAX_BYTES=9223372036854775808` (2**63, "no cap") was taken, and every page the
    impersonate tier read failed as `internal: OverflowError: int too big to convert` (curl's cap is
    a signed 64-bit count), the browser's with a traceback on stderr."""
    from webferret.limits import MAX_BYTES

    monkeypatch.setenv("WEBFERRET_MAX_BYTES", str(2**63))
    with pytest.raises(ConfigError, match=f"setting 'max_bytes' .*less than or equal to {MAX_BYTES}"):
        load_settings()
    monkeypatch.delenv("WEBFERRET_MAX_BYTES")
    with pytest.raises(SystemExit) as usage:
        main(["fetch", simweb.url("/article"), "--max-bytes", str(2**63)])
    assert usage.value.code == 2
    assert f"argument --max-bytes: expected a whole number from 1 to {MAX_BYTES}" in capsys.readouterr().err
    monkeypatch.setenv("WEBFERRET_MAX_BYTES", str(MAX_BYTES))  # the largest cap curl is given whole
    url = simweb.url("/article")
    assert (
        main(["fetch", url, "--allow-host", "127.0.0.1", "--tier", "impersonate", "--fresh", "--json"]) == 0
    )
    assert json.loads(capsys.readouterr().out)["data"]["pages"][0]["fetched_via"] == "impersonate"


def test_a_misspelt_setting_name_is_named_with_the_setting_meant(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`timout = 5` in the settings file (or `Ferret(timout=5)`) was refused as pydantic's "Extra
    inputs are not permitted", which says neither that no such setting exists nor which was meant."""
    config = config_file(monkeypatch, tmp_path, "timout = 5\n[fetch]\ntimeout = 3\n")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert f"setting 'timout' ({config}): no such setting: did you mean 'timeout'? (got 5)" in str(
        caught.value
    )
    assert "setting 'fetch' (" in str(caught.value) and "no such setting (the README's" in str(caught.value)
    monkeypatch.delenv("WEBFERRET_CONFIG")
    with pytest.raises(
        ConfigError, match=r"'max_byte' \(given as an argument\): no such setting: did you mean"
    ):
        load_settings(max_byte=5)


def test_a_default_config_file_that_links_to_nothing_is_an_error(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`~/.config/webferret/config.toml` as a link into a dotfiles folder that moved was taken for no
    file at all: its settings were skipped without a word (a directory there is refused)."""
    folder = tmp_path / "config" / "webferret"  # XDG_CONFIG_HOME is tmp_path/config (conftest)
    folder.mkdir(parents=True)
    (folder / "config.toml").symlink_to(tmp_path / "dotfiles" / "webferret.toml")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    target = tmp_path / "dotfiles" / "webferret.toml"
    assert f"(the default config file) is a link to {target}, which does not exist" in str(caught.value)
    (tmp_path / "dotfiles").mkdir()
    (tmp_path / "dotfiles" / "webferret.toml").write_text("timeout = 7\n")
    assert load_settings().timeout == 7


def test_a_chromium_path_in_the_home_folder_or_on_path_is_found(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`chromium_path = "~/bin/chromium"` in the TOML file (no shell expands it) failed every browser
    page, "executable doesn't exist at ~/bin/chromium"; so did a bare `chromium-browser`."""
    folder = tmp_path / "bin"
    folder.mkdir()
    program = folder / "chromium-browser"
    program.write_text("#!/bin/sh\n")
    program.chmod(0o755)
    monkeypatch.setenv("HOME", str(tmp_path))
    monkeypatch.setenv("PATH", str(folder))
    config_file(monkeypatch, tmp_path, 'chromium_path = "~/bin/chromium-browser"\n')
    assert load_settings().chromium_path == str(program)
    assert load_settings(chromium_path="chromium-browser").chromium_path == str(program)
    assert load_settings(chromium_path="no-such-browser").chromium_path == "no-such-browser"  # said when used


def test_a_settings_file_that_cannot_be_read_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    """A file that is there but fails to read (`/proc/self/mem` fails as a failing disk does; another
    user's file, without permission) said `cannot read settings: [Errno 5] Input/output error`, naming
    no file."""
    monkeypatch.setenv("WEBFERRET_CONFIG", "/proc/self/mem")
    with pytest.raises(ConfigError) as raised:
        load_settings()
    assert str(raised.value) == (
        "cannot read settings: /proc/self/mem (the settings file) cannot be read: Input/output error"
    )


def test_a_choice_or_a_switch_with_spaces_around_it_or_in_capitals_is_read(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`WEBFERRET_TIER=" browser "` (a YAML or JSON client's env) or `tier = "Browser"` in the file
    was refused as no tier, `WEBFERRET_VERIFY=" no "` as no switch, though a number with spaces
    around it was read: a choice is read in any case, a choice or a switch without its spaces."""
    from webferret.config import checked_overrides

    monkeypatch.setenv("WEBFERRET_TIER", " browser ")
    monkeypatch.setenv("WEBFERRET_VERIFY", " no ")
    config_file(monkeypatch, tmp_path, 'format = "Text"\n')
    settings = load_settings()
    assert (settings.tier, settings.verify, settings.format) == ("browser", False, "text")
    assert load_settings(tier="HTTP ").tier == "http"
    assert checked_overrides(settings, {"format": " html"}, "fetch_options") == {"format": "html"}
    monkeypatch.setenv("WEBFERRET_TIER", " brwser ")
    with pytest.raises(ConfigError, match=r"setting 'tier' \(WEBFERRET_TIER\): Input should be 'auto'"):
        load_settings()


def test_a_setting_name_in_capitals_in_the_file_is_read_as_every_reader_reads_it(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`Home = "pages"` in the settings file was read from the directory a call ran in (`home =
    "pages"` from the file's folder), and `Serve = "off"` was read by the settings but not by the
    hand-off, which handed the call to a running server all the same."""
    from webferret.handoff import serve_setting

    folder = tmp_path / "config" / "webferret"
    folder.mkdir(parents=True)
    (folder / "config.toml").write_text('Home = "pages"\nSERVE = "off"\n')
    monkeypatch.chdir(tmp_path)
    assert load_settings().home == folder / "pages"
    assert serve_setting(os.environ) == "off"


def test_a_setting_given_twice_in_two_cases_is_refused_naming_both(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`Timeout = 5` and `timeout = 6` in one file, `WEBFERRET_TIMEOUT` and `WEBFERRET_timeout` in
    one environment, `Timeout=` and `timeout=` in one call: one of the two won without a word (in
    the file, whichever came first)."""
    config = config_file(monkeypatch, tmp_path, "Timeout = 5\ntimeout = 6\n")
    with pytest.raises(
        ConfigError, match=rf"Timeout and timeout \(in {config}\) are one setting given twice"
    ):
        load_settings()
    monkeypatch.setenv("WEBFERRET_config", os.devnull)  # (the two spellings of the file's variable)
    with pytest.raises(ConfigError, match=r"WEBFERRET_CONFIG and WEBFERRET_config \(the environment\)"):
        load_settings()
    monkeypatch.delenv("WEBFERRET_CONFIG")
    assert load_settings().timeout == 30  # `WEBFERRET_config` names the file, as any setting's variable
    monkeypatch.setenv("WEBFERRET_timeout", "-1")
    with pytest.raises(ConfigError, match=r"^setting 'timeout' \(WEBFERRET_timeout\): "):
        load_settings()
    monkeypatch.setenv("WEBFERRET_TIMEOUT", "5")
    with pytest.raises(ConfigError, match=r"WEBFERRET_TIMEOUT and WEBFERRET_timeout \(the environment\)"):
        load_settings()
    with pytest.raises(ConfigError, match=r"Timeout and timeout \(given as arguments\)"):
        load_settings(Timeout=3, timeout=4)


def test_a_bad_setting_given_in_capitals_is_named_as_an_argument(monkeypatch: pytest.MonkeyPatch) -> None:
    """`Ferret(Timeout=-3)` (read as `timeout`) was said to come from WEBFERRET_TIMEOUT, unset."""
    with pytest.raises(ConfigError, match=r"^setting 'timeout' \(given as an argument\): "):
        load_settings(Timeout=-3)


def test_an_engine_given_two_weights_is_refused(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """`WEBFERRET_ENGINE_WEIGHTS=wikipedia=1,Wikipedia=2`, or both in the file's table: the last one
    won without a word."""
    monkeypatch.setenv("WEBFERRET_ENGINE_WEIGHTS", "wikipedia=1, Wikipedia=2")
    with pytest.raises(
        ConfigError, match=r"'engine_weights' \(WEBFERRET_ENGINE_WEIGHTS\): engine 'wikipedia' is"
    ):
        load_settings()
    monkeypatch.delenv("WEBFERRET_ENGINE_WEIGHTS")
    config_file(monkeypatch, tmp_path, "engine_weights = {reddit = 1, Reddit = 0.5}\n")
    with pytest.raises(ConfigError, match=r"engine 'reddit' is given two weights: keep one"):
        load_settings()
    assert load_settings(engine_weights="reddit=1, wikipedia=2").engine_weights == {
        "reddit": 1,
        "wikipedia": 2,
    }


def test_list_entries_in_the_file_are_read_without_spaces_around_them(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`engines = [" wikipedia"]` was refused as no engine, and `allow_hosts = [" a.example "]` kept
    its spaces, though `WEBFERRET_ENGINES=" wikipedia"` was read without them."""
    config = config_file(
        monkeypatch, tmp_path, 'engines = [" Wikipedia", "reddit "]\nallow_hosts = [" a.example "]\n'
    )
    settings = load_settings()
    assert (settings.engines, settings.allow_hosts) == (["wikipedia", "reddit"], ["a.example"])
    config.write_text('allow_hosts = [" "]\n')
    with pytest.raises(ConfigError, match=r"'allow_hosts' \(.*config\.toml\): expected a host name"):
        load_settings()
    config.write_text('[engine_weights]\n" Wikipedia " = 2\n')  # a table's names, as the text's
    assert load_settings().engine_weights == {"wikipedia": 2}


def test_a_variable_s_name_in_the_file_is_named_with_the_setting_meant(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """`WEBFERRET_TIMEOUT = 5` in the file (copied from an environment) was no setting, and no
    setting was suggested: the file's keys are the names without the prefix."""
    config_file(monkeypatch, tmp_path, "WEBFERRET_TIMEOUT = 5\n")
    with pytest.raises(
        ConfigError, match=r"'webferret_timeout' \(.*\): no such setting: did you mean 'timeout'\?"
    ):
        load_settings()


def test_a_setting_in_capitals_on_top_of_given_settings_is_applied(tmp_path: Path) -> None:
    """`Ferret(settings, Timeout=3)` kept the settings' timeout without a word, though
    `Ferret(Timeout=3)` reads it as `timeout`."""
    from webferret.ferret import Ferret

    base = load_settings(home=tmp_path)
    assert Ferret(base, Timeout=3).settings.timeout == 3
    with pytest.raises(ConfigError, match=r"Timeout and timeout \(given as arguments\)"):
        Ferret(base, Timeout=3, timeout=4)


def test_a_fingerprint_or_a_serve_keyword_with_spaces_or_capitals_is_read(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`WEBFERRET_IMPERSONATE=" Chrome"` was refused as no fingerprint; `WEBFERRET_SERVE=" Off "` was
    refused by the settings but read as no socket by the hand-off, `Start` as off by it too."""
    from webferret.handoff import configured_socket, default_socket, serve_setting

    monkeypatch.setenv("WEBFERRET_IMPERSONATE", " Safari ")
    monkeypatch.setenv("WEBFERRET_SERVE", " Off ")
    settings = load_settings()
    assert (settings.impersonate, settings.serve, serve_setting(os.environ)) == ("safari", "off", "off")
    monkeypatch.setenv("WEBFERRET_SERVE", "START")
    assert (load_settings().serve, serve_setting(os.environ)) == ("start", "start")
    assert configured_socket(os.environ) == default_socket()


def test_a_number_written_with_a_unit_is_refused_saying_to_write_it_alone(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`WEBFERRET_TIMEOUT=30s`, `WEBFERRET_MAX_BYTES=10MB` were refused as "unable to parse string as
    a number", which says not that the unit is what is wrong, nor what the setting counts."""
    monkeypatch.setenv("WEBFERRET_TIMEOUT", "30s")
    with pytest.raises(ConfigError, match=r"without a unit \(it counts seconds\) \(got '30s'\)"):
        load_settings()
    monkeypatch.delenv("WEBFERRET_TIMEOUT")
    monkeypatch.setenv("WEBFERRET_MAX_BYTES", "10 MB")
    with pytest.raises(ConfigError, match=r"'max_bytes' .*without a unit \(it counts bytes\)"):
        load_settings()
    monkeypatch.setenv("WEBFERRET_MAX_BYTES", "lots")
    with pytest.raises(ConfigError) as caught:
        load_settings()
    assert "unit" not in str(caught.value)
