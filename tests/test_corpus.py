"""The measured quality of the comparison, the verdict and the quote check must not regress.

Thresholds on fixed, labelled data from real debates (bench/corpus/, see its
README); never on time.  The numbers are printed by `python bench/verdicts.py`
and `python bench/quotes.py` and quoted in docs/measurements.md.
"""

from __future__ import annotations

import importlib.util
import os
import sys
from types import ModuleType
from typing import Any

import pytest

BENCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "bench")


def _bench(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(f"bench_{name}", os.path.join(BENCH, f"{name}.py"))
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def verdicts() -> Any:
    return _bench("verdicts")


def test_the_corpus_is_as_large_as_promised(verdicts: Any) -> None:
    pairs = verdicts.load_pairs()
    assert len(pairs) >= 200
    assert {p["split"] for p in pairs} == {"dev", "test"}
    assert all(p["label"] in ("same", "different", "unclear") and len(p["annotators"]) == 2 for p in pairs)
    debates = verdicts.load_expected()
    built_to_disagree = [d for d in debates if d["folder"].startswith("bench/corpus/debates/")]
    assert len(built_to_disagree) >= 15
    assert all(len(d["expected"]) >= 3 for d in built_to_disagree)
    ended_without_agreement = [d for d in debates if d["expected"][-1] in ("stalled", "max_turns")]
    assert len(ended_without_agreement) >= 3


def test_no_different_pair_of_the_dev_split_is_called_the_same(verdicts: Any) -> None:
    dev = verdicts.pair_scores(verdicts.load_pairs())["dev"]
    assert dev["false_same"] == 0
    assert dev["false_different"] == 0
    assert dev["unsure_share"] <= 0.50  # old-protocol lines reworded every turn; see docs/measurements.md


def test_held_out_pairs_stay_at_their_measured_level(verdicts: Any) -> None:
    """The numbers on the test split (d44-d63) as docs/measurements.md gives them, with how they were taken."""
    test = verdicts.pair_scores(verdicts.load_pairs())["test"]
    assert test["pairs"] >= 180
    assert test["false_same"] == 0
    assert test["false_different"] == 0
    assert test["unsure_share"] <= 0.49


# #32: a consensus is one line, word for word.  The expected verdicts are a careful reader's, labelled before that
# rule (agreement in other words was `converged`); the strict rule waits where sessions of the old skill agreed in
# other words: never a false end, a turn later at most.  These are the only misses it may have.
WAITS = {("converged", "unconfirmed"), ("converged", "max_turns"), ("latent", "in_progress"), ("hollow", "max_turns")}
OLD_SKILL = ("bench/corpus/debates/d0", "bench/corpus/debates/d10", "bench/corpus/debates/d11",
             "bench/corpus/debates/d12", "examples/")


def test_verdicts_on_every_turn_prefix(verdicts: Any) -> None:
    result = verdicts.prefix_scores(verdicts.load_expected())
    assert result["false_hollow"] == 0
    assert result["false_converged"] == 0
    assert result["by_split"]["test"]["accuracy"] == 1.0
    for miss in result["wrong"]:  # "FOLDER after turn K: expected X, got Y"
        folder, rest = miss.split(" after turn ", 1)
        expected, got = rest.split(": expected ", 1)[1].split(", got ")
        assert (expected, got) in WAITS, miss
        assert folder.startswith(OLD_SKILL), miss
    assert result["accuracy"] >= 0.90


def test_the_quote_check_raises_no_false_flag() -> None:
    result = _bench("quotes").measure()
    assert result["labelled"] >= 100
    assert result["judged"] >= 60
    assert result["false_flags"] == 0
