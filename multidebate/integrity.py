"""Integrity rules: the ledger against the folder, and what each session says it read.

A turn file is never changed once written: the ledger recorded its sha256,
so an edit, a replacement or a deletion shows.  A turn's frontmatter lists
the peer files its session was served; a file of its own turn or later there
breaks the reading rule, and a listed hash that no longer matches means the
peer file changed after it was read.
"""

from __future__ import annotations

import os

from .debate import Debate, Entry
from .findings import Finding, finding
from .ledger import read_ledger
from .naming import parse_turn_name
from .sealed import sealed_dir

__all__ = ["integrity_findings", "ledger_findings", "ledger_slugs", "reading_findings", "recorded_file_exists"]


def ledger_slugs(debate: Debate) -> list[str]:
    """Every slug with a turn file or a ledger."""
    slugs = set(debate.scan.slugs)
    ledger_dir = os.path.join(debate.folder, ".multidebate", "ledger")
    try:
        slugs |= {n[:-len(".jsonl")] for n in os.listdir(ledger_dir) if n.endswith(".jsonl")}
    except OSError:
        pass
    return sorted(slugs)


def ledger_findings(debate: Debate, slug: str) -> tuple[list[Finding], tuple[str, ...]]:
    """A slug's ledger against the folder: (findings, the file names the ledger records)."""
    found: list[Finding] = []
    sealed = bool(debate.task and debate.task.sealed)
    ledger = read_ledger(debate.folder, slug)
    for line, why in ledger.broken:
        found.append(finding(ledger.path, line, "E082", f"line {line} {why}"))
    recorded = {e.file: e for e in ledger.entries}
    for name, entry in recorded.items():
        turn_name = parse_turn_name(name)
        path = os.path.join(debate.folder, name)
        current = debate.entry(turn_name.turn, turn_name.slug) if turn_name else None
        if current is None:
            if not recorded_file_exists(debate.folder, name, sealed):
                found.append(finding(path, 1, "E081", f"was written at {entry.written_at} (ledger) and has "
                                     "since been deleted or renamed"))
            continue
        if current.sha256 and current.sha256 != entry.sha256:
            found.append(finding(path, 1, "E080", f"differs from what was written at {entry.written_at} "
                                 "(ledger sha256): it was edited or replaced; turn files are never changed"))
    for number in sorted(debate.scan.by_slug.get(slug, {})):
        own = debate.entry(number, slug)
        if own is not None and own.filename not in recorded:
            found.append(finding(own.path, 1, "W080", "has no ledger entry: it was not written by "
                                 "`multidebate write` (hand-written), or its write was interrupted"))
    return found, tuple(recorded)


def recorded_file_exists(folder: str, name: str, sealed: bool) -> bool:
    """Whether a file a ledger records is still there (in a sealed debate, maybe still sealed away)."""
    return os.path.lexists(os.path.join(folder, name)) or (
        sealed and os.path.lexists(os.path.join(sealed_dir(folder), name)))


def reading_findings(debate: Debate, entry: Entry) -> list[Finding]:
    """What `entry`'s session says it read, against the rule and the files as they are now."""
    found = []
    for name, digest in entry.peers_read:
        read = parse_turn_name(os.path.basename(name))
        if read is None:
            continue
        if read.turn >= entry.turn:
            found.append(finding(entry.path, 1, "E083", f"its session was served `{name}` (turn {read.turn}); a "
                                 f"session at turn {entry.turn} reads only turn {entry.turn - 1}"))
            continue
        peer = debate.entry(read.turn, read.slug)
        if peer is not None and peer.sha256 and peer.sha256 != digest:
            found.append(finding(entry.path, 1, "E084", f"its session read `{name}`, which has changed since "
                                 "(sha256 differs)"))
    return found


def integrity_findings(debate: Debate) -> list[Finding]:
    """Ledger and reading-rule findings for a loaded debate."""
    found: list[Finding] = []
    for slug in ledger_slugs(debate):
        found.extend(ledger_findings(debate, slug)[0])
    for entry in debate.entries.values():
        found.extend(reading_findings(debate, entry))
    return found
