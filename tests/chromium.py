"""Debian's chromium, which the browser tier's tests drive (CI installs it; `playwright install`
cannot download here), and the mark that skips a test where it is absent."""

from __future__ import annotations

from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
needs_chromium = pytest.mark.skipif(
    not Path(CHROMIUM).exists(), reason=f"{CHROMIUM} is absent (CI installs chromium)"
)
