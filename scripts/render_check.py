"""Render a debate's HTML report in headless Chromium: screenshot it and check its DOM.

Run: python scripts/render_check.py examples/db-choice /tmp/report.png
Needs Debian's chromium (apt-get install chromium). Prints what it checked;
exits 1 when the page does not render as expected. tests/test_render.py
runs it when Chromium is installed.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile

from multidebate.views.report import build_report
from multidebate.views.report_html import render_html

CHROMIUM_FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                  "--disable-background-networking", "--disable-component-update", "--disable-sync"]


def chromium() -> str | None:
    return shutil.which("chromium") or shutil.which("chromium-browser") or shutil.which("google-chrome")


def check(folder: str, screenshot: str) -> list[str]:
    """Problems found (empty when the page rendered as expected)."""
    exe = chromium()
    if exe is None:
        return ["no chromium on PATH"]
    report = build_report(folder)
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "report.html")
        with open(page, "w", encoding="utf-8") as handle:
            handle.write(render_html(report))
        profile = os.path.join(tmp, "profile")
        url = f"file://{page}"
        dom = subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--dump-dom", url],
                             capture_output=True, text=True, timeout=120).stdout
        subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "--window-size=1000,1800",
                        f"--screenshot={screenshot}", url], capture_output=True, timeout=120)
    for needle in ("<svg", "<polyline", "Final answer", "Agreement at the last turn", report.analysis.verdict.state):
        if needle not in dom:
            problems.append(f"rendered DOM lacks {needle!r}")
    for slug in report.analysis.participants:
        if slug not in dom:
            problems.append(f"rendered DOM lacks participant {slug}")
    if not os.path.exists(screenshot) or os.path.getsize(screenshot) < 10_000:
        problems.append("no screenshot, or a blank one")
    return problems


def main() -> int:
    folder = sys.argv[1] if len(sys.argv) > 1 else "examples/db-choice"
    screenshot = sys.argv[2] if len(sys.argv) > 2 else "report.png"
    problems = check(folder, screenshot)
    for problem in problems:
        print(f"problem: {problem}")
    if not problems:
        print(f"rendered {folder} in Chromium: DOM checked, screenshot at {screenshot}")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
