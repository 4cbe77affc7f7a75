"""The client half of `webferret serve`: hand this call to a warm resident process, or say it cannot.

Runs before any heavy import, so it uses the standard library only, and no more of it than the
hand-off needs (not even `typing`: a client's start is on every served call's clock). A call is handed
off when the setting `serve` (env `WEBFERRET_SERVE`, else the TOML file) is not `off`, the socket's
folder belongs to this user and no one else may enter it, the server runs as this user, and it runs
the same installed webferret (`fingerprint()`). Then the server's forked child gets this process's
argv, environment, cwd, umask and its stdin/stdout/stderr, runs the call, and reports the exit code;
this process forwards Ctrl-C and SIGTERM to that child meanwhile (and stops it with itself on
Ctrl-Z). Anything else returns None before the call started, and the caller runs it in-process as if
no server existed. With `serve = start`,
a call that finds no server also starts one in the background (`spawn_server`, as `webferret serve
--detach` does) for the calls after it.

Wire format: one JSON line each way per message; the request carries fds 0-2 (SCM_RIGHTS). Server
answers: `{"pid": N}` (the call runs), then `{"exit": CODE}` (optionally with `"signal": N` when the
child was killed); or `{"refused": WHY}` / `{"pong": FINGERPRINT}`.

The client speaks it through the C halves of the standard library's `socket`, `json` and `signal`
(`_socket`, `_json`, `_signal`): their Python halves import `re`, `enum` and `selectors`. Importing
`webferret.launch` and this module takes about 3.5 ms, against 10.8 ms with them (and `contextlib`,
`struct`): 7 ms off every served call's start. The server's sockets (`socket.socket`) are
`_socket.socket`s, so it uses the same `send_line` and `peer_uid`.
"""

from __future__ import annotations

import _signal
import _socket
import os
import stat
import sys
import time

from webferret.anycase import env_value
from webferret.xdg import xdg_dir

TYPE_CHECKING = False  # as `typing.TYPE_CHECKING`, without importing `typing` (about 7 ms)
if TYPE_CHECKING:
    import subprocess
    from collections.abc import Callable, Mapping
    from typing import Any

HANDOFF_COMMANDS = frozenset({"fetch", "search", "crawl", "map", "open", "find", "extract"})
REPLY_TIMEOUT = 10.0
"""Seconds to wait for a server's first answer (it only forks and replies) before running in-process."""


def fingerprint() -> str:
    """webferret's version, its environment, where it is installed and the newest mtime of its files:
    a server made from other files than this client's (an upgrade, an edit) is not used."""
    from webferret import __version__

    package = os.path.dirname(os.path.abspath(__file__))
    newest = 0
    stack = [package]
    while stack:
        with os.scandir(stack.pop()) as entries:
            for entry in entries:
                if entry.is_dir(follow_symlinks=False):
                    if entry.name != "__pycache__":
                        stack.append(entry.path)
                else:
                    newest = max(newest, entry.stat(follow_symlinks=False).st_mtime_ns)
    return f"{__version__}:{sys.prefix}:{package}:{newest}"


def default_socket() -> str:
    """`$XDG_RUNTIME_DIR/webferret/serve.sock`, else `/tmp/webferret-<uid>/serve.sock`."""
    runtime = xdg_dir("XDG_RUNTIME_DIR", None)
    folder = os.path.join(runtime, "webferret") if runtime else f"/tmp/webferret-{os.getuid()}"
    return os.path.join(folder, "serve.sock")


def serve_setting(env: Mapping[str, str]) -> str:
    """The setting `serve` as the environment, else the TOML settings file, gives it (default auto)."""
    try:
        value, named = env_value(env, "WEBFERRET_SERVE"), env_value(env, "WEBFERRET_CONFIG")
    except ValueError:
        return "off"  # the in-process run reports the variable set twice
    if value is not None:
        return serve_word(value)
    config = os.path.expanduser(named or "") or os.path.join(
        xdg_dir("XDG_CONFIG_HOME", "~/.config", env) or "",
        "webferret",
        "config.toml",
    )
    if not os.path.isfile(config):
        return "auto"
    from webferret.tomlfile import read_toml

    try:
        found = read_toml(config).get("serve", "auto")
    except (OSError, ValueError):
        return "off"  # the in-process run reports the broken file
    return serve_word(found) if isinstance(found, str) else "off"


SERVE_WORDS = ("auto", "start", "off")


def serve_word(value: str) -> str:
    """The setting `serve` as written (`" Off "`, `START`): without spaces around it, a keyword of
    `SERVE_WORDS` in lower case (a socket's path as it is)."""
    value = value.strip()
    return value.lower() if value.lower() in SERVE_WORDS else value


def configured_socket(env: Mapping[str, str]) -> str | None:
    """The socket a call is handed to: None for `off` (or a value in-process settings refuse)."""
    return _socket_for(serve_setting(env))


def _socket_for(value: str) -> str | None:
    if value in ("auto", "start"):
        return default_socket()
    return value if os.path.isabs(value) else None


def socket_folder_problem(folder: str) -> str | None:
    """Make the socket's folder (mode 0700; not its parents) if it is missing; why it cannot hold
    the socket, or None."""
    try:
        os.mkdir(folder, 0o700)
    except FileExistsError:
        pass
    except OSError as exc:  # its own folder missing, or not ours to write in
        return f"cannot make the socket folder {folder}: {exc.strerror}"
    problem = private_folder_problem(folder)
    return f"refusing socket folder: {problem}" if problem else None


def server_log(path: str) -> str:
    """Where a server started in the background on socket `path` writes its stderr: beside it."""
    return os.path.join(os.path.dirname(path), "serve.log")


def spawn_server(path: str, idle_timeout: float | None = None) -> subprocess.Popen[bytes]:
    """Start `webferret serve` on `path` in the background (its own session, stdin and stdout on
    /dev/null, stderr appended to `server_log(path)`); the `subprocess.Popen`. The caller
    has made and checked the folder (`socket_folder_problem`)."""
    import subprocess

    argv = [sys.executable, "-m", "webferret", "serve", "--socket", path]
    if idle_timeout is not None:
        argv += ["--idle-timeout", f"{idle_timeout:g}"]
    with open(server_log(path), "ab") as log:
        return subprocess.Popen(
            argv, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=log, start_new_session=True
        )


START_GRACE = 30.0
"""Seconds after a call started a server (setting `serve = start`) in which no other call starts one:
it may still be warming up (it listens once warm, so a call made meanwhile runs in its own process)."""


def _start_server(path: str) -> None:
    """`serve = start` and no server answers on `path`: start one for the calls after this one,
    unless its folder is not private or another call started one moments ago."""
    folder = os.path.dirname(path)
    if socket_folder_problem(folder):
        return  # `webferret serve --detach` says why
    marker = os.path.join(folder, "serve.starting")
    try:
        if time.time() - os.stat(marker).st_mtime < START_GRACE:
            return
    except OSError:
        pass
    try:
        os.close(os.open(marker, os.O_WRONLY | os.O_CREAT, 0o600))
        os.utime(marker)
        spawn_server(path)
    except OSError:
        pass  # this call runs in-process all the same


def private_folder_problem(folder: str) -> str | None:
    """Why `folder` must not hold the socket (not this user's, or others may enter it), or None."""
    try:
        info = os.lstat(folder)
    except OSError as exc:
        return f"cannot inspect {folder}: {exc.strerror}"
    if not stat.S_ISDIR(info.st_mode):
        return f"{folder} is not a directory"
    if info.st_uid != os.getuid():
        return f"{folder} belongs to uid {info.st_uid}, not to this user (uid {os.getuid()})"
    if info.st_mode & 0o077:
        return f"{folder} is accessible to other users (mode {stat.S_IMODE(info.st_mode):o}; want 700)"
    return None


def peer_creds(sock: _socket.socket) -> tuple[int, int, int]:
    """The pid, uid and gid of the process at the other end of a Unix socket (SO_PEERCRED): for a
    client, the process that listens (a server's forked children answer on its connections)."""
    creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, 12)
    pid, uid, gid = (int.from_bytes(creds[n : n + 4], sys.byteorder, signed=True) for n in (0, 4, 8))
    return pid, uid, gid


def peer_uid(sock: _socket.socket) -> int:
    """The uid of the process at the other end of a Unix socket."""
    return peer_creds(sock)[1]


def _json_codec() -> tuple[Callable[[Any], str], Callable[[str], Any]]:
    """`dumps` and `loads` as `json`'s (compact separators aside), from its C accelerator: `json`
    itself imports `re` (about 4 ms in all). Another Python without `_json` gets `json`."""
    try:
        from _json import encode_basestring_ascii, make_encoder, make_scanner
    except ImportError:
        import json

        return json.dumps, json.loads

    class Options:  # what the scanner reads off a `json.JSONDecoder`
        strict = True
        object_hook = object_pairs_hook = parse_constant = None
        parse_float, parse_int = float, int

    # markers, default, string encoder, indent, separators, sort_keys, skipkeys, allow_nan
    encode = make_encoder(None, None, encode_basestring_ascii, None, ":", ",", False, False, True)
    scan = make_scanner(Options)

    def dumps(value: Any) -> str:
        return "".join(encode(value, 0))

    def loads(text: str) -> Any:
        text = text.strip()
        try:
            value, end = scan(text, 0)
        except StopIteration as stop:  # the scanner's "no value at this index"
            raise ValueError(f"not JSON at character {stop.value}") from None
        if end != len(text):
            raise ValueError(f"extra data after the JSON value at character {end}")
        return value

    return dumps, loads


dumps, loads = _json_codec()


def send_line(sock: _socket.socket, message: dict[str, Any], fds: list[int] | None = None) -> None:
    data = (dumps(message) + "\n").encode()
    sent = 0
    if fds:
        rights = b"".join(fd.to_bytes(4, sys.byteorder) for fd in fds)
        sent = sock.sendmsg([data], [(_socket.SOL_SOCKET, _socket.SCM_RIGHTS, rights)])
    sock.sendall(data[sent:])


class LineReader:
    """The messages a socket receives, one JSON line each (`socket.makefile` needs `socket`)."""

    def __init__(self, sock: _socket.socket) -> None:
        self.sock = sock
        self.pending = b""

    def message(self) -> dict[str, Any] | None:
        """The next message; None when the peer closed first. Raises OSError, or ValueError for a
        line that is not a JSON object."""
        while b"\n" not in self.pending:
            chunk = self.sock.recv(65536)
            if not chunk:
                return None
            self.pending += chunk
        line, self.pending = self.pending.split(b"\n", 1)
        found = loads(line.decode())
        if not isinstance(found, dict):
            raise ValueError("a message is a JSON object")
        return found


def connect(path: str) -> _socket.socket | None:
    """A connection to a server of this user on `path` in a private folder, or None (also for a
    server that is stopped, by Ctrl-Z or SIGSTOP: the kernel queues the connection, and the call
    would wait `REPLY_TIMEOUT` for an answer that cannot come)."""
    reached = _reach(path)
    if reached is None:
        return None
    sock, pid = reached
    if _stopped(pid):
        sock.close()
        return None
    return sock


def stopped_server(path: str) -> int | None:
    """The pid of the server of this user on `path` when it is stopped (Ctrl-Z or SIGSTOP: it
    answers nothing, and `connect` passes it by), else None."""
    reached = _reach(path)
    if reached is None:
        return None
    sock, pid = reached
    sock.close()
    return pid if _stopped(pid) else None


def _reach(path: str) -> tuple[_socket.socket, int] | None:
    """A connection to the server of this user on `path` in a private folder, and the pid of the
    process that listens there (`SO_PEERCRED`), or None."""
    if private_folder_problem(os.path.dirname(path) or "."):
        return None
    sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
    try:
        sock.settimeout(REPLY_TIMEOUT)
        sock.connect(path)
        pid, uid, _ = peer_creds(sock)
        if uid == os.getuid():
            return sock, pid
    except OSError:
        pass
    sock.close()
    return None


def _stopped(pid: int) -> bool:
    """Whether process `pid` is stopped (its state in /proc is T, or t when traced); False where
    /proc cannot tell."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as handle:
            state = handle.read().rsplit(b")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state in (b"T", b"t")


def ping(path: str) -> bool:
    """A server of this user answers on `path` and runs the same installed webferret as this process."""
    mine = fingerprint()
    found = server_answer(path, mine)
    return found is not None and found[1].get("pong") == mine


def server_answer(path: str, mine: str) -> tuple[int, dict[str, Any]] | None:
    """The pid of the server of this user listening on `path` and what it answers a ping from a
    client of fingerprint `mine` (`pong`, or `refused` by a server of other files); None when none
    answers."""
    sock = connect(path)
    if sock is None:
        return None
    try:
        pid = peer_creds(sock)[0]
        send_line(sock, {"fingerprint": mine, "ping": True})
        return pid, LineReader(sock).message() or {}
    except (OSError, ValueError):
        return None
    finally:
        sock.close()


def handoff(argv: list[str]) -> int | None:
    """Run `webferret ARGV` in a server's warm child: its exit code, or None (run it in-process)."""
    if not argv or argv[0] not in HANDOFF_COMMANDS or "-h" in argv or "--help" in argv:
        return None
    setting = serve_setting(os.environ)
    path = _socket_for(setting)
    if path is None or not _stdio_open():
        return None
    sock = connect(path)
    if sock is None:
        if setting == "start":
            _start_server(path)
        return None
    try:
        reader = LineReader(sock)
        try:
            send_line(sock, _request(argv), [0, 1, 2])
            first = reader.message() or {}
        except (OSError, ValueError):
            return None
        if not isinstance(first.get("pid"), int):
            return None  # refused (another version) or no answer: nothing ran
        sock.settimeout(None)
        return _relay(reader, first["pid"])
    finally:
        sock.close()


def _stdio_open() -> bool:
    try:
        for fd in (0, 1, 2):
            os.fstat(fd)
    except OSError:
        return False
    return True


def _request(argv: list[str]) -> dict[str, Any]:
    mask = os.umask(0o022)
    os.umask(mask)
    return {
        "fingerprint": fingerprint(),
        "argv": argv,
        "env": dict(os.environ),
        "cwd": os.getcwd(),
        "umask": mask,
    }


def _relay(reader: LineReader, pid: int) -> int:
    """Forward Ctrl-C/SIGTERM/SIGHUP to the child until its exit code arrives, and stop and continue
    it with this process (Ctrl-Z): those signals this process does not ignore (`nohup`, a script's
    background job ignoring Ctrl-C), as the call in-process would not end by one it ignores."""

    forwarded: set[int] = set()

    def forward(signum: int, _frame: object) -> None:
        forwarded.add(signum)
        try:  # noqa: SIM105 - `contextlib` imports `collections` and `functools`, about 2 ms
            os.kill(pid, signum)
        except OSError:
            pass

    def suspend(_signum: int, _frame: object) -> None:
        """Ctrl-Z (SIGTSTP): the call stops with this process, and goes on when it does, as the same
        call in its own process would; the child, in a session of its own, gets no SIGTSTP from the
        terminal (nor would heed one: its group is orphaned), so it is stopped, its workers with it."""
        signal_call(pid, _signal.SIGSTOP)
        _signal.signal(_signal.SIGTSTP, _signal.SIG_DFL)
        os.kill(os.getpid(), _signal.SIGTSTP)  # stops here until SIGCONT
        _signal.signal(_signal.SIGTSTP, suspend)
        signal_call(pid, _signal.SIGCONT)

    for signum in (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP):
        if _signal.getsignal(signum) != _signal.SIG_IGN:
            _signal.signal(signum, forward)
    if _signal.getsignal(_signal.SIGTSTP) != _signal.SIG_IGN:
        _signal.signal(_signal.SIGTSTP, suspend)
    while True:
        try:
            message = reader.message()
        except (OSError, ValueError):
            message = None
        if message is None:
            sys.stderr.write("webferret: error: internal: the webferret serve process ended the call\n")
            return 1
        if "exit" in message:
            ended_by = message.get("signal")
            if ended_by and ended_by in forwarded:  # the signal this process got: it ends by it too,
                _signal.signal(ended_by, _signal.SIG_DFL)  # as the same call without a server would
                os.kill(os.getpid(), ended_by)
            if ended_by:
                name = _signal_name(ended_by)
                sys.stderr.write(f"webferret: error: internal: the call's process was ended by {name}\n")
            return int(message["exit"])


def signal_call(pid: int, signum: int) -> None:
    """Send `signum` to the call's child and the processes it started (its group, as its session's
    leader), or to the child alone if it leads none."""
    for target in (-pid, pid):
        try:
            os.kill(target, signum)
            return
        except OSError:
            pass


def _signal_name(number: int) -> str:
    import signal

    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"
