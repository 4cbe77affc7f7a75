"""`webferret mcp` over stdio answers a line it cannot read, with the line's id when it can be read:
a client never waits for an answer that is not coming."""

from __future__ import annotations

import json
import os
import queue
import signal
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

from mcp_http import INITIALIZE
from simweb import SimWeb, wait_for

SURROGATE = (  # JSON that Python reads, but not the SDK (a lone surrogate)
    '{"jsonrpc":"2.0","id":7,"method":"tools/call",'
    '"params":{"name":"web_open","arguments":{"handle":"a\\ud800b"}}}'
)


def test_unreadable_lines_get_json_rpc_errors_and_the_server_goes_on(tmp_path: Path) -> None:
    lines = [
        json.dumps(INITIALIZE),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        SURROGATE,
        "garbage{",
        '{"jsonrpc":"2.0","id":9,"method":5}',
        '{"jsonrpc":"2.0","id":10}',
        '{"jsonrpc":"1.0","id":11,"method":"ping"}',  # the first problem's input is a string, "1.0"
        '{"jsonrpc":"2.0","id":8,"method":"tools/list"}',
    ]
    answers = _answers(tmp_path, lines, 7)
    by_id = {answer.get("id"): answer for answer in answers if answer.get("id") is not None}
    assert by_id[7]["error"]["code"] == -32700 and "Invalid JSON" in by_id[7]["error"]["message"]
    assert "tools" in by_id[8]["result"] and "capabilities" in by_id[1]["result"]
    assert by_id[9]["error"]["code"] == -32600  # JSON with an id, but no message: answered by its id
    assert by_id[9]["error"]["message"].startswith("Invalid request: method:")
    assert by_id[10]["error"]["code"] == -32600 and "method: Field required" in by_id[10]["error"]["message"]
    assert by_id[11]["error"]["code"] == -32600  # answered by its id, not as a line without one
    assert "jsonrpc: Input should be '2.0'" in by_id[11]["error"]["message"]
    unnamed = [answer["error"] for answer in answers if answer.get("id") is None]
    assert [error["code"] for error in unnamed] == [-32700]


def test_a_request_whose_id_is_none_is_answered_not_dropped(tmp_path: Path) -> None:
    """The SDK read `"id": null` (or 1.5, true, a list) as a notification and dropped the line: its
    sender waited for an answer that was not coming."""
    lines = [
        json.dumps(INITIALIZE),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":null,"method":"tools/list"}',
        '{"jsonrpc":"2.0","id":1.5,"method":"ping"}',
        '{"jsonrpc":"2.0","id":[2],"method":"tools/call","params":{"name":"web_open","arguments":{}}}',
        '{"jsonrpc":"2.0","id":3,"method":"ping"}',
    ]
    answers = _answers(tmp_path, lines, 5)
    refused = [answer["error"] for answer in answers if answer.get("id") is None]
    assert [error["code"] for error in refused] == [-32600] * 3
    assert "'tools/list' is a request, and a request's id is a string or an integer" in refused[0]["message"]
    assert answers[-1] == {"jsonrpc": "2.0", "id": 3, "result": {}}  # and the server goes on


def _server(home: Path, **settings: str) -> subprocess.Popen[str]:
    """`webferret mcp` over stdio with its store in `home` (and `settings`, environment variables),
    its three streams pipes."""
    env = {**os.environ, "WEBFERRET_HOME": str(home), "WEBFERRET_SERVE": "off", **settings}
    return subprocess.Popen(
        [sys.executable, "-m", "webferret", "mcp"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=env,
        text=True,
    )


def _answers(home: Path, lines: list[str], count: int) -> list[dict[str, Any]]:
    """The first `count` answers `webferret mcp` (stdio) writes to `lines`; a line left unanswered
    fails the test, not hangs it."""
    process = _server(home)
    assert process.stdin is not None and process.stdout is not None
    written: queue.Queue[str] = queue.Queue()  # each line the server writes, read as it comes
    stdout = process.stdout
    threading.Thread(target=lambda: [written.put(line) for line in stdout], daemon=True).start()
    answers: list[dict[str, Any]] = []
    try:
        process.stdin.write("\n".join(lines) + "\n")
        process.stdin.flush()
        for _ in range(count):  # (not `select` on the pipe: two answers read in one chunk left the
            try:  # second in the stream's buffer, where `select` does not look, and the test waited)
                answers.append(json.loads(written.get(timeout=30)))
            except queue.Empty:
                raise AssertionError(f"no answer after {answers}") from None
    finally:
        process.kill()
        process.wait()
    return answers


def test_ctrl_c_ends_the_server_while_its_client_is_silent(tmp_path: Path) -> None:
    """Ctrl-C held `webferret mcp` until its client wrote another line or closed stdin: the SDK reads
    each line in a worker thread and waited for that read to end. It ends now, exit 130, its client
    still connected; the answers it wrote before stand."""
    process = _server(tmp_path)
    assert process.stdin is not None and process.stdout is not None
    try:
        process.stdin.write(json.dumps(INITIALIZE) + "\n")
        process.stdin.flush()
        assert "capabilities" in json.loads(process.stdout.readline())["result"]  # reading stdin now
        process.send_signal(signal.SIGINT)
        code = process.wait(timeout=30)
    finally:
        process.kill()
        process.wait()
        process.stdin.close()
    assert code == 130


def _slow_fetch(simweb: SimWeb, path: str) -> str:
    """The lines of a session that asks for a page `simweb` answers a second late (at `path`)."""
    simweb.add(path, body="<html><body><article><p>Ferrets nap often.</p></article></body></html>", delay=1)
    call = {"name": "web_fetch", "arguments": {"urls": [simweb.url(path)]}}
    lines = [
        json.dumps(INITIALIZE),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}),
    ]
    return "\n".join(lines) + "\n"


def test_a_call_asked_before_the_client_closes_stdin_is_answered(tmp_path: Path, simweb: SimWeb) -> None:
    """`printf '...' | webferret mcp`: the SDK cancelled every call still running when stdin ended,
    so a call was answered only when it happened to finish first (a fetch of a slow page never)."""
    process = _server(tmp_path, WEBFERRET_ALLOW_PRIVATE_HOSTS="true")
    out, _ = process.communicate(_slow_fetch(simweb, "/mcp-slow"), timeout=60)  # stdin closed after it
    answers = {answer["id"]: answer for answer in map(json.loads, out.splitlines())}
    assert "Ferrets nap often." in json.dumps(answers[2]["result"])
    assert process.returncode == 0


def test_a_client_gone_before_its_answer_ends_the_server_quietly(tmp_path: Path, simweb: SimWeb) -> None:
    """A client that closed its reading end (it quit) before a call's answer: the server said
    `error: internal: ExceptionGroup: unhandled errors in a TaskGroup` and exited 1."""
    process = _server(tmp_path, WEBFERRET_ALLOW_PRIVATE_HOSTS="true")
    assert process.stdin is not None and process.stdout is not None and process.stderr is not None
    process.stdout.close()  # gone before any answer
    process.stdin.write(_slow_fetch(simweb, "/mcp-gone"))
    process.stdin.close()
    said = process.stderr.read()
    assert process.wait(timeout=60) == 0 and "error" not in said, said


def test_a_new_home_lists_no_stored_page_rather_than_failing(tmp_path: Path) -> None:
    """Over stdio, a server on a home with no store yet answered `web_open()` (the pages stored last)
    `not_found: no page store at PATH; nothing was fetched with this home (setting home)`, a tool
    error naming a setting the agent cannot change; `mcp --http` made the store at start and listed
    none. Both make it at start now."""
    home = tmp_path / "new-home"
    listing = {"name": "web_open", "arguments": {}}
    lines = [
        json.dumps(INITIALIZE),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": listing}),
    ]
    answers = _answers(home, lines, 2)
    result = answers[1]["result"]
    assert not result["isError"], result
    assert result["structuredContent"] == {"ok": True, "site": None, "total": 0, "pages": []}


def test_a_home_that_can_hold_no_store_ends_the_stdio_server_at_start(tmp_path: Path) -> None:
    """Over stdio, a home under a file was found out by each call in turn, each a tool error for the
    server's own setting; the server now exits 2 at start naming it (as `mcp --http` does)."""
    (tmp_path / "file").write_text("not a folder")
    home = tmp_path / "file" / "home"
    process = _server(home)
    out, err = process.communicate(json.dumps(INITIALIZE) + "\n", timeout=120)
    assert process.returncode == 2, err
    assert f"cannot open the page store at {home}" in err and "is a file, not a folder" in err
    assert out == ""  # no JSON-RPC answer, nor anything else, on stdout


def test_a_line_nested_past_pythons_depth_is_answered_and_the_server_goes_on(tmp_path: Path) -> None:
    """A line of arrays nested 100,000 deep: reading it again for its id raised RecursionError, and
    the server ended (`error: internal: ExceptionGroup`), every call of its client with it."""
    lines = [
        json.dumps(INITIALIZE),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        "[" * 100_000 + "]" * 100_000,
        '{"jsonrpc":"2.0","id":3,"method":"ping"}',
    ]
    answers = _answers(tmp_path, lines, 3)
    assert answers[1]["id"] is None and answers[1]["error"]["code"] == -32700
    assert answers[2] == {"jsonrpc": "2.0", "id": 3, "result": {}}


def test_params_the_sdk_refuses_are_answered_with_what_is_wrong(tmp_path: Path) -> None:
    """The SDK answered a call before `initialize`, a `tools/call` whose `arguments` is a string (a
    host that sends them JSON-encoded) and one without `name` alike: -32602 `Invalid request
    parameters`, naming neither the field nor the missing handshake."""
    early = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "web_open"}}
    process = _server(tmp_path)
    try:
        out, _ = process.communicate(json.dumps(early) + "\n", timeout=120)  # answered before stdin ends
    finally:
        process.kill()
    (before,) = map(json.loads, out.splitlines())
    assert before["id"] == 1 and before["error"]["code"] == -32602
    assert before["error"]["message"].startswith(
        "tools/call before initialize: the session is not initialized"
    )
    encoded = {"name": "web_fetch", "arguments": json.dumps({"urls": ["https://example.org/"]})}
    lines = [
        json.dumps(INITIALIZE),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": encoded}),
        '{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"arguments":{}}}',
    ]
    answers = {answer["id"]: answer for answer in _answers(tmp_path, lines, 3)}
    errors = {ident: answers[ident]["error"] for ident in (2, 3)}
    assert {error["code"] for error in errors.values()} == {-32602}
    assert errors[2]["message"] == (
        "Invalid params of tools/call: params.arguments: expected a JSON object, not a string"
    )
    assert errors[3]["message"] == "Invalid params of tools/call: params.name: Field required"


def test_a_blank_line_is_no_message_and_gets_no_answer(tmp_path: Path) -> None:
    """A blank line (a keep-alive, two line ends in a row) was answered as a parse error of nothing,
    `EOF while parsing a value at line 2 column 0`, an error with no id for the client to place."""
    lines = [json.dumps(INITIALIZE), "", "  \t\r", '{"jsonrpc":"2.0","id":3,"method":"ping"}', "garbage{"]
    answers = _answers(tmp_path, lines, 3)  # (the line of text is answered at once, maybe before the ping)
    assert {"jsonrpc": "2.0", "id": 3, "result": {}} in answers
    (refused,) = [answer["error"] for answer in answers if answer.get("id") is None]  # the blank ones: none
    assert refused["code"] == -32700 and "expected value at line 1 column 1" in refused["message"]


def test_a_call_cancelled_by_its_id_as_a_string_holds_the_end_of_stdin_no_longer(
    tmp_path: Path, simweb: SimWeb
) -> None:
    """The SDK matches `"requestId": "2"` to request 2 and cancels it (no answer comes), but the
    server kept waiting for that answer once stdin ended: it went on for a call's budget (here ten
    minutes) and `MARGIN` before exiting."""
    simweb.add("/mcp-never", body="<html><body><p>Late.</p></body></html>", delay=60)
    call = {"name": "web_fetch", "arguments": {"urls": [simweb.url("/mcp-never")]}}
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "2"}}
    process = _server(tmp_path, WEBFERRET_ALLOW_PRIVATE_HOSTS="true", WEBFERRET_BUDGET="600")
    assert process.stdin is not None and process.stdout is not None
    process.stdin.write(json.dumps(INITIALIZE) + "\n")
    process.stdin.write('{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    process.stdin.write(
        json.dumps({"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": call}) + "\n"
    )
    process.stdin.flush()
    assert "capabilities" in json.loads(process.stdout.readline())["result"]
    assert wait_for(lambda: simweb.served("/mcp-never") > 0, 30)  # the call is running
    try:
        out, _ = process.communicate(json.dumps(cancel) + "\n", timeout=60)  # then stdin ends
    finally:
        process.kill()
    assert process.returncode == 0 and out == ""  # the cancelled call is not answered


def test_params_that_are_no_object_where_one_is_expected_are_said_so_in_jsons_words(tmp_path: Path) -> None:
    """`_meta`, `clientInfo` or `capabilities` given as a string or an array was refused naming the
    SDK's class of it ('a valid dictionary or instance of Implementation'), which the client has not."""
    initialize = {**INITIALIZE, "params": {**INITIALIZE["params"], "clientInfo": "t", "capabilities": None}}
    lines = [
        json.dumps(initialize),
        json.dumps({**INITIALIZE, "id": 2}),
        '{"jsonrpc":"2.0","method":"notifications/initialized"}',
        '{"jsonrpc":"2.0","id":3,"method":"ping","params":{"_meta":[1]}}',
    ]
    answers = {answer["id"]: answer for answer in _answers(tmp_path, lines, 3)}
    assert answers[1]["error"]["message"] == (
        "Invalid params of initialize: params.capabilities: expected a JSON object, not null; "
        "params.clientInfo: expected a JSON object, not a string"
    )
    assert "capabilities" in answers[2]["result"]
    assert answers[3]["error"] == {
        "code": -32602,
        "message": "Invalid params of ping: params._meta: expected a JSON object, not an array",
    }
