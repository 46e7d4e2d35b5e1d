"""Validate's checks cache: cached cross-file findings are never stale.

Each step changes one input a cross-file finding depends on (a peer's text,
a deleted file, the roster, a ledger line, an older file a session read) and
checks that a warm validate answers exactly as a validate that computes
everything afresh -- and that the step did change that answer, so the test
would catch a stale cache.
"""

from __future__ import annotations

import hashlib
import os
import shutil
from collections.abc import Callable
from pathlib import Path

from helpers import make_debate, turn_body

from multidebate.protocol.findings import Finding
from multidebate.state.debate import load_debate
from multidebate.state.task import render_task
from multidebate.views.validate import validate_debate

CLAIM = "With {peer}: they argued that replication latency in Litestream dominates backups. I hold otherwise."


def _fresh(folder: str) -> list[Finding]:
    return validate_debate(load_debate(folder, use_cache=False), use_cache=False)


def _warm(folder: str) -> list[Finding]:
    return validate_debate(load_debate(folder))


def _write(folder: str, name: str, text: str) -> None:
    Path(folder, name).write_text(text, encoding="utf-8")


def _sha(folder: str, name: str) -> str:
    return hashlib.sha256(Path(folder, name).read_bytes()).hexdigest()


def _debate(root: Path) -> str:
    folder = make_debate(str(root / "d"), [
        {"a": "**Use Postgres.** Replication latency in Litestream dominates backups.",
         "b": "**Use sqlite.** Replication latency in Litestream dominates backups, yet it is simple.",
         "c": "**Use Postgres.** Managed backups."},
        {"a": "**Use Postgres.**", "b": "**Use Postgres.**", "c": "**Use Postgres.**"},
    ], participants=("a", "b", "c"))
    # hand-written turns that attribute claims to peers and say what their sessions read
    body = turn_body(3, "**Use Postgres.**", disagreements=CLAIM.format(peer="b") + "\n- " + CLAIM.format(peer="c"))
    read = f"peers_read:\n  - file: turn-1-b.md\n    sha256: {_sha(folder, 'turn-1-b.md')}\n"
    _write(folder, "turn-3-a.md", f"---\n{read}---\n{body}")
    _write(folder, "turn-2-c.md", turn_body(2, "**Use Postgres.**", disagreements="- " + CLAIM.format(peer="b")))
    return folder


def test_every_input_change_reaches_a_warm_validate(tmp_path: Path) -> None:
    folder = _debate(tmp_path)
    ledger_a = Path(folder, ".multidebate", "ledger", "a.jsonl")
    steps: list[tuple[str, Callable[[], None]]] = [
        ("a peer's text loses the claimed terms",
         lambda: _write(folder, "turn-1-b.md", turn_body(1, "**Use sqlite.** It is simple."))),
        ("an older file a session read changes",
         lambda: _write(folder, "turn-1-b.md", turn_body(1, "**Use MySQL.** Replication latency matters."))),
        ("a turn N-1 file is deleted", lambda: os.unlink(Path(folder, "turn-2-b.md"))),
        ("the roster changes",
         lambda: _write(folder, "TASK.md", render_task("Pick a database.", ("a", "b")))),
        ("a ledger line is altered",
         lambda: ledger_a.write_text(ledger_a.read_text().replace('"turn":1', '"turn":7', 1))),
        ("a recorded file comes back", lambda: _write(folder, "turn-2-b.md", turn_body(2, "**Use Postgres.**"))),
    ]
    before = _fresh(folder)
    assert _warm(folder) == before  # cold: computes and stores
    assert _warm(folder) == before  # warm: from the cache
    for label, change in steps:
        _warm(folder)
        change()
        after = _fresh(folder)
        assert after != before, f"the step changes no finding, so it tests nothing: {label}"
        assert _warm(folder) == after, label
        assert _warm(folder) == after, label
        before = after


def test_moved_folder_reports_its_new_paths(tmp_path: Path) -> None:
    folder = _debate(tmp_path)
    _write(folder, "turn-1-b.md", turn_body(1, "**Use sqlite.** It is simple."))  # W090, E080 and E084 appear
    first = _warm(folder)
    assert {f.code for f in first} >= {"W090", "E080", "E084"}
    moved = str(tmp_path / "moved")
    shutil.move(folder, moved)
    again = _warm(moved)
    assert [f._replace(path=f.path.replace(moved, folder)) for f in again] == first
    assert all(f.path.startswith(moved) for f in again)
