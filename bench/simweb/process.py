"""Start the simulated internet as a child process and read its manifest and request log."""

from __future__ import annotations

import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from types import TracebackType
from typing import Any

REPO = Path(__file__).resolve().parents[2]


@dataclass
class SimWebOptions:
    sites: int = 52
    limit: int | None = None
    instant: bool = False
    netns: bool = False
    seed: int = 7
    extra: list[str] = field(default_factory=list)


class SimWeb:
    """`with SimWeb(options) as web:` serves until the block ends; `web.manifest` lists its URLs."""

    def __init__(self, options: SimWebOptions) -> None:
        self.options = options
        self.manifest: dict[str, Any] = {}
        self._proc: subprocess.Popen[bytes] | None = None
        self._log = Path(tempfile.mkstemp(prefix="simweb-", suffix=".jsonl")[1])

    def __enter__(self) -> SimWeb:
        opts = self.options
        argv = [
            sys.executable,
            "-m",
            "bench.simweb.serve",
            "--sites",
            str(opts.sites),
            "--seed",
            str(opts.seed),
            "--log",
            str(self._log),
            *opts.extra,
        ]
        argv += ["--limit", str(opts.limit)] if opts.limit else []
        argv += ["--instant"] if opts.instant else []
        argv += ["--netns"] if opts.netns else []
        self._proc = subprocess.Popen(argv, cwd=REPO, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        assert self._proc.stdout is not None
        line = self._proc.stdout.readline()
        if not line:
            self.close()
            raise RuntimeError("the simulated internet did not start (see its error above)")
        self.manifest = json.loads(line)
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def close(self) -> None:
        proc, self._proc = self._proc, None
        if proc is None:
            return
        if proc.stdin:
            proc.stdin.close()
        try:
            proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()
        self._log.unlink(missing_ok=True)

    def requests(self, since: float, until: float) -> list[dict[str, Any]]:
        """Requests answered entirely within [since, until] (wall-clock seconds)."""
        entries = []
        for line in self._log.read_text().splitlines():
            entry = json.loads(line)
            if entry["t0"] >= since and entry["t1"] <= until:
                entries.append(entry)
        return entries
