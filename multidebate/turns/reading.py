"""How much of each peer's turn N-1 file `next` serves (#36): whole where it can change a mind, less elsewhere.

A debate costs every session a read of every peer's whole turn, every turn.
Two rules serve less, and `next --full` serves everything:

- **Settled items** (from turn 2 on): in an item-by-item debate (`Q1: A, Q2:
  17`), an item on which every turn-1 line agreed, and that every turn-N-1
  line still carries with that value, is settled: `next` lists it once, and a
  peer's Reasoning and Answer are served only where they mention a contested
  item (its bold line always whole).  A session reopens a settled item only by
  changing it in its bold line; the verdict always compares whole lines.
- **Unchanged agreement** (from turn 3 on): a peer whose line is the one it
  held a turn before and the reader's own line is served as its line,
  Confidence, Converged and the Disagreements that name the reader.

Never cut: a peer whose line changed or differs from the reader's is served
whole (its new argument answers the reader's line), and so is the Answer a yes
would accept: the turn-N-1 Answer that first carried the reader's line or the
proposed line, as the report's final answer takes it (analysis/final.py).
"""

from __future__ import annotations

import re
from typing import NamedTuple

from ..analysis.verdict import line_of
from ..protocol.bold_line import bold_line, line_items, same_line
from ..protocol.terms import LIST_ITEM_RE
from ..state.debate import Debate, Entry

__all__ = ["Cut", "accepted_answers", "contested_keys", "cut_to_items", "settled_items", "short_form"]


class Cut(NamedTuple):
    """A peer file served in part: the text served and what was left out (said beside it)."""

    text: str
    left_out: str


def _items(line: str) -> dict[str, str] | None:
    found = line_items(line)
    return dict(found.items) if found is not None else None


def settled_items(debate: Debate, turn: int) -> tuple[tuple[str, str], ...]:
    """For a session writing `turn`: (key, value as first written) of the items every participant's turn-1 line
    gave one value, and every participant's turn-N-1 line still gives; () when the lines are no item lists."""
    if turn < 2:
        return ()
    firsts = [line_of(debate, e) for s in debate.participants if (e := debate.entry(1, s)) is not None]
    latest_entries = [e for s in debate.participants if (e := debate.entry(turn - 1, s)) is not None]
    # d81: with one peer yet to write turn 1, "every turn-1 line gave them" was said of three lines of four
    if len(firsts) < max(2, len(debate.participants)) or len(latest_entries) < len(debate.participants):
        return ()
    parsed = [_items(line) for line in firsts]
    if any(p is None for p in parsed):
        return ()
    lists = [p for p in parsed if p is not None]
    latest = [_items(line_of(debate, e)) for e in latest_entries]
    settled = [key for key, value in lists[0].items()
               if all(other.get(key) == value for other in lists[1:])
               and all(now is not None and now.get(key) == value for now in latest)]
    shown = line_items(firsts[0], keep_case=True)
    as_written = dict(shown.items) if shown is not None else {}
    return tuple((key, as_written.get(key, lists[0][key])) for key in settled)


def contested_keys(debate: Debate, turn: int, settled: tuple[tuple[str, str], ...]) -> tuple[str, ...]:
    """The item keys of turn N-1's lines (and turn 1's) that are not settled, in their order."""
    done = {key for key, _value in settled}
    keys: dict[str, None] = {}
    for at in (1, turn - 1):
        for slug in debate.participants:
            entry = debate.entry(at, slug)
            items = _items(line_of(debate, entry)) if entry is not None else None
            for key in items or ():
                if key not in done:
                    keys[key] = None
    return tuple(keys)


def key_label(key: str) -> str:
    return key.upper() if key.startswith("q") else f"item {key}"


def _mention_re(keys: tuple[str, ...]) -> re.Pattern[str] | None:
    """A pattern for prose naming one of `keys`: `Q3`, `question 3`, `item 3`, `#3`, or a line opening `3.`."""
    numbers = sorted({key.lstrip("q") for key in keys}, key=len, reverse=True)
    if not numbers:
        return None
    alt = "|".join(re.escape(n) for n in numbers)
    return re.compile(rf"(?<![a-z0-9])(?:q|question|item|no\.|#)\s?0*(?:{alt})(?![0-9])"
                      rf"|^\s*(?:[-*+]\s+)?[*_]*0*(?:{alt})[.):](?![0-9])", re.IGNORECASE | re.MULTILINE)


def _blocks(text: str) -> list[str]:
    """Paragraphs, each list item one block of its own (with its continuation lines)."""
    blocks: list[str] = []
    current: list[str] = []
    for line in text.split("\n"):
        if not line.strip():
            if current:
                blocks.append("\n".join(current))
            current = []
        elif LIST_ITEM_RE.match(line) and current:
            blocks.append("\n".join(current))
            current = [line]
        else:
            current.append(line)
    if current:
        blocks.append("\n".join(current))
    return blocks


def _kept(text: str, pattern: re.Pattern[str], settled: re.Pattern[str] | None = None) -> str:
    """The blocks of `text` that name a contested item, those under a heading that does, and those that go on
    from one that does while naming no settled item (d81: an argument on Q7 ended at "the day test is:", its code
    block and the paragraph after it, which did not repeat "Q7", left out)."""
    kept: list[str] = []
    under = False  # the last heading names a contested item
    going_on = False  # the last block that named an item named a contested one
    for block in _blocks(text):
        names = bool(pattern.search(block))
        if block.lstrip().startswith("#"):
            under = going_on = names
            if names:
                kept.append(block)
        elif names or under:
            kept.append(block)
            going_on = True
        elif settled is not None and settled.search(block):
            going_on = False
        elif going_on:
            kept.append(block)
    return "\n\n".join(kept)


def cut_to_items(bodies: dict[str, str], keys: tuple[str, ...], whole_answer: bool,
                 settled: tuple[str, ...] = ()) -> str | None:
    """A peer's sections with Reasoning (and, unless `whole_answer`, the Answer after its bold line) cut to what
    names a contested item (`keys`) and what goes on from it until a settled one (`settled`) is named; None when
    nothing would be cut."""
    pattern = _mention_re(keys)
    if pattern is None:
        return None
    other = _mention_re(settled)
    out = dict(bodies)
    reasoning = bodies.get("Reasoning", "").strip()
    out["Reasoning"] = _kept(reasoning, pattern, other) or "(nothing on the contested items)"
    if not whole_answer and "Answer" in bodies:
        answer = bodies["Answer"].strip()
        line = bold_line(answer)
        first = answer.split("\n\n", 1)
        rest = first[1] if len(first) > 1 and line and same_line(bold_line(first[0]), line) else ""
        if rest:
            out["Answer"] = first[0] + ("\n\n" + kept if (kept := _kept(rest, pattern, other)) else "")
    text = _sections(out)
    return text if len(text) < len(_sections(bodies)) else None


def _sections(bodies: dict[str, str]) -> str:
    return "\n\n".join(f"## {name}\n{body.strip()}" for name, body in bodies.items())


def short_form(debate: Debate, entry: Entry, reader: str, bodies: dict[str, str]) -> str:
    """A peer that holds the reader's line, unchanged: its line, Confidence, Converged and what it says to the
    reader under Disagreements."""
    line = line_of(debate, entry)
    to_reader = [m.text for m in debate.details(entry).mentions
                 if m.section == "Disagreements" and (reader in m.slugs or m.everyone)]
    parts = {"Answer": f"{line}\n\n(the rest of its Answer is left out: the same line as its turn {entry.turn - 1} "
                       "and as yours)"}
    if to_reader:
        parts["Disagreements"] = "\n".join(_whole_items(bodies.get("Disagreements", ""), to_reader))
    for name in ("Confidence", "Converged"):
        if name in bodies:
            parts[name] = bodies[name]
    return _sections(parts)


def _whole_items(section: str, heads: list[str]) -> list[str]:
    """The list items of `section` that begin as `heads` do, whole: the cache keeps an item's first 160
    characters only, and d81's sessions were served Disagreements cut mid-word ("...and U+0663 is N")."""
    blocks = [(block.strip(), " ".join(block.split())) for block in _blocks(section.strip())]
    out = []
    for head in heads:
        folded = " ".join(head.split())[:120]
        out.append(next((block for block, flat in blocks if folded in flat), f"- {head}"))
    return out


def _first_turn_with(debate: Debate, slug: str, line: str, before: int) -> int:
    return next((t for t in range(1, before + 1) if (e := debate.entry(t, slug)) is not None
                 and same_line(line_of(debate, e), line)), before)


def accepted_answers(debate: Debate, reader: str, turn: int, lines: tuple[str, ...]) -> frozenset[str]:
    """The peers whose turn-N-1 Answer a yes would accept, for each of `lines` (the reader's own line, the
    proposed line): among the turn-N-1 writers of the line, the first to write it, ties to the first slug
    (final.py's choice of the consensus text)."""
    chosen = set()
    for line in lines:
        if not line:
            continue
        carriers = [s for s in debate.participants if (e := debate.entry(turn - 1, s)) is not None
                    and same_line(line_of(debate, e), line)]
        if carriers:
            chosen.add(min(carriers, key=lambda s: (_first_turn_with(debate, s, line, turn - 1), s)))
    chosen.discard(reader)
    return frozenset(chosen)


def holds_still(debate: Debate, entry: Entry, own_line: str) -> bool:
    """The peer's turn-N-1 line is its turn-N-2 line and the reader's own turn-N-1 line."""
    before = debate.entry(entry.turn - 1, entry.slug)
    if before is None or not own_line:
        return False
    line = line_of(debate, entry)
    return same_line(line, line_of(debate, before)) and same_line(line, own_line)
