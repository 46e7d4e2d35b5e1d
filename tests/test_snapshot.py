"""A warm `status` prints what the last full run kept, and only while nothing it reads has changed (#25).

Each promise of state/snapshot.py is attacked: the kept output equals a full run's, a new or edited file is
seen at once, a forged or copied snapshot is not believed, a clock-dependent output is never kept.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import Cli
from helpers import key_of, make_debate, turn_body, write_keyed

from multidebate.state.snapshot import Kept

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = sorted(p.name for p in (ROOT / "examples").iterdir() if (p / "TASK.md").exists())

_PROBE = """
import contextlib, io, json, sys
sys.argv = ["multidebate"] + json.loads(sys.argv[1])
out = io.StringIO()
try:
    with contextlib.redirect_stdout(out):
        from multidebate.cli import main
        main()
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code, "out": out.getvalue(), "full": "multidebate.analysis.verdict" in sys.modules}))
"""


def status(*args: str) -> tuple[int, str, bool]:
    """`multidebate status ...` in a fresh interpreter: (exit code, stdout, whether it ran in full)."""
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(["status", *args])], capture_output=True,
                          text=True, timeout=120)
    data = json.loads(done.stdout)
    return data["code"] or 0, data["out"], data["full"]


def _kept(folder: str, kind: str = "status") -> Path:
    return Path(folder, ".multidebate", "cache", f"{kind}.json")


def _done_debate(folder: str) -> str:
    return make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
                                {"a": ("**Use TOML.**", True), "b": ("**Use TOML.**", True)}],
                       participants=("a", "b"))


@pytest.mark.parametrize("name", EXAMPLES)
def test_a_warm_run_prints_what_a_full_run_prints(tmp_path: Path, name: str) -> None:
    folder = str(tmp_path / name)
    shutil.copytree(ROOT / "examples" / name, folder, ignore=shutil.ignore_patterns("cache"))
    for flags in ((), ("--json",), ("--check",)):
        cold = status(folder, *flags)
        warm = status(folder, *flags)
        assert warm[:2] == cold[:2], (name, flags)
        assert cold[2] or _kept(folder).exists()  # the first run of each form may find the first's snapshot
    assert status(folder)[2] is not _kept(folder).exists()  # kept: no full run; not kept: a full run


def test_a_warm_run_loads_no_analysis_and_a_new_turn_is_seen_at_once(tmp_path: Path) -> None:
    folder = str(tmp_path / "d")
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}], participants=("a", "b"))
    first = status(folder)
    assert first[2]
    assert _kept(folder).exists()
    again = status(folder)
    assert again[:2] == first[:2]
    assert not again[2]  # printed from the snapshot: no verdict module loaded
    write_keyed(folder, "a", turn_body(2, "**Use TOML.**").encode())
    after = status(folder)
    assert after[2]
    assert "missing from turn 2: b" in after[1]  # a new file: a full run, at once
    assert not _kept(folder).exists() or json.loads(_kept(folder).read_text())["payload"]["text"] != first[1]


def test_an_edited_turn_file_is_seen_though_its_size_and_mtime_are_put_back(tmp_path: Path) -> None:
    folder = _done_debate(str(tmp_path / "d"))
    status(folder)
    assert not status(folder)[2]
    path = Path(folder, "turn-2-b.md")
    before = path.stat()
    text = path.read_text()
    path.write_text(text.replace("**Use TOML.**", "**Use JSON.**"))  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # and the old mtime: ctime cannot be put back
    code, out, full = status(folder)
    assert full
    assert "E080" in out


def test_a_forged_snapshot_is_not_believed(tmp_path: Path) -> None:
    folder = str(tmp_path / "d")
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}], participants=("a", "b"))
    cold = status(folder)
    kept = json.loads(_kept(folder).read_text())
    kept["payload"]["text"] = kept["payload"]["text"].replace("verdict: in_progress", "verdict: converged")
    kept["payload"]["state"] = "converged"
    _kept(folder).write_text(json.dumps(kept))  # its HMAC no longer matches
    code, out, full = status(folder, "--check")
    assert full
    assert code == 3
    assert "verdict: in_progress" in out
    assert out == cold[1]


def test_a_snapshot_under_another_key_or_from_another_folder_is_not_believed(tmp_path: Path) -> None:
    folder = _done_debate(str(tmp_path / "d"))
    status(folder)
    assert not status(folder)[2]
    # another user's key (another cache home): the snapshot does not verify, and a full run replaces it
    other = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "other-user"))
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(["status", folder])], capture_output=True,
                          text=True, timeout=120, env=other)
    assert json.loads(done.stdout)["full"]
    # a copy keeps the snapshot's bytes, not the files' inodes and change times
    copy = str(tmp_path / "copy")
    shutil.copytree(folder, copy)
    shutil.copy2(_kept(folder), _kept(copy))
    assert status(copy)[2]


def test_a_clock_dependent_status_is_never_kept(tmp_path: Path) -> None:
    folder = str(tmp_path / "d")
    make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"}, {"a": "**Use TOML.**"}],
                participants=("a", "b"))
    code, out, full = status(folder)
    assert "missing from turn 2: b (waiting" in out  # the waiting time moves with the clock
    assert not _kept(folder).exists()
    assert status(folder)[2]


def test_no_usable_key_means_a_full_run_every_time(tmp_path: Path) -> None:
    folder = _done_debate(str(tmp_path / "d"))
    home = tmp_path / "cache-home"
    env = dict(os.environ, XDG_CACHE_HOME=str(home))
    run = [sys.executable, "-c", _PROBE, json.dumps(["status", folder])]
    assert json.loads(subprocess.run(run, capture_output=True, text=True, env=env, timeout=120).stdout)["full"]
    key = home / "multidebate" / "status.key"
    assert key.stat().st_mode & 0o777 == 0o600
    key.chmod(0o644)  # readable by others: no better than none
    for _ in range(2):
        data = json.loads(subprocess.run(run, capture_output=True, text=True, env=env, timeout=120).stdout)
        assert data["full"]
        assert data["code"] == 0
    blocked = dict(os.environ, XDG_CACHE_HOME=str(tmp_path / "file-not-dir"))
    Path(tmp_path / "file-not-dir").write_text("")  # the cache home cannot hold a key
    data = json.loads(subprocess.run(run, capture_output=True, text=True, env=blocked, timeout=120).stdout)
    assert data["full"]
    assert data["code"] == 0
    assert "converged" in data["out"]


def test_the_fingerprint_ignores_the_parse_cache_and_sees_the_state_folder(tmp_path: Path) -> None:
    folder = _done_debate(str(tmp_path / "d"))
    first = Kept(folder, "status").fingerprint
    Path(folder, ".multidebate", "cache", "anything.json").write_text("{}")  # derived: not read by status
    assert Kept(folder, "status").fingerprint == first
    Path(folder, ".multidebate", "acts.jsonl").write_text("")  # a person's act is read by status
    assert Kept(folder, "status").fingerprint != first
    assert Kept(str(tmp_path / "missing"), "status").fingerprint is None
    assert key_of(folder, "a")  # (the debate was written through `write`, with keys)


def test_cli_runner_status_is_unchanged(cli: Cli, tmp_path: Path) -> None:
    folder = _done_debate(str(tmp_path / "d"))
    first = cli("status", folder)
    second = cli("status", folder)
    assert first.code == second.code == 0
    assert first.out == second.out
    assert "verdict: converged" in second.out


def validate(*args: str) -> tuple[int, str, bool]:
    """`multidebate validate ...` in a fresh interpreter: (exit code, stdout, whether it ran its rules)."""
    probe = _PROBE.replace('"status"', '"validate"').replace("multidebate.analysis.verdict", "multidebate.views.validate")
    done = subprocess.run([sys.executable, "-c", probe, json.dumps(["validate", *args])], capture_output=True,
                          text=True, timeout=120)
    data = json.loads(done.stdout)
    return data["code"] or 0, data["out"], data["full"]


@pytest.mark.parametrize("name", ["rate-limit", "review-keys", "late-joiner"])
def test_a_warm_validate_prints_what_a_full_one_prints_and_sees_an_edit(tmp_path: Path, name: str) -> None:
    folder = str(tmp_path / name)
    shutil.copytree(ROOT / "examples" / name, folder, ignore=shutil.ignore_patterns("cache"))
    for flags in ((), ("--json",), ("--strict",)):
        cold = validate(folder, *flags)
        warm = validate(folder, *flags)
        assert warm[:2] == cold[:2], (name, flags)
        assert not warm[2], (name, flags)
    turn = sorted(Path(folder).glob("turn-1-*.md"))[0]
    before = turn.stat()
    text = turn.read_text()
    turn.write_text(text[:-2] + ("x" if text[-2] != "x" else "y") + text[-1:])  # one byte, same size: E080
    os.utime(turn, ns=(before.st_atime_ns, before.st_mtime_ns))
    code, out, full = validate(folder)
    assert full
    assert code == 1
    assert "E080" in out
    assert validate(folder)[:2] == (code, out)


def test_validate_of_files_or_several_paths_keeps_nothing(tmp_path: Path) -> None:
    folder = _done_debate(str(tmp_path / "d"))
    code, out, full = validate(str(Path(folder, "turn-1-a.md")))
    assert full
    assert code == 0
    assert not _kept(folder, "validate").exists()
    code, out, full = validate(folder, folder)
    assert full
    assert not _kept(folder, "validate").exists()


def test_a_forged_snapshot_with_a_lone_surrogate_is_no_traceback(tmp_path: Path) -> None:
    folder = _done_debate(str(tmp_path / "d"))
    status(folder)
    kept = json.loads(_kept(folder).read_text())
    kept["payload"]["text"] = "\ud800 forged"
    _kept(folder).write_text(json.dumps(kept))  # json escapes the surrogate: "\ud800"
    code, out, full = status(folder)
    assert code == 0
    assert full
    assert "verdict: converged" in out
