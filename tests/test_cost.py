"""bench/cost.py (#36 item 4): the end, the characters served and the accuracy, replayed from the files."""

from __future__ import annotations

import importlib.util
import os
import sys
from pathlib import Path
from types import ModuleType

from helpers import make_debate

BENCH = Path(__file__).resolve().parent.parent / "bench" / "cost.py"


def cost() -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_cost", BENCH)
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


def test_a_debate_unanimous_at_turn_1_costs_one_turn_of_briefings(tmp_path: Path) -> None:
    bench = cost()
    for parent in bench.PARENTS:
        os.makedirs(tmp_path / parent)
    line = "**Use TOML.**"
    make_debate(str(tmp_path / "bench/corpus/debates/one"), [{"a": line, "b": line}], participants=("a", "b"))
    make_debate(str(tmp_path / "bench/dogfood/d99"), [{"a": line, "b": "**Use YAML.**"},
                                                      {"a": (line, True), "b": (line, True)}])
    after = bench.measure(str(tmp_path))["debates"]
    one, d99 = after["bench/corpus/debates/one"], after["bench/dogfood/d99"]
    assert (one["end_state"], one["end_turn"], one["states"]) == ("unanimous", 1, ["unanimous"])
    assert [(s["turn"], s["slug"]) for s in one["served"]] == [(1, "a"), (1, "b")]
    assert (d99["end_state"], d99["end_turn"]) == ("converged", 2)
    assert [s["turn"] for s in d99["served"]] == [1, 1, 2, 2]
    assert d99["served"][2]["peer_chars"] > 0
    # the comparison with an older side: what changed is listed, and the totals add up
    before = {"debates": {**after, "bench/corpus/debates/one": {**one, "end_state": "converged", "end_turn": 2,
                                                                   "served": one["served"] * 2}}}
    result = bench.summary(before, {"debates": after})
    group = result["groups"]["corpus (d01-d64)"]
    assert (group["turns_before"], group["turns_after"], group["ended_earlier"]) == (2, 1, 1)
    assert group["briefings_before"] == 4
    assert group["briefings_after"] == 2
    assert result["changed"][0]["after"] == "unanimous at 1"
    assert "| corpus (d01-d64) | 1 | 2 → 1 | 1 |" in bench.markdown(result)
