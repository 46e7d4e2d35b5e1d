"""Whether the judgment file is the judge's: written through `write` (its ledger entry, the bytes it recorded)
and only once it was due.

A `judgment-<judge>.md` anyone wrote by hand, even mid-debate, used to be shown by `status` and `report` as
"judgment by <judge>", pass `validate`, and tell the real judge it had written its judgment already.  A
judgment with no ledger entry of the judge, or whose bytes differ from the entry, or that exists while no
judgment is due, is a finding (E111), left out of `status` and `report`; the judge is still asked for its own.
"""

from __future__ import annotations

import hashlib
import os
from typing import NamedTuple

from ..protocol.findings import Finding, finding
from ..protocol.judgment import Judgment, judgment_name, read_judgment
from ..state.debate import Debate
from ..state.ledger import read_ledger
from .verdict import Verdict, judgment_due

__all__ = ["JudgmentCheck", "check_judgment"]


class JudgmentCheck(NamedTuple):
    """The judgment to show (None: none, or not the judge's), and what is wrong with the file there."""

    judgment: Judgment | None
    findings: tuple[Finding, ...]
    present: bool  # a file of that name exists, shown or not


def _file_bytes(path: str) -> bytes | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as handle:
        return handle.read(1024 * 1024 + 1)


def check_judgment(debate: Debate, verdict: Verdict) -> JudgmentCheck:
    """The debate's judgment, if its judge wrote it through `write` when it was due."""
    task = debate.task
    judge = task.judge if task is not None else None
    judgment = read_judgment(debate.folder, judge)
    if judge is None or judgment is None:
        return JudgmentCheck(None, (), False)
    name = judgment_name(judge)
    data = _file_bytes(judgment.path)
    recorded = [e for e in read_ledger(debate.folder, judge).entries if e.file == name]
    problem = ""
    if not recorded:
        problem = (f"{name} has no ledger entry of `{judge}`: it was not written by `multidebate write` as the judge "
                   "(hand-written or copied), so it is no judgment; remove it")
    elif data is None or hashlib.sha256(data).hexdigest() != recorded[-1].sha256:
        problem = (f"{name} changed after the judge wrote it (its sha256 differs from the ledger's): it is no "
                   "longer the judge's judgment; restore it or remove it")
    elif not judgment_due(task, verdict):
        problem = (f"{name} exists while no judgment is due (the debate is {verdict.state}): a judgment written "
                   "before the debate ended, or for one that agreed, is not shown")
    if problem:
        return JudgmentCheck(None, (*judgment.findings, finding(judgment.path, 1, "E111", problem)), True)
    return JudgmentCheck(judgment, judgment.findings, True)
