"""Progress while a cold cache is filled: told by the library, drawn by the CLI on a terminal only."""

from __future__ import annotations

import io
from pathlib import Path

from helpers import make_debate

from multidebate.state.cache import report_progress
from multidebate.state.debate import load_debate
from multidebate.views.progress import ParseProgress


def test_parsing_reports_progress_and_a_warm_read_reports_none(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**", "c": "**Use INI.**"}])
    for shard in Path(folder, ".multidebate", "cache").iterdir():
        shard.unlink()
    told: list[tuple[int, int]] = []
    report_progress(lambda done, total: told.append((done, total)))
    try:
        load_debate(folder)
        assert told == [(1, 3), (2, 3), (3, 3)]
        told.clear()
        load_debate(folder)
        assert told == []
    finally:
        report_progress(None)


def test_the_line_waits_half_a_second_then_draws_and_clears() -> None:
    stream = io.StringIO()
    progress = ParseProgress(stream)
    progress(1, 10)  # too early: quick runs show nothing
    assert stream.getvalue() == ""
    progress.finish()
    assert stream.getvalue() == ""
    progress.started -= ParseProgress.DELAY
    progress(2, 10)
    assert stream.getvalue() == "\rparsing turn files (cached for next time): 2/10"
    progress(3, 10)  # within the redraw interval: skipped
    progress(10, 10)  # the last one is always drawn
    assert stream.getvalue().endswith("10/10")
    progress.finish()
    assert stream.getvalue().endswith("\r\033[K")
