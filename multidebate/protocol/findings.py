"""Findings: what the validator (and the lenient reader) has to say about a file.

Findings are values, not exceptions.  Every code has one `Rule` in `CODES`,
the one table docs/findings.md is checked against (tests/test_docs.py): its
severity, its title, and how `write` treats a finding of it in the sections a
session gives.
"""

from __future__ import annotations

from typing import Literal, NamedTuple

from .oneline import one_line

__all__ = ["Finding", "OnWrite", "Rule", "Severity", "CODES", "finding"]

Severity = Literal["error", "warning"]

# What `write` does when the sections it is given have a finding of a code:
#   refuse           nothing is written; listed as `line N: <message>`, then `: <fix>` when the rule has one
#   refuse_with_fix  nothing is written; listed as the fix alone (the finding's message is beside the point)
#   normalise        written in canonical form, and said so (`normalised: <message>`)
#   ignore           written as is (e.g. a missing title: write adds it)
OnWrite = Literal["refuse", "refuse_with_fix", "normalise", "ignore"]


class Rule(NamedTuple):
    """One finding code: its severity, short title, how `write` treats it, and what `write` tells the session to do.

    Severity comes first: readers of stored findings take `CODES[code][0]` as a code's severity.
    """

    severity: Severity
    title: str
    on_write: OnWrite
    fix: str = ""


# code -> its rule.  Codes are stable: never renumber one.
CODES: dict[str, Rule] = {
    "E001": Rule("error", "unreadable file", "refuse"),
    "E002": Rule("error", "not UTF-8 text", "refuse"),
    "E003": Rule("error", "binary file", "refuse"),
    "E004": Rule("error", "empty file", "refuse"),
    "E005": Rule("error", "file over 1 MiB", "refuse"),
    "E006": Rule("error", "symbolic link (never followed)", "refuse"),
    "E007": Rule("error", "not a regular file", "refuse"),
    "E008": Rule("error", "cannot be parsed (pathological structure)", "refuse"),
    "E010": Rule("error", "frontmatter is not valid YAML", "refuse_with_fix",
                 "remove the frontmatter (the `---` block): write adds its own"),
    "E020": Rule("error", "title missing", "ignore"),  # write adds the title
    "E021": Rule("error", "title contradicts the file name", "refuse"),
    "E022": Rule("error", "frontmatter turn or slug contradicts the file name", "refuse"),
    "E030": Rule("error", "section missing", "refuse"),
    "E031": Rule("error", "section duplicated", "refuse"),
    "E032": Rule("error", "section empty", "refuse"),
    "E040": Rule("error", "confidence is not an integer", "refuse"),
    "E041": Rule("error", "confidence out of range 0-100", "refuse"),
    "E050": Rule("error", "converged is not yes or no", "refuse"),
    "E051": Rule("error", "turn 1 says converged yes", "refuse"),
    "E060": Rule("error", "names a slug that is no participant", "refuse"),
    "E070": Rule("error", "gap: turn N without turn N-1", "refuse"),
    "E071": Rule("error", "name looks like a failed turn file", "refuse"),
    "E072": Rule("error", "slug not on the roster", "refuse"),
    "E073": Rule("error", "TASK.md is invalid", "refuse"),
    "E080": Rule("error", "turn file changed after it was written", "refuse"),
    "E081": Rule("error", "turn file deleted after it was written", "refuse"),
    "E082": Rule("error", "ledger damaged (broken hash chain)", "refuse"),
    "E083": Rule("error", "session was served a file of its own turn or later", "refuse"),
    "E084": Rule("error", "peer file changed after the session read it", "refuse"),
    "E087": Rule("error", "a file another turn read is gone", "refuse"),
    "E086": Rule("error", "an entry of .multidebate/ is a symlink or not a regular file or folder", "refuse"),
    "E085": Rule("error", "turn file not written by `write` under a slug held by a key", "refuse"),
    "E088": Rule("error", "a line of a state record (acts.jsonl, run/turns.jsonl) is no record", "refuse"),
    "E100": Rule("error", "turn does not fit the writer's role (critic: Findings; defender: Responses)", "refuse"),
    "E101": Rule("error", "finding or response lacks a field", "refuse"),
    "E102": Rule("error", "severity is not an integer 0-10", "refuse"),
    "E103": Rule("error", "class unknown or inconsistent with severity", "refuse"),
    "E104": Rule("error", "names a finding id no critic raised", "refuse"),
    "E105": Rule("error", "open finding left unanswered by the defender", "refuse"),
    "E106": Rule("error", "move without its fix, test or reason", "refuse"),
    "E107": Rule("error", "re-raise without new evidence, or rescore without a severity", "refuse"),
    "E108": Rule("error", "unknown move or answer", "refuse"),
    "E109": Rule("error", "finding id used twice", "refuse"),
    "E110": Rule("error", "judgment lacks a section, or written before the debate ended", "refuse"),
    "E111": Rule("error", "judgment not written through `write` by the judge, changed since, or not due", "refuse"),
    "W001": Rule("warning", "byte order mark", "normalise"),
    "W002": Rule("warning", "CRLF or CR line endings", "normalise"),
    "W020": Rule("warning", "title not in canonical form", "normalise"),
    "W030": Rule("warning", "section heading not level 2", "normalise"),
    "W031": Rule("warning", "section name not exact", "normalise"),
    "W032": Rule("warning", "sections out of order", "normalise"),
    "W033": Rule("warning", "extra section", "refuse",
                 "remove the extra section or fold it into `## Reasoning` or `## Answer` as a `###` subsection"),
    "W034": Rule("warning", "Agreements or Disagreements in turn 1", "refuse",
                 "turn 1 has no `## Agreements` or `## Disagreements`; remove them"),
    "W035": Rule("warning", "section written as an inline label", "refuse",
                 "write the value under its own `## <Section>` heading"),
    "W036": Rule("warning", "disagreement rated with an unknown severity", "refuse",
                 "rate it `[critical]`, `[major]` or `[minor]`, or leave the rating out"),
    "W040": Rule("warning", "confidence not a bare integer", "normalise"),
    "W050": Rule("warning", "converged not in canonical form", "normalise"),
    "W060": Rule("warning", "names a peer absent from turn N-1 without saying so", "ignore"),
    "W070": Rule("warning", "turn beyond the roster's max_turns", "ignore"),
    "W090": Rule("warning", "attributes to a peer what its previous turn does not support", "ignore"),
    "W100": Rule("warning", "evidence quotes nothing in the proposal", "ignore"),
    "W101": Rule("warning", "proposal changed since the debate began", "ignore"),
    "W080": Rule("warning", "turn file has no ledger entry (written by hand or by an interrupted write)", "ignore"),
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
    """A Finding whose severity comes from the code table.  Its message is one line, escaped: the values
    it quotes come from files, and a newline in one would print lines that read as the tool's own."""
    return Finding(path, max(line, 1), code, CODES[code].severity, one_line(message))
