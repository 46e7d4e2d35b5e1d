"""The validator: every rule of the format over files and folders, as sorted findings.

Per-file rules live in the reader (parse.py, textfile.py); the rules here
need the folder: names, gaps, the roster, and the peers a turn names.
"""

from __future__ import annotations

import os
from collections.abc import Iterable

from .debate import Debate, Entry, load_debate, read_entry
from .errors import FolderError
from .findings import Finding, finding
from .folder import TurnEntry
from .integrity import integrity_findings
from .quotes import check_attributions
from .naming import canonical_guess, parse_turn_name
from .textfile import read_text

__all__ = ["validate_debate", "validate_paths", "exit_code"]


def _sorted(found: list[Finding]) -> list[Finding]:
    """Unique findings in path, line, code order (a key tuple: far faster than dataclass comparisons)."""
    return sorted(set(found), key=lambda f: (f.path, f.line, f.code, f.message))


def _name_findings(debate: Debate) -> list[Finding]:
    found = []
    real = {t.filename for t in debate.scan.turns}
    for name in debate.scan.attempts:
        path = os.path.join(debate.folder, name)
        guess = canonical_guess(name)
        if guess and guess in real:
            message = f"is not a turn file name; it duplicates `{guess}`, which exists: remove one"
        elif guess:
            message = f"is not a turn file name and is ignored; did you mean `{guess}`?"
        else:
            message = "is not a turn file name and is ignored; use `turn-<N>-<slug>.md`"
        found.append(finding(path, 1, "E071", message))
    return found


def _folder_findings(debate: Debate) -> list[Finding]:
    found: list[Finding] = []
    for entry in debate.scan.gaps():
        found.append(finding(entry.path, 1, "E070", f"turn {entry.name.turn} of `{entry.name.slug}` has no turn "
                             f"{entry.name.turn - 1} before it"))
    task = debate.task
    if task is not None:
        found.extend(task.findings)
        if task.participants:
            for entry in debate.scan.turns:
                if entry.name.slug not in task.participants:
                    found.append(finding(entry.path, 1, "E072", f"`{entry.name.slug}` is not on the roster "
                                         f"({', '.join(task.participants)})"))
        if task.max_turns:
            for entry in debate.scan.turns:
                if entry.name.turn > task.max_turns:
                    found.append(finding(entry.path, 1, "W070", f"turn {entry.name.turn} is beyond max_turns "
                                         f"{task.max_turns}"))
    return found


def _mention_findings(debate: Debate, entry: Entry) -> list[Finding]:
    if not entry.readable:
        return []
    participants = set(debate.participants) | {entry.slug}
    found = []
    for mention in entry.mentions:
        for slug in mention.slugs:
            if slug not in participants:
                known = ", ".join(sorted(participants - {entry.slug})) or "none yet"
                found.append(finding(entry.path, mention.line, "E060", f"names `{slug}`, who takes no part in this "
                                     f"debate (participants: {known})"))
            elif slug != entry.slug and not mention.absent and debate.entry(entry.turn - 1, slug) is None:
                found.append(finding(entry.path, mention.line, "W060", f"names `{slug}`, who wrote no turn "
                                     f"{entry.turn - 1}; write `With {slug}: absent`"))
    return found


def validate_debate(debate: Debate) -> list[Finding]:
    """Every finding for a loaded debate folder, sorted by path and line."""
    found = _name_findings(debate) + _folder_findings(debate) + integrity_findings(debate)
    for item in check_attributions(debate):
        if not item.supported:
            found.append(finding(item.path, item.line, "W090", f"attributes to `{item.peer}` \u201c{item.claim[:80]}"
                                 f"\u201d, which its turn {item.turn - 1} does not support ({item.support:.0%} of "
                                 "the terms found)"))
    for entry in debate.entries.values():
        found.extend(entry.findings)
        found.extend(_mention_findings(debate, entry))
    return _sorted(found)


def _validate_file(path: str) -> list[Finding]:
    """A single file: checked in the context of its folder when its name is a turn name."""
    name = parse_turn_name(os.path.basename(path))
    folder = os.path.dirname(path) or "."
    if name is not None and not os.path.islink(path):
        try:
            debate = load_debate(folder)
        except FolderError:
            debate = None
        if debate is not None:
            base = os.path.basename(path)
            return [f.__class__(path, f.line, f.code, f.severity, f.message)
                    for f in validate_debate(debate) if os.path.basename(f.path) == base]
    if name is not None:
        entry = read_entry(TurnEntry(name, path, True, os.path.islink(path)))
        return sorted(entry.findings)
    read = read_text(path)
    if read.text is None:
        return sorted(read.findings)
    from .parse import parse_turn

    return sorted(read.findings + parse_turn(read.text, path, None).findings)


def validate_paths(paths: Iterable[str]) -> list[Finding]:
    """Findings for files and folders (a folder is validated as a whole debate)."""
    found: list[Finding] = []
    for path in paths:
        if os.path.isdir(path) and not os.path.islink(path):
            found.extend(validate_debate(load_debate(path)))
        elif os.path.lexists(path):
            found.extend(_validate_file(path))
        else:
            raise FolderError(f"no such file or folder: {path}")
    return _sorted(found)


def exit_code(findings: list[Finding], strict: bool = False) -> int:
    """1 when there is an error (or, with strict, any finding), else 0."""
    if any(f.severity == "error" for f in findings):
        return 1
    return 1 if strict and findings else 0

