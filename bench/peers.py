"""The peers: each installed from PyPI in its own virtual environment under bench/.peers (never committed)."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

PEERS_DIR = Path(__file__).resolve().parent / ".peers"
PINS = {
    "websearch-skill": "websearch-skill==0.6.1",
    "mcp-server-fetch": "mcp-server-fetch==2026.10.24",
    "trafilatura": "trafilatura==2.3.1",
    "websift": "websift==2.0.0",
}


def peer_bin(peer: str, program: str) -> Path:
    return PEERS_DIR / peer / "bin" / program


def install_peers(names: list[str] | None = None) -> dict[str, str]:
    """Create each peer's venv with uv and install its pinned release; answers name -> 'ok' or the error."""
    uv = shutil.which("uv")
    if uv is None:
        return dict.fromkeys(PINS if names is None else names, "uv is not on PATH")
    status: dict[str, str] = {}
    for name in list(PINS) if names is None else names:
        venv = PEERS_DIR / name
        if not (venv / "bin" / "python").exists():
            subprocess.run([uv, "venv", "-q", str(venv)], check=True)
        done = subprocess.run(
            [uv, "pip", "install", "-q", "--python", str(venv / "bin" / "python"), PINS[name]],
            capture_output=True,
            text=True,
        )
        status[name] = "ok" if done.returncode == 0 else done.stderr.strip()[-400:]
        if name in FIRST_USE_SETUP and done.returncode == 0:
            status[name] = first_use_setup(venv / "bin" / "python", FIRST_USE_SETUP[name])
        compile_bytecode(venv / "bin" / "python")
    return status


FIRST_USE_SETUP = {
    # readabilipy (mcp-server-fetch's extractor) runs `npm install` for Readability.js the first time
    # it extracts a page when its node_modules folder is missing. Inside the private network namespace
    # npm cannot reach its registry and retries for minutes, so every mcp-server-fetch run timed out.
    # A user's first call does this install once with the network; so does the install step here.
    "mcp-server-fetch": (
        "import os, readabilipy.utils as u; "
        "js = os.path.join(os.path.dirname(u.__file__), 'javascript'); "
        "os.path.isdir(os.path.join(js, 'node_modules')) or u.run_npm_install()"
    ),
}


def first_use_setup(python: Path, code: str) -> str:
    """Run a peer's one-time setup (outside the namespace, with the network); 'ok' or the error."""
    done = subprocess.run([str(python), "-c", code], capture_output=True, text=True)
    return "ok" if done.returncode == 0 else f"first-use setup failed: {done.stderr.strip()[-300:]}"


def compile_bytecode(python: Path | str, *extra: Path) -> None:
    """Write .pyc files for a venv's packages (and `extra` folders) once.

    uv installs without bytecode and this machine sets PYTHONDONTWRITEBYTECODE, so without this step
    every process would compile its imports from source again (seconds of cold start, for every tool
    alike) where a user's installation would have them cached.
    """
    code = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = subprocess.run([str(python), "-c", code], capture_output=True, text=True).stdout.strip()
    targets = [purelib, *map(str, extra)]
    env = {"PATH": "/usr/bin:/bin"}
    subprocess.run([str(python), "-m", "compileall", "-q", "-j", "0", *targets], capture_output=True, env=env)
