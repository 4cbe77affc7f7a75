"""The benchmark's report (bench/report.py): the table a developer copies into the README."""

from __future__ import annotations

from pathlib import Path

from bench.figures import Series
from bench.report import Figure, load, markdown, write


def test_a_peer_asked_for_but_not_installed_keeps_its_column_and_says_why(tmp_path: Path) -> None:
    """A peer that could not run (not installed) vanished from the table: the README's columns came
    back fewer, with nothing under the table to say why. Its column stays, "not run", with the reason,
    in the table written and in one re-rendered from the run's JSON."""
    ours = Series()
    ours.add(0.5)
    figure = Figure("cold_help", "4a. cold start, `--help`", "s", {"webferret": ours})
    why = "bench/.peers/trafilatura/bin/trafilatura is missing"
    header = {"date": "d", "machine": "m", "runs": 1, "tools": ["webferret"], "missing": {"trafilatura": why}}
    written = write(tmp_path, [figure], ["webferret"], header).read_text()
    figures, tools, data = load(tmp_path / "latest.json")
    for table in (written, markdown(figures, tools, data)):
        assert "| figure | webferret | trafilatura |" in table
        assert "| 4a. cold start, `--help` (s) | 0.50 | not run |" in table
        assert f"- trafilatura: not run: {why}" in table


def test_a_run_outside_the_namespace_says_its_figures_do_not_compare() -> None:
    """With --no-netns every simulated site is 127.0.0.1, one host name to a per-host limit such as
    webferret's, and the table looked like any other: nothing said its figures were not the README's
    kind."""
    ours = Series()
    ours.add(2.0)
    figures = [Figure("batch8", "2. fetch a batch of 8 pages, wall", "s", {"webferret": ours})]
    header = {"date": "d", "machine": "m", "runs": 1}
    outside = markdown(figures, ["webferret"], {**header, "netns": False})
    assert "without the private namespace (`--no-netns`)" in outside and "do not compare" in outside
    assert "--no-netns" not in markdown(figures, ["webferret"], {**header, "netns": True})
