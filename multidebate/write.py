"""Compose a session's sections into a canonical turn file and create it atomically."""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from datetime import datetime, timezone

from . import __version__
from .atomic import create_exclusive
from .debate import Debate, load_debate
from .errors import FolderError, InvalidTurn, TurnConflict
from .folder import STATE_DIR
from .naming import TurnName, turn_file_name
from .parse import ParsedTurn, parse_turn
from .profile import PROFILE_V1, PROTOCOL_VERSION
from .session import check_slug, next_turn_number
from .textfile import decode_turn_bytes

__all__ = ["WriteResult", "write_turn", "served_record_path", "compose"]

# Departures from the canonical form that `write` repairs itself (and says so).
_NORMALISED = {"W020", "W030", "W031", "W032", "W040", "W050", "W001", "W002"}
_REFUSED_WARNINGS = {
    "W033": "remove the extra section or fold it into `## Reasoning` or `## Answer` as a `###` subsection",
    "W034": "turn 1 has no `## Agreements` or `## Disagreements`; remove them",
    "W035": "write the value under its own `## <Section>` heading",
}


@dataclass(frozen=True)
class WriteResult:
    """What `write` created."""

    path: str
    turn: int
    slug: str
    confidence: int
    converged: bool
    normalised: tuple[str, ...]
    peers_read: tuple[tuple[str, str], ...]


def served_record_path(folder: str, slug: str, turn: int) -> str:
    """Where `next` records the hashes of the peer files it served for `slug`'s `turn`."""
    return os.path.join(folder, STATE_DIR, "served", f"{slug}.turn-{turn}.json")


def _peers_read(debate: Debate, slug: str, turn: int) -> tuple[tuple[str, str], ...]:
    """The peer files `next` served for this turn; else the N-1 peer files as they are now."""
    record = served_record_path(debate.folder, slug, turn)
    try:
        with open(record, encoding="utf-8") as handle:
            served = json.load(handle)
        if isinstance(served, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in served.items()):
            return tuple(sorted(served.items()))
    except (OSError, ValueError):
        pass
    return tuple(sorted((os.path.basename(e.path), e.sha256) for (t, s), e in debate.entries.items()
                        if t == turn - 1 and s != slug and e.sha256))


def _problems(parsed: ParsedTurn, debate: Debate, slug: str, turn: int) -> tuple[list[str], list[str]]:
    problems: list[str] = []
    normalised: list[str] = []
    for item in parsed.findings:
        message = item.message
        if item.code == "E020":
            continue  # write adds the title
        if item.code == "E010":
            problems.append("remove the frontmatter (the `---` block): write adds its own")
        elif item.severity == "error":
            problems.append(f"line {item.line}: {message}")
        elif item.code in _REFUSED_WARNINGS:
            problems.append(f"line {item.line}: {message}: {_REFUSED_WARNINGS[item.code]}")
        elif item.code in _NORMALISED:
            normalised.append(message)
    participants = set(debate.participants) | {slug}
    for mention in parsed.mentions:
        for named in mention.slugs:
            if named not in participants:
                known = ", ".join(sorted(participants - {slug})) or "none"
                problems.append(f"line {mention.line}: `With {named}:` names no participant of this debate "
                                f"(participants: {known})")
    return problems, normalised


def _frontmatter(slug: str, turn: int, peers: tuple[tuple[str, str], ...]) -> str:
    lines = [
        "---",
        f"protocol: {PROTOCOL_VERSION}",
        f"turn: {turn}",
        f"slug: {slug}",
        f"written_at: '{datetime.now(timezone.utc).strftime('%Y-%m-%dT%H:%M:%SZ')}'",
        f"tool: multidebate {__version__}",
    ]
    if peers:
        lines.append("peers_read:")
        for name, digest in peers:
            lines.append(f"  - file: {name}")
            lines.append(f"    sha256: {digest}")
    else:
        lines.append("peers_read: []")
    lines.append("---")
    return "\n".join(lines) + "\n"


def compose(parsed: ParsedTurn, slug: str, turn: int, peers: tuple[tuple[str, str], ...]) -> str:
    """The canonical text of a turn: frontmatter, title, the sections in order, canonical values."""
    parts = [_frontmatter(slug, turn, peers), f"# Turn {turn} \u2014 {slug}\n"]
    for name in PROFILE_V1.required(turn):
        if name == "Confidence":
            body = str(parsed.confidence)
        elif name == "Converged":
            word = "yes" if parsed.converged else "no"
            body = f"{word} \u2014 {parsed.converged_reason}" if parsed.converged_reason else word
        else:
            body = parsed.sections[name].body.strip("\n").rstrip()
        parts.append(f"\n## {name}\n\n{body}\n")
    return "".join(parts)


def write_turn(folder: str, slug: str, content: bytes) -> WriteResult:
    """Validate `content` as `slug`'s next turn and create its file; see the CLI's `write`.

    InvalidTurn lists every problem at once; TurnConflict when the file exists.
    """
    debate = load_debate(folder)
    check_slug(debate, slug)
    turn = next_turn_number(debate, slug)
    decoded = decode_turn_bytes(content, "<input>")
    if decoded.text is None:
        raise InvalidTurn("nothing written: the input is not turn text", [f.message for f in decoded.findings])
    name = TurnName(turn, slug)
    parsed = parse_turn(decoded.text, "<input>", name)
    problems, normalised = _problems(parsed, debate, slug, turn)
    if parsed.metadata:
        problems.insert(0, "remove the frontmatter (the `---` block): write adds its own")
    if problems:
        expected = ", ".join(f"## {s}" for s in PROFILE_V1.required(turn))
        raise InvalidTurn(
            f"nothing written: turn {turn} of `{slug}` needs the sections {expected}, in this order",
            problems,
        )
    assert parsed.confidence is not None and parsed.converged is not None
    peers = _peers_read(debate, slug, turn)
    text = compose(parsed, slug, turn, peers)
    path = os.path.join(folder, turn_file_name(turn, slug))
    try:
        created = create_exclusive(path, text.encode("utf-8"))
    except OSError as exc:
        raise FolderError(f"cannot write {path}: {exc.strerror or exc}; nothing was written") from exc
    if not created:
        raise TurnConflict(
            f"{path} exists already: another session wrote turn {turn} as `{slug}`. Nothing was written. "
            "If that was not you, pick another slug; if it was, run `multidebate next` again."
        )
    return WriteResult(path, turn, slug, parsed.confidence, parsed.converged, tuple(normalised), peers)


def sha256_of(path: str) -> str:
    """The sha256 of a file's bytes ("" when it cannot be read)."""
    try:
        with open(path, "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return ""
