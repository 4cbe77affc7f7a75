"""The `webferret` program's client side stays light: a served call's client is on its clock."""

from __future__ import annotations

import os
import subprocess
import sys

import webferret
from webferret.handoff import fingerprint

HEAVY = ("typing", "argparse", "webferret.cli", "pydantic", "httpx")
STDLIB_PYTHON_HALVES = ("json", "socket", "signal", "re", "enum", "selectors", "contextlib", "struct")


def _imported_by_the_client(names: tuple[str, ...]) -> list[str]:
    """Which of `names` a process that imports the launcher and the hand-off has imported."""
    script = (
        "import sys, webferret.launch, webferret.handoff\n"
        f"print(','.join(name for name in {names!r} if name in sys.modules))\n"
    )
    found = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return [name for name in found.stdout.strip().split(",") if name]


def test_the_launcher_and_the_hand_off_import_nothing_of_the_command_line() -> None:
    assert _imported_by_the_client(HEAVY) == []


def test_the_client_uses_the_c_halves_of_socket_json_and_signal() -> None:
    assert _imported_by_the_client(STDLIB_PYTHON_HALVES) == []


def test_the_fingerprint_names_the_whole_package() -> None:
    package = os.path.dirname(os.path.abspath(webferret.__file__))
    assert f":{package}:" in fingerprint()


def test_ctrl_c_while_the_program_starts_is_said_without_a_traceback(tmp_path: object) -> None:
    """SIGINT at any moment after the program's entry began (its imports included) ends in
    `interrupted`, exit 130, and with `--json` one envelope; never a traceback. (Before the entry,
    the interpreter's own start, is Python's.) The signal is sent from inside the process, timed
    from the entry, so each delay lands where it is meant to on any machine."""
    import json

    script = (  # the timer starts inside the entry: its first step is `_closed_streams_to_devnull`
        "import os, signal, sys, threading\n"
        "import webferret.launch as launch\n"
        "sys.argv = ['webferret', 'store', 'list', '--json']\n"
        "first = launch._closed_streams_to_devnull\n"
        "def timed():\n"
        "    threading.Timer(float(os.environ['DELAY']), os.kill, (os.getpid(), signal.SIGINT)).start()\n"
        "    first()\n"
        "launch._closed_streams_to_devnull = timed\n"
        "launch.entry()\n"
    )
    env = {**os.environ, "WEBFERRET_HOME": str(tmp_path), "WEBFERRET_SERVE": "off"}
    for delay in (0.0, 0.005, 0.02, 0.05, 0.1, 0.3):
        done = subprocess.run(
            [sys.executable, "-c", script],
            env={**env, "DELAY": str(delay)},
            capture_output=True,
            text=True,
            timeout=60,
        )
        assert "Traceback" not in done.stderr, (delay, done.stderr)
        if done.returncode == 130:  # interrupted (not finished before the signal came)
            assert "interrupted" in done.stderr and json.loads(done.stdout)["meta"]["interrupted"], delay


def _ctrl_c_in_a_callback(prelude: str = "") -> subprocess.CompletedProcess[str]:
    """A script whose weakref callback raises KeyboardInterrupt under the program's hook; it says
    `interrupted` when the interrupt is raised where the code goes on (its wait is ended by it)."""
    script = prelude + (
        "import sys, time, weakref\n"
        "import webferret.launch as launch\n"
        "sys.unraisablehook = launch._quiet_interrupt\n"
        "class Thing: pass\n"
        "thing = Thing()\n"
        "def callback(_):\n"
        "    raise KeyboardInterrupt\n"
        "ref = weakref.ref(thing, callback)\n"
        "try:\n"
        "    del thing\n"
        "    time.sleep(30)\n"
        "    print('went on')\n"
        "except KeyboardInterrupt:\n"
        "    print('interrupted')\n"
    )
    return subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=60)


def test_a_ctrl_c_in_a_callback_python_cannot_raise_from_is_raised_where_the_code_goes_on() -> None:
    """A KeyboardInterrupt inside the import system's lock clean-up (a weakref callback) would print
    `Exception ignored ... Traceback`; the program's hook sends the signal again instead."""
    done = _ctrl_c_in_a_callback()
    assert done.stdout.strip() == "interrupted" and "Traceback" not in done.stderr, done.stderr


def test_the_ctrl_c_sent_again_waits_for_the_hook_to_return() -> None:
    """On a loaded machine the hook may still be starting its thread when that thread would send
    the signal: raised inside the hook, it was printed (1 run in 7 under load). Here every thread
    start is slow to return, as there."""
    prelude = (
        "import threading, time\n"
        "started = threading.Thread.start\n"
        "def slow_start(self):\n"
        "    started(self)\n"
        "    time.sleep(0.3)\n"
        "threading.Thread.start = slow_start\n"
    )
    done = _ctrl_c_in_a_callback(prelude)
    assert done.stdout.strip() == "interrupted" and "Traceback" not in done.stderr, done.stderr
