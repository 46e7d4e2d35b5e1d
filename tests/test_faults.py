"""Concurrency and faults with real processes: nothing lost, nothing partial, clear errors."""

from __future__ import annotations

import errno
import os
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

import pytest
from helpers import make_debate, turn_body

from multidebate.protocol.errors import FolderError
from multidebate.turns.write import write_turn
from multidebate.views.validate import validate_paths

WRITERS, TURNS = 8, 50

STRESS = textwrap.dedent("""
    import sys
    from multidebate.turns.write import write_turn
    folder, slug, turns = sys.argv[1], sys.argv[2], int(sys.argv[3])
    body = '''## Reasoning\\nr\\n\\n## Answer\\n**{a}**\\n\\n{more}## Confidence\\n50\\n\\n## Converged\\nno\\n'''
    key = None
    for turn in range(1, turns + 1):
        more = '' if turn == 1 else '## Agreements\\n- None\\n\\n## Disagreements\\n- None\\n\\n'
        result = write_turn(folder, slug, body.format(a=slug + ' ' + str(turn), more=more).encode(), key)
        assert result.turn == turn, (result.turn, turn)
        key = key or result.key
""")


def test_many_writers_lose_nothing(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [])
    procs = [subprocess.Popen([sys.executable, "-c", STRESS, folder, f"s{i}", str(TURNS)],
                              stderr=subprocess.PIPE, text=True) for i in range(WRITERS)]
    for proc in procs:
        _, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
    names = sorted(n for n in os.listdir(folder) if n.startswith("turn-"))
    assert len(names) == WRITERS * TURNS
    findings = validate_paths([folder])
    assert [f for f in findings if f.severity == "error"] == []
    for i in range(WRITERS):
        ledger = Path(folder, ".multidebate", "ledger", f"s{i}.jsonl").read_text().splitlines()
        assert len(ledger) == TURNS


CRASH = textwrap.dedent("""
    import os, signal, sys
    from multidebate.turns.write import write_turn
    folder, crash_at = sys.argv[1], int(sys.argv[2])
    calls = [0]
    def wrap(name):
        real = getattr(os, name)
        def hooked(*args, **kwargs):
            calls[0] += 1
            if calls[0] == crash_at:
                os.kill(os.getpid(), signal.SIGKILL)
            return real(*args, **kwargs)
        setattr(os, name, hooked)
    for name in ("open", "write", "fsync", "link", "unlink", "close", "chmod", "replace", "makedirs", "rename"):
        wrap(name)
    body = '## Reasoning\\nr\\n\\n## Answer\\n**A complete answer.**\\n\\n## Confidence\\n50\\n\\n## Converged\\nno\\n'
    write_turn(folder, "k", body.encode())
""")


def test_sigkill_at_any_point_leaves_no_partial_turn(tmp_path: Path) -> None:
    crash_at, completed = 1, False
    while not completed:
        assert crash_at < 200, "the write never completed"
        folder = make_debate(str(tmp_path / f"d{crash_at}"), [{"peer": "x"}])
        proc = subprocess.run([sys.executable, "-c", CRASH, folder, str(crash_at)], capture_output=True, text=True,
                              timeout=120)
        completed = proc.returncode == 0
        assert completed or proc.returncode == -9, proc.stderr
        path = Path(folder, "turn-1-k.md")
        if path.exists():  # once it exists, it is whole
            assert "**A complete answer.**" in path.read_text()
            assert path.read_text().rstrip().endswith("no")
        errors = [f for f in validate_paths([folder]) if f.severity == "error"]
        assert errors == [], (crash_at, errors)
        crash_at += 1
    assert crash_at > 5  # the hooks really fired before the write completed


def _failing(monkeypatch: Any, name: str, err: int) -> None:
    real = getattr(os, name)

    def fail(*args: Any, **kwargs: Any) -> Any:
        if name == "open" and not (args[1] if len(args) > 1 else kwargs.get("flags", 0)) & (os.O_WRONLY | os.O_RDWR):
            return real(*args, **kwargs)  # reading TASK.md still works: the fault is in writing
        raise OSError(err, os.strerror(err))
    monkeypatch.setattr(os, name, fail)


@pytest.mark.parametrize(("call", "err"), [("fsync", errno.ENOSPC), ("link", errno.EROFS), ("open", errno.EACCES)])
def test_disk_full_or_read_only_gives_clear_error_and_no_file(tmp_path: Path, monkeypatch: Any, call: str,
                                                              err: int) -> None:
    folder = make_debate(str(tmp_path / "d"), [])
    before = sorted(os.listdir(folder))
    _failing(monkeypatch, call, err)
    with pytest.raises(FolderError, match=f"cannot write .*turn-1-a.md: {os.strerror(err)}; nothing was written"):
        write_turn(folder, "a", turn_body(1, "x").encode())
    monkeypatch.undo()
    after = sorted(os.listdir(folder))
    assert after == before or after == sorted(before + [".multidebate"])
    assert not os.path.exists(os.path.join(folder, ".multidebate", "keys", "a.json"))
    assert [n for n in os.listdir(folder) if n.endswith(".part")] == []


def test_write_sweeps_temporary_files_left_by_killed_writers(tmp_path: Path) -> None:
    """A killed writer leaves `.md-tmp-*.part`; the next write removes those older than ten minutes."""
    import time

    from helpers import make_debate, turn_body, write_keyed

    from multidebate.state.atomic import STALE_TEMP_SECONDS

    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**"}])
    stale, fresh = Path(folder, ".md-tmp-0123456789ab.part"), Path(folder, ".md-tmp-ba9876543210.part")
    for left in (stale, fresh):
        left.write_bytes(b"half a turn")
    old = time.time() - STALE_TEMP_SECONDS - 60
    os.utime(stale, (old, old))
    other = Path(folder, ".md-tmp-notes.txt")
    other.write_text("not ours")
    os.utime(other, (old, old))
    os.symlink(stale.name, Path(folder, ".md-tmp-link.part"))
    write_keyed(folder, "a", turn_body(2, "**Use TOML.**").encode())
    assert not stale.exists()
    assert fresh.exists()  # a live writer's file is seconds old
    assert other.read_text() == "not ours"  # not one of ours
    assert Path(folder, ".md-tmp-link.part").is_symlink()  # links are never touched
