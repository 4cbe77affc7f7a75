"""The benchmark's command lines (`python -m bench`, `bench/extraction.py`) as a developer runs them:
a wrong name or a missing input stops them at once with a message, not a traceback or an empty table."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from bench.simweb.corpus import shared_dir

REPO = Path(__file__).resolve().parents[1]


def _bench(*args: str, cwd: Path = REPO) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, "-m", "bench", "--no-netns", "--no-install", "--runs", "1", *args]
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, timeout=120)


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--tools", "webfferet", "--figures", "cold"), "webfferet"),
        (("--tools", "webferret", "--figures", "colt"), "colt"),
    ],
)
def test_an_unknown_tool_or_figure_is_refused_with_the_known_names(args: tuple[str, ...], named: str) -> None:
    """A misspelt name measured nothing and wrote an empty table over bench/results/latest.md."""
    done = _bench(*args)
    assert done.returncode == 2, done.stdout
    assert f"no such name: {named}" in done.stderr and "known: " in done.stderr
    assert "Traceback" not in done.stderr and "| figure |" not in done.stdout


@pytest.mark.parametrize("sites", ["4", "300"])
def test_a_number_of_sites_the_simulated_internet_cannot_have_is_refused(sites: str) -> None:
    """--sites 4 left one fast host, so "a batch of 8 pages" fetched one; --sites 300 ran out of
    127.0.1.N addresses in the namespace, where the simulated internet's start ended in a traceback."""
    done = _bench("--tools", "webferret", "--figures", "batch", "--sites", sites)
    assert done.returncode == 2 and "--sites goes from 11" in done.stderr and "| figure |" not in done.stdout


@pytest.mark.parametrize("timeout", ["nan", "inf", "0"])
def test_a_timeout_that_is_no_time_is_refused(timeout: str) -> None:
    """--timeout nan passed the check (nan <= 0 is false) and then killed no process, however long
    it hung: every figure ran with no limit."""
    done = _bench("--tools", "webferret", "--figures", "batch", "--timeout", timeout)
    assert done.returncode == 2 and "must be positive (a --timeout finite)" in done.stderr
    assert "| figure |" not in done.stdout


def _copy_of_bench(tmp_path: Path) -> Path:
    """A checkout of bench/ alone at tmp_path/a/repo: no shared/ folder beside it."""
    repo = tmp_path / "a" / "repo"
    ignored = shutil.ignore_patterns(".peers", "results", ".cache", "__pycache__")
    shutil.copytree(REPO / "bench", repo / "bench", ignore=ignored)
    return repo


def test_a_missing_shared_folder_is_said_before_anything_runs(tmp_path: Path) -> None:
    """Without ../shared (the simulated sites' pages) the run ended in a traceback from inside the
    measuring, after the peers' install; it now says which folders it looked for, first."""
    done = _bench("--tools", "webferret", "--figures", "cold", cwd=_copy_of_bench(tmp_path))
    assert done.returncode == 1
    assert "the page corpus is missing" in done.stderr and str(tmp_path / "a" / "shared") in done.stderr
    assert "Traceback" not in done.stderr


@pytest.mark.skipif(shared_dir() is None, reason="needs the shared/ folder beside the repository")
def test_results_that_cannot_be_written_are_said_before_anything_runs(tmp_path: Path) -> None:
    """A bench/results that cannot be made failed the run with a traceback at its very end, every
    figure measured and lost."""
    repo = _copy_of_bench(tmp_path)
    (repo.parent / "shared").symlink_to(shared_dir())
    (repo / "bench" / "results").write_text("a file where the results folder goes")
    done = _bench("--tools", "webferret", "--figures", "cold", cwd=repo)
    assert done.returncode == 1 and f"bench: cannot make {repo / 'bench' / 'results'}" in done.stderr
    assert "Traceback" not in done.stderr and "| figure |" not in done.stdout


def test_a_missing_peer_is_installed_by_a_command_that_exists() -> None:
    """A missing peer's reason said to run `python -m bench --install`, a flag that never existed,
    and the install step installed every peer whatever --tools named (and never with --no-netns)."""
    from bench.__main__ import parse_args, peers_to_install
    from bench.tools import Peer

    reason = Peer("trafilatura", venv="no-such-venv", program="trafilatura").missing()
    assert reason is not None and "no-such-venv" in reason
    options = _bench("--help").stdout
    assert re.findall(r"--[a-z-]+", reason) and all(
        flag in options for flag in re.findall(r"--[a-z-]+", reason)
    )
    assert peers_to_install(parse_args(["--tools", "webferret,trafilatura"])) == ["trafilatura"]
    assert peers_to_install(parse_args(["--tools", "webferret", "--no-netns"])) == []
    assert len(peers_to_install(parse_args([]))) == 4


def _extraction(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    argv = [sys.executable, str(REPO / "bench" / "extraction.py"), "--sample", "1", "--sets", "articles"]
    argv += ["--extractors", "webferret", "--out", str(tmp_path / "run"), *args]
    return subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (("--sets", "artciles"), "no such set: artciles (the sets are articles, multitype)"),
        (("--out", "/dev/null/run"), "--out /dev/null/run: cannot make /dev/null"),
    ],
)
def test_the_extraction_bench_stops_on_a_wrong_set_or_out_path_before_measuring(
    tmp_path: Path, args: tuple[str, ...], said: str
) -> None:
    """A misspelt set ran the multitype set under that name; an --out whose folder cannot be made
    failed with a traceback only after every page was measured."""
    done = _extraction(tmp_path, *args)
    assert done.returncode == 1 and said in done.stderr
    assert "Traceback" not in done.stderr and "shingle F1" not in done.stdout
    assert not (tmp_path / "run.md").exists()


@pytest.mark.skipif(shared_dir() is None, reason="needs the shared/ folder beside the repository")
def test_the_extraction_bench_names_the_extractors_it_knows(tmp_path: Path) -> None:
    """An unknown extractor's message pointed at --list-extractors, an option of the shared evaluator
    that bench/extraction.py does not have."""
    done = _extraction(tmp_path, "--extractors", "webferret,trafilatura-precsion")
    assert done.returncode == 1 and "no such extractor: trafilatura-precsion" in done.stderr
    assert "trafilatura-precision" in done.stderr and "--list-extractors" not in done.stderr


@pytest.mark.skipif(shared_dir() is None, reason="needs the shared/ folder beside the repository")
def test_the_tail_profile_runs_as_documented() -> None:
    """`python -m bench.tail_profile` (bench/README.md) failed every search: its wrappers of the
    fetch and verdict steps named their parameters, and those steps had grown one (capped=, climbs=);
    the empty answer then ended in a ValueError traceback."""
    argv = [sys.executable, "-m", "bench.tail_profile", "--runs", "1", "--quiet"]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    phases = {line.split()[0] for line in done.stdout.splitlines() if " median " in line}
    assert {"wall", "tail", "in>verdict", "worker_start>worker_end", "render"} <= phases


DROP_SYS_ADMIN = ["setpriv", "--bounding-set=-sys_admin", "--inh-caps=-sys_admin"]


def _can_drop_sys_admin() -> bool:
    """Whether this root process can run a command without CAP_SYS_ADMIN (as a user runs)."""
    if shutil.which("setpriv") is None:
        return False
    return subprocess.run([*DROP_SYS_ADMIN, "true"], capture_output=True).returncode == 0


@pytest.mark.skipif(shared_dir() is None, reason="needs the shared/ folder (its absence is said first)")
@pytest.mark.skipif(os.geteuid() == 0 and not _can_drop_sys_admin(), reason="needs setpriv as root")
def test_no_namespace_to_make_is_said_with_what_to_do() -> None:
    """Without the right to make a network namespace (not root), the run installed the peers and only
    then failed on unshare's bare 'Operation not permitted'; it now says so first, with --no-netns."""
    argv = [sys.executable, "-m", "bench", "--no-install", "--runs", "1", "--tools", "webferret"]
    if os.geteuid() == 0:  # root: without CAP_SYS_ADMIN, as a user is
        argv = [*DROP_SYS_ADMIN, *argv]
    done = subprocess.run(argv, cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 1
    assert "bench: no private network namespace" in done.stderr and "--no-netns" in done.stderr
