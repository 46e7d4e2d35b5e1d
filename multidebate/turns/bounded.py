"""An answer of `next` that a session's shell shows whole: blocks kept by rank within a bound on lines and
characters, and a line, where blocks were left out, saying what they were.

#27: a critic's `next` in round 2 of a 62-finding review was about 380 lines and the judge's 93 KB; every
session's shell cut the middle out, silently.  What a session must have (its role, the findings in one line
each, the write command) is rank 0 and always kept; the rest is kept in rank order while it fits.
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Block", "Fitted", "MAX_LINES", "MAX_CHARS", "fit"]

# What many assistants' shells show of one command whole: #27's sessions cut the middle out of about 380 lines,
# and Claude Code shows 30,000 characters.  r72 (a 27-finding review): at 200 lines every critic and the judge
# needed `--full` every round, and the judge's `--full` was 269 lines: the bound cut what they needed, to save little.
MAX_LINES = 320
MAX_CHARS = 24_000


class Block(NamedTuple):
    """Lines of the answer, kept or left out together.

    `rank` 0 is always kept; a higher rank is left out first.  Blocks of one `group` that are left out are
    named on one line, where the first of them stood (`label` names each: an id); `placeholder`, when
    given, is that line."""

    lines: tuple[str, ...]
    rank: int = 0
    group: str = ""
    label: str = ""
    placeholder: str = ""


class Fitted(NamedTuple):
    lines: tuple[str, ...]
    left_out: tuple[str, ...]  # one phrase per group left out (wholly or in part)


def _size(lines: tuple[str, ...]) -> int:
    return sum(len(line) + 1 for line in lines)


def fit(blocks: list[Block], max_lines: int | None = MAX_LINES, max_chars: int = MAX_CHARS,
        reserve: int = 0) -> Fitted:
    """The blocks within `max_lines` (None: all of them) and `max_chars`, `reserve` lines kept free for what the
    caller adds."""
    # a line holding newlines (a role block joined into one string) counts as the lines it prints
    blocks = [b._replace(lines=tuple("\n".join(b.lines).split("\n"))) if b.lines else b for b in blocks]
    if max_lines is None:
        return Fitted(tuple(line for b in blocks for line in b.lines), ())
    groups = {b.group for b in blocks if b.rank > 0}
    lines = reserve + len(groups) + sum(len(b.lines) for b in blocks if b.rank == 0)
    chars = 160 * len(groups) + sum(_size(b.lines) for b in blocks if b.rank == 0)
    kept = {i for i, b in enumerate(blocks) if b.rank == 0}
    closed: set[str] = set()  # a group stops at its first block that does not fit: it keeps its order
    for i in sorted((i for i, b in enumerate(blocks) if b.rank > 0), key=lambda i: (blocks[i].rank, i)):
        block = blocks[i]
        if block.group in closed:
            continue
        if lines + len(block.lines) <= max_lines and chars + _size(block.lines) <= max_chars:
            kept.add(i)
            lines += len(block.lines)
            chars += _size(block.lines)
        else:
            closed.add(block.group)
    out: list[str] = []
    left: list[str] = []
    i = 0
    while i < len(blocks):
        if i in kept:
            out.extend(blocks[i].lines)
            i += 1
            continue
        run = [blocks[i]]
        while i + len(run) < len(blocks) and i + len(run) not in kept and blocks[i + len(run)].group == run[0].group:
            run.append(blocks[i + len(run)])
        i += len(run)
        what = run[0].group + (f" ({_labels(run)})" if any(b.label for b in run) else "")
        left.append(what)
        out.append(run[0].placeholder or f"[left out by multidebate to fit: {what}; `--full` shows it]")
    return Fitted(tuple(out), tuple(left))


def _labels(run: list[Block]) -> str:
    labels = [b.label for b in run if b.label]
    shown = ", ".join(labels[:6])
    return f"{len(labels)}: {shown}" + (", ..." if len(labels) > 6 else "") if len(labels) > 1 else shown
