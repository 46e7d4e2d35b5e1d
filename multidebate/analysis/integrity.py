"""Integrity rules: the ledger against the folder, and what each session says it read.

A turn file is never changed once written: the ledger recorded its sha256,
so an edit, a replacement or a deletion shows.  A turn's frontmatter lists
the peer files its session was served; a file of its own turn or later there
breaks the reading rule, and a listed hash that no longer matches means the
peer file changed after it was read.
"""

from __future__ import annotations

import functools
import os

from ..protocol.findings import Finding, finding
from ..protocol.judgment import judgment_name
from ..protocol.naming import parse_turn_name
from ..state.debate import Debate, Entry
from ..state.layout import ledger_dir, sealed_dir
from ..state.ledger import read_ledger

__all__ = ["HAND_WRITTEN_NOTE", "only_notes", "deleted_files", "disowned", "file_problems", "problem_lines", "ledger_findings", "ledger_slugs",
           "reading_findings", "recorded_file_exists"]

# what a turn file's integrity problem means for the verdict: E085, E022, E006 and E007 entries are no turn of the slug
# they name (left out); an E080 file is that slug's turn, changed (a verdict cannot rest on it)
DISOWNING = frozenset({"E085", "E022", "E006", "E007"})


def ledger_slugs(debate: Debate) -> list[str]:
    """Every slug with a turn file or a ledger."""
    slugs = set(debate.scan.slugs)
    try:
        slugs |= {n[:-len(".jsonl")] for n in os.listdir(ledger_dir(debate.folder)) if n.endswith(".jsonl")}
    except OSError:
        pass
    return sorted(slugs)


def _content_sha256(path: str) -> str:
    """The sha256 of a file's bytes as they are now (no cache, no symlink followed); "" when unreadable."""
    import hashlib

    from ..protocol.textfile import read_bytes

    raw = read_bytes(path)  # the bytes only: decoding them is the parser's business, not the hash's
    # an emptied file hashes as empty (issue 33: it was "", and so never E080); "" only when it cannot be read
    return hashlib.sha256(raw).hexdigest() if raw is not None else ""


def _live_sha256(path: str) -> str:
    """`_content_sha256`, hashed once per state of the file (its size, times and inode, which no cache record
    sets): many sessions read one peer file."""
    try:
        info = os.lstat(path)
    except OSError:
        return ""
    return _hashed(path, info.st_size, info.st_mtime_ns, info.st_ino, info.st_ctime_ns)


@functools.lru_cache(maxsize=65536)  # more than a 10,000-file folder holds: at 8,192 a validate hashed 4,000 twice
def _hashed(path: str, _size: int, _mtime_ns: int, _ino: int, _ctime_ns: int) -> str:
    return _content_sha256(path)


def ledger_findings(debate: Debate, slug: str, rehash: bool = False) -> tuple[list[Finding], tuple[str, ...]]:
    """A slug's ledger against the folder: (findings, the file names the ledger records).

    `rehash`: hash every file's bytes instead of trusting the parse cache's sha256 (validate does: a
    forged cache record must not hide an edit).
    """
    found: list[Finding] = []
    sealed = bool(debate.task and debate.task.sealed)
    ledger = read_ledger(debate.folder, slug)
    for line, why in ledger.broken:
        found.append(finding(ledger.path, line, "E082", f"line {line} {why}"))
    recorded = {e.file: e for e in ledger.entries}
    for name, entry in recorded.items():
        turn_name = parse_turn_name(name)
        if (turn_name is None or turn_name.slug != slug) and name != judgment_name(slug):
            # a ledger names only its slug's own files, by bare name: `../../etc/hostname` is never opened
            found.append(finding(ledger.path, entry.line, "E082", f"line {entry.line} names `{name}`, which is no "
                                 f"turn file or judgment of `{slug}` in this folder: the ledger was edited"))
            continue
        path = os.path.join(debate.folder, name)
        current = debate.entry(turn_name.turn, turn_name.slug) if turn_name else None
        if turn_name is None and os.path.lexists(path):
            # a judge's judgment: no parse cache holds it, so its bytes are always hashed
            if _content_sha256(path) != entry.sha256:
                found.append(finding(path, 1, "E080", f"differs from what was written at {entry.written_at} "
                                     "(ledger sha256): it was edited or replaced"))
            continue
        if current is None:
            if not recorded_file_exists(debate.folder, name, sealed):
                found.append(finding(path, 1, "E081", f"was written at {entry.written_at} (ledger) and has "
                                     "since been deleted or renamed"))
            continue
        # once per state of the file in this process: reading_findings hashes the same files again (#25: every
        # file was hashed twice, and a warm validate of 10,000 files took 8.8x the floor)
        digest = _live_sha256(current.path) if rehash else current.sha256
        if not digest and rehash:
            # replaced by over 1 MiB, or by something no longer readable: not what was written either (issue 33)
            found.append(finding(path, 1, "E080", f"can no longer be read as the file written at "
                                 f"{entry.written_at} (over 1 MiB, or unreadable): it was edited or replaced; turn "
                                 "files are never changed"))
        elif digest and digest != entry.sha256:
            found.append(finding(path, 1, "E080", f"differs from what was written at {entry.written_at} "
                                 "(ledger sha256): it was edited or replaced; turn files are never changed"))
    held = None
    for number in sorted(debate.scan.by_slug.get(slug, {})):
        own = debate.entry(number, slug)
        if own is not None and own.filename not in recorded:
            if held is None:
                from ..state.keys import is_claimed

                # held: a session has its key and has written through `write` (a first write killed
                # before its ledger entry leaves a claim but no entry: that file is only unrecorded)
                held = bool(recorded) and is_claimed(debate.folder, slug)
            if held:
                found.append(finding(own.path, 1, "E085", f"has no ledger entry, yet `{slug}` is held by a session "
                                     "with a key: it was written by hand (or its write was killed before recording "
                                     "it), so it is not counted as that session's turn; remove it, or restore the "
                                     "file `write` made"))
            else:
                found.append(finding(own.path, 1, "W080", "has no ledger entry: it was not written by "
                                     "`multidebate write` (hand-written), or its write was interrupted"))
    return found, tuple(recorded)


def file_problems(debate: Debate) -> dict[tuple[int, str], Finding]:
    """Each turn file's worst integrity problem (E080, E085, E022, W080): one ledger read per slug.

    What status and report mark, and what the verdict leaves out or will not rest on.  Every file's
    bytes are hashed again: the parse cache gives the verdict its parse, never the integrity check
    its sha256 (a forged cache record would hide an edit).
    """
    found: dict[tuple[int, str], Finding] = {}
    for (turn, slug), entry in debate.entries.items():
        for item in entry.findings:
            if item.code in ("E022", "E006", "E007"):  # a copy, a link or no regular file: no turn of the slug
                found[(turn, slug)] = item
    for slug in debate.scan.slugs:
        for item in ledger_findings(debate, slug, rehash=True)[0]:
            name = parse_turn_name(os.path.basename(item.path))
            if name is None or item.code not in ("E080", "E085", "W080") or (name.turn, name.slug) in found:
                continue
            found[(name.turn, name.slug)] = item
    return found


def deleted_files(debate: Debate, slugs: list[str]) -> list[Finding]:
    """E081 for each turn file of `slugs` that their ledger records and that is gone (one ledger read a slug)."""
    sealed = bool(debate.task and debate.task.sealed)
    found = []
    for slug in slugs:
        for entry in read_ledger(debate.folder, slug).entries:
            name = parse_turn_name(entry.file)
            if name is not None and debate.entry(name.turn, name.slug) is None \
                    and not recorded_file_exists(debate.folder, entry.file, sealed):
                found.append(finding(os.path.join(debate.folder, entry.file), 1, "E081",
                                     f"was written at {entry.written_at} (ledger) and has since been deleted or "
                                     "renamed"))
    return found


def disowned(problems: dict[tuple[int, str], Finding]) -> frozenset[tuple[int, str]]:
    """The turn files that are no turn of the slug they name (left out of verdicts)."""
    return frozenset(key for key, item in problems.items() if item.code in DISOWNING)


def recorded_file_exists(folder: str, name: str, sealed: bool) -> bool:
    """Whether a file a ledger records is still there (in a sealed debate, maybe still sealed away)."""
    return os.path.lexists(os.path.join(folder, name)) or (
        sealed and os.path.lexists(os.path.join(sealed_dir(folder), name)))


def reading_findings(debate: Debate, entry: Entry) -> list[Finding]:
    """What `entry`'s session says it read, against the rule and the files as they are now."""
    found = []
    allowed = entry.turn - 1
    task = debate.task
    if task is not None and task.review:
        from ..protocol.roles import reads

        allowed = reads(task.role_map, entry.slug, entry.turn)[0]  # the defender reads the critics' turn N
    for name, digest in debate.details(entry).peers_read:
        read = parse_turn_name(os.path.basename(name))
        if read is None:
            continue
        if read.turn > allowed or read.slug == entry.slug:
            found.append(finding(entry.path, 1, "E083", f"its session was served `{name}` (turn {read.turn}); a "
                                 f"session at turn {entry.turn} reads only turn {allowed}"))
            continue
        peer = debate.entry(read.turn, read.slug)
        if peer is None and not recorded_file_exists(debate.folder, os.path.basename(name),
                                                     bool(debate.task and debate.task.sealed)):
            found.append(finding(entry.path, 1, "E087", f"its session read `{name}`, which is gone: a turn file "
                                 "(and perhaps its slug's ledger) was deleted or renamed after it was read"))
            continue
        # the file's bytes as they are now, never the parse cache's sha256: a forged cache record must not
        # hide that a file a session read was edited since (a hand-written file has no ledger to say so)
        current = _live_sha256(peer.path) if peer is not None and peer.sha256 else ""
        if peer is not None and current and current != digest:
            found.append(finding(entry.path, 1, "E084", f"its session read `{name}`, which has changed since "
                                 "(sha256 differs)"))
    return found


def problem_lines(debate: Debate, problems: dict[tuple[int, str], Finding]) -> tuple[str, ...]:
    """What a person must know before trusting a table or a report, one line each: a TASK.md that cannot be
    used, files changed, hand-written under a held slug, copied, or skipping turns."""
    lines = [f"TASK.md: {f.code} {f.message} (next and write refuse to run until it is fixed)"
             for f in (debate.task.findings if debate.task else ()) if f.severity == "error"]
    errors = [f"{os.path.basename(f.path)}: {f.code} {f.message}" for _k, f in sorted(problems.items())
              if f.severity == "error"]
    gaps = debate.scan.gaps()
    # who is missing or skips turns because a file was deleted: say so, or people wait for a session that wrote
    suspects = {e.name.slug for e in gaps} | set(debate.missing(debate.current_turn) if debate.current_turn else ())
    errors += [f"{os.path.basename(f.path)}: {f.code} {f.message}: restore it (later turns of its slug wait for it)"
               for f in deleted_files(debate, sorted(suspects))]
    errors += [f"{e.filename}: E070 skips turns: it is not read (restore the missing turns or move it away)"
               for e in gaps]
    shown = 20  # a table of 2,000 participants must not drown in its own problem list
    lines += errors[:shown] + ([f"... and {len(errors) - shown} more (`multidebate validate` lists them all)"]
                               if len(errors) > shown else [])
    by_hand = sorted((key, f) for key, f in problems.items() if f.code == "W080")
    if by_hand:  # allowed (a session without the CLI writes by hand): counted and named, not listed file by file
        writers = list(dict.fromkeys(slug for (_turn, slug), _f in by_hand))
        shown_writers = ", ".join(writers[:5]) + (f" and {len(writers) - 5} more" if len(writers) > 5 else "")
        lines.append(f"{len(by_hand)} turn file{'s were' if len(by_hand) > 1 else ' was'} not written by "
                     f"`multidebate write` (by {shown_writers}; no ledger entry, W080): {HAND_WRITTEN_NOTE}")
    return tuple(lines)


# the end of the one problem line that is no problem to act on (a session without the CLI wrote by hand)
HAND_WRITTEN_NOTE = "allowed, but their integrity cannot be checked"


def only_notes(lines: tuple[str, ...]) -> bool:
    """Whether every problem line is the hand-written note: nothing to act on (the report says so)."""
    return bool(lines) and all(line.endswith(HAND_WRITTEN_NOTE) for line in lines)

