"""Results as JSON and as a Markdown table of medians with each tool's ratio to webferret."""

from __future__ import annotations

import json
import os
import platform
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from bench.figures import Series

REFERENCE = "webferret"


@dataclass
class Figure:
    key: str
    title: str
    unit: str
    series: dict[str, Series]
    extra_key: str | None = None  # show this extra median instead of the main value
    fmt: str = "{:.2f}"
    higher_is_better: bool = False


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    pages = os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") / 2**30
    return (
        f"{cpu}, {os.cpu_count()} cores, {pages:.0f} GiB RAM, {platform.system()} {platform.release()}, "
        f"Python {platform.python_version()}"
    )


def _value(series: Series, key: str | None) -> float | None:
    return series.median(key)


def header_runs(figure: Figure) -> int:
    """The most runs any tool completed for this figure (a tool with fewer is marked ²)."""
    return max((len(s.values) for s in figure.series.values()), default=0)


def _cell(figure: Figure, tool: str) -> str:
    series = figure.series.get(tool)
    if series is None:
        return "not run"
    if series.bound is not None and figure.extra_key is None and not series.values:
        return ("< " if figure.higher_is_better else "> ") + figure.fmt.format(series.bound) + " (timed out)"
    if series.unsupported and not series.values and series.unsupported.startswith("did not finish"):
        return "timed out"
    if series.unsupported and not series.values:
        return "n/a¹" if "loopback" in series.unsupported else "n/a"
    value = _value(series, figure.extra_key)
    if value is None:
        return f"failed ({len(series.failures)} runs)"
    text = figure.fmt.format(value) + ("²" if len(series.values) < header_runs(figure) else "")
    ref = figure.series.get(REFERENCE)
    ref_value = _value(ref, figure.extra_key) if ref else None
    if tool != REFERENCE and ref_value:
        text += f" ({value / ref_value:.2f}×)"
    return text


def markdown(figures: list[Figure], tools: list[str], header: dict[str, Any]) -> str:
    """The table: one column per tool measured, then one per tool asked for that could not run
    (`header["missing"]`: name -> why), its cells "not run" and its reason under the table."""
    missing: dict[str, str] = header.get("missing") or {}
    tools = [*tools, *(name for name in missing if name not in tools)]
    lines = [
        f"Run {header['date']} on {header['machine']}; median of {header['runs']} runs; "
        f"(N×) = the tool's value ÷ webferret's in the same run.",
        "",
        "| figure | " + " | ".join(tools) + " |",
        "| --- | " + " | ".join("---" for _ in tools) + " |",
    ]
    for figure in figures:
        cells = " | ".join(_cell(figure, tool) for tool in tools)
        lines.append(f"| {figure.title} ({figure.unit}) | {cells} |")
    notes = _notes(figures) + [f"- {name}: not run: {why}" for name, why in missing.items()]
    lines += [
        "",
        "¹ cannot be pointed at a loopback web (see below). ² median of fewer runs: the others timed out.",
    ]
    if header.get("netns") is False:
        lines += ["", OUTSIDE_NETNS]
    if notes:
        lines += ["", *notes]
    return "\n".join(lines) + "\n"


OUTSIDE_NETNS = (
    "Run without the private namespace (`--no-netns`): every simulated site is 127.0.0.1 on a port of "
    "its own, so a tool that limits requests per host name (webferret: 2 at a time) holds every site "
    "to that one limit; these figures do not compare with a run in the namespace."
)


def _notes(figures: list[Figure]) -> list[str]:
    """One line per tool and reason, naming the figures it applies to."""
    where: dict[tuple[str, str], list[str]] = {}
    for figure in figures:
        number = figure.title.split(".", 1)[0]
        for tool, series in figure.series.items():
            reasons = ([series.unsupported] if series.unsupported else []) + series.failures[:1]
            reasons += [series.note] if series.note else []
            for text in reasons:
                places = where.setdefault((tool, text), [])
                if number not in places:
                    places.append(number)
    return [f"- {tool} ({', '.join(places)}): {text}" for (tool, text), places in where.items()]


def write(
    results_dir: Path, figures: list[Figure], tools: list[str], header: dict[str, Any], appendix: str = ""
) -> Path:
    results_dir.mkdir(parents=True, exist_ok=True)
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    data = {
        **header,
        "figures": {
            f.key: {"title": f.title, "unit": f.unit, "series": {t: s.as_json() for t, s in f.series.items()}}
            for f in figures
        },
    }
    (results_dir / f"bench-{stamp}.json").write_text(json.dumps(data, indent=2))
    table = markdown(figures, tools, header) + (f"\n{appendix}\n" if appendix else "")
    (results_dir / f"bench-{stamp}.md").write_text(table)
    (results_dir / "latest.md").write_text(table)
    (results_dir / "latest.json").write_text(json.dumps(data, indent=2))
    return results_dir / f"bench-{stamp}.md"


def load(path: Path) -> tuple[list[Figure], list[str], dict[str, Any]]:
    """Figures back from a results JSON file (to re-render its table)."""
    data = json.loads(path.read_text())
    figures = []
    for key, item in data["figures"].items():
        series = {}
        for tool, raw in item["series"].items():
            series[tool] = Series(
                raw["values"],
                raw["extra"],
                raw["failures"],
                raw["unsupported"],
                raw["note"],
                raw.get("bound"),
            )
        figures.append(Figure(key, item["title"], item["unit"], series, **_LOOK.get(key, {})))
    return figures, data["tools"], data


_LOOK: dict[str, dict[str, Any]] = {
    "search_overhead": {"extra_key": "overhead"},
    "resident_overhead": {"extra_key": "overhead"},
    "served_overhead": {"extra_key": "overhead"},
    "throughput": {"higher_is_better": True},
    "throughput_rss": {"extra_key": "peak_rss_mb", "fmt": "{:.0f}"},
    "tokens": {"fmt": "{:.0f}"},
}


if __name__ == "__main__":
    import sys

    loaded, names, head = load(Path(sys.argv[1]))
    sys.stdout.write(markdown(loaded, names, head))
