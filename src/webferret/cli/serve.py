"""`webferret serve`: a warm parent that forks one child per CLI call (a "zygote").

The parent imports what a call needs and loads its data (models, stoplists, CA stores) but starts no
thread and no event loop, so a fork of it is as safe as a fresh process. It listens on a Unix socket
in a folder only this user may enter, accepts only peers of its own uid, and hands each connection
to a child (see `webferret.cli.served`) that takes over the client's stdio, environment, cwd and
umask and runs `webferret.cli.main(argv)`. The parent reaps children without blocking and ends after
`idle_timeout` seconds without a call (0: never), or on SIGINT/SIGTERM.

While no call runs, the next call's child is forked ahead (the spare): it forks its extraction
workers and waits for its connection, so neither fork is on a call's clock (9-10 ms of a served
search's start on a 2-core VM). A call that finds no spare (another call runs) gets a child forked
then, as before.
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import signal
import socket
import stat
import sys
import time
from types import FrameType

from webferret.blas import single_threaded
from webferret.cli.served import CLIENT_LEFT, fork_child
from webferret.cli.warm import freeze_heap, import_call_modules
from webferret.handoff import fingerprint, peer_uid, ping, signal_call, socket_folder_problem

CHECK_SECONDS = 5.0  # how often an idle server looks whether its socket path is still its own


class ServeError(Exception):
    """The server cannot start: the message names the socket or folder and what is wrong."""


def warm_up() -> None:
    """Import and load everything a call needs, starting no thread (children must fork safely;
    `Server` checks there is none, native ones included)."""
    sys.modules.setdefault("httpx._main", None)  # type: ignore[arg-type]  # as `webferret.cli.main`
    single_threaded(force=True)  # numpy's OpenBLAS would start a thread pool at import (`webferret.blas`)
    from webferret.cli import build_parser_ahead

    build_parser_ahead()  # every command module imported; each child forked later pops its own copy
    import_call_modules(("numpy.ma", "webferret.extract.main_content"))  # a child extracts in-process
    from webferret.extract.pool import prepare_extractor
    from webferret.net.tls import prepare_tls
    from webferret.search.engines import registry

    prepare_extractor()
    prepare_tls(engines=True)
    registry()
    from webferret.config import load_settings

    with contextlib.suppress(Exception):  # the server's own settings are not used; a call checks its own
        load_settings()  # pydantic-settings builds its per-class state on first use (1 ms of each call)
    freeze_heap()  # a child's collections skip what is here: its pages stay shared, not copied


def listen(path: str) -> socket.socket:
    """A socket bound at `path`, its folder made 0700 if missing and refused if others may enter
    it. A socket nobody answers on, or a stale server's, is replaced; a live one is not, nor anything
    that is not a socket. It listens once the server has warmed up (`Server.run`): until then a
    client's connection is refused at once and the client runs its call in its own process, rather
    than wait for the warm-up."""
    problem = socket_folder_problem(os.path.dirname(os.path.abspath(path)))
    if problem:
        raise ServeError(problem)
    if os.path.lexists(path):
        if not stat.S_ISSOCK(os.lstat(path).st_mode):  # a file of the user's: never removed
            raise ServeError(f"{path} exists and is not a socket: refusing to replace it")
        if ping(path):
            raise ServeError(f"a server already answers on {path}")
        os.unlink(path)  # nobody answers, or a server of another webferret: this one takes over
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        listener.bind(path)
    except OSError as exc:  # a path too long for a socket, say
        listener.close()
        raise ServeError(f"cannot listen on {path}: {exc.strerror or exc}") from None
    os.chmod(path, 0o600)
    return listener


class Server:
    """The accept loop: one child per connection (the spare forked ahead, else one forked then),
    reaped as they end, ended (`CLIENT_LEFT`) when its client goes away without waiting for it."""

    def __init__(self, path: str, idle_timeout: float) -> None:
        self.path = path
        self.idle_timeout = idle_timeout
        self.fingerprint = fingerprint()
        self.children: dict[int, socket.socket] = {}  # pid -> its client's connection
        self.callers: dict[int, int] = {}  # connection fd -> pid, while the client is connected
        self.poller = select.poll()
        self.last_call = time.monotonic()
        self.inode = 0  # its socket's, once it listens
        self.spare: tuple[int, socket.socket] | None = None  # a child forked ahead: pid, its socket
        self.stopping = False  # SIGINT or SIGTERM came

    def run(self) -> None:
        """Listen (refusing a bad folder before the slow part), warm up, then serve until stopped."""
        listener = listen(self.path)
        self.inode = os.stat(self.path).st_ino
        wake_r, wake_w = os.pipe()
        try:
            warm_up()
            threads = len(os.listdir("/proc/self/task"))
            if threads != 1:
                raise ServeError(f"warming up started {threads - 1} thread(s); forking would not be safe")
            listener.listen(64)
            self._serve(listener, wake_r, wake_w)
        except KeyboardInterrupt:  # Ctrl-C while it warms up
            pass
        finally:
            listener.close()
            os.close(wake_r)
            os.close(wake_w)
            with contextlib.suppress(OSError):
                if not self._replaced():  # still ours, not a later server's
                    os.unlink(self.path)
            for conn in self.children.values():
                conn.close()
            self._end_spare()

    def _serve(self, listener: socket.socket, wake_r: int, wake_w: int) -> None:
        for fd in (wake_r, wake_w):
            os.set_blocking(fd, False)
        signal.set_wakeup_fd(wake_w)
        signal.signal(signal.SIGCHLD, lambda *_: None)  # wakes `select` through the wakeup fd
        signal.signal(signal.SIGTERM, self._stop)
        signal.signal(signal.SIGINT, self._stop)
        idle = f"idle timeout {self.idle_timeout:g} s" if self.idle_timeout else "no idle timeout"
        sys.stderr.write(f"webferret serve: listening on {self.path} ({idle})\n")
        sys.stderr.flush()
        self.last_call = time.monotonic()
        try:
            self._loop(listener, wake_r, [listener.fileno(), wake_r, wake_w])
        finally:
            signal.set_wakeup_fd(-1)
            signal.signal(signal.SIGCHLD, signal.SIG_DFL)

    def _stop(self, _signum: int, _frame: FrameType | None) -> None:
        """SIGINT/SIGTERM: the loop ends at its next turn (the wakeup fd wakes its `poll`). A flag, not
        an exception: a handler runs wherever the signal finds the process, such as in a fork's
        at-fork hooks, where an exception is printed and dropped (the stop would be lost)."""
        self.stopping = True

    def _loop(self, listener: socket.socket, wake_r: int, inherited: list[int]) -> None:
        self.poller.register(listener, select.POLLIN)
        self.poller.register(wake_r, select.POLLIN)
        while not self.stopping:
            if self.spare is None and not self.callers:  # a child whose client left only tidies up
                self._fork_spare(inherited)
            wait = self._wait()
            events = self.poller.poll(None if wait is None else wait * 1000)
            with contextlib.suppress(BlockingIOError):
                while os.read(wake_r, 512):
                    pass
            if self.stopping:
                return
            for fd, _ in events:
                if fd == listener.fileno():
                    self._accept(listener, inherited)
                elif fd in self.callers:
                    self._caller_left(fd)
            self._reap()
            if self._idle_over() or (self._replaced() and not self.children):
                return

    def _replaced(self) -> bool:
        """Whether the socket path no longer names this server's socket (a newer server took it, or it
        was removed): no client can reach this one, so it ends once its calls have."""
        try:
            return os.stat(self.path).st_ino != self.inode
        except OSError:
            return True

    def _caller_left(self, fd: int) -> None:
        """A client closed its end (it ended, even by SIGKILL): its call's child ends too, and goes on
        to end if it was stopped with its client (Ctrl-Z, then the stopped job killed)."""
        pid = self.callers.pop(fd)
        self.poller.unregister(fd)
        with contextlib.suppress(OSError):
            os.kill(pid, CLIENT_LEFT)
        signal_call(pid, signal.SIGCONT)

    def _wait(self) -> float | None:
        """Seconds to wait for an event: until the idle timeout, and at most `CHECK_SECONDS` (to see
        whether the socket was taken over)."""
        if self.children or not self.idle_timeout:
            return CHECK_SECONDS
        return max(0.0, min(self.last_call + self.idle_timeout - time.monotonic(), CHECK_SECONDS))

    def _idle_over(self) -> bool:
        if not self.idle_timeout or self.children:
            return False
        return time.monotonic() >= self.last_call + self.idle_timeout

    def _accept(self, listener: socket.socket, inherited: list[int]) -> None:
        try:
            conn, _ = listener.accept()
        except OSError:
            return
        try:
            if peer_uid(conn) != os.getuid():
                conn.close()
                return
            pid = self._hand_to_spare(conn) or fork_child()
        except OSError:  # no fork now (out of processes or memory): the client runs in-process
            conn.close()
            return
        if pid == 0:
            from webferret.cli.served import run_child

            run_child(conn, [*inherited, *self._connections()], self.fingerprint)  # never returns
        self.children[pid] = conn
        self.callers[conn.fileno()] = pid
        self.poller.register(conn, select.POLLRDHUP)  # the client closed its end
        self.last_call = time.monotonic()

    def _fork_spare(self, inherited: list[int]) -> None:
        """Fork the next call's child now, while no call runs: it forks its extraction workers
        and waits for a connection (`webferret.cli.served.run_spare`)."""
        mine, its = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        try:
            pid = fork_child()
        except OSError:
            mine.close()
            its.close()
            return
        if pid == 0:
            from webferret.cli.served import run_spare

            closed = [*inherited, mine.fileno(), *self._connections()]
            run_spare(its, closed, self.fingerprint)  # never returns
        its.close()
        self.spare = (pid, mine)

    def _connections(self) -> list[int]:
        """The descriptors of the other calls' connections, which a child forked now must close: held
        by it, a call's connection stays open past that call's end (its client waits on for the end of
        a connection whose child ended without a word), as long as the child (or a spare's workers) lives."""
        return [conn.fileno() for conn in self.children.values()]

    def _hand_to_spare(self, conn: socket.socket) -> int:
        """Give `conn` to the spare child: its pid, or 0 when there is none (or it is gone)."""
        if self.spare is None:
            return 0
        pid, mine = self.spare
        self.spare = None
        with mine:
            try:
                socket.send_fds(mine, [b"c"], [conn.fileno()])
            except OSError:
                return 0
        return pid

    def _end_spare(self) -> None:
        if self.spare is not None:
            pid, mine = self.spare
            self.spare = None
            mine.close()  # it reads end of file and ends
            with contextlib.suppress(OSError):
                os.kill(pid, signal.SIGTERM)

    def _reap(self) -> None:
        while self.children or self.spare is not None:
            try:
                pid, status = os.waitpid(-1, os.WNOHANG)
            except ChildProcessError:
                return
            if pid == 0:
                return
            if self.spare is not None and pid == self.spare[0]:  # it ended before it got a call
                self.spare[1].close()
                self.spare = None
                continue
            conn = self.children.pop(pid, None)
            self.last_call = time.monotonic()
            if conn is None:
                continue
            if self.callers.pop(conn.fileno(), None) is not None:
                self.poller.unregister(conn)
            if os.WIFSIGNALED(status):  # the child could not report: tell its client
                number = os.WTERMSIG(status)
                message = json.dumps({"exit": 128 + number, "signal": number}) + "\n"
                conn.setblocking(False)
                with contextlib.suppress(OSError):
                    conn.send(message.encode())
            conn.close()


def serve(path: str, idle_timeout: float) -> int:
    """Warm up, then serve calls on `path` until idle for `idle_timeout` seconds (0: never)."""
    try:
        Server(path, idle_timeout).run()
    except ServeError as exc:
        sys.stderr.write(f"webferret: error: invalid_argument: {exc}\n")
        return 2
    except OSError as exc:
        sys.stderr.write(f"webferret: error: internal: cannot serve on {path}: {exc}\n")
        return 1
    return 0
