"""The served call's wire format as the light client writes and reads it (`webferret.handoff`):
the same JSON lines `json` writes and reads, from the C accelerator `_json`."""

from __future__ import annotations

import json
import os
import socket

import pytest

from webferret.handoff import LineReader, dumps, loads, peer_uid, send_line

ODD = {
    "argv": ["search", "café ☕", 'quote " and \\ backslash', "tab\tnew\nline"],
    "env": {"UNDECODABLE": "a\udcff", "EMPTY": ""},
    "cwd": "/tmp/ü",
    "umask": 18,
    "flags": [True, False, None],
    "nested": {"signal": -15, "float": 0.5},
}


def test_the_client_writes_what_json_reads() -> None:
    assert json.loads(dumps(ODD)) == ODD


@pytest.mark.parametrize(
    "message",
    [{"pid": 4242}, {"exit": 3, "signal": 15}, {"refused": "another version (1.0)"}, {"pong": "0.1:/x:/y:1"}],
)
def test_the_client_reads_what_json_writes(message: dict[str, object]) -> None:
    assert loads(json.dumps(message)) == message
    assert loads(json.dumps(ODD, indent=1)) == ODD


def test_a_line_with_more_than_one_value_is_refused() -> None:
    with pytest.raises(ValueError, match="extra data"):
        loads('{"exit": 0} {"exit": 1}')
    with pytest.raises(ValueError):
        loads('{"exit": ')


def test_messages_are_read_across_and_within_chunks() -> None:
    left, right = socket.socketpair()
    with left, right:
        reader = LineReader(right)
        first = (json.dumps({"pid": 7}) + "\n").encode()
        left.sendall(first[:3])
        left.sendall(first[3:] + b'{"exit": 2}\n{"ex')
        assert reader.message() == {"pid": 7}
        assert reader.message() == {"exit": 2}
        left.sendall(b'it": 5}\n[1]\n')
        assert reader.message() == {"exit": 5}
        with pytest.raises(ValueError, match="JSON object"):
            reader.message()
        left.shutdown(socket.SHUT_WR)
        assert reader.message() is None


def test_a_line_carries_descriptors_and_the_peer_is_this_user() -> None:
    left, right = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    read_end, write_end = os.pipe()
    with left, right:
        send_line(left, {"argv": ["fetch"]}, [write_end])
        data, fds, _flags, _address = socket.recv_fds(right, 1024, 4)
        assert json.loads(data) == {"argv": ["fetch"]}
        assert len(fds) == 1
        os.write(fds[0], b"through the passed descriptor")
        assert os.read(read_end, 100) == b"through the passed descriptor"
        for fd in (*fds, read_end, write_end):
            os.close(fd)
        assert peer_uid(right) == os.getuid()
