"""Read a review turn's `## Findings` (a critic's) and `## Responses` (the defender's) into items.

Lenient reader: an item opens at a `### F1 — title` heading (any level 3-6),
a bold `**F1 — title**` line or a top-level `- F1 — title` list item; its
fields are the `key: value` lines under it (`- severity: 9`,
`**Severity:** 9`), a value running on over the lines that follow it.
What the reader forgives it does not report; what it cannot read, and what a
strict writer refuses, become findings with codes (findings.py):

E101 a new finding without one of its fields, E102 a severity that is no
integer 0-10, E103 a class that does not match its severity, E106 a move
without what it needs (a fix, a test, a reason), E107 a re-raise without new
evidence or a rescore without a new severity, E108 an unknown move or
answer, E109 one id twice in a file.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from .findings import Finding, finding
from .oneline import one_line

__all__ = ["FindingItem", "ResponseItem", "ItemText", "CLASSES", "MOVES", "ANSWERS", "class_for", "read_findings",
           "read_responses", "none_written", "split_items", "item_head", "HEAD_CHARS"]

# Severity 0-10 and the class each band belongs to (FATAL 8-10: the ml-lab protocol's F2 was severity 8, FATAL).
CLASSES = {"FATAL": (8, 10), "MATERIAL": (4, 7), "MINOR": (2, 3), "NIT": (0, 1)}
# PARTIAL (the ml-lab protocol's): the defender concedes a part (its `fix`) and disputes the rest (its
# `reason`); unlike the others it settles nothing, and the finding stays open (#27)
MOVES = ("CONCEDE", "PARTIAL", "DEFER", "REBUT-DESIGN", "REBUT-SCOPE")
# How a critic answers the defender's response to one of its findings.
ANSWERS = ("accept", "withdraw", "re-raise", "rescore")
_NEEDS = {"CONCEDE": ("fix",), "PARTIAL": ("fix", "reason"), "DEFER": ("test",), "REBUT-DESIGN": ("reason",),
          "REBUT-SCOPE": ("reason",)}
_FIELDS = {
    "severity": "severity", "sev": "severity", "class": "class", "claim": "claim", "evidence": "evidence",
    "failure mode": "failure mode", "failure": "failure mode", "risk": "failure mode",
    "operational risk": "failure mode", "answer": "answer", "new evidence": "new evidence", "move": "move",
    "fix": "fix", "test": "test", "reason": "reason", "why": "reason", "title": "title", "critic": "critic",
}
_ID = re.compile(r"(?:(?P<critic>[a-z0-9]+(?:-[a-z0-9]+)*)[ \t]*[/:][ \t]*)?(?P<id>F[0-9]{1,3})\b"
                 r"(?:[ \t]*\((?P<critic3>[a-z0-9]+(?:-[a-z0-9]+)*)\))?")
# An opener's marker: a heading's hashes, a list bullet or a number, then its spaces.  The opener is read
# piece by piece (this, the emphasis, the id, then plain string operations) rather than by one pattern:
# adjacent optional runs of spaces in one pattern backtrack cubically on a long line of spaces.
_MARKER = re.compile(r"(?:(?P<heading>#{3,6})|[-*+]|[0-9]{1,3}[.)])[ \t]+")
_SEPARATORS = "\u2014\u2013:|"
# Each run of spaces is matched once: `[ \t]*(?:(?:\*\*|__)[ \t]*)?:` where two optional runs could share
# the same spaces (`[ \t]*(?:\*\*|__)?[ \t]*:`) would cost quadratic time on a long one.
_FIELD = re.compile(r"[ \t]*(?:[-*+][ \t]+(?![ \t]))?(?:\*\*|__)?(?P<key>[A-Za-z][A-Za-z _-]{0,20}?)"
                    r"[ \t]*(?:(?:\*\*|__)[ \t]*)?:(?P<value>.*)")
_NONE = re.compile(r"^\W*(none|no findings|no new findings|nothing|no responses|no open findings|n/?a)\W*$",
                   re.IGNORECASE)


class FindingItem(NamedTuple):
    """One item of a critic's `## Findings`: a new finding, or an answer to a response to an old one."""

    id: str
    line: int
    title: str
    severity: int | None
    klass: str | None
    claim: str
    evidence: str
    failure_mode: str
    answer: str | None  # None: a new finding (or one restated); else one of ANSWERS
    new_evidence: str


class ResponseItem(NamedTuple):
    """One item of the defender's `## Responses`: its move on one finding."""

    critic: str | None  # the critic whose finding it answers, when the id is qualified (`gpt-5-5/F1`)
    id: str
    line: int
    move: str | None
    severity: int | None
    fix: str
    test: str
    reason: str


def class_for(severity: int) -> str:
    """The class a severity belongs to."""
    return next(name for name, (low, high) in CLASSES.items() if low <= severity <= high)


class _Block(NamedTuple):
    critic: str | None
    id: str
    line: int
    rest: str
    fields: dict[str, str]


def none_written(body: str) -> bool:
    """A section that says there is nothing (`None.`, `- no new findings`)."""
    lines = [ln.strip() for ln in body.strip().splitlines() if ln.strip()]
    return len(lines) == 1 and _NONE.match(lines[0].lstrip("-*+ ")) is not None


class _Opener(NamedTuple):
    heading: bool
    critic: str | None
    id: str
    sep: str
    rest: str


def _strip_emphasis_mark(text: str) -> str:
    return text[2:] if text.startswith(("**", "__")) else text


def _opener(raw: str) -> _Opener | None:
    """The item a line opens (`### F1 — title`, `- **gpt-5-5/F2**: title`), or None.  Linear in the line."""
    marker = _MARKER.match(raw)
    text = _strip_emphasis_mark(raw[marker.end():] if marker else raw).lstrip(" \t")
    ident = _ID.match(text)
    if ident is None:
        return None
    tail = _strip_emphasis_mark(text[ident.end():]).lstrip(" \t")
    sep = ""
    if tail[:1] and tail[0] in _SEPARATORS:
        sep, tail = tail[0], tail[1:]
    else:
        dashes = len(tail) - len(tail.lstrip("-"))
        if dashes in (1, 2) and tail[dashes:dashes + 1].isspace():
            sep, tail = tail[:dashes], tail[dashes:]
    rest = tail.strip(" \t")
    if rest.endswith(("**", "__")):
        rest = rest[:-2].rstrip(" \t")
    critic = ident.group("critic") or ident.group("critic3")
    return _Opener(bool(marker and marker.group("heading")), critic, ident.group("id"), sep, rest)


def _blocks(body: str, first_line: int) -> list[_Block]:
    blocks: list[_Block] = []
    key = ""
    in_fence = False
    for offset, raw in enumerate(body.split("\n")):
        if raw.lstrip().startswith(("```", "~~~")):
            in_fence = not in_fence
        opener = None if in_fence or raw.startswith((" ", "\t")) and not raw.lstrip().startswith("#") \
            else _opener(raw)
        if opener is not None and not (opener.heading or opener.sep or not opener.rest):
            opener = None
        if opener is not None:
            blocks.append(_Block(opener.critic.lower() if opener.critic else None, opener.id.upper(),
                                 first_line + offset, opener.rest.strip(" *_"), {}))
            key = ""
            continue
        if not blocks or not raw.strip():
            continue
        if raw.startswith("#"):
            key = ""  # a heading is no value's continuation
            continue
        field = _FIELD.match(raw)
        name = _FIELDS.get(" ".join(field.group("key").lower().replace("_", " ").replace("-", " ").split())) \
            if field else None
        fields = blocks[-1].fields
        if field is not None and name is not None:
            key = name
            value = _strip_emphasis_mark(field.group("value").lstrip(" \t")).strip().strip("*_").strip()
            fields[key] = f"{fields[key]}\n{value}".strip() if key in fields else value
        elif key:
            fields[key] = f"{fields[key]}\n{raw.strip()}".strip()
    return blocks


def _severity(text: str, path: str, line: int, found: list[Finding], fid: str) -> int | None:
    if not text:
        return None
    match = re.fullmatch(r"(?:sev(?:erity)?\s*)?(-?[0-9]+)(?:\s*/\s*10)?\b.*", text.strip(), re.IGNORECASE)
    value = int(match.group(1)) if match else None
    if value is None or not 0 <= value <= 10:
        found.append(finding(path, line, "E102", f"{fid}: severity `{text[:40]}` is not an integer 0-10"))
        return None
    return value


def _class(text: str, severity: int | None, path: str, line: int, found: list[Finding], fid: str) -> str | None:
    if not text:
        return None
    word = re.sub(r"[^A-Za-z]", "", text.split()[0]).upper() if text.split() else ""
    if word not in CLASSES:
        found.append(finding(path, line, "E103", f"{fid}: class `{text[:40]}` is none of "
                             f"{', '.join(CLASSES)}"))
        return None
    if severity is not None and class_for(severity) != word:
        low, high = CLASSES[word]
        found.append(finding(path, line, "E103", f"{fid}: class {word} is severity {low}-{high}, but the severity "
                             f"is {severity} ({class_for(severity)})"))
    return word


def _move(text: str) -> str | None:
    """`CONCEDE`, `Rebut design`, `REBUT_SCOPE — out of scope` -> the move; None when it names none."""
    words = re.findall(r"[A-Z]+", text.upper())[:2]
    if len(words) == 2 and words[0] == "REBUT" and words[1] in ("DESIGN", "SCOPE"):
        return f"REBUT-{words[1]}"
    if words and words[0] == "PARTIALLY":  # `Partially concede`
        return "PARTIAL"
    return words[0] if words and words[0] in ("CONCEDE", "PARTIAL", "DEFER") else None


def read_findings(body: str, first_line: int, path: str) -> tuple[list[FindingItem], list[Finding]]:
    """A critic's `## Findings` section: its items, and what is wrong with them."""
    found: list[Finding] = []
    items: list[FindingItem] = []
    seen: set[str] = set()
    for block in _blocks(body, first_line):
        f = block.fields
        fid = block.id
        if fid in seen:
            found.append(finding(path, block.line, "E109", f"{fid} appears twice in this file; one item per finding"))
            continue
        seen.add(fid)
        answer_text = f.get("answer", "").strip().lower()
        answer = None
        if answer_text:
            answer = next((a for a in ANSWERS if answer_text.replace(" ", "-").startswith(a)), None)
            if answer is None:
                found.append(finding(path, block.line, "E108", f"{fid}: answer `{answer_text[:40]}` is none of "
                                     f"{', '.join(ANSWERS)}"))
        severity = _severity(f.get("severity", ""), path, block.line, found, fid)
        klass = _class(f.get("class", ""), severity, path, block.line, found, fid)
        if answer is None and not answer_text:
            missing = [k for k in ("severity", "class", "claim", "evidence", "failure mode") if not f.get(k)]
            if missing:
                found.append(finding(path, block.line, "E101", f"{fid}: a finding needs {', '.join(missing)} "
                                     "(to answer an old finding instead, give `answer:`)"))
        if answer == "re-raise" and not f.get("new evidence"):
            found.append(finding(path, block.line, "E107", f"{fid}: a re-raise needs `new evidence:` (what the "
                                 "defender's response did not weigh)"))
        if answer == "rescore" and severity is None:
            found.append(finding(path, block.line, "E107", f"{fid}: a rescore needs `severity:` (the new one)"))
        items.append(FindingItem(fid, block.line, f.get("title", block.rest), severity, klass, f.get("claim", ""),
                                 f.get("evidence", ""), f.get("failure mode", ""), answer,
                                 f.get("new evidence", "")))
    return items, found


def read_responses(body: str, first_line: int, path: str) -> tuple[list[ResponseItem], list[Finding]]:
    """The defender's `## Responses` section: its items, and what is wrong with them."""
    found: list[Finding] = []
    items: list[ResponseItem] = []
    seen: set[tuple[str | None, str]] = set()
    for block in _blocks(body, first_line):
        f = block.fields
        shown = f"{block.critic}/{block.id}" if block.critic else block.id
        key = (block.critic, block.id)
        if key in seen:
            found.append(finding(path, block.line, "E109", f"{shown} is answered twice in this file; one response "
                                 "per finding"))
            continue
        seen.add(key)
        stated = f.get("move") or block.rest
        move = _move(stated) if stated else None
        if move is None:
            found.append(finding(path, block.line, "E108", f"{shown}: move `{stated[:40]}` is none of "
                                 f"{', '.join(MOVES)}"))
        severity = _severity(f.get("severity", ""), path, block.line, found, shown)
        if not f.get("severity"):
            found.append(finding(path, block.line, "E101", f"{shown}: a response needs `severity:` (the adjusted "
                                 "severity, 0-10)"))
        for need in _NEEDS[move] if move is not None else ():
            if not f.get(need):
                what = {"fix": "the fix you commit to" if move != "PARTIAL" else "the part you concede and fix",
                        "test": "the concrete test that settles it, with its pass condition",
                        "reason": "why the finding is wrong or out of scope" if move != "PARTIAL"
                        else "the part you dispute, and why"}[need]
                found.append(finding(path, block.line, "E106", f"{shown}: {move} needs `{need}:` ({what})"))
        items.append(ResponseItem(block.critic, block.id, block.line, move, severity, f.get("fix", ""),
                                  f.get("test", ""), f.get("reason", "")))
    return items, found


class ItemText(NamedTuple):
    """One item of a Findings or Responses section as written: whose finding it names, and its lines."""

    critic: str | None
    id: str
    lines: tuple[str, ...]


def split_items(body: str) -> tuple[tuple[str, ...], tuple[ItemText, ...]]:
    """A Findings or Responses section cut into the lines before its first item and each item's own lines
    (for `next`, which serves the items a session needs first and names those it leaves out).  Items open
    where the reader opens them."""
    lines = body.split("\n")
    starts = [(b.line, b.critic, b.id) for b in _blocks(body, 0)]
    items = [ItemText(critic, fid, tuple(lines[start:end]))
             for (start, critic, fid), end in zip(starts, [s for s, _c, _i in starts[1:]] + [len(lines)])]
    return tuple(lines[:starts[0][0]] if starts else lines), tuple(items)


# An item's head line, at most this long: 80 of them stay well within what `next` shows (bounded.py)
HEAD_CHARS = 160
# What a head names, in this order: a finding's (or an answer's) and a response's fields
_HEAD_FIELDS = ("answer", "severity", "class", "claim", "new evidence", "fix", "test", "reason")


def item_head(item: ItemText, limit: int = HEAD_CHARS) -> str:
    """An item on one line of at most `limit` characters: its opening line as written (id, title or move),
    then the first line of each field that says what it is (severity, class, claim; a response's fix, test
    or reason), each cut where it runs out of room.  What `next` shows of an item it cannot show whole."""
    opener = one_line(item.lines[0].strip() if item.lines else item.id, limit // 2)
    found = _blocks("\n".join(item.lines), 0)
    fields = found[0].fields if found else {}
    parts = [f"{name}: {fields[name].split(chr(10))[0].strip()}" for name in _HEAD_FIELDS if fields.get(name)]
    return one_line(f"{opener} | {' | '.join(parts)}" if parts else opener, limit)
