"""The ddgs adapter's live path (ddgs payload, its primp client, status and captcha policy, ddgs
extraction), and Reddit's, GitHub's and Wikipedia's status policies, run against captured pages served on
127.0.0.1 instead of the real engines."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from search_harness import FakeWeb, local
from simweb import SimWeb

from webferret.models import ErrorCode, FerretError
from webferret.search.engines import ddgs_text
from webferret.search.runner import EngineRunner
from webferret.search.types import EngineQuery


async def test_duckduckgo_through_primp_on_loopback(
    fake_web: FakeWeb, engine_fixtures: Path, engine_runner: EngineRunner
) -> None:
    body = (engine_fixtures / "duckduckgo/html_rust-programming_2026-04-14.html").read_text()
    fake_web.server.canned["/ddg/html/"] = (200, body, "text/html; charset=utf-8")
    engine = local(ddgs_text.make_engine("duckduckgo"), f"{fake_web.base}/ddg/html/")
    answer = await engine_runner.run(
        engine, EngineQuery(text="rust programming", site="rust-lang.org"), timeout=10
    )
    assert answer.hits[0].url == "https://rust-lang.org/"
    assert len(answer.hits) == 10
    assert "q=rust+programming+site%3Arust-lang.org" in fake_web.server.posts[-1]  # ddgs's POST payload


async def test_brave_through_primp_on_loopback(
    fake_web: FakeWeb, engine_fixtures: Path, engine_runner: EngineRunner
) -> None:
    body = (engine_fixtures / "brave/search_golang_trimmed.html").read_text()
    fake_web.server.canned["/brave/search"] = (200, body, "text/html; charset=utf-8")
    engine = local(ddgs_text.make_engine("brave"), f"{fake_web.base}/brave/search")
    answer = await engine_runner.run(engine, EngineQuery(text="golang"), timeout=10)
    assert [hit.url for hit in answer.hits][:2] == [
        "https://go.dev/",
        "https://en.wikipedia.org/wiki/Go_(programming_language)",
    ]


@pytest.mark.parametrize("status", [202, 429])
async def test_rate_limit_status_is_rate_limited(
    fake_web: FakeWeb, engine_runner: EngineRunner, status: int
) -> None:
    fake_web.server.canned[f"/ddg/limited{status}"] = (status, "<html></html>", "text/html")
    engine = local(ddgs_text.make_engine("duckduckgo"), f"{fake_web.base}/ddg/limited{status}")
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(engine, EngineQuery(text="q"), timeout=10)
    assert caught.value.code == ErrorCode.RATE_LIMITED and f"HTTP {status}" in caught.value.message


async def test_anomaly_page_is_rate_limited(
    fake_web: FakeWeb, block_fixtures: Path, engine_runner: EngineRunner
) -> None:
    body = (block_fixtures / "duckduckgo_anomaly_challenge_2026.html").read_text()
    fake_web.server.canned["/ddg/anomaly"] = (200, body, "text/html")
    engine = local(ddgs_text.make_engine("duckduckgo"), f"{fake_web.base}/ddg/anomaly")
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(engine, EngineQuery(text="q"), timeout=10)
    assert caught.value.code == ErrorCode.RATE_LIMITED and "captcha" in caught.value.message


async def test_refused_connection_is_connect_failed(engine_runner: EngineRunner) -> None:
    from search_harness import free_port

    engine = local(ddgs_text.make_engine("duckduckgo"), f"http://127.0.0.1:{free_port()}/html/")
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(engine, EngineQuery(text="q"), timeout=5)
    assert caught.value.code in (ErrorCode.CONNECT_FAILED, ErrorCode.TIMEOUT)


async def test_a_rate_limit_keeps_its_retry_after(simweb: SimWeb, engine_runner: EngineRunner) -> None:
    """The engine rests as long as it asked (120 s), not the default five minutes."""
    url = simweb.add("/brave/limited", "<html></html>", status=429, headers={"Retry-After": "120"})
    engine = local(ddgs_text.make_engine("brave"), url)
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(engine, EngineQuery(text="q"), timeout=10)
    assert caught.value.code == ErrorCode.RATE_LIMITED and caught.value.retry_after == 120


async def test_a_result_naming_a_captcha_widget_is_no_captcha_page(
    fake_web: FakeWeb, engine_fixtures: Path, engine_runner: EngineRunner
) -> None:
    """A snippet about reCAPTCHA says `g-recaptcha`: the results page was read as a captcha, the
    engine rested five minutes, and a search about captchas never got DuckDuckGo's answer."""
    body = (engine_fixtures / "duckduckgo/html_rust-programming_2026-04-14.html").read_text()
    snippet = body.index(">", body.index("result__snippet")) + 1
    body = body[:snippet] + "Add a div with class g-recaptcha and your site key. " + body[snippet:]
    fake_web.server.canned["/ddg/recaptcha"] = (200, body, "text/html; charset=utf-8")
    engine = local(ddgs_text.make_engine("duckduckgo"), f"{fake_web.base}/ddg/recaptcha")
    answer = await engine_runner.run(engine, EngineQuery(text="g-recaptcha div"), timeout=10)
    assert len(answer.hits) == 10 and "g-recaptcha" in answer.hits[0].snippet


async def test_a_reddit_result_saying_too_many_requests_is_no_rate_limit(
    fake_web: FakeWeb, engine_fixtures: Path, engine_runner: EngineRunner
) -> None:
    """A thread titled "429 Too Many Requests" among the results was read as Reddit's own refusal."""
    from webferret.search.engines import reddit

    body = (engine_fixtures / "reddit/old_reddit_search_best-crm-for-startups.html").read_text()
    title = body.index(">", body.index("search-title")) + 1
    body = body[:title] + "Getting 429 Too Many Requests, how do you back off? " + body[title:]
    fake_web.server.canned["/reddit/too-many"] = (200, body, "text/html; charset=utf-8")
    engine = local(reddit.ENGINE, f"{fake_web.base}/reddit/too-many")
    answer = await engine_runner.run(engine, EngineQuery(text="429 too many requests"), timeout=10)
    assert len(answer.hits) == 22


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (
            422,
            {
                "message": "Validation Failed",
                "errors": [{"message": "The search is longer than 256 characters."}],
            },
            '(HTTP 422): "Validation Failed"; "The search is longer than 256 characters."',
        ),
        (
            401,
            {"message": "Bad credentials"},
            '(HTTP 401): "Bad credentials" (the token: setting github_token',
        ),
    ],
)
async def test_github_says_why_it_refused_a_search(
    fake_web: FakeWeb, engine_runner: EngineRunner, status: int, body: dict[str, object], said: str
) -> None:
    """GitHub's error answers say why (a query over its 256 characters, a stale GITHUB_TOKEN); the
    engine's error said only `github answered HTTP 422`."""
    from webferret.search.engines import github

    fake_web.server.canned[f"/github/{status}"] = (status, json.dumps(body), "application/json")
    engine = local(github.ENGINE, f"{fake_web.base}/github/{status}")
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(engine, EngineQuery(text="q"), timeout=10)
    assert caught.value.code == ErrorCode.ENGINE_ERROR and caught.value.status == status
    assert said in caught.value.message


async def test_a_reddit_rate_limit_keeps_its_retry_after(simweb: SimWeb, engine_runner: EngineRunner) -> None:
    """Reddit's refusal dropped its Retry-After: the engine rested the default five minutes, not the
    two it was asked to (every engine's rate limit is read so by the runner)."""
    from webferret.search.engines import reddit

    url = simweb.add("/reddit/limited", "<html></html>", status=429, headers={"Retry-After": "120"})
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(local(reddit.ENGINE, url), EngineQuery(text="q"), timeout=10)
    assert caught.value.code == ErrorCode.RATE_LIMITED and caught.value.retry_after == 120


async def test_github_rests_until_its_rate_limit_resets(simweb: SimWeb, engine_runner: EngineRunner) -> None:
    """GitHub's spent search limit names its reset (`x-ratelimit-reset`, within the minute), not a
    Retry-After: the engine rested the default five minutes while GitHub would answer again soon."""
    import time

    from webferret.search.engines import github

    reset = int(time.time()) + 40
    headers = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)}
    body = json.dumps({"message": "API rate limit exceeded for 127.0.0.1."})
    url = simweb.add("/github/spent", body, status=403, headers=headers)
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(local(github.ENGINE, url), EngineQuery(text="q"), timeout=10)
    assert caught.value.code == ErrorCode.RATE_LIMITED
    assert caught.value.retry_after is not None and 0 < caught.value.retry_after <= 40


@pytest.mark.parametrize(
    ("status", "body", "said"),
    [
        (  # the REST API, for a query longer than its 300 characters
            400,
            {
                "errorKey": "rest-search-error",
                "messageTranslations": {
                    "en": "Search request is longer than the maximum allowed length. (399 > 300)"
                },
                "httpCode": 400,
                "httpReason": "Bad Request",
            },
            '(HTTP 400): "Search request is longer than the maximum allowed length. (399 > 300)"',
        ),
        (404, {"httpCode": 404, "httpReason": "Not Found"}, '(HTTP 404): "Not Found"'),
        (  # the Action API, as a mirror answers it
            500,
            {"error": {"code": "internal_api_error", "info": "Search is currently too busy."}},
            '(HTTP 500): "internal_api_error: Search is currently too busy."',
        ),
    ],
)
async def test_wikipedia_says_why_it_refused_a_search(
    simweb: SimWeb, engine_runner: EngineRunner, status: int, body: dict[str, object], said: str
) -> None:
    """Wikipedia's error answer names its reason in JSON, which its engine's error dropped: it said
    only `wikipedia answered HTTP 400`, whatever the query had done wrong."""
    from webferret.search.engines import wikipedia

    url = simweb.add(f"/wikipedia/{status}", json.dumps(body), status, {"Content-Type": "application/json"})
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(local(wikipedia.ENGINE, url), EngineQuery(text="q"), timeout=10)
    assert caught.value.code == ErrorCode.ENGINE_ERROR and caught.value.status == status
    assert f"Wikipedia refused the search {said}" == caught.value.message


async def test_wikipedia_rate_limit_stays_a_rate_limit(simweb: SimWeb, engine_runner: EngineRunner) -> None:
    from webferret.search.engines import wikipedia

    body = json.dumps({"httpCode": 429, "httpReason": "Too Many Requests"})
    url = simweb.add("/wikipedia/limited", body, status=429, headers={"Retry-After": "30"})
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(local(wikipedia.ENGINE, url), EngineQuery(text="q"), timeout=10)
    assert caught.value.code == ErrorCode.RATE_LIMITED and caught.value.retry_after == 30


@pytest.mark.parametrize("name", ["duckduckgo", "brave", "reddit", "wikipedia", "github", "searxng"])
async def test_an_empty_answer_is_the_engines_failure(
    fake_web: FakeWeb, engine_runner: EngineRunner, name: str
) -> None:
    """An engine that answers HTTP 200 with nothing in it found nothing? No: it failed. Reddit's
    answered zero results, ok; DuckDuckGo's and Brave's said `ParserError: "Document is empty"`."""
    from webferret.search.engines import registry

    fake_web.server.canned[f"/empty/{name}"] = (200, " \n", "text/html")
    engine = local(registry()[name], f"{fake_web.base}/empty/{name}")
    query = EngineQuery(text="q", base_url=fake_web.base if name == "searxng" else None)
    with pytest.raises(FerretError) as caught:
        await engine_runner.run(engine, query, timeout=10)
    assert caught.value.code == ErrorCode.ENGINE_ERROR
    assert caught.value.message == (
        f"{name} answered an empty body (HTTP 200): neither results nor a page saying there are none"
    )
