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

__all__ = ["integrity_findings"]


def _ledger_findings(debate: Debate, slugs: set[str]) -> list[Finding]:
    found: list[Finding] = []
    sealed = bool(debate.task and debate.task.sealed)
    by_slug: dict[str, list[str]] = {}
    for (_turn, entry_slug), turn_entry in debate.entries.items():
        by_slug.setdefault(entry_slug, []).append(turn_entry.path)
    for slug in sorted(slugs):
        ledger = read_ledger(debate.folder, slug)
        for line, why in ledger.broken:
            found.append(finding(ledger.path, line, "E082", f"line {line} {why}"))
        recorded = {e.file: e for e in ledger.entries}
        for name, entry in recorded.items():
            turn_name = parse_turn_name(name)
            path = os.path.join(debate.folder, name)
            current = debate.entry(turn_name.turn, turn_name.slug) if turn_name else None
            if current is None:
                exists = os.path.lexists(path) or (sealed and os.path.lexists(os.path.join(sealed_dir(debate.folder),
                                                                                             name)))
                if not exists:
                    found.append(finding(path, 1, "E081", f"was written at {entry.written_at} (ledger) and has "
                                         "since been deleted or renamed"))
                continue
            if current.sha256 and current.sha256 != entry.sha256:
                found.append(finding(path, 1, "E080", f"differs from what was written at {entry.written_at} "
                                     "(ledger sha256): it was edited or replaced; turn files are never changed"))
        for path in by_slug.get(slug, ()):
            if os.path.basename(path) not in recorded:
                found.append(finding(path, 1, "W080", "has no ledger entry: it was not written by "
                                     "`multidebate write` (hand-written), or its write was interrupted"))
    return found


def _reading_findings(debate: Debate, entry: Entry) -> list[Finding]:
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
    slugs = set(debate.scan.slugs)
    ledger_dir = os.path.join(debate.folder, ".multidebate", "ledger")
    try:
        slugs |= {n[:-len(".jsonl")] for n in os.listdir(ledger_dir) if n.endswith(".jsonl")}
    except OSError:
        pass
    found = _ledger_findings(debate, slugs)
    for entry in debate.entries.values():
        found.extend(_reading_findings(debate, entry))
    return found
