"""Run the benchmark inside a private network namespace, so nothing it does can leave the machine.

`unshare --net --mount` gives the process its own network stack (only a loopback interface) and its
own mount table, where a bind-mounted /etc/hosts names the simulated sites without touching the
machine's real /etc/hosts.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import NoReturn

MARK = "WEBFERRET_BENCH_NETNS"
BASE_HOSTS = "127.0.0.1 localhost\n::1 localhost\n"


def in_netns() -> bool:
    return os.environ.get(MARK) == "1"


def unavailable() -> str | None:
    """Why this process cannot make a private network namespace (`unshare --net` needs root), or None."""
    try:
        probe = subprocess.run(["unshare", "--net", "--mount", "true"], capture_output=True, text=True)
    except OSError as exc:
        return f"unshare cannot run: {exc}"
    return None if probe.returncode == 0 else probe.stderr.strip() or f"unshare exited {probe.returncode}"


def reexec_in_netns(argv: list[str]) -> NoReturn:
    """Replace this process by `python -m bench ARGV` inside a fresh network and mount namespace."""
    env = {**os.environ, MARK: "1"}
    command = ["unshare", "--net", "--mount", "--propagation", "private", "--", sys.executable, "-m", "bench"]
    os.execvpe("unshare", [*command, *argv], env)


def bring_up_loopback() -> None:
    """Bring `lo` up and check it is the only interface: the namespace cannot reach any network."""
    subprocess.run(["ip", "link", "set", "lo", "up"], check=True)
    links = subprocess.run(["ip", "-o", "link"], check=True, capture_output=True, text=True).stdout
    names = [line.split(":")[1].strip().split("@")[0] for line in links.splitlines() if ":" in line]
    if names != ["lo"]:
        sys.exit(f"bench: refusing to run, the namespace has interfaces other than lo: {names}")


def install_hosts(pairs: list[list[str]]) -> Path:
    """Bind-mount a hosts file naming the simulated sites over /etc/hosts (inside the namespace only)."""
    if not in_netns():
        raise RuntimeError("install_hosts only runs inside the private namespace")
    lines = BASE_HOSTS + "".join(f"{ip} {name}\n" for ip, name in pairs)
    handle = tempfile.NamedTemporaryFile("w", prefix="simweb-hosts-", delete=False)  # noqa: SIM115
    with handle:
        handle.write(lines)
    subprocess.run(["mount", "--bind", handle.name, "/etc/hosts"], check=True)
    return Path(handle.name)
