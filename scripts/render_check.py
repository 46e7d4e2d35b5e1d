"""Render a debate's HTML report in headless Chromium: screenshot it and check its DOM.

Run: python scripts/render_check.py examples/db-choice /tmp/report.png
Needs Debian's chromium (apt-get install chromium). Prints what it checked;
exits 1 when the page does not render as expected. tests/test_render.py
runs it when Chromium is installed.
"""

from __future__ import annotations

import os
import re
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


# Appended to a copy of the page (whose CSP, which forbids scripts, is dropped): after layout, it
# records the viewport's width, the body's content and box widths and every chart's width in the DOM.
# Headless Chromium keeps its window at least 500 px wide: a narrower width is given to the page's
# root element instead, which the chart's width:100% follows as it would follow a phone's screen.
_MEASURE = ("<script>document.body.setAttribute('data-measured', JSON.stringify({vw: Math.min(window.innerWidth, "
            "document.documentElement.getBoundingClientRect().width), sw: document.body.scrollWidth, "
            "bw: document.body.clientWidth, "
            "charts: Array.from(document.querySelectorAll('svg')).map(s => s.getBoundingClientRect().width), "
            "badge: getComputedStyle(document.querySelector('.verdict')).backgroundColor}));"
            "</script>")
WIDTHS = (1000, 380)  # a desktop window and a phone held upright
_NARROWEST_WINDOW = 500


def _run(exe: str, profile: str, *args: str) -> str:
    return subprocess.run([exe, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", *args],
                          capture_output=True, text=True, timeout=120).stdout


def _measured(dom: str) -> dict[str, object]:
    import html
    import json
    import re

    found = re.search(r'data-measured="([^"]*)"', dom)
    return json.loads(html.unescape(found.group(1))) if found else {}


def check(folder: str, screenshot: str) -> list[str]:
    """Problems found (empty when the page rendered as expected).

    Screenshots at each of WIDTHS (the second next to `screenshot`, its width in the name); at each
    width, no horizontal scrolling and every chart within the window (the chart was cut at 400 px).
    """
    exe = chromium()
    if exe is None:
        return ["no chromium on PATH"]
    report = build_report(folder)
    problems = []
    page_html = render_html(report)
    measured_html = re.sub(r"<meta http-equiv='Content-Security-Policy'[^>]*>", "", page_html)
    measured_html = measured_html.replace("</body>", _MEASURE + "</body>")
    with tempfile.TemporaryDirectory() as tmp:
        page = os.path.join(tmp, "report.html")
        with open(page, "w", encoding="utf-8") as handle:
            handle.write(page_html)
        profile = os.path.join(tmp, "profile")
        dom = _run(exe, profile, "--dump-dom", f"file://{page}")
        for width in WIDTHS:
            narrow = width < _NARROWEST_WINDOW
            measure = os.path.join(tmp, f"measure-{width}.html")
            with open(measure, "w", encoding="utf-8") as handle:
                handle.write(measured_html.replace("</head>", f"<style>html{{width:{width}px}}</style></head>")
                             if narrow else measured_html)
            window = f"--window-size={max(width, _NARROWEST_WINDOW)},1800"
            shot = screenshot if width == WIDTHS[0] else f"{os.path.splitext(screenshot)[0]}-{width}.png"
            _run(exe, profile, window, f"--screenshot={shot}", f"file://{measure if narrow else page}")
            if not os.path.exists(shot) or os.path.getsize(shot) < 10_000:
                problems.append(f"no screenshot at {width} px, or a blank one")
            sizes = _measured(_run(exe, profile, window, "--dump-dom", f"file://{measure}"))
            if not sizes:
                problems.append(f"nothing measured at {width} px")
                continue
            viewport = float(sizes["vw"])  # type: ignore[arg-type]
            if float(sizes["sw"]) > float(sizes["bw"]) + 1:  # type: ignore[arg-type]
                # content wider than the page's body: the window scrolls sideways (a table in its own
                # scrolling box does not count: that box clips it)
                problems.append(f"at {width} px the page's content is {sizes['sw']} px wide in a "
                                f"{sizes['bw']} px page")
            if sizes.get("badge") in (None, "rgba(0, 0, 0, 0)", "transparent"):
                problems.append(f"the verdict badge has no background ({sizes.get('badge')}): its white text is "
                                "invisible")
            for chart in sizes["charts"]:  # type: ignore[attr-defined]
                if not 0 < float(chart) <= viewport:
                    problems.append(f"at {width} px a chart is {chart} px wide")
    if report.brief is not None:  # a review: the decider's screen, the details, every finding
        needles = ["Decision summary", "Details", "Every finding, most severe first", report.analysis.verdict.state]
        needles += [f.key for f in report.summary.checklist] if report.summary is not None else []
        needles += [f"Judgment by {report.judgment.slug}"] if report.judgment is not None else []
        return problems + [f"rendered DOM lacks {needle!r}" for needle in needles if needle not in dom]
    heading = "Final answer" if report.final.kind in ("consensus", "none") else "No consensus"
    for needle in ("<svg", "<polyline", heading, "Agreement at the last turn", report.analysis.verdict.state):
        if needle not in dom:
            problems.append(f"rendered DOM lacks {needle!r}")
    for slug in report.analysis.participants:
        if slug not in dom:
            problems.append(f"rendered DOM lacks participant {slug}")
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
