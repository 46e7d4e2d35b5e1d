"""Golden files: each tests/fixtures/turns/<case>/ holds one turn file and what the reader must make of it.

A new case is a new folder; run `python tests/golden.py` to write its
expected.json, then read that file before committing it.
"""

from __future__ import annotations

import json
import os

import pytest
from golden import FIXTURES, cases, describe


@pytest.mark.parametrize("case", cases())
def test_reader_matches_golden(case: str) -> None:
    with open(os.path.join(FIXTURES, case, "expected.json"), encoding="utf-8") as handle:
        expected = json.load(handle)
    assert describe(os.path.join(FIXTURES, case)) == expected


def test_there_are_enough_cases() -> None:
    assert len(cases()) >= 25
