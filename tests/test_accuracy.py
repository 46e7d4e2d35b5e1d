"""`bench/accuracy.py`: every shipped accuracy debate re-scored in one command (#28), on debates built here.

No debate data is made up for the repository: each test builds its own tiny
debate through the CLI, as sessions do (`next`, then `write` with the key).
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest
from conftest import Cli
from helpers import Debate, turn_body

BENCH = Path(__file__).resolve().parent.parent / "bench" / "accuracy.py"


@pytest.fixture(scope="module")
def accuracy() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_accuracy", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def cli_debate(cli: Cli, folder: Path, turns: list[dict[str, str]]) -> None:
    """A sealed debate of the slugs in `turns`, every turn through `next` and `write --json`, keys kept."""
    code, _, err = cli("init", str(folder), "--task", "Answer Q1-Q4.", "--participants", ",".join(turns[0]),
                       "--sealed")
    assert code == 0, err
    debate = Debate(str(folder))  # each session keeps the key its first `write` handed it
    for number, row in enumerate(turns, start=1):
        for slug, answer in row.items():
            given = ["--key", debate.key(slug)] if slug in debate.keys else []
            assert cli("next", str(folder), "--slug", slug, *given).code == 0
            converged = number > 1 and len({*row.values()}) == 1
            written = cli.json("write", str(folder), "--slug", slug, *given,
                               input=turn_body(number, answer, converged=converged))
            if slug not in debate.keys:
                debate.keep(slug, written["key"])


def run_bench(accuracy: ModuleType, capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`python bench/accuracy.py ARGS` in this process: its exit code, stdout and stderr."""
    code = accuracy.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_no_debates_yet(accuracy: ModuleType, capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    assert run_bench(accuracy, capsys, "--root", str(tmp_path)) == (0, "no debates yet\n", "")
    (tmp_path / "debates").mkdir()
    code, out, _err = run_bench(accuracy, capsys, "--root", str(tmp_path), "--json")
    assert code == 0
    assert json.loads(out)["note"] == "no debates yet"
    assert json.loads(out)["totals"] is None


def test_the_script_runs_on_its_own(tmp_path: Path) -> None:
    """As documented: `python bench/accuracy.py`, from any folder, without the package on the path."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run([sys.executable, str(BENCH), "--root", str(tmp_path)], cwd=tmp_path, env=env,
                          capture_output=True, text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, "no debates yet\n", "")


def kept_files(root: Path) -> dict[str, bytes]:
    """Every file a repository would keep (the parse cache is local state, ignored by git)."""
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*"))
            if p.is_file() and "cache" not in p.relative_to(root).parts}


@pytest.fixture
def shipped(cli: Cli, tmp_path: Path) -> Path:
    """One debate of three sessions over four items, and its key, laid out as bench/accuracy/ is."""
    cli_debate(cli, tmp_path / "debates" / "tiny", [
        {"a": "**Q1: 12, Q2: C, Q3: 7, Q4: B**", "b": "**Q1: 13, Q2: C, Q3: 7, Q4: A**",
         "c": "**Q1: 12, Q2: D, Q3: 8, Q4: D**"},
        {slug: "**Q1: 12, Q2: C, Q3: 8, Q4: A**" for slug in "abc"},
    ])
    (tmp_path / "keys").mkdir()
    (tmp_path / "keys" / "tiny.txt").write_text("12\nC\n7\nA\n", encoding="utf-8")
    return tmp_path


def test_a_tiny_debate_is_rescored_with_intervals(accuracy: ModuleType, capsys: pytest.CaptureFixture[str],
                                                  shipped: Path) -> None:
    before = kept_files(shipped)
    code, out, err = run_bench(accuracy, capsys, "--root", str(shipped), "--json")
    assert (code, err) == (0, "")
    assert kept_files(shipped) == before  # the debate stays as the sessions wrote it
    data = json.loads(out)
    assert data["items"] == 4
    assert [d["debate"] for d in data["debates"]] == ["tiny"]
    assert data["debates"][0]["final"]["kind"] == "consensus"
    figures: dict[str, Any] = {row["figure"]: row for row in data["totals"]}
    # turn 1: a 3/4, b 3/4, c 1/4 right; the vote: Q1 12, Q2 C, Q3 7 right, Q4 (B, A, D) a tie
    assert (figures["one session, turn 1"]["right"], figures["one session, turn 1"]["n"]) == (7, 12)
    assert (figures["turn-1 vote"]["right"], figures["turn-1 vote"]["n"]) == (3, 4)
    assert (figures["final answer"]["right"], figures["final answer"]["value"]) == (3, 0.75)  # Q3 went 7 -> 8
    assert figures["final - turn-1 vote"]["value"] == 0.0
    assert figures["final - one session"]["value"] == round(3 / 4 - 7 / 12, 4)
    assert (figures["vote -> final: right -> wrong"]["right"], figures["vote -> final: wrong -> right"]["right"]) \
        == (1, 1)
    assert (figures["sessions moved right -> wrong"]["right"], figures["sessions moved wrong -> right"]["right"]) \
        == (2, 4)
    for row in data["totals"]:
        assert row["low"] <= row["value"] <= row["high"], row["figure"]
    code, text, _err = run_bench(accuracy, capsys, "--root", str(shipped))
    assert "| tiny | 4 | 2 | 58.3% | 3/4 (1 ties) | 3/4 | 3/4 (consensus) | 2 / 4 | 1 / 1 |" in text
    assert "| turn-1 vote | 75% (3/4) | 30.1% to 95.4% | wilson |" in text


def test_a_debate_without_its_key_is_an_error(accuracy: ModuleType, capsys: pytest.CaptureFixture[str],
                                              shipped: Path) -> None:
    (shipped / "keys" / "tiny.txt").unlink()
    code, out, err = run_bench(accuracy, capsys, "--root", str(shipped))
    assert (code, out) == (1, "")
    assert err.startswith("Error: no answer key for debate tiny: expected ")


def test_wilson_interval(accuracy: ModuleType) -> None:
    low, high = accuracy.wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    assert accuracy.wilson(0, 10)[0] == 0.0
    assert round(accuracy.wilson(0, 10)[1], 4) == 0.2775
    assert accuracy.wilson(0, 0) == (0.0, 1.0)


def test_bootstrap_is_fixed_by_its_seed_and_covers_the_mean(accuracy: ModuleType) -> None:
    values = [1.0] * 30 + [0.0] * 10 + [-1.0] * 5
    first = accuracy.bootstrap(values)
    assert first == accuracy.bootstrap(values)
    assert first[0] < sum(values) / len(values) < first[1]
    assert accuracy.bootstrap([0.5] * 20) == (0.5, 0.5)
