"""A warm `next`: what the last full run printed, while nothing it read has changed (#34, as status does in #25).

A session runs `next` again and again while it waits, and most runs see the
files the run before saw.  The full run keeps what it printed in
`.multidebate/cache/` (state/snapshot.py: a fingerprint of every entry of the
folder and of `.multidebate/`, an HMAC under a key only this user can read),
so a later run with the same files, slug, key, options and date prints it
without parsing, comparing or hashing a turn file.  An edited turn file has
another change time, so it is never answered from a kept output: the ledger
hashes are checked by every full run, as before.

What makes a kept output safe to print again:

- the request (slug, key, `--task`, `--sections`, `--full`, `--json`, today's
  date) enters the fingerprint through an HMAC, so another key or day misses,
  and the key is never stored: the output is kept with a mark where the key
  option goes, filled in from the command line;
- the fence around quoted text is kept as a mark too and drawn afresh on every
  run (the briefing says it is new for each `next`), never one found in the
  kept text;
- `next` writes its own reading record (`.multidebate/served/`), which `write`
  reads.  The fingerprint leaves that record out and the kept output names its
  sha256: a run prints the kept output only while the record holds those
  bytes.  The fingerprint is taken before and after the full run: when a file
  changed meanwhile (a peer wrote), nothing is kept.
- only an open debate's briefing is kept (a review's or a judge's is built in
  full every time).
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from datetime import date

from ..state.layout import served_path
from ..state.snapshot import Kept
from .fence import fence_id

__all__ = ["UnknownSections", "next_output"]

KEY_MARK = "\ue000key\ue001"  # private-use characters: never in a served text, checked before keeping
FENCE_MARK = "\ue000fence\ue001"
# the first opener of quoted text is the briefing's own (its framing comes before any quoted text)
_OPENER = r"^<<<(?:TASK|PEER|PROPOSAL)\b[^\n]*\[([0-9a-f]{8})\]$"


class UnknownSections(ValueError):
    """`--sections` names a section the format does not have (the message lists the known ones)."""


def next_output(folder: str, slug: str, key: str | None, shown_key: str, task: str | None,
                sections_spec: str | None, full: bool, as_json: bool) -> tuple[str, bool]:
    """What `next FOLDER --slug SLUG` prints (text, or JSON with `as_json`), and whether its wait timed out.

    `shown_key`: the key option as the session gave it, put in the commands printed.  Raises what `brief`
    raises, and UnknownSections for an unknown section in `sections_spec`.
    """
    request = json.dumps([slug, key, task, sections_spec, full, as_json, date.today().isoformat()])
    own = (os.path.basename(served_path(folder, slug, 0)).split(".turn-")[0] + ".turn-",)
    kind = "next-" + hashlib.sha256(slug.encode("utf-8", "surrogateescape")).hexdigest()[:16]
    kept = Kept(folder, kind, request, own)
    hit = kept.hit
    if hit is not None and _record_holds(folder, slug, hit.get("served")) and isinstance(hit.get("template"), str):
        return _fill(hit["template"], shown_key, as_json), False
    from .briefing import brief, section_names
    from .briefing_text import render_briefing

    try:
        sections = section_names(sections_spec) if sections_spec is not None else None
    except ValueError as exc:
        raise UnknownSections(str(exc)) from exc
    briefing = brief(folder, slug, task, create=True, key=key, sections=sections, full=full)._replace(key_option=KEY_MARK)
    text = (json.dumps(briefing.as_dict(), indent=2, ensure_ascii=False) if as_json
            else render_briefing(briefing, full=full))
    served = [p.text for p in briefing.peers] + [briefing.task or "", briefing.proposal or ""]
    if not briefing.role and not any(mark in t for t in served for mark in (KEY_MARK, FENCE_MARK)):
        _keep(kept, folder, slug, briefing.turn, text, as_json)
    return _fill(text, shown_key, as_json), bool(briefing.timed_out)


def _keep(kept: Kept, folder: str, slug: str, turn: int, text: str, as_json: bool) -> None:
    """Keep `text` as a template when nothing changed during the run but this session's reading record."""
    before = kept.fingerprint  # None when there was no key yet: then nothing to compare with, keep next time
    after = kept.take(create=True)
    if before is None or after != before:
        return  # a file changed while the briefing was built: what it shows may be out of date already
    template = text
    if not as_json:
        opener = re.search(_OPENER, text, re.MULTILINE)  # compiled only by a full run
        if opener is not None:
            template = text.replace(f"[{opener.group(1)}]", f"[{FENCE_MARK}]")
    kept.store({"template": template, "served": [turn, _record_digest(folder, slug, turn)]})


def _record_digest(folder: str, slug: str, turn: int) -> str:
    try:
        with open(served_path(folder, slug, turn), "rb") as handle:
            return hashlib.sha256(handle.read()).hexdigest()
    except OSError:
        return ""  # none was written (nothing served to record)


def _record_holds(folder: str, slug: str, served: object) -> bool:
    """The reading record the kept run wrote is still there, byte for byte (`write` reads it)."""
    if not (isinstance(served, list) and len(served) == 2 and isinstance(served[0], int)
            and isinstance(served[1], str)):
        return False
    return _record_digest(folder, slug, served[0]) == served[1]


def _fill(template: str, shown_key: str, as_json: bool) -> str:
    """The template with this run's key option and a fence drawn now (never one in the template's text)."""
    key = json.dumps(shown_key, ensure_ascii=False)[1:-1] if as_json else shown_key
    text = template.replace(KEY_MARK, key)
    if FENCE_MARK in text:
        text = text.replace(FENCE_MARK, fence_id([template]))
    return text
