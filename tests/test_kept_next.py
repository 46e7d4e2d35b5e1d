"""A warm `next` prints what the last full run printed, only while nothing it read has changed (#34, item 8).

Each promise of turns/kept_next.py is attacked: the kept output is a full run's with a fresh fence, an edit
to a peer file is seen though its size and mtime are put back, a forged kept output is not believed, the key
is never stored, another key is refused as before, and the reading record `write` needs stays true.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

from helpers import key_of, make_debate, turn_body, write_keyed

_PROBE = """
import contextlib, io, json, sys
sys.argv = ["multidebate"] + json.loads(sys.argv[1])
out, err = io.StringIO(), io.StringIO()
code = 0
try:
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        from multidebate.cli import main
        main()
except SystemExit as exc:
    code = exc.code
print(json.dumps({"code": code or 0, "out": out.getvalue(), "err": err.getvalue(),
                  "full": "multidebate.turns.briefing" in sys.modules}))
"""
FENCE = re.compile(r"\[([0-9a-f]{8})\]")


def next_(*args: str) -> tuple[int, str, bool, str]:
    """`multidebate next ...` in a fresh interpreter: (exit code, stdout, whether it ran in full, stderr)."""
    done = subprocess.run([sys.executable, "-c", _PROBE, json.dumps(["next", *args])], capture_output=True,
                          text=True, timeout=120)
    data = json.loads(done.stdout)
    return data["code"], data["out"], data["full"], data["err"]


def _debate(folder: str) -> str:
    return make_debate(folder, [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
                                {"a": "**Use TOML, for comments.**", "b": "**Use YAML.**"}], participants=("a", "b"))


def _kept_files(folder: str) -> list[Path]:
    return sorted(Path(folder, ".multidebate", "cache").glob("next-*.json"))


def test_a_warm_next_prints_the_full_runs_answer_with_a_new_fence(tmp_path: Path) -> None:
    folder = _debate(str(tmp_path / "d"))
    key = key_of(folder, "a")
    outs = [next_(folder, "--slug", "a", "--key", key) for _ in range(3)]
    assert [full for _c, _o, full, _e in outs] == [True, False, False]  # the first run keeps; later ones print it
    texts = [out for _c, out, _f, _e in outs]
    fences = [set(FENCE.findall(text)) for text in texts]
    assert all(len(f) == 1 for f in fences)
    assert len(set.union(*fences)) == 3  # drawn afresh every run
    unfenced = {FENCE.sub("[F]", text) for text in texts}
    assert len(unfenced) == 1
    assert f"--key {key}" in texts[1]
    assert "<<<PEER b [" in texts[1]
    warm_json = next_(folder, "--slug", "a", "--key", key, "--json")
    assert json.loads(next_(folder, "--slug", "a", "--key", key, "--json")[1]) == json.loads(warm_json[1])
    for kept in _kept_files(folder):
        assert key not in kept.read_text(encoding="utf-8")  # the key is never stored


def test_an_edited_peer_file_is_seen_though_its_size_and_mtime_are_put_back(tmp_path: Path) -> None:
    folder = _debate(str(tmp_path / "d"))
    key = key_of(folder, "a")
    next_(folder, "--slug", "a", "--key", key)
    assert not next_(folder, "--slug", "a", "--key", key)[2]
    path = Path(folder, "turn-2-b.md")
    before = path.stat()
    path.write_text(path.read_text().replace("**Use YAML.**", "**Use JSON.**"))  # same size
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # ctime cannot be put back
    code, out, full, _err = next_(folder, "--slug", "a", "--key", key)
    assert full
    assert "Use JSON" in out
    assert "Use YAML" not in out.split("BOLD LINES", 1)[-1]


def test_a_forged_kept_output_is_not_believed(tmp_path: Path) -> None:
    folder = _debate(str(tmp_path / "d"))
    key = key_of(folder, "a")
    next_(folder, "--slug", "a", "--key", key)
    next_(folder, "--slug", "a", "--key", key)
    [kept_path] = _kept_files(folder)
    kept = json.loads(kept_path.read_text(encoding="utf-8"))
    kept["payload"]["template"] = kept["payload"]["template"].replace("Use YAML", "Use XML!")
    kept_path.write_text(json.dumps(kept), encoding="utf-8")  # its HMAC no longer matches
    code, out, full, _err = next_(folder, "--slug", "a", "--key", key)
    assert full
    assert code == 0
    assert "Use XML" not in out
    assert "Use YAML" in out


def test_another_key_is_refused_as_before_and_the_reading_record_stays_true(tmp_path: Path) -> None:
    folder = _debate(str(tmp_path / "d"))
    key = key_of(folder, "a")
    next_(folder, "--slug", "a", "--key", key)
    assert not next_(folder, "--slug", "a", "--key", key)[2]
    code, out, _full, err = next_(folder, "--slug", "a", "--key", "0" * len(key))
    assert code == 1
    assert "Use YAML" not in out
    assert "key" in err
    served = Path(folder, ".multidebate", "served", "a.turn-3.json")
    served.unlink()  # what `write` reads to record the peer files read
    code, _out, full, _err = next_(folder, "--slug", "a", "--key", key)
    assert code == 0
    assert full
    assert served.exists()
    written = write_keyed(folder, "a", turn_body(3, "**Use TOML.**").encode())
    assert [name for name, _digest in written.peers_read] == ["turn-2-b.md"]


def test_a_new_peer_file_is_served_at_once(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}, {"a": "**Use TOML.**"}],
                         participants=("a", "b"))
    key = key_of(folder, "a")
    next_(folder, "--slug", "a", "--key", key)
    waiting = next_(folder, "--slug", "a", "--key", key)[1]
    assert "b has not written turn 2 yet" in waiting
    write_keyed(folder, "b", turn_body(2, "**Use INI.**").encode())
    code, out, full, _err = next_(folder, "--slug", "a", "--key", key)
    assert full
    assert "Use INI" in out
    assert "has not written" not in out
