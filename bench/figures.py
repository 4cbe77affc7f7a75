"""The measured figures: each runs every tool `runs` times (interleaved) and keeps every sample."""

from __future__ import annotations

import shutil
import statistics
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.measure import Command, Sample, run
from bench.simweb.process import SimWeb
from bench.tools import Tool, Unsupported


@dataclass
class Series:
    """One tool's samples of one figure, or the reason it has none."""

    values: list[float] = field(default_factory=list)
    extra: dict[str, list[float]] = field(default_factory=dict)
    failures: list[str] = field(default_factory=list)
    unsupported: str | None = None
    note: str | None = None
    bound: float | None = None  # the value the tool would have had, had it finished at the timeout

    def median(self, key: str | None = None) -> float | None:
        data = self.values if key is None else self.extra.get(key, [])
        return statistics.median(data) if data else None

    def add(self, value: float, **extra: float) -> None:
        self.values.append(value)
        for key, item in extra.items():
            self.extra.setdefault(key, []).append(item)

    def as_json(self) -> dict[str, Any]:
        return {
            "median": self.median(),
            "values": self.values,
            "extra": self.extra,
            "extra_median": {k: self.median(k) for k in self.extra},
            "failures": self.failures[:5],
            "unsupported": self.unsupported,
            "note": self.note,
            "bound": self.bound,
        }


Job = Callable[[Tool, Path], Command | Unsupported]
Value = Callable[[Sample, int | None], float]


def wall(sample: Sample, ok: int | None) -> float:
    return sample.wall


class Bench:
    """Runs jobs against one simulated internet with fresh per-run homes."""

    def __init__(self, web: SimWeb, tools: list[Tool], runs: int, timeout: float) -> None:
        self.web = web
        self.tools = tools
        self.runs = runs
        self.timeout = timeout
        self.scratch = Path(tempfile.mkdtemp(prefix="webferret-bench-"))

    def close(self) -> None:
        shutil.rmtree(self.scratch, ignore_errors=True)

    def home(self) -> Path:
        return Path(tempfile.mkdtemp(dir=self.scratch))

    def sample(self, command: Command) -> Sample:
        return run(command, self.timeout)

    def each(self, job: Callable[[Tool, Series], None], runs: int | None = None) -> dict[str, Series]:
        """Call `job(tool, series)` `runs` times per tool, interleaving tools within a round."""
        series = {tool.name: Series() for tool in self.tools}
        for _ in range(runs or self.runs):
            for tool in self.tools:
                if series[tool.name].unsupported is None:
                    job(tool, series[tool.name])
        return series

    def timed(self, job: Job, urls: list[str], value: Value = wall) -> dict[str, Series]:
        """One command per run over `urls`; a run that read no page is a failure, not a value.

        A tool whose first run is killed at the timeout is not run again for this figure."""

        def one(tool: Tool, series: Series) -> None:
            command = job(tool, self.home())
            if isinstance(command, str):
                series.unsupported = command
                return
            sample = self.sample(command)
            ok = tool.ok_pages(sample, urls) if urls else None
            if (
                sample.wall >= self.timeout
                or (sample.returncode != 0 and not sample.stdout.strip())
                or ok == 0
            ):
                series.failures.append(_why(sample))
                if sample.wall >= self.timeout:
                    series.unsupported = f"did not finish within {self.timeout:g} s"
                    series.bound = value(sample, ok)
                return
            extra = {"peak_rss_mb": sample.peak_rss_mb}
            if ok is not None:
                extra["ok_pages"] = float(ok)
            series.add(value(sample, ok), **extra)

        return self.each(one)


def _why(sample: Sample) -> str:
    if sample.returncode in (-9, 137):
        return f"killed after {sample.wall:.0f} s"
    tail = (sample.stderr.strip() or sample.stdout.strip()).splitlines()[-1:] or [""]
    return f"exit {sample.returncode}: {tail[0][:200]}"
