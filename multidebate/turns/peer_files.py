"""What of each peer file `next` serves: read once and hashed, cut to a bound where it says so, and served
less where reading.py's rules allow (settled items, unchanged agreement).

Split from briefing.py (#38): the briefing plans what a session is told; this module decides how much of
each quoted file it gets, within the bounds below.
"""

from __future__ import annotations

import os

from ..protocol.findings import Finding
from ..protocol.front_matter import strip_frontmatter
from ..protocol.naming import TurnName
from ..protocol.profile import PROFILE_V1
from ..protocol.textfile import read_text
from ..state.debate import Debate, Entry
from .bounded import Block, choose
from .briefing_value import PeerFile

__all__ = ["CUT_MARK", "LARGE_BRIEFING", "MAX_SERVED_CHARS", "MIN_SAVED", "REASONING_CHUNK", "bodies_of",
           "canonical_bodies", "cut", "file_bodies", "reasoning_limits", "serve", "served_less"]


# A peer file can be up to 1 MiB; a model's context is paid for.  Serve at most this
# much of each peer file, and say so when a file was cut.
MAX_SERVED_CHARS = 24_000


def serve(debate: Debate, entry: Entry, sections: tuple[str, ...] | None,
           limit: int | None = MAX_SERVED_CHARS) -> PeerFile:
    """A peer file as served: read once (no symlink followed, size-bounded), and exactly those bytes hashed,
    parsed and quoted, so a file swapped in between cannot be served under another file's hash.

    `limit` None: whole, for a review, whose briefing cuts item by item (review_briefing.py); the cut here
    knows only an open debate's sections, and served a critic's turn as its Reasoning alone (issue 33)."""
    import hashlib

    read = read_text(entry.path, shown_as=os.path.basename(entry.path))
    digest = hashlib.sha256(read.raw).hexdigest() if read.text is not None else ""
    file = os.path.basename(entry.path)
    if read.text is None:
        return PeerFile(entry.slug, entry.turn, file, digest, "", False)
    text = strip_frontmatter(read.text).strip()
    if digest == entry.sha256 and not sections and (limit is None or len(text) <= limit):
        # the bytes the cache describes: its validity holds, and no parse is needed (a warm `next` parses nothing)
        return PeerFile(entry.slug, entry.turn, file, digest, text, entry.valid)
    bodies, valid = file_bodies(debate, entry, read.text, read.findings, digest)
    chosen = [name for name in (sections or PROFILE_V1.sections) if name in bodies]
    if sections:
        text = "\n\n".join(f"## {name}\n{bodies[name].strip()}" for name in chosen)
    if limit is None or len(text) <= limit:
        return PeerFile(entry.slug, entry.turn, file, digest, text, valid)
    return PeerFile(entry.slug, entry.turn, file, digest, cut(bodies, chosen, text, limit), valid, len(text))


def file_bodies(debate: Debate, entry: Entry, raw_text: str, read_findings: tuple[Finding, ...],
                 digest: str) -> tuple[dict[str, str], bool]:
    """A peer file's sections by name, and whether it is valid, from the text just read (`digest` its bytes')."""
    text = strip_frontmatter(raw_text).strip()
    bodies = canonical_bodies(text, entry.turn) if digest == entry.sha256 and entry.valid else None
    if bodies is not None:
        # a file `write` made, as the cache knows it: its sections without the markdown parser (a warm `next`
        # that cuts long Reasonings imports neither mistune nor PyYAML)
        return bodies, True
    from ..protocol.parse import parse_turn

    known = debate.parsed(entry) if digest == entry.sha256 else None
    parsed = known if known is not None else parse_turn(raw_text, os.path.basename(entry.path),
                                                        TurnName(entry.turn, entry.slug))
    valid = not any(f.severity == "error" for f in (*read_findings, *parsed.findings))
    return {name: section.body for name, section in parsed.sections.items()}, valid


def canonical_bodies(text: str, turn: int) -> dict[str, str] | None:
    """The section bodies of a turn as `write` composes it: exactly the turn's required `## Name` lines, in
    order; None for any other text, which the parser reads instead (a `## ` line in a code block makes one
    heading-like line too many, and so None)."""
    lines = text.split("\n")
    heads = [i for i, line in enumerate(lines) if line.startswith("## ")]
    names = [lines[i][3:].rstrip() for i in heads]
    if names != list(PROFILE_V1.required(turn)):
        return None
    ends = heads[1:] + [len(lines)]
    return {name: "\n".join(lines[start + 1:end]) for name, start, end in zip(names, heads, ends)}


def cut(bodies: dict[str, str], chosen: list[str], text: str, limit: int = MAX_SERVED_CHARS) -> str:
    """A long peer file within `limit`: Reasoning is cut first, so the Answer, Agreements, Disagreements,
    Confidence and Converged are always served whole when they fit within MAX_SERVED_CHARS at all."""
    kept = {name: bodies[name].strip() for name in chosen}
    if not kept:
        return text[:MAX_SERVED_CHARS]
    others = sum(len(body) + len(name) + 6 for name, body in kept.items() if name != "Reasoning")
    room = limit - others - 80
    if "Reasoning" in kept:
        reasoning = kept["Reasoning"]
        if len(reasoning) > room:
            shown = _at_word(reasoning, max(room, 0))
            kept["Reasoning"] = (f"{reasoning[:shown]}\n[Reasoning cut by multidebate: {shown:,} of "
                                 f"{len(reasoning):,} characters shown]")
    served = "\n\n".join(f"## {name}\n{body}" for name, body in kept.items())
    for name in ("Agreements", "Disagreements", "Answer"):
        # a hand-written file can hold more than fits even so: cut the other sections too, each where it says
        # so, never silently (and never blaming the Reasoning for an Answer cut)
        excess = len(served) - MAX_SERVED_CHARS
        if excess <= 0:
            break
        if name in kept:
            body = kept[name]
            shown = _at_word(body, max(len(body) - excess - 120, 0))
            kept[name] = (body[:shown] + f"\n[{name} cut by multidebate: {shown:,} of {len(body):,} characters "
                          "shown]")
            served = "\n\n".join(f"## {n}\n{b}" for n, b in kept.items())
    return served[:MAX_SERVED_CHARS]


def _at_word(text: str, room: int) -> int:
    """Where to cut `text` to at most `room` characters: after the last space or line end within its last 100
    characters, so no word is cut in two (d81: sessions read "...and U+0663 is N" and guessed the rest)."""
    if room >= len(text):
        return len(text)
    start = max(room - 100, 0)
    space = max(text.rfind(" ", start, room + 1), text.rfind("\n", start, room + 1))
    return space if space > 0 else room


# a peer file is served in part only when that saves this much: the note saying so costs some 250 characters
MIN_SAVED = 600


# peer files longer than this in all (characters) are more than many assistants' shells show of one command's
# output: `next` then cuts each peer's Reasoning to its share (unless --sections chose what to serve)
LARGE_BRIEFING = 20_000


# how that room is shared out: Reasonings are cut at a multiple of this many characters
REASONING_CHUNK = 400


# what cutting a Reasoning adds to a file: the marker saying so, and room `cut` keeps
CUT_MARK = 160


def reasoning_limits(debate: Debate, entries: list[Entry], peers: list[PeerFile]) -> list[int | None]:
    """Peer files longer in all than a shell shows: how much of each to serve (None: as served now), the room
    shared out by `bounded.choose`, the rule a review's briefing fits by.  Every section but the Reasoning is
    rank 0 (whole); each Reasoning is chunks of REASONING_CHUNK characters, its k-th chunk of rank k, so every
    Reasoning gets as much room as the others before any gets more, and one that needs less leaves its room to
    the rest.  A file served in part already, or without sections, is kept as it is."""
    import hashlib

    blocks: list[Block] = []
    owners: list[int] = []  # the peer each block belongs to
    reasonings: dict[int, tuple[int, int]] = {}  # peer index -> (its other sections' size, its Reasoning's)
    for index, (entry, peer) in enumerate(zip(entries, peers)):
        read = read_text(entry.path, shown_as=os.path.basename(entry.path)) if not peer.left_out else None
        if read is None or read.text is None:
            blocks.append(Block((peer.text,)))
            owners.append(index)
            continue
        bodies, _valid = file_bodies(debate, entry, read.text, read.findings, hashlib.sha256(read.raw).hexdigest())
        kept = {name: bodies[name].strip() for name in PROFILE_V1.sections if name in bodies}
        if "Reasoning" not in kept:
            blocks.append(Block((peer.text,)))
            owners.append(index)
            continue
        reasoning = kept.pop("Reasoning")
        # as `cut` counts them: each other section's heading and separators
        others = sum(len(body) + len(name) + 6 for name, body in kept.items())
        reasonings[index] = (others, len(reasoning))
        chunks = [Block((reasoning[start:start + REASONING_CHUNK],), rank=rank, group=f"reasoning {index}")
                  for rank, start in enumerate(range(0, len(reasoning), REASONING_CHUNK), start=1)]
        blocks += [Block(tuple(kept.values())), *chunks]
        owners += [index] * (1 + len(chunks))
    # what `cut` adds to a cut Reasoning: its marker line and its heading
    chosen = choose(blocks, LARGE_BRIEFING, reserve_chars=CUT_MARK * len(reasonings), named=False)
    shown = {index: 0 for index in reasonings}
    for i in chosen.kept:
        if blocks[i].rank:
            shown[owners[i]] += len(blocks[i].lines[0])
    # `cut` keeps `limit - others - 80` characters of the Reasoning, and no file is served past its own bound
    return [None if index not in reasonings or shown[index] >= reasonings[index][1]
            else min(reasonings[index][0] + 80 + shown[index], MAX_SERVED_CHARS) for index in range(len(peers))]


def served_less(debate: Debate, slug: str, turn: int, entries: list[Entry], peers: list[PeerFile],
                 own_line: str, proposed: str) -> tuple[list[PeerFile], tuple[tuple[str, str], ...]]:
    """The peer files as reading.py's rules serve them (settled items, unchanged agreement), and the settled
    items; a file that cannot be read as sections, or already cut for size, is served as it is."""
    from .reading import (
        accepted_answers,
        contested_keys,
        cut_to_items,
        holds_still,
        key_label,
        settled_items,
        short_form,
    )

    settled = settled_items(debate, turn)
    keys = contested_keys(debate, turn, settled) if settled else ()
    accepted = accepted_answers(debate, slug, turn, (own_line, proposed))
    out: list[PeerFile] = []
    for entry, peer in zip(entries, peers):
        short = turn >= 3 and entry.slug not in accepted and holds_still(debate, entry, own_line)
        bodies = bodies_of(debate, entry, peer) if (short or settled) and not peer.cut_from else None
        if bodies is None:
            out.append(peer)
            continue
        if short:
            text: str | None = short_form(debate, entry, slug, bodies)
            why = (f"{entry.slug} holds your line, as at its turn {entry.turn - 1}: its line, Confidence, Converged "
                   "and what it says to you are served")
        else:
            text = cut_to_items(bodies, keys, entry.slug in accepted, tuple(key for key, _value in settled))
            labels = ", ".join(key_label(k) for k in keys) or "none"
            why = (f"settled items left out: its Reasoning{'' if entry.slug in accepted else ' and Answer'} cut to "
                   f"the contested items ({labels})")
        title = peer.text.split("\n", 1)[0] if peer.text.startswith("# Turn ") else ""
        served = f"{title}\n\n{text}" if title and text else text
        if served is None or len(peer.text) - len(served) < MIN_SAVED:
            out.append(peer)
            continue
        out.append(peer._replace(text=served, left_out=f"{why}; {len(served):,} of {len(peer.text):,} characters"))
    return out, settled


def bodies_of(debate: Debate, entry: Entry, peer: PeerFile) -> dict[str, str] | None:
    """A served peer file's sections by name (the parser only for a file `write` did not compose)."""
    if not peer.valid:
        return None
    bodies = canonical_bodies(peer.text, entry.turn)
    if bodies is None and peer.sha256 == entry.sha256:
        parsed = debate.parsed(entry)
        bodies = {name: section.body for name, section in parsed.sections.items()} if parsed is not None else None
    return bodies
