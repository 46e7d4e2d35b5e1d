"""Findings: what the validator (and the lenient reader) has to say about a file.

Findings are values, not exceptions.  Every code lives in `CODES`, the one
table docs/findings.md is checked against (tests/test_docs.py).
"""

from __future__ import annotations

from typing import Literal, NamedTuple

__all__ = ["Finding", "Severity", "CODES", "finding"]

Severity = Literal["error", "warning"]

# code -> (severity, short name).  Codes are stable: never renumber one.
CODES: dict[str, tuple[Severity, str]] = {
    "E001": ("error", "unreadable file"),
    "E002": ("error", "not UTF-8 text"),
    "E003": ("error", "binary file"),
    "E004": ("error", "empty file"),
    "E005": ("error", "file over 1 MiB"),
    "E006": ("error", "symbolic link (never followed)"),
    "E007": ("error", "not a regular file"),
    "E008": ("error", "cannot be parsed (pathological structure)"),
    "E010": ("error", "frontmatter is not valid YAML"),
    "E020": ("error", "title missing"),
    "E021": ("error", "title contradicts the file name"),
    "E022": ("error", "frontmatter turn or slug contradicts the file name"),
    "E030": ("error", "section missing"),
    "E031": ("error", "section duplicated"),
    "E032": ("error", "section empty"),
    "E040": ("error", "confidence is not an integer"),
    "E041": ("error", "confidence out of range 0-100"),
    "E050": ("error", "converged is not yes or no"),
    "E051": ("error", "turn 1 says converged yes"),
    "E060": ("error", "names a slug that is no participant"),
    "E070": ("error", "gap: turn N without turn N-1"),
    "E071": ("error", "name looks like a failed turn file"),
    "E072": ("error", "slug not on the roster"),
    "E073": ("error", "TASK.md is invalid"),
    "E080": ("error", "turn file changed after it was written"),
    "E081": ("error", "turn file deleted after it was written"),
    "E082": ("error", "ledger damaged (broken hash chain)"),
    "E083": ("error", "session was served a file of its own turn or later"),
    "E084": ("error", "peer file changed after the session read it"),
    "E087": ("error", "a file another turn read is gone"),
    "E086": ("error", "an entry of .multidebate/ is a symlink or not a regular file or folder"),
    "E085": ("error", "turn file not written by `write` under a slug held by a key"),
    "E100": ("error", "turn does not fit the writer's role (critic: Findings; defender: Responses)"),
    "E101": ("error", "finding or response lacks a field"),
    "E102": ("error", "severity is not an integer 0-10"),
    "E103": ("error", "class unknown or inconsistent with severity"),
    "E104": ("error", "names a finding id no critic raised"),
    "E105": ("error", "open finding left unanswered by the defender"),
    "E106": ("error", "move without its fix, test or reason"),
    "E107": ("error", "re-raise without new evidence, or rescore without a severity"),
    "E108": ("error", "unknown move or answer"),
    "E109": ("error", "finding id used twice"),
    "E110": ("error", "judgment lacks a section, or written before the debate ended"),
    "W001": ("warning", "byte order mark"),
    "W002": ("warning", "CRLF or CR line endings"),
    "W020": ("warning", "title not in canonical form"),
    "W030": ("warning", "section heading not level 2"),
    "W031": ("warning", "section name not exact"),
    "W032": ("warning", "sections out of order"),
    "W033": ("warning", "extra section"),
    "W034": ("warning", "Agreements or Disagreements in turn 1"),
    "W035": ("warning", "section written as an inline label"),
    "W036": ("warning", "disagreement rated with an unknown severity"),
    "W040": ("warning", "confidence not a bare integer"),
    "W050": ("warning", "converged not in canonical form"),
    "W060": ("warning", "names a peer absent from turn N-1 without saying so"),
    "W070": ("warning", "turn beyond the roster's max_turns"),
    "W090": ("warning", "attributes to a peer what its previous turn does not support"),
    "W100": ("warning", "evidence quotes nothing in the proposal"),
    "W101": ("warning", "proposal changed since the debate began"),
    "W080": ("warning", "turn file has no ledger entry (written by hand or by an interrupted write)"),
}


class Finding(NamedTuple):
    """One thing a rule found: sortable into path, line, code order (a NamedTuple: cheap to build and sort)."""

    path: str
    line: int
    code: str
    severity: Severity
    message: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.code} {self.message}"

    def as_dict(self) -> dict[str, object]:
        return {
            "path": self.path,
            "line": self.line,
            "code": self.code,
            "severity": self.severity,
            "message": self.message,
        }


def finding(path: str, line: int, code: str, message: str) -> Finding:
    """A Finding whose severity comes from the code table."""
    return Finding(path, max(line, 1), code, CODES[code][0], message)
