"""Programs the `webferret serve` tests start as a server (`python -c PROGRAM serve ...`)."""

from __future__ import annotations

STALE_SERVER = (
    "import sys\n"
    "import webferret.handoff as handoff\n"
    "handoff.fingerprint = lambda: 'webferret 0.0.0 from elsewhere'\n"
    "from webferret.cli import main\n"
    "sys.exit(main(sys.argv[1:]))\n"
)
"""A `webferret serve` of other files than the tests' (an older install, say): it refuses their calls."""
