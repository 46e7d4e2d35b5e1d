"""The validator: every rule of the format over files and folders, as sorted findings.

Per-file rules live in the reader (parse.py, textfile.py); the rules here
need the folder: names, gaps, the roster, and the peers a turn names.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Iterable

from ..analysis.checks_cache import ChecksCache, Computed
from ..analysis.integrity import ledger_findings, ledger_slugs, reading_findings
from ..analysis.quotes import check_attributions
from ..protocol.errors import FolderError
from ..protocol.findings import Finding, finding
from ..protocol.naming import canonical_guess, parse_turn_name
from ..protocol.textfile import read_text
from ..state.debate import Debate, Entry, load_debate, read_entry
from ..state.folder import TurnFile

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


def _state_findings(folder: str) -> list[Finding]:
    """Entries of `.multidebate/` that the tool never follows or opens: symlinks, FIFOs, devices, or
    `.multidebate` itself not a folder.  Walked without following links, at most 10,000 entries."""
    import stat

    from ..state.layout import state_root

    root = state_root(folder)
    found: list[Finding] = []
    try:
        info = os.lstat(root)
    except OSError:
        return found
    pending = [root]
    seen = 0
    while pending and seen < 10_000:
        here = pending.pop()
        try:
            mode = os.lstat(here).st_mode
        except OSError:
            continue
        seen += 1
        if stat.S_ISDIR(mode):
            try:
                pending.extend(os.path.join(here, name) for name in os.listdir(here))
            except OSError:
                pass
        elif not stat.S_ISREG(mode):
            what = "a symbolic link" if stat.S_ISLNK(mode) else "not a regular file or folder"
            found.append(finding(here, 1, "E086", f"is {what}: the tool never follows or opens it, so what it "
                                 "held (ledger, key, cache, sealed turn) is unavailable; remove it"))
    if not stat.S_ISDIR(info.st_mode) and not found:
        found.append(finding(root, 1, "E086", "is not a folder: the tool keeps its ledger and keys there"))
    return found + _record_findings(folder)


def _record_findings(folder: str) -> list[Finding]:
    """E088 for each line of the append-only records that is no record (the person's acts, `run`'s turns):
    readers skip it, so what it held (a retirement, a turn's cost) is not shown."""
    from ..state.acts import acts_path, read_acts_checked
    from ..state.runs import damaged_run_record_lines, run_record_path

    found = [finding(acts_path(folder), line, "E088", f"line {line} is no record of a person's act (retire, "
                     "handover): it is not shown") for line in read_acts_checked(folder)[1]]
    found += [finding(run_record_path(folder), line, "E088", f"line {line} is no record of a turn `run` wrote: "
                      "its cost is not counted") for line in damaged_run_record_lines(folder)]
    return found


def _folder_findings(debate: Debate) -> list[Finding]:
    found: list[Finding] = _state_findings(debate.folder)
    for entry in debate.scan.gaps():
        found.append(finding(entry.path, 1, "E070", f"turn {entry.name.turn} of `{entry.name.slug}` has no turn "
                             f"{entry.name.turn - 1} before it"))
    task = debate.task
    from ..analysis.review_case import review_findings

    found.extend(review_findings(debate))
    if task is not None:
        if task.judge is not None:
            from ..analysis.judgment_check import check_judgment
            from ..analysis.verdict import judge

            found.extend(check_judgment(debate, judge(debate)).findings)
        found.extend(task.findings)
        if task.participants:
            for entry in debate.scan.turns:
                if entry.name.slug not in task.participants and entry.name.slug not in task.retired:
                    found.append(finding(entry.path, 1, "E072", f"`{entry.name.slug}` is not on the roster "
                                         f"({', '.join(task.participants)})"))
        if task.max_turns:
            for entry in debate.scan.turns:
                if entry.name.turn > task.max_turns:
                    found.append(finding(entry.path, 1, "W070", f"turn {entry.name.turn} is beyond max_turns "
                                         f"{task.max_turns}"))
    return found


def _mention_findings(debate: Debate, entry: Entry, roster: frozenset[str]) -> list[Finding]:
    if not entry.readable:
        return []
    found = []
    for mention in debate.details(entry).mentions:
        for slug in mention.slugs:
            if slug not in roster and slug != entry.slug:
                known = ", ".join(sorted(roster - {entry.slug})) or "none yet"
                found.append(finding(entry.path, mention.line, "E060", f"names `{slug}`, who takes no part in this "
                                     f"debate (participants: {known})"))
            elif slug != entry.slug and not mention.absent and debate.entry(entry.turn - 1, slug) is None:
                found.append(finding(entry.path, mention.line, "W060", f"names `{slug}`, who wrote no turn "
                                     f"{entry.turn - 1}; write `With {slug}: absent`"))
    return found


def _turn_findings(debate: Debate, entries: list[Entry], roster: frozenset[str]) -> Computed:
    """One turn's cross-file findings, and the older files they read beyond the turn before."""
    found: list[Finding] = []
    older: list[str] = []
    for entry in entries:
        found.extend(_mention_findings(debate, entry, roster))
        for name, _digest in debate.details(entry).peers_read:
            read = parse_turn_name(os.path.basename(name))
            if read is not None and read.turn < entry.turn - 1:
                older.append(read.filename)
    for item in check_attributions(debate, entries):
        if not item.supported:
            found.append(finding(item.path, item.line, "W090", f"attributes to `{item.peer}` \u201c{item.claim[:80]}"
                                 f"\u201d, which its turn {item.turn - 1} does not support ({item.support:.0%} of "
                                 "the terms found)"))
    return found, older


def validate_debate(debate: Debate, use_cache: bool = True) -> list[Finding]:
    """Every finding for a loaded debate folder, sorted by path and line.

    Cross-file findings come from the checks cache (checks_cache.py) while
    none of their inputs changed; the integrity findings (ledger, what each
    session read) never do: anyone can write a cache record.
    """
    checks = ChecksCache(debate, use_cache)
    found = _name_findings(debate) + _folder_findings(debate)
    for slug in ledger_slugs(debate):
        # never from a cache: integrity is checked against the bytes as they are now
        found.extend(ledger_findings(debate, slug, rehash=True)[0])
    roster = frozenset(debate.participants)
    by_turn: dict[int, list[Entry]] = {}
    for (turn, _slug), entry in sorted(debate.entries.items()):
        by_turn.setdefault(turn, []).append(entry)
        found.extend(entry.findings)
        # never from the checks cache either: a forged cache record must not hide E083, E084 or E087
        found.extend(reading_findings(debate, entry))
    for turn, entries in by_turn.items():
        found.extend(checks.turn(turn, functools.partial(_turn_findings, debate, entries, roster)))
    checks.save()
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
        read_turn = read_entry(TurnFile(name, path, True, os.path.islink(path)))
        return sorted(read_turn.entry.findings)
    read = read_text(path)
    if read.text is None:
        return sorted(read.findings)
    from ..protocol.parse import parse_turn

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

