"""The parse cache: reused only for unchanged files, never trusted over a changed one."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from conftest import Cli
from helpers import make_debate

from multidebate.analysis.verdict import judge
from multidebate.state.debate import load_debate


def _answer(folder: str, turn: int, slug: str) -> str:
    debate = load_debate(folder)
    entry = debate.entry(turn, slug)
    assert entry is not None
    return debate.details(entry).answer


def test_cache_is_written_and_reused(tmp_path: Path) -> None:
    from multidebate.state.cache import report_progress

    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    first = load_debate(folder)
    shard = Path(folder, ".multidebate", "cache", "turn-1.json")
    assert shard.exists()
    assert set(json.loads(shard.read_text())["files"]) == {"turn-1-a.md", "turn-1-b.md"}
    parsed: list[tuple[int, int]] = []  # the cache reports each file it has to parse
    report_progress(lambda done, total: parsed.append((done, total)))
    try:
        second = load_debate(folder)
    finally:
        report_progress(None)
    assert parsed == []  # reused: no file parsed again
    entry, first_entry = second.entry(1, "a"), first.entry(1, "a")
    assert entry is not None
    assert first_entry is not None
    assert second.details(entry).answer == first.details(first_entry).answer
    assert judge(first).detail == judge(second).detail


def test_changed_file_with_same_size_and_mtime_is_read_again(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"}])
    assert "TOML" in _answer(folder, 1, "a")
    path = Path(folder, "turn-1-a.md")
    before = os.stat(path)
    text = path.read_text().replace("TOML", "JSON")  # same length
    path.write_text(text)
    os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))  # an editor that restores the mtime
    assert os.stat(path).st_size == before.st_size
    assert os.stat(path).st_mtime_ns == before.st_mtime_ns
    assert "JSON" in _answer(folder, 1, "a")  # ctime changed: the cache is not trusted


def test_damaged_or_foreign_cache_is_ignored(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**"}])
    load_debate(folder)
    cache = Path(folder, ".multidebate", "cache")
    for shard in cache.iterdir():
        shard.write_text("{not json")
    assert "TOML" in _answer(folder, 1, "a")
    (cache / "turn-1.json").write_text(json.dumps({"stamp": "other", "files": {"turn-1-a.md": [[1], {}]}}))
    assert "TOML" in _answer(folder, 1, "a")


def test_a_cache_shard_that_cannot_be_written_still_works(tmp_path: Path) -> None:
    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**"}])
    Path(folder, ".multidebate", "cache").mkdir(parents=True, exist_ok=True)
    Path(folder, ".multidebate", "cache", "turn-1.json").mkdir()  # cannot be replaced by a file
    assert "TOML" in _answer(folder, 1, "a")


def test_warm_status_and_next_load_only_what_they_use(tmp_path: Path) -> None:
    """Start-up is most of a warm run's time: no parser, no other command, no tempfile (bench/ has the figures)."""
    from helpers import key_of

    folder = make_debate(str(tmp_path / "d"), [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
                                               {"a": "**Use TOML.**", "b": "**Use TOML.**"}])
    load_debate(folder)
    judge(load_debate(folder))  # warm the signature shards too
    unwanted = ("mistune", "yaml", "frontmatter", "watchdog", "tempfile", "multidebate.protocol.parse", "multidebate.views.report",
                "multidebate.views.watch", "multidebate.analysis.trajectory", "multidebate.skill.install", "multidebate.cli.skill_cmds",
                "multidebate.cli.view_cmds", "multidebate.cli.turn_cmds")
    for args in (["status", folder], ["next", folder, "--slug", "a", "--key", key_of(folder, "a")]):
        # the console script's way in (click.testing would import tempfile itself)
        code = (f"import sys; sys.argv = ['multidebate', *{args!r}]; from multidebate.cli import main\n"
                "try:\n    main()\nexcept SystemExit as exc:\n    assert not exc.code, exc.code\n"
                f"print(sorted(m for m in sys.modules if m in {unwanted!r} or m.split('.')[0] in {unwanted!r}), "
                "file=sys.stderr)")
        err = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stderr
        expected = ["multidebate.cli.view_cmds"] if args[0] == "status" else ["multidebate.cli.turn_cmds"]
        assert err.strip().splitlines()[-1] == repr(expected), (args[0], err)


def test_warm_answers_equal_cold_ones_on_every_example_and_hostile_file(cli: Cli, tmp_path: Path) -> None:
    import shutil

    from helpers import make_debate as make
    from hostile_corpus import CASES


    root = Path(__file__).resolve().parent.parent / "examples"
    folders = []
    for example in sorted(root.iterdir()):
        copy = tmp_path / example.name
        shutil.copytree(example, copy, ignore=shutil.ignore_patterns("cache"))
        folders.append(copy)
    hostile = Path(make(str(tmp_path / "hostile"), [{"a": "**Use TOML.**"}]))
    for index, case in enumerate(CASES):
        if case.name == "turn-1-h.md":
            case.make(str(hostile / f"turn-{index + 1}-h.md"))
    folders.append(hostile)
    for folder in folders:
        outputs = []
        for _ in range(2):  # cold (parsing), then warm (from the cache)
            outputs.append([cli(cmd, str(folder), "--json").out
                            for cmd in ("status", "validate")])
        cold = [json.loads(o) for o in outputs[0]]
        warm = [json.loads(o) for o in outputs[1]]
        for data in (cold[0], warm[0]):
            data.pop("waiting_seconds", None)
            for dropout in data["dropouts"]:  # time passes between the two runs
                dropout.pop("idle_seconds")
        assert cold == warm, folder.name


def test_lost_or_damaged_details_shards_give_the_same_answers(cli: Cli, tmp_path: Path) -> None:
    """Mentions, signatures and vocabularies live in each turn's details shard; losing or harming one costs a
    parse, never an answer, and the next reader writes it again."""


    turns = [{"a": "**Use TOML.**", "b": "**Use YAML.**"},
             {"a": "**Use TOML, as b now agrees.**", "b": "**Use TOML.** b says a was right about comments."}]
    folder = make_debate(str(tmp_path / "d"), turns)
    cache = Path(folder, ".multidebate", "cache")

    def answers() -> list[object]:
        return [cli(cmd, folder, "--json").json() for cmd in ("validate", "status")]

    cold = answers()
    cold[1].pop("waiting_seconds", None)  # type: ignore[attr-defined]
    assert sorted(p.name for p in cache.glob("turn-*.json")) == [
        "turn-1.details.json", "turn-1.json", "turn-2.details.json", "turn-2.json"]  # two kinds of shard
    stamp = json.loads((cache / "turn-1.json").read_text())["stamp"]
    identities = {n: r[0] for n, r in json.loads((cache / "turn-2.details.json").read_text())["files"].items()}
    for harm in ("delete", "damage", "foreign record", "malformed record", "short record"):
        for turn in (1, 2):
            shard = cache / f"turn-{turn}.details.json"
            names = [f"turn-{turn}-a.md", f"turn-{turn}-b.md"]
            if harm == "delete":
                shard.unlink(missing_ok=True)
            elif harm == "damage":
                shard.write_text("{not json")
            elif harm == "foreign record":
                shard.write_text(json.dumps({"stamp": stamp, "files": {n: [[0, 0, 0, 0], 1, 2, 3, 4, 5, 6]
                                                                       for n in names}}))
            elif harm == "short record":
                shard.write_text(json.dumps({"stamp": stamp, "files": {
                    n: [identities.get(n, [0, 0, 0, 0]), [], None] for n in names}}))
            else:  # the file's own identity, fields of the wrong shape
                shard.write_text(json.dumps({"stamp": stamp, "files": {
                    n: [identities.get(n, [0, 0, 0, 0]), "x", None, 7, ["no"], "", ""] for n in names}}))
        got = answers()
        got[1].pop("waiting_seconds", None)  # type: ignore[attr-defined]
        assert got == cold, harm
    answers()
    answers()  # a harmed shard is dropped when read, and written again by the next reader
    for turn in (1, 2):
        data = json.loads((cache / f"turn-{turn}.details.json").read_text())
        assert data["stamp"] == stamp
        assert sorted(data["files"]) == [f"turn-{turn}-a.md", f"turn-{turn}-b.md"]


def test_a_change_to_any_module_invalidates_the_cache(tmp_path: Path) -> None:
    """The version stays the same while code is worked on: the stamp follows every module file of the package,
    in sub-packages too, and not a hand-kept list (one once missed the ledger)."""
    import shutil
    import subprocess as sp
    import time

    import multidebate
    from multidebate.state.cache import code_stamp

    package = tmp_path / "multidebate"
    shutil.copytree(Path(multidebate.__file__).parent, package, ignore=shutil.ignore_patterns("__pycache__"))
    before = code_stamp(str(package))
    assert code_stamp(str(package)) == before  # stable
    ledger = package / "state" / "ledger.py"
    later = time.time() + 5
    os.utime(ledger, (later, later))  # same size, new mtime, in a module that does not parse
    touched = code_stamp(str(package))
    assert touched != before
    (package / "state" / "new_module.py").write_text("")  # a module added
    assert code_stamp(str(package)) != touched
    (package / "__pycache__").mkdir()
    (package / "__pycache__" / "x.py").write_text("")  # compiled caches do not count
    added = code_stamp(str(package))
    code = f"from multidebate.state.cache import code_stamp; print(code_stamp({str(package)!r}))"
    again = sp.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.strip()
    assert again == added  # the same in another process
