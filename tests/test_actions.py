"""`--action STEP`: the browser clicks, types, presses and scrolls before the page is read, on pages
served on loopback whose text appears only after those steps."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from chromium import CHROMIUM, needs_chromium
from tiers_web import loopback_policy, serve

from webferret.cli import main
from webferret.config import Settings
from webferret.fetch.actions import MAX_ACTIONS, parse_action, parse_actions
from webferret.fetch.browser import BrowserTier
from webferret.fetch.types import FetchOptions
from webferret.mcp_tools import WebFetchArgs
from webferret.models import ErrorCode, FerretError

SETTINGS = Settings(chromium_path=CHROMIUM, browser_no_sandbox=True)  # tests run as root
WORDS = "Ferrets sleep eighteen hours a day and hide socks under the sofa. " * 6
MORE = "Otters float on their backs and hold paws so the current does not part them. " * 6
FOUND = "Stoats turn white in winter, all but the black tip of the tail. " * 6
PAGE = f"""<html><head><title>Acts</title></head><body><article><h1>First part</h1><p>{WORDS}</p>
<div id="more"></div><button id="load">Load more</button>
<form id="ask"><input id="q" name="q"><button type="submit">Go</button></form><div id="answer"></div>
<div style="height: 3000px"></div><div id="feed"></div></article>
<script>
document.getElementById('load').onclick = function () {{
  fetch('/more').then(function (r) {{ return r.text(); }}).then(function (t) {{
    document.getElementById('more').innerHTML = '<h2>Loaded</h2><p>' + t + '</p>';
  }});
}};
document.getElementById('ask').onsubmit = function (e) {{
  e.preventDefault();
  if (document.getElementById('q').value === 'stoat') {{
    document.getElementById('answer').innerHTML = '<h2>Found</h2><p>{FOUND}</p>';
  }}
}};
window.addEventListener('scroll', function () {{
  if (!document.getElementById('tail')) {{
    document.getElementById('feed').innerHTML = '<p id="tail">The feed went on: badgers dig setts.</p>';
  }}
}});
</script></body></html>"""


def test_steps_are_checked_before_any_request() -> None:
    assert parse_action(" Click: #load ").target == "#load"
    typed = parse_action("type:#q=stoat=white")
    assert (typed.target, typed.value) == ("#q", "stoat=white")
    named = parse_action("type:input[name='q=1']=ferrets")
    assert (named.target, named.value) == ("input[name='q=1']", "ferrets")
    assert parse_action("type:#q=").value == ""  # an empty field is a text too
    for bad, said in (
        ("hover:#x", "expected click:CSS"),
        ("click:", "expected click:CSS"),
        ("type:#q", "expected type:CSS=TEXT"),
        ("click:div[", "bad click selector"),
        ("wait:60", "at most 10 s"),
        ("wait:soon", "takes a number"),
        ("scroll:0", "scroll 1 to 20 times"),
        ("press:", "press:KEY"),
        # an undecodable argv byte: the step waited out the page's time, then said 'timeout'
        ("click:#load\udcff", "action: it has a character that is no text"),
        ("type:#q=stoat\udcff", "action: it has a character that is no text"),
    ):
        with pytest.raises(FerretError) as raised:
            parse_action(bad)
        assert raised.value.code == ErrorCode.INVALID_ARGUMENT and said in raised.value.message, bad
    with pytest.raises(FerretError, match=f"at most {MAX_ACTIONS}"):
        parse_actions(["wait:1"] * (MAX_ACTIONS + 1))
    assert FetchOptions(actions=("click:#load",)).tier == "browser"
    written = (" CLICK: #load ", "type: #q =stoat", "Scroll", "wait:0.5", "press: Enter", "wait-for:#answer")
    assert parse_actions(written) == ("click:#load", "type:#q=stoat", "scroll:1", "wait:0.5", "press:Enter",
                                      "wait-for:#answer")  # one way each: one variant  # fmt: skip
    with pytest.raises(FerretError, match="actions needs the browser, not tier http"):
        FetchOptions(tier="http", actions=("scroll",))
    assert WebFetchArgs(urls=["https://x.example/"], actions=["scroll:2"]).fetch_overrides() == {
        "actions": ("scroll:2",)
    }


def test_the_cli_says_a_bad_step_and_a_tier_without_a_browser(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["fetch", "--action", "hover:#x", "http://127.0.0.1:9/"]) == 2
    assert "action 'hover:#x': expected click:CSS" in capsys.readouterr().err
    assert main(["fetch", "--tier", "http", "--action", "scroll", "http://127.0.0.1:9/"]) == 2
    assert "--action needs the browser, not --tier http" in capsys.readouterr().err


@needs_chromium
async def test_click_type_press_and_scroll_bring_text_in_before_the_page_is_read() -> None:
    tier, policy = BrowserTier(SETTINGS), loopback_policy()
    try:
        with serve() as site:
            site.page("/", PAGE)
            site.page("/more", MORE, content_type="text/plain")
            target = await policy.vet(site.base + "/")
            plain = await tier.fetch(target, FetchOptions(timeout=20), policy)
            steps = ("click:#load", "type:#q=stoat", "press:Enter", "scroll")
            acted = await tier.fetch(target, FetchOptions(timeout=20, actions=steps), policy)
            with pytest.raises(FerretError) as missing:
                await tier.fetch(target, FetchOptions(timeout=3, actions=("click:#nowhere",)), policy)
    finally:
        await tier.aclose()
    shown = (
        b'<div id="more"><h2>Loaded</h2>',
        b'<div id="answer"><h2>Found</h2>',
        b'<div id="feed"><p id="tail">',
    )
    assert not any(mark in plain.body for mark in shown) and MORE.strip().encode() not in plain.body
    assert all(mark in acted.body for mark in shown) and MORE.strip().encode() in acted.body
    assert missing.value.code == ErrorCode.TIMEOUT
    assert "action 1 ('click:#nowhere') could not be done within the page's timeout" in missing.value.message


INNER_FEED = """<html><head><title>Feed</title><style>html, body {height: 100%; margin: 0; overflow: hidden}
#feed {height: 100%; overflow-y: auto}</style></head><body><aside style="height: 40px; overflow-y: auto">
<div style="height: 400px">a small box that scrolls too</div></aside>
<main id="feed"><p>The feed's first post.</p>
<div style="height: 3000px"></div></main>
<script>
const feed = document.getElementById('feed');
feed.addEventListener('scroll', function () {
  if (feed.scrollTop + feed.clientHeight >= feed.scrollHeight - 10 && !document.getElementById('tail')) {
    feed.insertAdjacentHTML('beforeend', '<p id="tail">The feed ' + 'went on: badgers dig setts.</p>');
  }
});
</script></body></html>"""
"""An endless list that scrolls inside a box filling the window (the window itself does not scroll)."""


@needs_chromium
async def test_scroll_reaches_the_bottom_of_a_feed_that_scrolls_in_a_box() -> None:
    """`scroll` scrolled only the window, so a feed in a scrolling box (an app's main pane) never
    loaded more; it scrolls the page's largest scrolling box to its bottom too, as a reader's wheel does."""
    tier, policy = BrowserTier(SETTINGS), loopback_policy()
    try:
        with serve() as site:
            site.page("/", INNER_FEED)
            target = await policy.vet(site.base + "/")
            plain = await tier.fetch(target, FetchOptions(timeout=20), policy)
            acted = await tier.fetch(target, FetchOptions(timeout=20, actions=("scroll",)), policy)
    finally:
        await tier.aclose()
    assert b'<p id="tail">The feed went on' in acted.body and b"The feed went on" not in plain.body


SHADOW_FEED = """<html><head><title>Feed</title><style>html, body {height: 100%; margin: 0; overflow: hidden}
feed-app {display: block; height: 100%}</style></head><body><feed-app></feed-app>
<script>customElements.define('feed-app', class extends HTMLElement {
  connectedCallback() {
    const root = this.attachShadow({mode: 'open'});
    root.innerHTML = '<style>main {height: 100vh; overflow-y: auto}</style>'
      + '<main><p>The feed first post.</p><div style="height: 3000px"></div></main>';
    const feed = root.querySelector('main');
    feed.addEventListener('scroll', () => {
      if (feed.scrollTop + feed.clientHeight >= feed.scrollHeight - 10 && !root.getElementById('tail')) {
        feed.insertAdjacentHTML('beforeend', '<p id="tail">The feed ' + 'went on: badgers dig setts.</p>');
      }
    });
  }
});</script></body></html>"""
"""An app of web components (Ionic's `ion-content`): its endless list scrolls in a box inside a
shadow root."""


@needs_chromium
async def test_scroll_reaches_the_bottom_of_a_feed_that_scrolls_in_a_shadow_root() -> None:
    """The scrolling box was looked for in the light DOM alone (`querySelectorAll`), so a web
    components app's pane (in a shadow root, as the browser tier reads such pages since b9b5778)
    was never scrolled and its list never loaded more."""
    tier, policy = BrowserTier(SETTINGS), loopback_policy()
    try:
        with serve() as site:
            site.page("/", SHADOW_FEED)
            target = await policy.vet(site.base + "/")
            acted = await tier.fetch(target, FetchOptions(timeout=20, actions=("scroll",)), policy)
    finally:
        await tier.aclose()
    assert b"The feed first post." in acted.body and b'<p id="tail">The feed went on' in acted.body


@needs_chromium
async def test_a_click_on_a_link_that_opens_a_new_tab_reads_where_it_leads() -> None:
    """A link opening a new tab (`target="_blank"`, or every link under `<base target="_blank">`) did
    nothing when clicked, as pop-ups are refused: the page was read as if never clicked. The tab
    itself goes where the click leads, and that page is read."""
    start = """<html><head><title>Start</title>{base}</head><body><article><h1>Start</h1><p>{words}</p>
    <a id="go" {target} href="/other">Other</a></article></body></html>"""
    other = f"<html><head><title>Other</title></head><body><article><h1>Other</h1><p>{MORE}</p></article>"
    tier, policy = BrowserTier(SETTINGS), loopback_policy()
    try:
        with serve() as site:
            site.page("/", start.format(base="", words=WORDS, target='target="_blank"'))
            site.page("/based", start.format(base='<base target="_blank">', words=WORDS, target=""))
            site.page("/other", other)
            opts = FetchOptions(timeout=20, actions=("click:#go",))
            read = [
                await tier.fetch(await policy.vet(site.base + path), opts, policy) for path in ("/", "/based")
            ]
    finally:
        await tier.aclose()
    assert all(MORE.strip().encode() in raw.body for raw in read)
    assert all(raw.trail[-1]["after_actions"] == site.base + "/other" for raw in read)


SEARCH_BOX = """customElements.define('search-box', class extends HTMLElement {
  connectedCallback() {
    this.attachShadow({mode: 'open'}).innerHTML =
      '<form action="/other" target="_blank"><input name="q"><button>Go</button></form>';
  }
});"""
"""A search form inside a web component's shadow root."""


@pytest.mark.parametrize("shadow", [False, True], ids=["form", "form-in-a-shadow-root"])
@needs_chromium
async def test_enter_in_a_form_that_opens_a_new_tab_reads_where_it_leads(shadow: bool) -> None:
    """A key pressed in a form meant for a new tab (`target="_blank"`: a search box's Enter) did
    nothing, as pop-ups are refused, though a click on its button was led into the tab (014fc1f):
    the page was read as if never submitted. The Enter leads the tab itself too, in a shadow root
    also (where the document's focused element is the root's host)."""
    form = '<form action="/other" target="_blank"><input name="q"><button>Go</button></form>'
    box = f"<search-box></search-box><script>{SEARCH_BOX}</script>" if shadow else form
    start = f"""<html><head><title>Start</title></head><body><article><h1>Start</h1><p>{WORDS}</p>
    {box}</article>"""
    other = f"<html><head><title>Other</title></head><body><article><h1>Other</h1><p>{MORE}</p></article>"
    tier, policy = BrowserTier(SETTINGS), loopback_policy()
    try:
        with serve() as site:
            site.page("/", start)
            site.page("/other", other)
            opts = FetchOptions(timeout=20, actions=("type:input[name=q]=otters", "press:Enter"))
            raw = await tier.fetch(await policy.vet(site.base + "/"), opts, policy)
    finally:
        await tier.aclose()
    assert MORE.strip().encode() in raw.body
    assert raw.trail[-1]["after_actions"] == site.base + "/other?q=otters"


@needs_chromium
def test_cli_fetch_with_actions_reads_what_they_loaded(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", CHROMIUM)
    monkeypatch.setenv("WEBFERRET_BROWSER_NO_SANDBOX", "1")
    home = ["--home", str(tmp_path), "--allow-host", "127.0.0.1"]
    with serve() as site:
        site.page("/", PAGE)
        site.page("/more", MORE, content_type="text/plain")
        assert main(["fetch", "--json", *home, site.base + "/"]) == 0  # stored without the click
        plain = json.loads(capsys.readouterr().out)["data"]["pages"][0]
        code = main(["fetch", "--json", *home, "--action", "click:#load", site.base + "/"])
        page = json.loads(capsys.readouterr().out)["data"]["pages"][0]
        assert main(["fetch", "--json", *home, site.base + "/"]) == 0  # within fresh_seconds
        again = json.loads(capsys.readouterr().out)["data"]["pages"][0]
        assert main(["open", "--json", "--home", str(tmp_path), page["handle"]]) == 0
        opened = json.loads(capsys.readouterr().out)["data"]
    assert code == 0 and page["fetched_via"] == "browser", page["error"]
    assert MORE.strip() in page["content"] and WORDS.strip() in page["content"]  # not the stored copy
    # the acted page is a variant: its own handle, its steps named; a plain read is not answered with it
    assert page["meta"]["actions"] == ["click:#load"] and page["meta"]["change"]["status"] == "new"
    assert page["handle"] != plain["handle"] == again["handle"]
    assert again["fetched_via"] == "store" and MORE.strip() not in again["content"]
    assert MORE.strip() in opened["content"]


@needs_chromium
def test_steps_that_leave_the_page_never_mix_its_readings_up(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A click to another page reads that page as a variant of the one clicked on (no redirect, no
    alias); a click to a refused address, or steps on an error page, fail the page."""
    monkeypatch.setenv("WEBFERRET_CHROMIUM_PATH", CHROMIUM)
    monkeypatch.setenv("WEBFERRET_BROWSER_NO_SANDBOX", "1")
    home = ["--home", str(tmp_path), "--allow-host", "127.0.0.1", "--json"]
    start = f"""<html><head><title>Start</title></head><body><article><h1>Start</h1><p>{WORDS}</p>
    <a id="go" href="/other">Other</a> <a id="out" href="http://10.1.2.3/x">Out</a></article></body></html>"""
    other = f"<html><head><title>Other</title></head><body><article><h1>Other</h1><p>{MORE}</p></article>"

    def fetch(*argv: str) -> dict[str, object]:
        main(["fetch", *home, *argv])
        return json.loads(capsys.readouterr().out)["data"]["pages"][0]

    with serve() as site:
        site.page("/", start)
        site.page("/other", other)
        clicked = fetch("--action", "click:#go", site.base + "/")
        plain = fetch(site.base + "/")
        elsewhere = fetch(site.base + "/other")
        refused = fetch("--action", "click:#out", site.base + "/")
        missing = fetch("--action", "click:#x", "--timeout", "20", site.base + "/nowhere")
        undone = fetch("--action", "click:#nope", "--timeout", "6", site.base + "/")  # a cold browser
    assert clicked["ok"] and MORE.strip() in clicked["content"] and clicked["final_url"] == site.base + "/"
    assert clicked["meta"]["trail"][-1]["after_actions"] == site.base + "/other"
    assert plain["ok"] and WORDS.strip() in plain["content"] and MORE.strip() not in plain["content"]
    assert (
        elsewhere["ok"] and MORE.strip() in elsewhere["content"] and elsewhere["handle"] != clicked["handle"]
    )
    assert plain["handle"] != clicked["handle"] and plain["handle"] != elsewhere["handle"]
    assert not refused["ok"] and refused["error"]["code"] == "blocked_address"  # the guard's own reason
    assert (
        not missing["ok"] and missing["error"]["code"] == "http_error" and missing["error"]["status"] == 404
    )
    assert undone["error"]["code"] == "timeout" and "action 1 ('click:#nope')" in undone["error"]["message"]
