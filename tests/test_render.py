"""The HTML report rendered in a real headless Chromium (skipped where Chromium is not installed)."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))

from render_check import check, chromium  # noqa: E402


@pytest.mark.skipif(chromium() is None, reason="Chromium is not installed (apt-get install chromium)")
@pytest.mark.parametrize("example", ["db-choice", "sealed-review"])
def test_report_renders_in_chromium(tmp_path: Path, example: str) -> None:
    assert check(str(ROOT / "examples" / example), str(tmp_path / "shot.png")) == []


def test_chromium_lookup_is_honest() -> None:
    assert (chromium() is None) == (shutil.which("chromium") is None and shutil.which("chromium-browser") is None
                                    and shutil.which("google-chrome") is None)
