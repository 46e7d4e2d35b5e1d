"""An answer of `next` that a session's shell shows whole: blocks kept by rank within a bound on lines and
characters, and a line, where blocks were left out, saying what they were.

#27: a critic's `next` in round 2 of a 62-finding review was about 380 lines and the judge's 93 KB; every
session's shell cut the middle out, silently.  What a session must have (its role, the findings in one line
each, the write command) is rank 0 and always kept; the rest is kept in rank order while it fits.  A block
with a short form (a review item's head line) shows that form where it is left out: within each rank, every
head first while they fit, then whole blocks (issue 33: 80 long findings reached the defender as none).
"""

from __future__ import annotations

from typing import NamedTuple

__all__ = ["Block", "Choice", "Fitted", "MAX_LINES", "MAX_CHARS", "choose", "fit"]

# What many assistants' shells show of one command whole: #27's sessions cut the middle out of about 380 lines,
# and Claude Code shows 30,000 characters.  r72 (a 27-finding review): at 200 lines every critic and the judge
# needed `--full` every round, and the judge's `--full` was 269 lines: the bound cut what they needed, to save little.
MAX_LINES = 320
MAX_CHARS = 24_000


class Block(NamedTuple):
    """Lines of the answer, kept or left out together.

    `rank` 0 is always kept; a higher rank is left out first.  Blocks of one `group` that are left out are
    named on one line, where the first of them stood (`label` names each: an id); `placeholder`, when
    given, is that line.  `short`, when given, stands in the block's place when it is left out (its head),
    and the block is named as shown by its head only."""

    lines: tuple[str, ...]
    rank: int = 0
    group: str = ""
    label: str = ""
    placeholder: str = ""
    short: tuple[str, ...] = ()


class Fitted(NamedTuple):
    lines: tuple[str, ...]
    left_out: tuple[str, ...]  # one phrase per group left out (wholly or in part)


def _size(lines: tuple[str, ...]) -> int:
    return sum(len(line) + 1 for line in lines)


def _split(block: Block) -> Block:
    # a line holding newlines (a role block joined into one string) counts as the lines it prints
    return block._replace(lines=tuple("\n".join(block.lines).split("\n")) if block.lines else block.lines,
                          short=tuple("\n".join(block.short).split("\n")) if block.short else ())


class _Budget:
    """Lines and characters left, spent block by block."""

    def __init__(self, lines: int, chars: int) -> None:
        self.lines, self.chars = lines, chars

    def take(self, lines: int, chars: int) -> bool:
        if lines > self.lines or chars > self.chars:
            return False
        self.lines -= lines
        self.chars -= chars
        return True


def _naming(blocks: list[Block]) -> int:
    """The characters that naming a group's left-out blocks can take: its placeholder line and up to two
    phrases of the caller's LEFT OUT line (one for blocks shown by their heads, one for those left out)."""
    group = blocks[0].group
    labels = sorted((len(b.label) + 2 for b in blocks), reverse=True)[:6]
    placeholder = max(len(b.placeholder) for b in blocks)
    return 3 * (len(group) + sum(labels) + 60) + placeholder


class Choice(NamedTuple):
    """Which blocks (by index) are shown whole, and which by their short form; every other is left out."""

    kept: frozenset[int]
    heads: frozenset[int]


def choose(blocks: list[Block], max_chars: int, max_lines: int | None = None, reserve: int = 0,
           reserve_chars: int = 0, named: bool = True) -> Choice:
    """The one rule of what fits: rank 0 always; then rank by rank, each rank's short forms first while they fit,
    then whole blocks in order while they fit, a group stopping at its first block that does not (so it keeps
    its order, with no hole).  `max_lines` None: no bound on lines.  `named`: room is kept for naming the
    blocks left out, as `fit` names them; a caller that says what it cut in its own words passes False.

    Ranks spread a bound evenly: blocks of rank 1 of every group are taken before any group's rank 2, so one
    long group cannot starve the others (the open debate's long Reasonings, chunk by chunk)."""
    blocks = [_split(b) for b in blocks]
    groups: dict[str, list[Block]] = {}
    for b in blocks:
        if b.rank > 0:
            groups.setdefault(b.group, []).append(b)
    fixed_lines = sum(len(b.lines) for b in blocks if b.rank == 0)
    naming = (sum(_naming(members) for members in groups.values()), len(groups)) if named else (0, 0)
    budget = _Budget(max_lines - reserve - naming[1] - fixed_lines if max_lines is not None else 1 << 62,
                     max_chars - reserve_chars - naming[0] - sum(_size(b.lines) for b in blocks if b.rank == 0))
    kept = {i for i, b in enumerate(blocks) if b.rank == 0}
    heads: set[int] = set()
    closed_heads: set[str] = set()  # a group stops at its first block that does not fit: it keeps its order
    closed: set[str] = set()
    for rank in sorted({b.rank for b in blocks if b.rank > 0}):
        order = [i for i, b in enumerate(blocks) if b.rank == rank]
        # within a rank, every head first, then whole blocks
        for i in (i for i in order if blocks[i].short):
            if blocks[i].group not in closed_heads and budget.take(len(blocks[i].short), _size(blocks[i].short)):
                heads.add(i)
            else:
                closed_heads.add(blocks[i].group)
        for i in order:
            block = blocks[i]
            if block.group in closed or block.short and i not in heads:
                continue
            # a block whose head is already shown costs what its whole text adds to the head
            spent = (len(block.short), _size(block.short)) if i in heads else (0, 0)
            if budget.take(len(block.lines) - spent[0], _size(block.lines) - spent[1]):
                kept.add(i)
                heads.discard(i)
            else:
                closed.add(block.group)
    return Choice(frozenset(kept), frozenset(heads))


def fit(blocks: list[Block], max_lines: int | None = MAX_LINES, max_chars: int = MAX_CHARS,
        reserve: int = 0, reserve_chars: int = 0) -> Fitted:
    """The blocks within `max_lines` (None: all of them) and `max_chars`, `reserve` lines and `reserve_chars`
    characters kept free for what the caller adds (the phrases naming what was left out are counted here)."""
    if max_lines is None:
        return Fitted(tuple(line for b in blocks for line in _split(b).lines), ())
    chosen = choose(blocks, max_chars, max_lines, reserve, reserve_chars)
    return _lay_out([_split(b) for b in blocks], set(chosen.kept), set(chosen.heads))


def _lay_out(blocks: list[Block], kept: set[int], heads: set[int]) -> Fitted:
    """Each block whole, by its head, or in a run of left-out blocks of one group named on one line."""
    out: list[str] = []
    left: list[str] = []
    i = 0
    while i < len(blocks):
        if i in kept:
            out.extend(blocks[i].lines)
            i += 1
            continue
        headed = i in heads
        run = [blocks[i]]
        while (i + len(run) < len(blocks) and i + len(run) not in kept and (i + len(run) in heads) == headed
               and blocks[i + len(run)].group == run[0].group):
            run.append(blocks[i + len(run)])
        i += len(run)
        what = run[0].group + (f" ({_labels(run)})" if any(b.label for b in run) else "")
        if headed:
            left.append(what + (": its head line only" if len(run) == 1 else ": their head lines only"))
            out.extend(line for b in run for line in b.short)
        else:
            left.append(what)
            out.append(run[0].placeholder or f"[left out by multidebate to fit: {what}; `--full` shows it]")
    return Fitted(tuple(out), tuple(left))


def _labels(run: list[Block]) -> str:
    labels = [b.label for b in run if b.label]
    shown = ", ".join(labels[:6])
    return f"{len(labels)}: {shown}" + (", ..." if len(labels) > 6 else "") if len(labels) > 1 else shown
