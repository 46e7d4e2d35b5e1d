"""The bold line: what an Answer commits to, and the one rule that says two sessions hold one line.

docs/verdicts.md states the rule for users and for sessions that write by hand;
in short:

- **The line** is the Answer's first line when it is wholly bold (`**Use X.**`,
  the form SKILL.md asks for); otherwise its first paragraph.  A line that
  only announces what follows (it ends with a colon, `**Answers:**`, or is a
  heading) takes the paragraph under it along, list items joined with `; `.
- **Two lines are one line** when they are identical after a normalisation
  that cannot change meaning: bold markers (`**`) dropped, runs of whitespace
  made one space, one final period dropped, and letters lowercased outside
  code spans and quotes (`Foo` in backticks stays `Foo`).  Item-by-item lines
  (`Q1: A, Q2: 17`) are one line when every item is, under the same
  normalisation, in the same order; only the separators between items and the
  spacing around an item's key may differ.

Nothing else: no synonyms, no units, no reordering, no "refinement".  Two
different lines are never made one here; the comparison
(analysis.comparison) may explain how they differ, never decide that they
agree.
"""

from __future__ import annotations

import functools
import re
from typing import NamedTuple

__all__ = ["LINE_CAP", "LineItems", "bold_line", "display_line", "group_lines", "line_items", "line_key",
           "one_line_of", "same_line"]

LINE_CAP = 20_000  # a longer line is compared byte for byte, unnormalised: no pattern runs over a huge paragraph

_FENCE_RE = re.compile(r"^\s*(`{3,}|~{3,})")
_BULLET_RE = re.compile(r"^\s*[-*+]\s+")
_NUMBERED_RE = re.compile(r"^\s*\d{1,3}[.)]\s+")
# what keeps its case and its spacing: fenced code, code spans, and quoted text (an apostrophe is no quote)
_PROTECTED_RE = re.compile(r"```[\s\S]*?```|~~~[\s\S]*?~~~|`+[^`\n]*`+|\"[^\"\n]*\"|\u201c[^\u201d\n]*\u201d"
                           r"|(?<![\w'])'[^'\n]*'(?![\w'])")
_SPACE_RE = re.compile(r"\s+")
# an item's key in a folded line: "q1:", "q 2 =", "3)", "4." before a space; after the start, a space, `,` or `;`
_ITEM_RE = re.compile(r"(?<![^\s,;])([qQ] ?)?(\d{1,3}) ?(?:[:=)]|\.(?= ))")


def _is_label(text: str) -> bool:
    """A line that only announces what follows: `**Answers:**`, `My settings:`, `### Recommendation`."""
    bare = text.replace("**", "").strip()
    return bare.startswith("#") or (bare.endswith(":") and len(bare.split()) <= 6)


def _wholly_bold(text: str) -> bool:
    stripped = text.strip()
    return len(stripped) > 4 and stripped.startswith("**") and stripped.endswith("**")


def _paragraphs(answer: str) -> list[list[str]]:
    """The Answer's paragraphs as lists of lines; a fenced block is one paragraph of its own, blank lines kept."""
    found: list[list[str]] = []
    current: list[str] = []
    fence = ""
    for line in answer.splitlines():
        marker = _FENCE_RE.match(line)
        if fence:
            current.append(line)
            if marker and marker.group(1)[0] == fence[0] and len(marker.group(1)) >= len(fence):
                found.append(current)
                current, fence = [], ""
            continue
        if marker:
            if current:
                found.append(current)
            current, fence = [line], marker.group(1)
            continue
        if not line.strip():
            if current:
                found.append(current)
                current = []
            continue
        current.append(line)
    if current:
        found.append(current)
    return found


def _joined(lines: list[str]) -> str:
    """A paragraph as one line: list items joined with `; ` (a bullet's marker dropped), wrapped text with a space."""
    if _FENCE_RE.match(lines[0]):
        return "\n".join(lines)  # code is kept as written
    parts: list[str] = []
    for line in lines:
        bullet = _BULLET_RE.match(line)
        if bullet or _NUMBERED_RE.match(line) or not parts:
            parts.append(line[bullet.end():].strip() if bullet else line.strip())
        else:
            parts[-1] += " " + line.strip()
    out = parts[0]
    for part in parts[1:]:
        out += (" " if out.replace("**", "").rstrip().endswith(":") else "; ") + part
    return out


@functools.lru_cache(maxsize=65536)
def bold_line(answer: str) -> str:
    """The Answer's bold line as written (see the module doc); "" for an empty Answer."""
    paragraphs = _paragraphs(answer)
    if not paragraphs:
        return ""
    first = paragraphs[0]
    if _wholly_bold(first[0]) and not _is_label(first[0]):
        return first[0].strip()
    line = _joined(first)
    taken = 1
    # a label takes what it announces along (at most two more paragraphs: a label over a label over a list)
    while _is_label(line.splitlines()[-1] if line else "") and taken < len(paragraphs) and taken < 3:
        line = f"{line} {_joined(paragraphs[taken])}"
        taken += 1
    return line


def display_line(line: str) -> str:
    """The line as `next` shows it to be copied: as written, made bold when it has no bold marker of its own."""
    return line if "**" in line or not line else f"**{line}**"


def _fold(text: str, lower: bool = True) -> str:
    text = text.replace("**", "")
    return _SPACE_RE.sub(" ", text.lower() if lower else text)


class _Folded(NamedTuple):
    key: str
    protected: tuple[tuple[int, int], ...]  # spans of the key that are code or quotes


@functools.lru_cache(maxsize=65536)
def _folded(line: str, lower: bool = True) -> _Folded:
    if len(line) > LINE_CAP:
        return _Folded(line, ((0, len(line)),))
    out: list[str] = []
    spans: list[tuple[int, int]] = []
    size = 0
    last = 0
    for match in _PROTECTED_RE.finditer(line):
        before = _fold(line[last:match.start()], lower)
        out.append(before)
        size += len(before)
        out.append(match.group(0))
        spans.append((size, size + len(match.group(0))))
        size += len(match.group(0))
        last = match.end()
    out.append(_fold(line[last:], lower))
    key = "".join(out)
    # strip the ends (never inside a protected span: the spans never start or end with a space)
    lead = len(key) - len(key.lstrip())
    key = key.strip()
    spans = [(a - lead, b - lead) for a, b in spans]
    if key.endswith(".") and not any(b == len(key) for _a, b in spans):
        key = key[:-1].rstrip()
    return _Folded(key, tuple(spans))


def line_key(line: str) -> str:
    """The line under the normalisation of the module doc: two lines are one line when their keys are equal."""
    return _folded(line).key


class LineItems(NamedTuple):
    """An item-by-item line: what stands before the first item, and each item's key and value, folded."""

    label: str
    items: tuple[tuple[str, str], ...]


@functools.lru_cache(maxsize=65536)
def line_items(line: str, keep_case: bool = False) -> LineItems | None:
    """The items of an item-by-item line (`Q1: A, Q2: 17`, `1) x; 2) y`), numbered one by one; None otherwise.

    `keep_case`: values as written (for showing them), not folded (for comparing them)."""
    key, spans = _folded(line, not keep_case)
    if len(line) > LINE_CAP:
        return None
    starts = [m for m in _ITEM_RE.finditer(key) if not any(a <= m.start() < b for a, b in spans)]
    if len(starts) < 2:
        return None
    kind = bool(starts[0].group(1))
    chosen = [starts[0]]
    for match in starts[1:]:
        if bool(match.group(1)) != kind:
            continue  # "Q1: meet at 3: 30": a number of the other kind is part of a value
        if int(match.group(2)) != int(chosen[-1].group(2)) + 1:
            return None  # a gap or a repeat: no item list one could read without guessing
        chosen.append(match)
    if len(chosen) < 2 or starts[0].start() > 0 and not key[:starts[0].start()].rstrip().endswith(":"):
        return None
    items = []
    for index, match in enumerate(chosen):
        end = chosen[index + 1].start() if index + 1 < len(chosen) else len(key)
        value = key[match.end():end].strip().rstrip(",;").rstrip()
        if value.endswith(".") and index + 1 == len(chosen):
            value = value[:-1].rstrip()
        if not value:
            return None
        items.append((("q" if kind else "") + match.group(2), value))
    return LineItems(key[:chosen[0].start()].strip(), tuple(items))


def same_line(a: str, b: str) -> bool:
    """Whether two bold lines are one line (see the module doc)."""
    if not a or not b:
        return False
    if line_key(a) == line_key(b):
        return True
    items_a = line_items(a)
    return items_a is not None and items_a == line_items(b)


def one_line_of(lines: list[str]) -> bool:
    """Whether every line of `lines` (at least one) is one line with the first."""
    return bool(lines) and all(same_line(lines[0], other) for other in lines[1:]) and bool(lines[0])


def group_lines(lines: list[tuple[str, str]]) -> list[list[tuple[str, str]]]:
    """(name, line) pairs grouped by one line (same_line), in first-seen order; linear in the number of lines.

    An empty line is a group of its own: it holds nothing that could be one with another.
    """
    groups: list[list[tuple[str, str]]] = []
    by_key: dict[str, int] = {}
    by_items: dict[LineItems, int] = {}
    for name, line in lines:
        key = line_key(line) if line else None
        items = line_items(line) if line else None
        index = by_key.get(key) if key is not None else None
        if index is None and items is not None:
            index = by_items.get(items)
        if index is None:
            index = len(groups)
            groups.append([])
        groups[index].append((name, line))
        if key is not None:
            by_key.setdefault(key, index)
        if items is not None:
            by_items.setdefault(items, index)
    return groups
